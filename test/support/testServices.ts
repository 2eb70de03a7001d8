// The one composition (main/core/composeServices.ts) as tests and benches use it: a fresh data
// dir's fixed settings, a secret store that knows only what a test names, no MCP servers unless
// asked. Nothing here builds a service itself, so a test runs the core every entry runs.
import type { Limits } from '../../common/limits.ts';
import type { PrivacySettings } from '../../common/privacy.ts';
import { defaultSettings, type Settings } from '../../common/settings.ts';
import type { ScreenCapturer } from '../../main/capture/screenCapturer.ts';
import { composeServices, fixedSettings, type ComposeOptions, type Services } from '../../main/core/composeServices.ts';
import type { TextReader } from '../../main/ocr/textReader.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';

export type TestServicesOptions = {
  dataDir: string;
  limits?: Partial<Limits>;
  /** Roots a model-requested path must stay under; empty or absent: the settings' default. */
  allowedRoots?: string[];
  capturer?: ScreenCapturer;
  ocr?: TextReader;
  /** Values the secret store counts as known (scrubbed from every error). */
  secrets?: readonly string[];
  /** Default: redaction `never`, so a test of another part pays no OCR for it. */
  privacy?: PrivacySettings;
  /** Other settings sections (providers, mcpServers…). */
  settings?: Partial<Settings>;
  allowLoopbackFetch?: boolean;
  /** A window's composition (the app, the harness): images entering for a local model are read ahead for a remote one. */
  readAhead?: boolean;
  /** MCP servers from settings are started only when this is set. */
  mcp?: Pick<ComposeOptions, 'mcpConfig' | 'liveMcp' | 'env'>;
};

/** A secret store holding nothing but answering `known` to scrubSecrets, as one that read them would. */
class KnownSecrets extends EnvSecretStore {
  readonly #extra: readonly string[];
  constructor(extra: readonly string[]) {
    super({});
    this.#extra = extra;
  }
  override knownValues(): readonly string[] {
    return [...super.knownValues(), ...this.#extra];
  }
}

export function testServices(options: TestServicesOptions): Services {
  const base = defaultSettings();
  const settings: Settings = {
    ...base,
    ...options.settings,
    allowedRoots: options.allowedRoots ?? [],
    privacy: options.privacy ?? { ...base.privacy, redact: 'never' },
  };
  return composeServices({
    dataDir: options.dataDir,
    settings: fixedSettings(settings),
    secrets: new KnownSecrets(options.secrets ?? []),
    log: () => undefined,
    ...(options.mcp ?? { noMcp: true }),
    // A suite's servers join its first turn however loaded the machine is (the product waits 5 s
    // from a server's start); the tests of that wait set their own.
    limits: { mcpTurnWaitMs: 120_000, ...options.limits },
    ...(options.capturer ? { capturer: options.capturer } : {}),
    ...(options.ocr ? { ocr: options.ocr } : {}),
    ...(options.allowLoopbackFetch ? { allowLoopbackFetch: true } : {}),
    ...(options.readAhead ? { readAhead: true } : {}),
  });
}
