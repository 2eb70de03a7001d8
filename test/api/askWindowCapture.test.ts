// The hotkey's whole-capture path (capture:screenshot, then chat:send from the ask window) under a
// real X server: the capture is fitted to the model's own image rule, exactly like a drop — gemma3
// gets 896×896, qwen2.5-vl the whole 1920×1080 screen (its server keeps it), a model Glance does
// not know the Ollama default 1568×882.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../common/events.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { IpcResult } from '../../common/ipc.ts';
import { createApiHandlers } from '../../main/api/apiHandlers.ts';
import { createIpcRouter } from '../../main/api/ipcRouter.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { composeServices } from '../../main/core/composeServices.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';

let x: XServer;
let screen: ScreenPage;
let server: ModelServer;
let dataDir: string;
let call: (channel: string, payload?: unknown) => Promise<IpcResult<unknown>>;
const pushed: { channel: string; payload: unknown }[] = [];
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(capturer));
  server = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
  dataDir = await mkdtemp(join(tmpdir(), 'glance-ask-capture-'));
  const settings = new SettingsStore({ dataDir });
  await settings.load();
  await settings.update({ providers: { ollama: { host: server.url }, openai: [] } });
  const services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), log: () => undefined, capturer });
  const handlers = createApiHandlers({ services, settingsStore: settings, capturer, emit: (channel, payload) => pushed.push({ channel, payload }), shell: { version: '0.1.0', platform: 'linux' } });
  const router = createIpcRouter({ handlers, isTrustedSender: (s) => s.url === 'app://glance/' });
  call = (channel, payload = {}) => router.handle(channel, { url: 'app://glance/', isMainFrame: true }, payload);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await screen?.close();
  await x?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function value<T>(result: IpcResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value as T;
}

async function done(turnId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (pushed.some((p) => p.channel === 'chat:event' && (p.payload as { turnId: string }).turnId === turnId && (p.payload as { event: ChatEvent }).event.type === 'done')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('turn did not finish');
}

describe('the ask window’s whole capture follows the model’s image rule', () => {
  it.each([
    ['gemma3:4b', [896, 896], { width: 896, height: 896 }, 256],
    ['qwen2.5vl:7b', [1920, 1080], { width: 1932, height: 1092 }, 69 * 39],
    ['llava-seer', [1568, 882], null, null],
  ] as const)('%s', async (name, sent, modelInput, tokens) => {
    const model = { provider: 'ollama', name } as const;
    const shot = value<AttachmentInfo>(await call('capture:screenshot', { display: 'under-cursor', model }));
    expect([shot.width, shot.height]).toEqual(sent);
    expect(shot).toMatchObject({ modelInput, tokens, source: { width: 1920, height: 1080 } });
    const turnId = `ask-${name.replace(/[^a-z0-9]/g, '')}`;
    value(await call('chat:send', { turnId, text: 'What is on my screen?', attachmentIds: [shot.id], model }));
    await done(turnId);
    const received = server.requests.at(-1)!.images[0]!;
    expect([received.width, received.height]).toEqual(sent);
    expect(received.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });
});
