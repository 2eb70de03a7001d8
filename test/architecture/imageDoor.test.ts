// One door for every image (architecture §3): every entry that brings an image — attach, paste,
// drop, the hotkey, a crop, a turn's images, a blind model's OCR, screenshot_desktop, zoom_image,
// read_text, analyze_image, MCP captures, `glance check-image` — goes through ImageIntake.admit,
// and only the door writes to the attachment store: each image is gated and stored once.
// The entries run for real (the typed API, the tools, binary capture, the CLI command) over one
// composition; the door and the store are counted at their prototypes, so a second intake or a
// store written behind the door's back is counted too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AttachmentInfo } from '../../common/images.ts';
import { createApiHandlers } from '../../main/api/apiHandlers.ts';
import { createIpcRouter } from '../../main/api/ipcRouter.ts';
import type { Capture, DisplayInfo, ScreenCapturer } from '../../main/capture/screenCapturer.ts';
import { checkImageCommand } from '../../main/cli/checkImage.ts';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import { targetFor } from '../../main/images/profiles.ts';
import type { AdmitPurpose } from '../../main/images/types.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import type { ToolContext } from '../../main/tools/tool.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { quadrantImage } from '../fixtures/images.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { invoiceLines, textImage } from '../fixtures/textImage.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

const DISPLAY: DisplayInfo = { id: 'd1', name: 'Fixture', x: 0, y: 0, width: 320, height: 200, scaleFactor: 1, primary: true };
// The capture port with a generated screen: routing is under test here, real capture is in test/capture.
const capturer: ScreenCapturer = {
  listDisplays: async () => [DISPLAY],
  listWindows: async () => [],
  capture: async () => {
    const png = await quadrantImage('png', 320, 200);
    const capture: Capture = { png, width: 320, height: 200, display: DISPLAY, capturedAt: new Date().toISOString() };
    return { ok: true, capture };
  },
};

let server: ModelServer;
let dataDir: string;
let services: Services;
let call: (channel: string, payload?: unknown) => Promise<{ ok: boolean; value?: unknown; code?: string; message?: string }>;
const admits: AdmitPurpose[] = [];
let puts = 0;

const seeing = { provider: 'ollama', name: 'llava-seer' } as const;
const seer = () => targetFor('ollama', 'llava-seer', undefined, 'yes');

/** Runs `entry` and returns what reached the door and the store meanwhile. */
async function through(entry: () => Promise<unknown>): Promise<{ admits: AdmitPurpose[]; puts: number; result: unknown }> {
  admits.length = 0;
  puts = 0;
  const result = await entry();
  return { admits: [...admits], puts, result };
}

function toolContext(shown: string[] = []): ToolContext {
  return { signal: new AbortController().signal, onProgress: () => undefined, imageTarget: seer(), images: { shown, retracted: [] }, describe: async (ids) => `seen ${ids.join(',')}` };
}

async function tool(name: string) {
  const found = services.tools.peek(true).find((t) => t.spec.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function attachChart(): Promise<AttachmentInfo> {
  const added = await call('attachments:add', { source: { kind: 'bytes', name: 'chart.png', bytes: await makeBarChart() }, model: seeing });
  if (!added.ok) throw new Error(added.message);
  return added.value as AttachmentInfo;
}

beforeAll(async () => {
  server = await createModelServer();
  dataDir = await mkdtemp(join(tmpdir(), 'glance-door-'));
  const settings = new SettingsStore({ dataDir });
  await settings.load();
  await settings.update({ providers: { ollama: { host: server.url }, openai: [] }, allowedRoots: [dataDir] });
  services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), log: () => undefined, capturer, ocr: new TesseractReader(), noMcp: true });
  const handlers = createApiHandlers({ services, settingsStore: settings, capturer, emit: () => undefined, shell: { version: '0', platform: 'linux' } });
  const router = createIpcRouter({ handlers, isTrustedSender: () => true });
  call = (channel, payload = {}) => router.handle(channel, { url: 'app://glance/', isMainFrame: true }, payload) as never;
  const admit = ImageIntake.prototype.admit;
  vi.spyOn(ImageIntake.prototype, 'admit').mockImplementation(function (this: ImageIntake, ...args: Parameters<typeof admit>) {
    admits.push(args[2]);
    return (admit as (...a: unknown[]) => Promise<unknown>).apply(this, args) as never;
  });
  const put = FileAttachmentStore.prototype.put;
  vi.spyOn(FileAttachmentStore.prototype, 'put').mockImplementation(function (this: FileAttachmentStore, ...args: Parameters<typeof put>) {
    puts++;
    return put.apply(this, args);
  });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await services?.close();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(() => server.reset());

describe('every image entry goes through the one door, and is stored once', () => {
  it('drop / picker: a file path (attachments:add)', async () => {
    const path = join(dataDir, 'dropped.png');
    await writeFile(path, await quadrantImage('png'));
    const seen = await through(() => call('attachments:add', { source: { kind: 'path', path }, model: seeing }));
    expect(seen.result).toMatchObject({ ok: true });
    expect(seen).toMatchObject({ admits: ['user'], puts: 1 });
  });

  it('paste / drop: bytes (attachments:add)', async () => {
    const bytes = await quadrantImage('png');
    const seen = await through(() => call('attachments:add', { source: { kind: 'bytes', name: 'pasted.png', bytes }, model: seeing }));
    expect(seen).toMatchObject({ admits: ['user'], puts: 1, result: { ok: true } });
  });

  it('a refused image reaches the door and nothing is stored', async () => {
    const seen = await through(() => call('attachments:add', { source: { kind: 'bytes', name: 'x.png', bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>') }, model: seeing }));
    expect(seen).toMatchObject({ admits: ['user'], puts: 0, result: { ok: false, code: 'not-an-image' } });
  });

  it('the hotkey and the Screenshot button (capture:screenshot)', async () => {
    const seen = await through(() => call('capture:screenshot', { display: 'under-cursor', model: seeing }));
    expect(seen).toMatchObject({ admits: ['user'], puts: 1, result: { ok: true } });
  });

  it("the ask window's crop (attachments:crop)", async () => {
    const chart = await attachChart();
    const seen = await through(() => call('attachments:crop', { id: chart.id, region: { x: 0, y: 0, width: 100, height: 80 }, model: seeing }));
    expect(seen).toMatchObject({ admits: ['user'], puts: 1, result: { ok: true } });
  });

  it("a turn's attachments: a stored image is re-gated for the model and not stored again", async () => {
    const chart = await attachChart();
    const seen = await through(async () => {
      const sent = await services.engine.runTurn(
        { text: 'What is this?', attachments: [{ attachmentId: chart.id }], chat: await services.models.choiceFor(seeing) },
        () => undefined,
      );
      return sent;
    });
    expect(seen.result).toMatchObject({ status: 'done' });
    expect(seen).toMatchObject({ admits: ['user'], puts: 0 });
  });

  it('a blind model with no helper: the door reads the text (OCR) and stores the image once', async () => {
    const page = await textImage({ lines: invoiceLines(3), width: 640, height: 200, x: 20, y: 20, fontPx: 22 });
    const seen = await through(() => call('attachments:add', { source: { kind: 'bytes', name: 'invoice.png', bytes: page.png }, model: { provider: 'ollama', name: 'blind-llm' } }));
    expect(seen).toMatchObject({ admits: ['user'], puts: 1, result: { ok: true } });
  }, 120_000);

  it('screenshot_desktop', async () => {
    const seen = await through(async () => (await tool('screenshot_desktop')).run({}, toolContext()));
    expect(seen).toMatchObject({ admits: ['tool'], puts: 1, result: { ok: true } });
  });

  it('zoom_image: the region comes out of the door (read) and goes back in (tool)', async () => {
    const chart = await attachChart();
    const seen = await through(async () => (await tool('zoom_image')).run({ image: chart.id, x: 0, y: 0, width: 120, height: 90 }, toolContext([chart.id])));
    expect(seen).toMatchObject({ admits: ['read', 'tool'], puts: 1, result: { ok: true } });
  });

  it('read_text: the pixels come out of the door, nothing is stored', async () => {
    const chart = await attachChart();
    const seen = await through(async () => (await tool('read_text')).run({ image: chart.id }, toolContext([chart.id])));
    expect(seen).toMatchObject({ admits: ['read'], puts: 0, result: { ok: true } });
  }, 60_000);

  it('analyze_image with a path', async () => {
    const path = join(dataDir, 'analyze.png');
    await writeFile(path, await quadrantImage('png'));
    const seen = await through(async () => (await tool('analyze_image')).run({ source: path, prompt: 'what?' }, toolContext()));
    expect(seen).toMatchObject({ admits: ['tool'], puts: 1, result: { ok: true } });
  });

  it('an MCP result image (binary capture)', async () => {
    const capture = new BinaryCapture({ intake: services.intake, capturesDir: join(dataDir, 'captures') });
    const png = await quadrantImage('png');
    const seen = await through(() =>
      capture.process({ content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] }, { server: 's', tool: 't', origin: 's__t', rules: [], imageTarget: seer() }),
    );
    expect(seen).toMatchObject({ admits: ['capture'], puts: 1 });
    expect((seen.result as { images: unknown[] }).images).toHaveLength(1);
  });

  it('glance check-image: through the door, nothing stored', async () => {
    const path = join(dataDir, 'check.png');
    await writeFile(path, await quadrantImage('png'));
    let out = '';
    const io = { out: (t: string) => void (out += t), err: () => undefined, env: { GLANCE_DATA_DIR: dataDir, OLLAMA_HOST: server.url } };
    const seen = await through(() => checkImageCommand.run([path, '--json'], io));
    expect(seen).toMatchObject({ admits: ['check'], puts: 0, result: 0 });
    expect(JSON.parse(out)).toMatchObject({ ok: true, width: 64, height: 48 });
  });
});

describe('no second door in the product code', () => {
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return files(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  const product = [...files('main'), ...files('common')];

  it('only the door writes an image to the store', () => {
    const writers = product.filter((f) => /\.put\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(writers.sort()).toEqual(['main/images/blindText.ts', 'main/images/imageIntake.ts']);
  });

  it('one intake, built by the composition; only the door decides to read an image as text for a blind model', () => {
    const intakes = product.filter((f) => /new ImageIntake\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(intakes).toEqual(['main/core/composeServices.ts']);
    const deciders = product.filter((f) => /\basText\(|hasText\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(deciders.sort()).toEqual(['main/images/blindText.ts', 'main/images/imageIntake.ts', 'main/ocr/readImageText.ts']);
    expect(product).not.toContain('main/chat/transcribeForBlind.ts');
  });
});
