// The hotkey's whole-capture path (capture:screenshot, then chat:send from the ask window) under a
// real X server: the capture is fitted to the model's own image rule, exactly like a drop — gemma3
// gets 896×896, qwen2.5-vl the whole 1920×1080 screen (its server keeps it), a model Glance does
// not know the Ollama default 1568×882.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttachmentInfo } from '../../common/images.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { apiHarness, value, type ApiHarness } from './apiHarness.ts';

let x: XServer;
let screen: ScreenPage;
let server: ModelServer;
let api: ApiHarness;
let call: ApiHarness['call'];
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const done = async (turnId: string) => void (await api.turnEvents(turnId));

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(capturer));
  server = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [] }, capturer, prefix: 'glance-ask-capture-' });
  call = api.call;
}, 120_000);

afterAll(async () => {
  await api?.close();
  await server?.close();
  await screen?.close();
  await x?.stop();
});

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
