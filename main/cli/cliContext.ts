// What every CLI command shares: the app's settings (read-only), the common model flags
// (--provider, --base-url, --api-key-env, --vision) with one wording of their errors, and
// the one composition (composeServices) the app and the harness use too.
import { FileTokenStore } from '../settings/fileTokenStore.ts';
import { resolve } from 'node:path';
import type { Limits } from '../../common/limits.ts';
import type { McpConfig } from '../../common/mcpConfig.ts';
import type { ProviderKind } from '../../common/models.ts';
import type { Settings } from '../../common/settings.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import { composeServices, fixedSettings, type Services } from '../core/composeServices.ts';
import type { VisionDeclaration } from '../core/modelResolver.ts';
import { resolveOllamaHost } from '../models/ollamaHost.ts';
import { defaultDataDir } from '../settings/paths.ts';
import { EnvSecretStore } from '../settings/secretStore.ts';
import { readCliSettings } from './cliSettings.ts';
import { cliInteraction } from './mcpInteraction.ts';
import { UsageError, type CommandIO } from './io.ts';
import { errorMessage } from '../errors.ts';
import type { Damage } from '../fsAtomic.ts';

/** The values of MODEL_OPTIONS (io.ts) as parseArgs gives them. */
type ModelFlagValues = { provider?: string; 'base-url'?: string; 'api-key-env'?: string; vision?: string };

type ModelFlags = {
  kind: ProviderKind;
  /** --base-url, else (Ollama) $OLLAMA_HOST, else the app's setting; OpenAI: undefined = api.openai.com. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** --vision as a declaration (it wins over Settings and detection). */
  vision: VisionDeclaration | undefined;
};

function parseProvider(value: string | undefined): ProviderKind {
  if (value === undefined || value === 'ollama') return 'ollama';
  if (value === 'openai') return 'openai';
  throw new UsageError(`--provider must be ollama or openai, not "${value}"`);
}

function parseVision(value: string | undefined): 'yes' | 'no' | undefined {
  if (value === undefined || value === 'yes' || value === 'no') return value;
  throw new UsageError(`--vision must be yes or no, not "${value}"`);
}

/** The common model flags, checked once for every command. */
function parseModelFlags(values: ModelFlagValues, env: NodeJS.ProcessEnv, settings: Settings): ModelFlags {
  const kind = parseProvider(values.provider);
  const vision = parseVision(values.vision);
  let apiKey: string | undefined;
  const keyVar = values['api-key-env'];
  if (keyVar !== undefined) {
    apiKey = env[keyVar];
    if (!apiKey) throw new UsageError(`--api-key-env ${keyVar}: that environment variable is not set`);
  }
  const flagUrl = values['base-url'];
  if (flagUrl !== undefined && kind === 'openai' && !/^https?:\/\//i.test(flagUrl)) {
    throw new UsageError('--base-url must be an http(s) URL, e.g. http://127.0.0.1:8080/v1');
  }
  let baseUrl = flagUrl;
  if (kind === 'ollama') {
    try {
      baseUrl = resolveOllamaHost(flagUrl ?? env.OLLAMA_HOST ?? settings.providers.ollama.host);
    } catch (error) {
      throw new UsageError(errorMessage(error));
    }
  }
  return { kind, baseUrl, apiKey, vision: vision ? { vision, source: 'flag' } : undefined };
}

type CliContext = {
  dataDir: string;
  settings: Settings;
  flags: ModelFlags;
  services: Services;
  /** Stored files this run found damaged (each already said on stderr): `ask` then exits 5. */
  damaged: Damage[];
};

/**
 * Settings, flags and services for one command run. Warnings (a broken settings file) go to
 * stderr; a bad flag is a UsageError (exit 2).
 */
export async function cliContext(
  io: CommandIO,
  values: ModelFlagValues & { 'data-dir'?: string },
  extra: { capturer?: ScreenCapturer; mcpConfig?: McpConfig; noMcp?: boolean; limits?: Partial<Limits> } = {},
): Promise<CliContext> {
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(io.env);
  const { settings, warning } = await readCliSettings(dataDir);
  if (warning) io.err(`glance: ${warning}\n`);
  const flags = parseModelFlags(values, io.env, settings);
  const secrets = new EnvSecretStore(io.env);
  const damaged: Damage[] = [];
  // Known to the store, the key is redacted from every line the services print.
  if (flags.apiKey !== undefined) await secrets.set('cli-api-key', flags.apiKey);
  const services = composeServices({
    dataDir,
    settings: fixedSettings(settings),
    secrets,
    ...(extra.capturer ? { capturer: extra.capturer } : {}),
    ...(extra.mcpConfig ? { mcpConfig: extra.mcpConfig } : {}),
    // The CLI starts MCP servers only from a config file it was given (or the data dir's mcp.json).
    noMcp: extra.noMcp ?? extra.mcpConfig === undefined,
    ...(extra.limits ? { limits: extra.limits } : {}),
    mcpInteraction: cliInteraction(io),
    // Sign-ins last across runs (as `gh` keeps its token): a 0600 file in the config dir.
    mcpTokens: new FileTokenStore(dataDir, { warn: (message) => io.err(`glance: ${message}\n`) }),
    env: io.env,
    endpoint: { ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}), ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}), env: io.env },
    log: (line) => io.err(`glance: ${line}\n`),
    onDamaged: (damage) => {
      damaged.push(damage);
      io.err(`glance: ${damage.message}\n`);
    },
  });
  return { dataDir, settings, flags, services, damaged };
}
