// The one composition every entry uses (the Electron app, the web harness, each CLI command):
// settings → limits and allowed roots → intake, attachment store, conversations, tools,
// engine → MCP hub (from settings or a config file) → model resolver. Entries differ only in
// the options they pass (their secret store, a capturer, an MCP config file, flag overrides),
// so `glance mcp call` and `glance ask` apply the same limits as the app.
import type { Limits } from '../../common/limits.ts';
import { parseMcpConfig, formatConfigError, type McpConfig } from '../../common/mcpConfig.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import { createMcpHub, type CreateMcpHubOptions } from '../mcp/createMcpHub.ts';
import type { McpHub, McpServerHealth } from '../mcp/mcpHub.ts';
import { mcpSecretValues } from '../settings/maskSettings.ts';
import { redact } from '../redact.ts';
import type { SecretStore } from '../settings/secretStore.ts';
import { createCore, type GlanceCore } from './createCore.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { mcpToolProvider } from './mcpTools.ts';
import { createModelResolver, type EndpointOverride, type ModelResolver, type SettingsSource } from './modelResolver.ts';

export type ComposeOptions = {
  dataDir: string;
  settings: SettingsSource;
  secrets: SecretStore;
  /** Without a capturer there is no screenshot_desktop tool. */
  capturer?: ScreenCapturer;
  /** MCP servers from a file (the CLI's --mcp-config); default: the settings' mcpServers. */
  mcpConfig?: McpConfig;
  /** Start no MCP servers at all (commands that need none). */
  noMcp?: boolean;
  /** How this entry asks a person for MCP servers: elicitation, `${input:id}`, a sign-in page. */
  mcpInteraction?: CreateMcpHubOptions['interaction'];
  /** A server failed to start or crashed (the app shows a notice). */
  onMcpFailure?: (server: McpServerHealth) => void;
  /** For `${VAR}` in MCP configs and the proxy/CA variables stdio servers inherit. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Flag overrides on top of the settings' limits (e.g. --max-image-deliveries). */
  limits?: Partial<Limits>;
  /** The CLI's --base-url / --api-key-env, in place of the settings' endpoint. */
  endpoint?: EndpointOverride;
  /** Test-only: http(s) image sources may reach loopback fixture servers. */
  allowLoopbackFetch?: boolean;
  /** The local OCR reader; default tesseract.js. */
  ocr?: TextReader;
  /** Receives every line already redacted. */
  log?: (line: string) => void;
};

export type Services = GlanceCore & {
  settings: SettingsSource;
  secrets: SecretStore;
  models: ModelResolver;
  hub?: McpHub;
  /** Strips the known keys (secret store, MCP tokens) and the usual key and image patterns. */
  redact(text: string): string;
  log(line: string): void;
  /** Stop MCP servers. */
  close(): Promise<void>;
};

export function composeServices(options: ComposeOptions): Services {
  const { dataDir, settings, secrets } = options;
  const secretValues = () => [...secrets.knownValues(), ...mcpSecretValues(settings.current())];
  const redactLine = (text: string) => redact(text, secretValues());
  const sink = options.log ?? ((line: string) => console.error(`[glance] ${line}`));
  const log = (line: string) => sink(redactLine(line));

  const current = settings.current();
  const core = createCore({
    dataDir,
    limits: { ...current.limits, ...options.limits },
    ...(current.allowedRoots.length > 0 ? { allowedRoots: current.allowedRoots } : {}),
    ...(options.capturer ? { capturer: options.capturer } : {}),
    ...(options.allowLoopbackFetch ? { allowLoopbackFetch: true } : {}),
    ...(options.ocr ? { ocr: options.ocr } : {}),
    secrets: secretValues,
  });

  // Limits apply live: the intake, the tools and the engine read this one object at each use.
  const offLimits = settings.onChange?.((next) => Object.assign(core.limits, next.limits, options.limits));

  let hub: McpHub | undefined;
  if (!options.noMcp) {
    const env = options.env ?? process.env;
    const config = options.mcpConfig ?? parseMcpConfig({ mcpServers: current.mcpServers }, { env });
    if (!options.mcpConfig) for (const error of config.errors) log(`MCP ${formatConfigError(error)}`);
    if (!options.mcpConfig) for (const warning of config.warnings) log(`MCP warning: ${formatConfigError(warning)}`);
    // A config given explicitly (the CLI's) gets a hub even when empty: it answers "no servers".
    if (config.servers.size > 0 || options.mcpConfig) {
      hub = createMcpHub({
        config,
        intake: core.intake,
        store: core.attachments,
        dataDir,
        roots: () => settings.current().allowedRoots,
        log,
        ...(options.mcpInteraction ? { interaction: options.mcpInteraction } : {}),
        tokens: secrets,
        parentEnv: env,
        ...(options.onMcpFailure ? { onFailure: options.onMcpFailure } : {}),
      });
      core.tools.addProvider(mcpToolProvider(hub));
    }
  }

  const models = createModelResolver({ settings, secrets, ...(options.endpoint ? { endpoint: options.endpoint } : {}) });
  return {
    ...core,
    settings,
    secrets,
    models,
    ...(hub ? { hub } : {}),
    redact: redactLine,
    log,
    close: async () => {
      offLimits?.();
      await hub?.close();
      await core.close();
    },
  };
}

/** Settings that never change (the CLI reads the app's file once and never writes it). */
export function fixedSettings(value: ReturnType<SettingsSource['current']>): SettingsSource {
  return { current: () => value };
}
