// `glance check-image SOURCE [--model NAME] [--provider ollama|openai] [--base-url URL] [--vision yes|no] [--json] [--out FILE]`
// (architecture §10): runs a source through the image chokepoint and says what a model would receive,
// what its encoder processes and what it costs, or why it is refused. Stores nothing (--out
// writes the exact payload). With --model the capability gate and that model's image rule apply.
import { writeFile } from 'node:fs/promises';
import { formatImageSize, formatTokens, type ImageRefusal } from '../../common/images.ts';
import { hiddenPhrase } from '../../common/privacy.ts';
import { profileFor, targetFor } from '../images/profiles.ts';
import type { AdmitTarget } from '../images/types.ts';
import { ProviderError } from '../models/provider.ts';
import { cliContext } from './cliContext.ts';
import { bareRedact, EXIT, type CommandIO, MODEL_OPTIONS, parseRedact, UsageError, parseCommandArgs } from './io.ts';
import { errorMessage } from '../errors.ts';

const HELP = `Usage: glance check-image SOURCE [--model NAME] [--provider ollama|openai] [--base-url URL] [--vision yes|no] [--redact [always|remote|never]] [--json] [--out FILE]

Checks an image the way Glance does before sending it to a model: reads it, checks what it
really is, decodes it safely, fits it to the model's image rule (or the provider's default
profile) and reports the result: the size sent, the size the model's encoder processes, its
token estimate, and whether small screen text stays legible. Nothing is sent or stored.

  SOURCE          an absolute path, a file://, data: or http(s) URL
  --model NAME    also check that this model can see images
  --provider      ollama (default) or openai (any OpenAI-compatible server)
  --base-url      server URL; Ollama default: $OLLAMA_HOST or http://127.0.0.1:11434
  --api-key-env   name of the environment variable holding the API key (openai)
  --vision yes|no declare whether the model can see (overrides detection; no server needed)
  --redact [POLICY]  hide secrets found on this device (OCR) as a send would: always (the
                  default of a bare --redact), remote (when the model's server is not this
                  machine), never. Without it: the settings' policy for a named model
  --json          print one JSON object (with --redact: "redactions", in the original's pixels)
  --out FILE      write the exact payload bytes that would be sent to FILE

Exit status: 0 accepted, 3 refused, 4 the model server failed, 2 usage.
`;

function printRefusal(io: CommandIO, json: boolean, refusal: { code: string; message: string }): void {
  if (json) io.out(JSON.stringify({ ok: false, code: refusal.code, message: refusal.message }) + '\n');
  else io.err(`Refused (${refusal.code}): ${refusal.message}\n`);
}

export const checkImageCommand = {
  summary: 'Check an image the way Glance would send it to a model',
  async run(argv: string[], io: CommandIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(bareRedact(argv), { ...MODEL_OPTIONS, out: { type: 'string' }, redact: { type: 'string' } });
    const redact = parseRedact(values.redact);
    if (values.help) {
      io.out(HELP);
      return EXIT.ok;
    }
    const [source, ...extra] = positionals;
    if (source === undefined) throw new UsageError('SOURCE is required: an absolute path, or a file://, data: or http(s) URL');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const model = values.model;
    const json = values.json;
    // No MCP, no store: check-image only reads.
    const { flags, services } = await cliContext(io, values, { noMcp: true });
    // The door's OCR workers (redaction, legibility) hold the process open until closed.
    try {
      const kind = flags.kind;

      // The door's dry run: its gate (nothing is read for a model that cannot see), then everything
      // up to the store, with the services' own intake (allowed roots, loopback rule) — nothing stored.
      let target: AdmitTarget = { profile: profileFor(kind) };
      if (model !== undefined || flags.vision !== undefined) {
        if (model === undefined) {
          // No model named, so no server whose place decides "remote": only --redact (or "always") redacts.
          target = { ...targetFor(kind, '', undefined, flags.vision), remote: false };
        } else {
          try {
            target = (await services.models.choiceFor({ provider: kind, name: model }, { ...(flags.vision ? { vision: flags.vision } : {}), visionOnly: true })).target;
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            printRefusal(io, json, { code: error.code, message: error.message });
            return EXIT.modelFailed;
          }
        }
      }
      if (redact) target = { ...target, redact };
      const profile = target.profile;
      // A user's source: not confined to allowed roots; a bare relative path is refused with a hint.
      const result = await services.intake.admit({ source, origin: 'cli', requestedBy: 'user' }, target, 'check');
      if (!result.ok) {
        printRefusal(io, json, result satisfies ImageRefusal);
        return EXIT.imageRefused;
      }
      const { image } = result;
      if (values.out !== undefined) {
        try {
          await writeFile(values.out, image.data);
        } catch (error) {
          io.err(`glance check-image: could not write --out ${values.out}: ${errorMessage(error)}\n`);
          return EXIT.failure;
        }
      }
      const rule = profile.rule;
      if (json) {
        io.out(
          JSON.stringify({
            ok: true,
            mime: image.mime,
            width: image.width,
            height: image.height,
            bytes: image.bytes,
            sha256: image.sha256,
            modelInput: image.modelInput,
            tokens: image.tokens,
            source: { mime: image.source.mime, width: image.source.width, height: image.source.height, bytes: image.source.bytes },
            legibility: image.legibility,
            rule: rule ? { family: rule.family, from: rule.source, notes: rule.notes } : null,
            ...(redact || image.redactions ? { redactions: image.redactions ?? [] } : {}),
            ...(image.patternsSkipped?.length ? { patternsSkipped: image.patternsSkipped } : {}),
          }) + '\n',
        );
      } else {
        const forWhom = model ? ` for ${model}` : ` for ${kind}`;
        const seen = image.modelInput ? `; the model's encoder sees ${image.modelInput.width}×${image.modelInput.height}` : '';
        const cost = image.tokens !== null ? `, ${formatTokens(image.tokens)}` : '';
        io.out(
          `OK${forWhom}: ${image.mime} ${formatImageSize(image)} (from ${image.source.mime} ${formatImageSize(image.source)})${seen}${cost}, sha256 ${image.sha256.slice(0, 16)}…\n`,
        );
        if (image.redactions?.length) io.out(`${hiddenPhrase(image.redactions)}: ${image.redactions.map((r) => `${r.kind} at ${r.x},${r.y} ${r.width}×${r.height}`).join('; ')}\n`);
        else if (redact && redact !== 'never') io.out('No secrets found to hide.\n');
        if (image.patternsSkipped?.length) io.out(`Not applied (ran out of the image's time budget): your pattern${image.patternsSkipped.length === 1 ? '' : 's'} ${image.patternsSkipped.map((p) => JSON.stringify(p)).join(', ')}.\n`);
        if (image.legibility.smallText) {
          io.out(`Small screen text will be about ${image.legibility.textPx} px as the model sees it: likely unreadable. Crop to the part that matters.\n`);
        }
        for (const note of rule?.notes ?? []) io.err(`note: ${note}\n`);
      }
      return EXIT.ok;
    } finally {
      await services.close();
    }
  },
};
