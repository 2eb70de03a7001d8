import { screenshotName } from '../../common/fileNames.ts';
import { isAbsolute, resolve } from 'node:path';
import type { ChatEvent } from '../../common/events.ts';
import { formatImageSize, formatTokens } from '../../common/images.ts';
import type { ProviderKind } from '../../common/models.ts';
import { hiddenPhrase } from '../../common/privacy.ts';
import { NodeScreenshotsCapturer } from '../capture/nodeScreenshotsCapturer.ts';
import type { TurnAttachment } from '../chat/chatEngine.ts';
import type { Services } from '../core/composeServices.ts';
import { formatConfigError, loadMcpConfig } from '../mcp/config.ts';
import { ProviderError } from '../models/provider.ts';
import { boundText } from '../scrubSecrets.ts';
import { cliApprover, parseAllowTools } from './cliApprover.ts';
import { cliContext } from './cliContext.ts';
import { EXIT, MODEL_OPTIONS, parseCommandArgs, parseRedact, UsageError, type CommandIO } from './io.ts';
import { doorWindows } from '../capture/screenCapturer.ts';
const HELP = `Usage: glance ask PROMPT [--attach SOURCE]... [--screenshot] [--model NAME]
           [--provider ollama|openai] [--base-url URL] [--api-key-env VAR] [--vision yes|no]
           [--vision-helper NAME] [--mcp-config FILE] [--data-dir DIR] [--conversation ID]
           [--max-image-deliveries N] [--allow-tools NAME[,NAME…]] [--yes] [--redact always|remote|never] [--json]

Asks a model, streaming its answer. SOURCE is an absolute path, file://, data: or http(s) URL.
--screenshot attaches a capture of the display under the mouse pointer.
--json prints the event stream, one JSON object per line.
--redact hides secrets (keys, card numbers, passwords…) found on this device before an image or
its text reaches the model: remote (the settings' default: when the model is not on this
machine), always, never. What was hidden is printed (image_redacted).
Tools that can change things (and screenshot_desktop with a model off this machine) need
consent: a prompt at a terminal, else --allow-tools (globs, e.g. "files__*") or --yes;
otherwise they are not run and the model is told.
Exit codes: 0 done, 2 usage, 3 an image was refused (nothing sent), 4 the model or provider
failed (or the conversation stayed busy with another turn), 5 storage: the data folder cannot
be written (read-only, full, a file in the way) or a stored conversation is damaged (the
answer is printed first), 130/143 stopped by SIGINT/SIGTERM.`;

export const askCommand = {
  summary: 'Ask a model, with images attached or captured',
  async run(argv: string[], io: CommandIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      ...MODEL_OPTIONS,
      attach: { type: 'string', multiple: true, default: [] },
      screenshot: { type: 'boolean', default: false },
      'vision-helper': { type: 'string' },
      'mcp-config': { type: 'string' },
      'data-dir': { type: 'string' },
      conversation: { type: 'string' },
      'max-image-deliveries': { type: 'string' },
      'allow-tools': { type: 'string', multiple: true, default: [] },
      yes: { type: 'boolean', short: 'y', default: false },
      redact: { type: 'string' },
    });
    const redact = parseRedact(values.redact);
    if (values.help) {
      io.out(HELP + '\n');
      return EXIT.ok;
    }
    const prompt = positionals.join(' ').trim();
    if (!prompt) throw new UsageError('a PROMPT is required (glance ask "What is on my screen?" --screenshot)');
    const deliveries = values['max-image-deliveries'] === undefined ? undefined : Number(values['max-image-deliveries']);
    if (deliveries !== undefined && (!Number.isInteger(deliveries) || deliveries < 0)) throw new UsageError('--max-image-deliveries takes a whole number ≥ 0');
    const mcpConfig = values['mcp-config'] ? await loadMcpConfig(absolute(values['mcp-config']), { env: io.env }) : undefined;
    // A file that cannot be read or parsed is a usage error (exit 2), as for `glance mcp`; a bad
    // server entry only costs that server.
    const fatal = mcpConfig?.errors.find((e) => e.server === undefined);
    if (fatal) throw new UsageError(`--mcp-config: ${formatConfigError(fatal)}`);
    for (const error of mcpConfig?.errors ?? []) io.err(`glance: ${formatConfigError(error)}\n`);
    for (const warning of mcpConfig?.warnings ?? []) io.err(`glance: warning: ${formatConfigError(warning)}\n`);
    const capturer = new NodeScreenshotsCapturer();
    const { settings, flags, services, damaged } = await cliContext(io, values, {
      capturer,
      ...(mcpConfig ? { mcpConfig } : {}),
      ...(deliveries !== undefined ? { limits: { maxImageDeliveriesPerTurn: deliveries } } : {}),
    });
    const kind = flags.kind;
    // MCP servers start now, while the model is looked up; the turn waits for none past its short wait.
    services.hub?.startInBackground();

    // SIGINT (Ctrl-C) and SIGTERM (a kill, a supervisor) stop the turn like Stop: what streamed is
    // stored, marked interrupted, and the run exits 130 / 143.
    const controller = new AbortController();
    const stopped = { by: 'SIGINT' as 'SIGINT' | 'SIGTERM' };
    const onSigint = () => controller.abort();
    const onSigterm = () => {
      stopped.by = 'SIGTERM';
      controller.abort();
    };
    process.once('SIGINT', onSigint);
    process.once('SIGTERM', onSigterm);

    try {
      let model = values.model;
      if (!model) {
        const picked = await pickVisionModel(services, kind, controller.signal);
        if (!picked.ok) {
          io.err(`glance ask: ${boundText(services.scrubSecrets(picked.message))}\n`);
          return picked.code === 'none' ? EXIT.usage : EXIT.modelFailed;
        }
        model = picked.model;
      }
      // --redact is this command's policy for every model of the turn, over the settings' (and the conversation's).
      const withRedact = <T extends { target: object }>(m: T): T => (redact ? { ...m, target: { ...m.target, redact } } : m);
      const chat = withRedact(await services.models.choiceFor({ provider: kind, name: model }, { ...(flags.vision ? { vision: flags.vision } : {}), signal: controller.signal }));
      const helperName = values['vision-helper'] ?? (settings.visionHelper?.provider === kind && kind === 'ollama' ? settings.visionHelper.name : undefined);
      const helper = helperName ? withRedact(await services.models.choiceFor({ provider: kind, name: helperName }, { signal: controller.signal })) : undefined;

      const attachments: TurnAttachment[] = values.attach.map((source) => ({ source, origin: 'user', requestedBy: 'user' as const }));
      if (values.screenshot) {
        const shot = await capturer.capture('under-cursor', { signal: controller.signal });
        if (!shot.ok) {
          emitOrPrint(io, values.json, { type: 'image_refused', origin: 'screenshot', code: 'source-unreachable', message: shot.message });
          return EXIT.imageRefused;
        }
        const { png, display } = shot.capture;
        // The pixel ratio, as the app's hotkey gives it: Retina text is drawn twice as large.
        attachments.push({ source: png, name: screenshotName(display.name), origin: 'screenshot', requestedBy: 'user', pixelRatio: display.scaleFactor, ...doorWindows(shot.capture) });
      }

      const outcome = await services.engine.runTurn(
        {
          conversationId: values.conversation,
          text: prompt,
          attachments,
          chat,
          helper,
          signal: controller.signal,
          approver: cliApprover({ io, policy: settings.toolApproval, allowTools: parseAllowTools(values['allow-tools']), yes: values.yes }),
        },
        (event) => emitOrPrint(io, values.json, event),
      );
      if (!values.json && outcome.text && !outcome.text.endsWith('\n')) io.out('\n');
      switch (outcome.status) {
        case 'done':
          // A stored image or file found damaged (said on stderr as it was found): the turn ran without it.
          return damaged.length ? EXIT.storage : EXIT.ok;
        case 'refused':
          return outcome.error?.code === 'not-stored' ? EXIT.storage : EXIT.imageRefused;
        case 'cancelled':
          return stopped.by === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
        default:
          // not-stored: the answer was printed in full, but the data folder cannot be written.
          return outcome.error?.code === 'conversation-not-found' ? EXIT.usage : outcome.error?.code === 'not-stored' ? EXIT.storage : EXIT.modelFailed;
      }
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      await services.close();
    }
  },
};

function emitOrPrint(io: CommandIO, json: boolean, event: ChatEvent): void {
  if (json) {
    io.out(JSON.stringify(event) + '\n');
    return;
  }
  switch (event.type) {
    case 'text':
      io.out(event.delta);
      break;
    case 'tool_call':
      io.err(`\n→ ${event.name}${event.title ? ` (${event.title})` : ''} ${JSON.stringify(event.arguments)}\n`);
      break;
    case 'tool_progress':
      io.err(`  … ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}${event.message ? ` ${event.message}` : ''}\n`);
      break;
    case 'tool_result':
      io.err(`← ${event.name} ${event.ok ? 'ok' : 'failed'}${event.durationMs === undefined ? '' : ` (${event.durationMs} ms)`}: ${firstLine(event.text)}\n`);
      break;
    case 'image_attached':
      io.err(
        `📎 ${event.name ?? event.attachmentId} (${event.origin}) → ${formatImageSize(event)}` +
          `${event.modelInput ? `, the model sees ${event.modelInput.width}×${event.modelInput.height}` : ''}${event.tokens != null ? `, ${formatTokens(event.tokens)}` : ''}` +
          `${event.legibility?.smallText ? ` (small text ≈${event.legibility.textPx} px: likely unreadable)` : ''}\n`,
      );
      break;
    case 'image_redacted':
      io.err(`🔒 ${event.attachmentId}: ${hiddenPhrase(event.regions)} before it was sent (found in ${event.ms} ms)\n`);
      break;
    case 'image_refused':
      io.err(`✗ image refused (${event.code}): ${event.message}\n`);
      break;
    case 'image_delivered':
      io.err(`👁 shown to the model: ${event.attachmentIds.join(', ')}\n`);
      break;
    case 'image_transcribed':
      if (event.sentChars === undefined) io.err(`📝 sent as text: this model cannot see images, so it gets the ${event.chars} characters ${event.engine} read from ${event.attachmentId}\n`);
      else io.err(`📝 cut to fit the model's context window: it gets ${event.sentChars} of the ${event.chars} characters read from ${event.attachmentId} (the beginning and the end)\n`);
      break;
    case 'image_window_text':
      io.err(`🪟 with its window's own text (${event.text.length} characters, read from accessibility): ${event.attachmentId}\n`);
      break;
    case 'image_described':
      io.err(`🗒 described by ${event.model} for a model that cannot see: ${event.text.slice(0, 200)}${event.text.length > 200 ? '…' : ''}\n`);
      break;
    case 'error':
      io.err(`\nglance: ${event.message}\n`);
      break;
    case 'tool_servers':
      io.err(`⏳ ${event.text}\n`);
      break;
    case 'tool_approval':
      if (event.decision === 'deny') io.err(`✗ ${event.name} not run: ${event.reason ?? 'not allowed'}\n`);
      break;
    default:
      break;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

/** Without --model: the first installed model that can see (declared verdicts count). */
async function pickVisionModel(
  services: Services,
  kind: ProviderKind,
  signal: AbortSignal,
): Promise<{ ok: true; model: string } | { ok: false; code: string; message: string }> {
  try {
    const models = await services.models.list({ provider: kind }, { signal });
    const seeing = models.find((m) => m.capabilities.vision === 'yes');
    if (seeing) return { ok: true, model: seeing.name };
    return { ok: false, code: 'none', message: 'no model given and none of the installed models can see images. Name one with --model (see `glance models`), or install one: `ollama pull gemma3`.' };
  } catch (error) {
    if (error instanceof ProviderError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(path);
}
