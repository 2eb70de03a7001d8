import { isAbsolute, join, resolve } from 'node:path';
import type { ChatEvent } from '../../common/events.ts';
import { formatImageSize } from '../../common/images.ts';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import type { ProviderKind } from '../../common/models.ts';
import { NodeScreenshotsCapturer } from '../capture/nodeScreenshotsCapturer.ts';
import type { TurnAttachment } from '../chat/chatEngine.ts';
import { createCore } from '../core/createCore.ts';
import { mcpToolProvider } from '../core/mcpTools.ts';
import { resolveModel } from '../core/resolveModel.ts';
import { BinaryCapture } from '../mcp/binaryCapture.ts';
import { formatConfigError, loadMcpConfig } from '../mcp/config.ts';
import { McpHub } from '../mcp/mcpHub.ts';
import { createProvider } from '../models/createProvider.ts';
import { ProviderError } from '../models/provider.ts';
import { safeErrorText } from '../redact.ts';
import { defaultDataDir } from '../settings/paths.ts';
import { cliOllamaHost, declaredOllamaVision, readCliSettings } from './cliSettings.ts';
import { EXIT, MODEL_OPTIONS, parseCommandArgs, UsageError, type CommandIO } from './io.ts';

const HELP = `Usage: glance ask PROMPT [--attach SOURCE]... [--screenshot] [--model NAME]
           [--provider ollama|openai] [--base-url URL] [--api-key-env VAR] [--vision yes|no]
           [--vision-helper NAME] [--mcp-config FILE] [--data-dir DIR] [--conversation ID]
           [--max-image-deliveries N] [--json]

Asks a model, streaming its answer. SOURCE is an absolute path, file://, data: or http(s) URL.
--screenshot attaches a capture of the display under the mouse pointer.
--json prints the event stream, one JSON object per line.
Exit codes: 0 done, 2 usage, 3 an image was refused (nothing sent), 4 the model or provider failed.`;

export const askCommand = {
  summary: 'ask a model, with images attached or captured',
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
    });
    if (values.help) {
      io.out(HELP + '\n');
      return EXIT.ok;
    }
    const prompt = positionals.join(' ').trim();
    if (!prompt) throw new UsageError('a PROMPT is required (glance ask "What is on my screen?" --screenshot)');
    const kind = parseProvider(values.provider);
    const vision = parseVision(values.vision);
    const deliveries = values['max-image-deliveries'] === undefined ? DEFAULT_LIMITS.maxImageDeliveriesPerTurn : Number(values['max-image-deliveries']);
    if (!Number.isInteger(deliveries) || deliveries < 0) throw new UsageError('--max-image-deliveries takes a whole number ≥ 0');
    const apiKey = values['api-key-env'] ? io.env[values['api-key-env']] : undefined;
    if (values['api-key-env'] && !apiKey) throw new UsageError(`the environment variable ${values['api-key-env']} is not set`);
    const baseUrl = values['base-url'];
    const env = io.env;
    const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env);

    const { settings, warning } = await readCliSettings(dataDir);
    if (warning) io.err(`glance: ${warning}\n`);
    // Flag, then OLLAMA_HOST, then the app's setting.
    const endpointUrl = kind === 'ollama' ? cliOllamaHost(baseUrl, env, settings) : baseUrl;
    const declared = (name: string) => (kind === 'ollama' ? declaredOllamaVision(settings, name) : undefined);

    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);

    let hub: McpHub | undefined;
    try {
      const capturer = new NodeScreenshotsCapturer();
      const core = createCore({
        dataDir,
        limits: { ...settings.limits, maxImageDeliveriesPerTurn: deliveries },
        capturer,
        ...(settings.allowedRoots.length ? { allowedRoots: settings.allowedRoots } : {}),
        secrets: () => (apiKey ? [apiKey] : []),
      });
      if (values['mcp-config']) {
        const config = await loadMcpConfig(absolute(values['mcp-config']));
        for (const error of config.errors) io.err(`glance: ${formatConfigError(error)}\n`);
        const capture = new BinaryCapture({ intake: core.intake, store: core.attachments, capturesDir: join(dataDir, 'captures') });
        hub = new McpHub({ config, capture });
        core.tools.addProvider(mcpToolProvider(hub));
      }

      let model = values.model;
      if (!model) {
        const picked = await pickVisionModel(kind, endpointUrl, apiKey, env, controller.signal);
        if (!picked.ok) {
          io.err(`glance ask: ${safeErrorText(picked.message, apiKey ? [apiKey] : [])}\n`);
          return picked.code === 'none' ? EXIT.usage : EXIT.modelFailed;
        }
        model = picked.model;
      }
      const chatDeclared = vision ? undefined : declared(model);
      const chat = await resolveModel({
        kind,
        model,
        baseUrl: endpointUrl,
        apiKey,
        vision: vision ?? chatDeclared,
        visionSource: vision ? 'flag' : 'settings',
        env,
        signal: controller.signal,
      });
      const helperName = values['vision-helper'] ?? (settings.visionHelper?.provider === kind && kind === 'ollama' ? settings.visionHelper.name : undefined);
      const helper = helperName
        ? await resolveModel({ kind, model: helperName, baseUrl: endpointUrl, apiKey, vision: declared(helperName), visionSource: 'settings', env, signal: controller.signal })
        : undefined;

      const attachments: TurnAttachment[] = values.attach.map((source) => ({ source, origin: 'user', requestedBy: 'user' as const }));
      if (values.screenshot) {
        const shot = await capturer.capture('under-cursor', { signal: controller.signal });
        if (!shot.ok) {
          emitOrPrint(io, values.json, { type: 'image_refused', origin: 'screenshot', code: 'source-unreachable', message: shot.message });
          return EXIT.imageRefused;
        }
        attachments.push({ source: shot.capture.png, name: `screenshot-${shot.capture.display.name}.png`, origin: 'screenshot', requestedBy: 'user' });
      }

      const outcome = await core.engine.runTurn(
        { conversationId: values.conversation, text: prompt, attachments, chat, helper, signal: controller.signal },
        (event) => emitOrPrint(io, values.json, event),
      );
      if (!values.json && outcome.text && !outcome.text.endsWith('\n')) io.out('\n');
      switch (outcome.status) {
        case 'done':
          return EXIT.ok;
        case 'refused':
          return EXIT.imageRefused;
        case 'cancelled':
          return 130;
        default:
          return outcome.error?.code === 'conversation-not-found' ? EXIT.usage : EXIT.modelFailed;
      }
    } finally {
      process.off('SIGINT', onSigint);
      await hub?.close();
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
      io.err(`\n→ ${event.name} ${JSON.stringify(event.arguments)}\n`);
      break;
    case 'tool_result':
      io.err(`← ${event.name} ${event.ok ? 'ok' : 'failed'}${event.durationMs === undefined ? '' : ` (${event.durationMs} ms)`}: ${firstLine(event.text)}\n`);
      break;
    case 'image_attached':
      io.err(`📎 ${event.name ?? event.attachmentId} (${event.origin}) → ${formatImageSize(event)}\n`);
      break;
    case 'image_refused':
      io.err(`✗ image refused (${event.code}): ${event.message}\n`);
      break;
    case 'image_delivered':
      io.err(`👁 shown to the model: ${event.attachmentIds.join(', ')}\n`);
      break;
    case 'error':
      io.err(`\nglance: ${event.message}\n`);
      break;
    default:
      break;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

/** Without --model: the first installed model that can see. */
async function pickVisionModel(
  kind: ProviderKind,
  baseUrl: string | undefined,
  apiKey: string | undefined,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<{ ok: true; model: string } | { ok: false; code: string; message: string }> {
  try {
    const models = await createProvider({ kind, baseUrl, apiKey, env }).listModels({ signal });
    const seeing = models.find((m) => m.capabilities.vision === 'yes');
    if (seeing) return { ok: true, model: seeing.name };
    return { ok: false, code: 'none', message: 'no model given and none of the installed models can see images. Name one with --model (see `glance models`), or install one: `ollama pull gemma3`.' };
  } catch (error) {
    if (error instanceof ProviderError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

export function parseProvider(value: string | undefined): ProviderKind {
  if (value === undefined || value === 'ollama') return 'ollama';
  if (value === 'openai') return 'openai';
  throw new UsageError(`--provider must be ollama or openai, not "${value}"`);
}

export function parseVision(value: string | undefined): 'yes' | 'no' | undefined {
  if (value === undefined || value === 'yes' || value === 'no') return value;
  throw new UsageError(`--vision must be yes or no, not "${value}"`);
}

function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(path);
}
