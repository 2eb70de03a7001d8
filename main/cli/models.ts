// `glance models [--provider ollama|openai] [--base-url URL] [--api-key-env VAR] [--json]`
// (architecture §10): what the server has, and for each model whether it can see and who said so.
import type { ModelInfo, ProviderKind, VisionSource } from '../../common/models.ts';
import { ProviderError } from '../models/provider.ts';
import { boundText } from '../scrubSecrets.ts';
import { cliContext } from './cliContext.ts';
import { EXIT, type CommandIO, UsageError, parseCommandArgs } from './io.ts';

const OPTIONS = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const HELP = `Usage: glance models [--provider ollama|openai] [--base-url URL] [--api-key-env VAR] [--json]

Lists the models a server offers, whether each can see images (yes/no/unknown) and where
that verdict came from.

  --provider      ollama (default) or openai (any OpenAI-compatible server)
  --base-url      server URL; Ollama default: $OLLAMA_HOST or http://127.0.0.1:11434
  --api-key-env   name of the environment variable holding the API key (openai)
  --json          print a JSON array of models
`;

/** How `glance models` says where a vision verdict came from. */
const SOURCE_WORDS: Record<VisionSource, string> = {
  'ollama-capabilities': 'reported by Ollama',
  'ollama-projector': 'has a vision projector',
  'openrouter-metadata': 'OpenRouter metadata',
  'llamacpp-props': 'llama.cpp /props',
  'openai-metadata': 'server metadata',
  settings: 'declared in settings',
  flag: 'declared by --vision',
  none: 'not reported',
};

export const modelsCommand = {
  summary: 'List models and whether each can see images',
  async run(argv: string[], io: CommandIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS);
    if (values.help) {
      io.out(HELP);
      return EXIT.ok;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const { flags, services } = await cliContext(io, values, { noMcp: true });
    const kind = flags.kind;
    let models: ModelInfo[];
    try {
      // Each request inside has its own timeout (the provider's), so a dead server fails fast.
      // Verdicts the user declared in the app's Settings win over detection, as in the app.
      models = await services.models.list({ provider: kind });
    } catch (error) {
      if (error instanceof ProviderError) {
        io.err(`glance models: ${boundText(services.scrubSecrets(error.message))}\n`);
        return EXIT.modelFailed;
      }
      throw error;
    }

    if (values.json) {
      io.out(`${JSON.stringify(models, null, 2)}\n`);
      return EXIT.ok;
    }
    io.out(renderTable(models, kind));
    return EXIT.ok;
  },
};

function renderTable(models: ModelInfo[], kind: ProviderKind): string {
  if (models.length === 0) {
    return kind === 'ollama'
      ? 'No models installed. Pull a vision model, e.g. `ollama pull gemma3`.\n'
      : 'The server lists no models.\n';
  }
  const rows = models.map((m) => [
    m.name,
    m.capabilities.vision,
    SOURCE_WORDS[m.capabilities.visionSource],
    m.capabilities.tools,
    m.capabilities.thinking,
    [m.details.parameterSize, m.details.quantization, m.details.contextLength && `ctx ${m.details.contextLength}`].filter(Boolean).join(' '),
  ]);
  const header = ['MODEL', 'VISION', 'FROM', 'TOOLS', 'THINKING', 'DETAILS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  let text = [line(header), ...rows.map(line)].join('\n') + '\n';
  if (models.some((m) => m.capabilities.vision === 'unknown')) {
    text += '\nVision "unknown": the server does not say. Declare it per model in Settings or with --vision yes|no.\n';
  }
  return text;
}
