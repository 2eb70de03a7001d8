import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../common/limits.ts';
import type { PrivacySettings } from '../../common/privacy.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import { ChatEngine } from '../chat/chatEngine.ts';
import { ConversationStore } from '../chat/conversationStore.ts';
import { FileAttachmentStore } from '../images/attachmentStore.ts';
import { ImageIntake } from '../images/imageIntake.ts';
import { RedactStage } from '../images/redactStage.ts';
import { readImageWords } from '../ocr/readImageWords.ts';
import { imageTextReader } from '../ocr/readImageText.ts';
import { ReaderPool } from '../ocr/readerPool.ts';
import { RegionReader } from '../ocr/regionReader.ts';
import { RememberingReader } from '../ocr/rememberedReadings.ts';
import { TesseractReader } from '../ocr/tesseractReader.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { analyzeImageTool } from '../tools/analyzeImage.ts';
import { readTextTool } from '../tools/readText.ts';
import { screenshotDesktopTool } from '../tools/screenshotDesktop.ts';
import { listWindowsTool } from '../tools/listWindows.ts';
import { showAttachmentTool } from '../tools/showAttachment.ts';
import { ToolRegistry, type ToolProvider } from '../tools/tool.ts';
import { zoomImageTool } from '../tools/zoomImage.ts';

export type CoreOptions = {
  dataDir: string;
  limits?: Partial<Limits>;
  /** Roots a model-requested path must stay under. Default: the user's picture/desktop/download folders. */
  allowedRoots?: string[];
  /** Without a capturer there is no screenshot_desktop tool. */
  capturer?: ScreenCapturer;
  /** Extra tool sources (the MCP hub). */
  toolProviders?: ToolProvider[];
  systemPrompt?: string;
  /** Secret values (keys, MCP tokens) stripped from error text wherever it surfaces. */
  secrets?: () => Iterable<string>;
  /** Test-only: let http(s) image sources reach loopback fixture servers. */
  allowLoopbackFetch?: boolean;
  /** Local OCR (read_text, text for blind models). Default: tesseract.js, started on first use. */
  ocr?: TextReader;
  /**
   * The privacy settings (redaction before a model gets an image or its text). composeServices
   * always passes the settings' section; without it (unit tests of other parts) no copy is redacted.
   */
  privacy?: () => PrivacySettings;
};

export type GlanceCore = {
  dataDir: string;
  limits: Limits;
  intake: ImageIntake;
  attachments: FileAttachmentStore;
  conversations: ConversationStore;
  tools: ToolRegistry;
  engine: ChatEngine;
  ocr: TextReader;
  /** Ends what runs beside the event loop (the OCR worker thread). */
  close(): Promise<void>;
};

/**
 * The folders a model may read by default: the attachment store and the user's picture,
 * desktop and download folders. Not the temp folder: it holds other programs' (and users')
 * files, sockets and pipes.
 */
export function defaultAllowedRoots(dataDir: string): string[] {
  const home = homedir();
  return [join(dataDir, 'attachments'), join(home, 'Pictures'), join(home, 'Desktop'), join(home, 'Downloads')];
}

/** The door's redact stage, reading words with the same local OCR as read_text (its readings are shared). */
function redactStage(ocr: TextReader, limits: Limits, privacy: () => PrivacySettings): RedactStage {
  return new RedactStage({
    privacy,
    limits,
    readWords: (image, signal) => readImageWords(ocr, image, { limits, timeoutMs: REDACT_OCR_TIMEOUT_MS, ...(signal ? { signal } : {}) }),
  });
}

/** Past this, an image is refused for a remote model rather than sent unchecked (a 4K screen reads in seconds). */
const REDACT_OCR_TIMEOUT_MS = 90_000;

/**
 * The services every composition root shares (the Electron app, the CLI, the harness):
 * one intake, one attachment store, one engine. Each root adds what only it has.
 */
export function createCore(options: CoreOptions): GlanceCore {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const attachments = new FileAttachmentStore(options.dataDir);
  // Text blocks only, on one tesseract worker per core, blocks already read not read again.
  const ocr = new RememberingReader(options.ocr ?? new RegionReader(new ReaderPool(() => new TesseractReader())));
  const intake = new ImageIntake({
    config: { limits, allowedRoots: options.allowedRoots ?? defaultAllowedRoots(options.dataDir), allowLoopbackFetch: options.allowLoopbackFetch },
    store: attachments,
    readText: imageTextReader(ocr, limits),
    ...(options.privacy ? { pixelStage: redactStage(ocr, limits, options.privacy) } : {}),
  });
  const conversations = new ConversationStore(options.dataDir);
  const tools = new ToolRegistry()
    .add(showAttachmentTool(attachments))
    .add(analyzeImageTool(intake, attachments))
    .add(zoomImageTool({ store: attachments, intake }))
    .add(readTextTool({ store: attachments, intake, ocr, limits }));
  if (options.capturer) tools.add(screenshotDesktopTool({ capturer: options.capturer, intake })).add(listWindowsTool({ capturer: options.capturer }));
  for (const provider of options.toolProviders ?? []) tools.addProvider(provider);
  const privacy = options.privacy;
  const engine = new ChatEngine({
    conversations,
    attachments,
    intake,
    tools,
    limits,
    systemPrompt: options.systemPrompt,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(privacy ? { redactFor: (id: string) => privacy().conversations[id] } : {}),
  });
  return { dataDir: options.dataDir, limits, intake, attachments, conversations, tools, engine, ocr, close: () => ocr.close() };
}
