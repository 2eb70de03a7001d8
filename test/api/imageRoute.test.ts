// One route (architecture §3b "One route"): how a chat's images go — to the chat model, through a
// vision helper, as local OCR's text, or not at all, under which policy — is decided once in main
// (imageRoute) and handed to the window (`models:route`, and the verdict on each attach), through
// the real router and core against the fixture model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageRouteView, PreviewAttachment } from '../../common/ipcPayloads.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { textImage } from '../fixtures/textImage.ts';
import { apiHarness, value, type ApiHarness } from './apiHarness.ts';

let server: ModelServer;
let api: ApiHarness;
const seer = { provider: 'ollama', name: 'llava-seer:latest' } as const;
const blind = { provider: 'ollama', name: 'blind-llm:latest' } as const;
const mystery = { provider: 'ollama', name: 'mystery:latest' } as const;

beforeAll(async () => {
  server = await createModelServer();
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [] }, prefix: 'glance-route-' });
});

afterAll(async () => {
  await api?.close();
  await server.close();
});

const route = async (request: object) => value<ImageRouteView>(await api.call('models:route', request));
const helper = async (visionHelper: typeof seer | typeof mystery | null) => value(await api.call('settings:set', { patch: { visionHelper } }));

describe('models:route', () => {
  it('a model that sees gets the pixels; on this computer nothing is hidden under the default policy', async () => {
    expect(await route({ model: seer })).toEqual({ chat: 'llava-seer:latest', way: 'pixels', policy: 'remote', hides: false, remote: false });
  });

  it('a blind model with a helper that cannot see either gets the text local OCR reads — not the helper’s description the list would suggest', async () => {
    await helper(mystery);
    try {
      expect(await route({ model: blind })).toMatchObject({ chat: 'blind-llm:latest', way: 'text' });
      expect((await route({ model: blind })).seer).toBeUndefined();
      // A chat model nobody says sees, with no seeing helper: refused until declared.
      expect(await route({ model: mystery })).toMatchObject({ way: 'unknown' });
    } finally {
      await helper(null);
    }
  });

  it('a blind model with a seeing helper: the helper describes, and the attach says so', async () => {
    await helper(seer);
    try {
      expect(await route({ model: blind })).toMatchObject({ chat: 'blind-llm:latest', way: 'described', seer: 'llava-seer:latest' });
      const added = value<PreviewAttachment>(await api.call('attachments:add', { source: { kind: 'bytes', name: 'chart.png', bytes: await makeBarChart() }, model: blind }));
      expect(added.describedBy).toBe('llava-seer:latest');
      expect(added.asText).toBeUndefined();
    } finally {
      await helper(null);
    }
  });

  it('a blind model without a helper: the attach carries main’s reading (characters and engine), not a guess', async () => {
    const image = await textImage({ lines: ['Invoice 4471 due 2026-12-31', 'Total 1,250.00 EUR'], width: 640, height: 200, fontPx: 22 });
    const added = value<PreviewAttachment>(await api.call('attachments:add', { source: { kind: 'bytes', name: 'invoice.png', bytes: image.png }, model: blind }));
    expect(added.asText?.chars).toBeGreaterThan(20);
    expect(added.asText?.engine).toMatch(/tesseract/i);
    expect(added.describedBy).toBeUndefined();
  });

  it('a conversation’s own policy is in the verdict: "always" hides even for a model on this computer', async () => {
    const conversationId = 'c0nv-route-always';
    value(await api.call('settings:set', { patch: { privacy: { conversations: { [conversationId]: 'always' } } } }));
    expect(await route({ model: seer, conversationId })).toMatchObject({ way: 'pixels', policy: 'always', hides: true });
    expect(await route({ model: seer })).toMatchObject({ policy: 'remote', hides: false });
  });
});
