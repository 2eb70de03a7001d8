// The one composition every entry uses (the Electron app, the web harness, each CLI command):
// settings → limits and allowed roots → intake, attachment store, conversations, tools,
// engine → MCP hub (from settings or a config file) → model resolver. Entries differ only in
// the options they pass (their secret store, a capturer, an MCP config file, flag overrides),
// so `glance mcp call` and `glance ask` apply the same limits as the app.
import type { Limits } from '../../common/limits.ts';
import { parseMcpConfig, formatConfigError, type McpConfig } from '../../common/mcpConfig.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import { createMcpHub, type CreateMcpHubOptions } from '../mcp/createMcpHub.ts';
import type { McpHub, McpReconfigured, McpServerHealth } from '../mcp/mcpHub.ts';
import type { TokenStore } from '../mcp/mcpOAuth.ts';
import { mcpSecretValues } from '../settings/maskSettings.ts';
import { scrubSecrets } from '../scrubSecrets.ts';
import type { SecretStore } from '../settings/secretStore.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { mcpToolProvider } from './mcpTools.ts';
import { createModelResolver, type EndpointOverride, type ModelResolver, type SettingsSource } from './modelResolver.ts';
import { errorMessage } from '../errors.ts';
import { sweepAttachments } from '../chat/retention.ts';

import { DEFAULT_LIMITS } from '../../common/limits.ts';
import type { PrivacySettings } from '../../common/privacy.ts';
import { ChatEngine } from '../chat/chatEngine.ts';
import type { OnDamaged } from '../fsAtomic.ts';
import { DraftStore } from '../chat/draftStore.ts';
import { ConversationStore } from '../chat/conversationStore.ts';
import { FileAttachmentStore } from '../images/attachmentStore.ts';
import { Egress } from '../egress/egress.ts';
import { ImageIntake } from '../images/imageIntake.ts';
import { defaultAllowedRoots } from '../images/readLocalFile.ts';
import { serverRoots } from '../mcp/serverRoots.ts';
import { RedactStage } from '../images/redactStage.ts';
import { readImageWords } from '../ocr/readImageWords.ts';
import { imageTextReader } from '../ocr/readImageText.ts';
import { ReaderPool } from '../ocr/readerPool.ts';
import { RegionReader } from '../ocr/regionReader.ts';
import { RememberingReader } from '../ocr/rememberedReadings.ts';
import { TesseractReader } from '../ocr/tesseractReader.ts';
import { analyzeImageTool } from '../tools/analyzeImage.ts';
import { readTextTool } from '../tools/readText.ts';
import { screenshotDesktopTool } from '../tools/screenshotDesktop.ts';
import { windowTextFor } from '../accessibility/platformWindowText.ts';
import type { WindowText } from '../accessibility/windowText.ts';
import { keptForModel, WindowTextShelf } from '../accessibility/windowTextShelf.ts';
import { listWindowsTool } from '../tools/listWindows.ts';
import { showAttachmentTool } from '../tools/showAttachment.ts';
import { ToolRegistry, type ToolProvider } from '../tools/tool.ts';
import { zoomImageTool } from '../tools/zoomImage.ts';
import { isThisComputer } from '../thisComputer.ts';

export type ComposeOptions = {
  dataDir: string;
  settings: SettingsSource;
  secrets: SecretStore;
  /** Without a capturer there is no screenshot_desktop tool. */
  capturer?: ScreenCapturer;
  /** A window's own words beside its capture (architecture §7); default: this platform's adapter when there is a capturer. */
  windowText?: WindowText;
  /** MCP servers from a file (the CLI's --mcp-config); default: the settings' mcpServers. */
  mcpConfig?: McpConfig;
  /** Start no MCP servers at all (commands that need none). */
  noMcp?: boolean;
  /**
   * The app and the harness: a hub even with no servers, the settings' servers started now in
   * the background, and every saved change to them applied at once (hub.reconfigure).
   */
  liveMcp?: boolean;
  /** How this entry asks a person for MCP servers: elicitation, `${input:id}`, a sign-in page. */
  mcpInteraction?: CreateMcpHubOptions['interaction'];
  /** Where MCP sign-ins (OAuth tokens) are kept; default the secret store. The CLI's lasts across runs (a file, 0600). */
  mcpTokens?: TokenStore & { knownValues(): readonly string[] };
  /** A server failed to start or crashed (the app shows a notice). */
  onMcpFailure?: (server: McpServerHealth) => void;
  /** For `${VAR}` in MCP configs and the proxy/CA variables stdio servers inherit. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Flag overrides on top of the settings' limits (e.g. --max-image-deliveries). */
  limits?: Partial<Limits>;
  /**
   * A long-lived window (the app, the harness): an image whose first copy is not redacted (a model
   * on this computer) is still read for secrets as it enters, in the background, when a model off
   * this computer is configured — so a later send to it finds the findings kept with the original.
   * A CLI run ends before such a read would: it reads when a remote copy is made.
   */
  readAhead?: boolean;
  /** The CLI's --base-url / --api-key-env, in place of the settings' endpoint. */
  endpoint?: EndpointOverride;
  /** Test-only: http(s) image sources may reach loopback fixture servers. */
  allowLoopbackFetch?: boolean;
  /** The local OCR reader; default tesseract.js. */
  ocr?: TextReader;
  /** Receives every line already redacted. */
  log?: (line: string) => void;
  /**
   * A stored file was found damaged and set aside or left out (a conversation, drafts.json, an
   * image's record or bytes): the CLI prints it, the app and the harness show a notice.
   */
  onDamaged?: OnDamaged;
};

export type Services = GlanceCore & {
  settings: SettingsSource;
  secrets: SecretStore;
  models: ModelResolver;
  hub?: McpHub;
  /** Strips the known keys (secret store, MCP tokens) and the usual key and image patterns. */
  scrubSecrets(text: string): string;
  log(line: string): void;
  /** Attachment retention: removes unreferenced images past the settings' retention period (the app and `glance mcp serve` run it once per start). */
  sweepAttachments(): Promise<{ removed: string[]; kept: number }>;
  /** Stop MCP servers. */
  close(): Promise<void>;
};

export function composeServices(options: ComposeOptions): Services {
  const { dataDir, settings, secrets } = options;
  const secretValues = () => [...secrets.knownValues(), ...(options.mcpTokens?.knownValues() ?? []), ...mcpSecretValues(settings.current())];
  const scrubLine = (text: string) => scrubSecrets(text, secretValues());
  const sink = options.log ?? ((line: string) => console.error(`[glance] ${line}`));
  const log = (line: string) => sink(scrubLine(line));

  const current = settings.current();
  const core = createCore({
    dataDir,
    limits: { ...current.limits, ...options.limits },
    // Read at each path a model names: a folder allowed (or taken away) in Settings applies at once.
    allowedRoots: () => settings.current().allowedRoots,
    ...(options.capturer ? { capturer: options.capturer, ...(options.windowText ? { windowText: options.windowText } : {}) } : {}),
    ...(options.allowLoopbackFetch ? { allowLoopbackFetch: true } : {}),
    ...(options.ocr ? { ocr: options.ocr } : {}),
    ...(options.onDamaged ? { onDamaged: options.onDamaged } : {}),
    secrets: secretValues,
    // Read at each image: a change in Settings → Privacy applies to the next one.
    privacy: () => settings.current().privacy,
    ...(options.readAhead ? { readAhead: () => offThisComputer(settings.current()) } : {}),
  });

  // Limits apply live: the intake, the tools and the engine read this one object at each use.
  const offLimits = settings.onChange?.((next) => Object.assign(core.limits, next.limits, options.limits));

  let hub: McpHub | undefined;
  let offMcp: (() => void) | undefined;
  let offRoots: (() => void) | undefined;
  if (!options.noMcp) {
    const env = options.env ?? process.env;
    const fromSettings = (from: Pick<typeof current, 'mcpServers' | 'mcpInputs'>): McpConfig => {
      const parsed = parseMcpConfig({ mcpServers: from.mcpServers, inputs: from.mcpInputs }, { env });
      for (const error of parsed.errors) log(`MCP ${formatConfigError(error)}`);
      for (const warning of parsed.warnings) log(`MCP warning: ${formatConfigError(warning)}`);
      return parsed;
    };
    const config = options.mcpConfig ?? fromSettings(current);
    // A config given explicitly (the CLI's) gets a hub even when empty: it answers "no servers".
    if (config.servers.size > 0 || options.mcpConfig || options.liveMcp) {
      hub = createMcpHub({
        config,
        intake: core.intake,
        dataDir,
        // The allowed folders (the defaults when the person set none, with each server's own).
        roots: (server) => serverRoots({ chosen: settings.current().allowedRoots, defaults: defaultAllowedRoots(dataDir) }, server),
        log,
        ...(options.mcpInteraction ? { interaction: options.mcpInteraction } : {}),
        tokens: options.mcpTokens ?? secrets,
        parentEnv: env,
        ingestBytes: core.limits.ingestBytes,
        storeLimits: () => core.limits,
        // Read at each turn: Settings → Limits applies live.
        turnWaitMs: () => core.limits.mcpTurnWaitMs,
        ...(options.onMcpFailure ? { onFailure: options.onMcpFailure } : {}),
      });
      core.tools.addProvider(mcpToolProvider(hub));
    }
    if (hub && settings.onChange) {
      // Servers that asked for roots hear of a change to the allowed folders (roots/list_changed).
      const live = hub;
      let offered = JSON.stringify(current.allowedRoots);
      offRoots = settings.onChange((next) => {
        const now = JSON.stringify(next.allowedRoots);
        if (now === offered) return;
        offered = now;
        void live.rootsChanged();
      });
    }
    if (hub && options.liveMcp && !options.mcpConfig) {
      const live = hub;
      const servers = (s: typeof current) => JSON.stringify([s.mcpServers, s.mcpInputs]);
      let applied = servers(current);
      offMcp = settings.onChange?.((next) => {
        const wanted = servers(next);
        if (wanted === applied) return;
        applied = wanted;
        void live.reconfigure(fromSettings(next)).then(
          (d) => log(`MCP servers applied: ${describeReconfigure(d)}`),
          (error: unknown) => log(`MCP servers could not be applied: ${errorMessage(error)}`),
        );
      });
      // At launch, in the background: a broken server shows in Settings before first use. One
      // that may ask the person (an input, a sign-in) waits until there is a window to ask in.
      void live.startAll({ unattended: true });
    }
  }

  const models = createModelResolver({ settings, secrets, ...(options.endpoint ? { endpoint: options.endpoint } : {}) });
  return {
    ...core,
    settings,
    secrets,
    models,
    ...(hub ? { hub } : {}),
    scrubSecrets: scrubLine,
    log,
    sweepAttachments: () => sweepAttachments({ ...core, retentionDays: settings.current().attachments.retentionDays }),
    close: async () => {
      offLimits?.();
      offMcp?.();
      offRoots?.();
      await hub?.close();
      await core.close();
    },
  };
}

function describeReconfigure(d: McpReconfigured): string {
  const parts = [d.added.length && `started ${d.added.join(', ')}`, d.restarted.length && `restarted ${d.restarted.join(', ')}`, d.removed.length && `stopped ${d.removed.join(', ')}`].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no server changed';
}

/** Settings that never change (the CLI reads the app's file once and never writes it). */
export function fixedSettings(value: ReturnType<SettingsSource['current']>): SettingsSource {
  return { current: () => value };
}

type CoreOptions = {
  dataDir: string;
  limits?: Partial<Limits>;
  /** The folders a model-named path must stay under, read at each use; empty or absent: the user's picture/desktop/download folders. */
  allowedRoots?: () => readonly string[];
  /** Without a capturer there is no screenshot_desktop tool. */
  capturer?: ScreenCapturer;
  windowText?: WindowText;
  /** Extra tool sources (the MCP hub). */
  toolProviders?: ToolProvider[];
  systemPrompt?: string;
  /** Secret values (keys, MCP tokens) stripped from error text wherever it surfaces. */
  secrets?: () => Iterable<string>;
  /** Test-only: let http(s) image sources reach loopback fixture servers. */
  allowLoopbackFetch?: boolean;
  /** Local OCR (read_text, text for blind models). Default: tesseract.js, started on first use. */
  ocr?: TextReader;
  /** A stored file was found damaged and set aside or left out. */
  onDamaged?: OnDamaged;
  /**
   * The privacy settings (redaction before a model gets an image or its text). composeServices
   * always passes the settings' section; without it (unit tests of other parts) no copy is redacted.
   */
  privacy?: () => PrivacySettings;
  /** Whether images that enter for a model on this computer are read for secrets in the background too (ComposeOptions.readAhead). */
  readAhead?: () => boolean;
};

type GlanceCore = {
  dataDir: string;
  limits: Limits;
  intake: ImageIntake;
  /** The one way out: what leaves for a model or an MCP client, for its target (architecture §3b). */
  egress: Egress;
  attachments: FileAttachmentStore;
  conversations: ConversationStore;
  /** What the message box held, per conversation, across reloads and restarts. */
  drafts: DraftStore;
  tools: ToolRegistry;
  engine: ChatEngine;
  ocr: TextReader;
  /** A window's own words from accessibility (architecture §7), where there is a capturer. */
  windowText?: WindowText;
  /** Those words kept beside the images they came with (read_text, "This window"). */
  windowTexts: WindowTextShelf;
  /** Ends what runs beside the event loop (the OCR worker thread). */
  close(): Promise<void>;
};

/** The door's redact stage, reading words with the same local OCR as read_text (its readings are shared). */
function redactStage(ocr: TextReader, limits: Limits, privacy: () => PrivacySettings, kept: FileAttachmentStore, readAhead: (() => boolean) | undefined): RedactStage {
  return new RedactStage({
    privacy,
    limits,
    ...(readAhead ? { readAhead } : {}),
    // What is found is kept with the original (architecture §3b): a later send, zoom or process reuses it.
    kept,
    readWords: (image, signal) => readImageWords(ocr, image, { limits, timeoutMs: REDACT_OCR_TIMEOUT_MS, ...(signal ? { signal } : {}) }),
  });
}

/** A model server off this computer is configured: Ollama's host, or an OpenAI-compatible endpoint (architecture §3b "This computer"). */
function offThisComputer(settings: ReturnType<SettingsSource['current']>): boolean {
  return !isThisComputer(settings.providers.ollama.host) || settings.providers.openai.some((e) => !isThisComputer(e.baseUrl));
}

/** Past this, an image is refused for a remote model rather than sent unchecked (a 4K screen reads in seconds). */
const REDACT_OCR_TIMEOUT_MS = 90_000;

/**
 * The services below the MCP hub and the model resolver: one intake, one attachment store, one
 * engine. Only composeServices calls it, so every entry (and every test) runs this one core.
 */
function createCore(options: CoreOptions): GlanceCore {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const damaged = options.onDamaged ? { onDamaged: options.onDamaged } : {};
  const attachments = new FileAttachmentStore(options.dataDir, damaged);
  const conversations = new ConversationStore(options.dataDir, damaged);
  const drafts = new DraftStore(options.dataDir, damaged);
  // Bytes a killed process left without a record, and its saves' temp files; close() waits for them.
  const swept = Promise.all([attachments.sweepOrphans(), conversations.sweepTemps(), drafts.sweepTemps()]).catch(() => undefined);
  // Text blocks only, on one tesseract worker per core, blocks already read not read again.
  const ocr = new RememberingReader(options.ocr ?? new RegionReader(new ReaderPool(() => new TesseractReader())));
  const defaults = defaultAllowedRoots(options.dataDir);
  const intake = new ImageIntake({
    config: {
      limits,
      get allowedRoots() {
        const chosen = options.allowedRoots?.() ?? [];
        return chosen.length > 0 ? chosen : defaults;
      },
      allowLoopbackFetch: options.allowLoopbackFetch,
    },
    store: attachments,
    readText: imageTextReader(ocr, limits),
    ...(options.privacy ? { pixelStage: redactStage(ocr, limits, options.privacy, attachments, options.readAhead) } : {}),
  });
  // The one way out (architecture §3b): what a request carries, for that request's model.
  const egress = new Egress({ intake, store: attachments });
  // A window capture's own words, kept for read_text on that image.
  const windowTexts = new WindowTextShelf();
  // A window's words are read with the secret rules at hand: each secret in them gets its own box (architecture §7).
  const windowText = options.capturer ? (options.windowText ?? windowTextFor(process.platform, process.env, { find: (text) => intake.secretsIn(text) })) : undefined;
  const tools = new ToolRegistry()
    .add(showAttachmentTool(attachments))
    .add(analyzeImageTool(intake, attachments))
    .add(zoomImageTool({ store: attachments, intake }))
    .add(readTextTool({ store: attachments, intake, ocr, limits, windowTexts }));
  if (options.capturer) tools.add(screenshotDesktopTool({ capturer: options.capturer, intake, egress, windowTexts, ...(windowText ? { windowText } : {}) })).add(listWindowsTool({ capturer: options.capturer, egress }));
  for (const provider of options.toolProviders ?? []) tools.addProvider(provider);
  const privacy = options.privacy;
  const engine = new ChatEngine({
    conversations,
    attachments,
    intake,
    egress,
    tools,
    limits,
    systemPrompt: options.systemPrompt,
    windowTextOf: (image) => {
      const kept = windowTexts.get(image);
      return kept && keptForModel(kept);
    },
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(privacy ? { redactFor: (id: string) => privacy().conversations[id] } : {}),
  });
  const close = async () => {
    await swept;
    await ocr.close();
  };
  return { dataDir: options.dataDir, limits, intake, egress, attachments, conversations, drafts, tools, engine, ocr, windowTexts, ...(windowText ? { windowText } : {}), close };
}
