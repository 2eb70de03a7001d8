// Issue 10 end to end: a real engine and real providers against the fixture model server, whose
// models report Ollama model_info (or OpenRouter ids) and which applies each server's own
// transform to the images it receives, independently of Glance's prediction.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBarChart } from '../fixtures/chart.ts';
import { DEFAULT_MODELS, VISION_MODELS } from '../fixtures/modelServer.ts';
import { engineSuite, ofType, type Harness } from './engineHarness.ts';

const suite = engineSuite({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
const server = suite.server;
let h: Harness;
let screen: Buffer;

beforeAll(async () => {
  // The known-answer chart blown up to a 16:9 4K screen: big enough that every rule resizes it.
  screen = await sharp(await makeBarChart()).resize(3840, 2160, { fit: 'fill', kernel: 'nearest' }).png().toBuffer();
});


describe('each model gets the image its server uses, and Glance says what the encoder sees', () => {
  it.each([
    // model, provider, what Glance sends, what the server's encoder gets, tokens
    ['gemma3:4b', 'ollama', [896, 896], [896, 896], 256],
    ['qwen2.5vl:7b', 'ollama', [2393, 1346], [2380, 1344], 4080],
    ['llama3.2-vision:11b', 'ollama', [1120, 630], [1120, 630], null],
    ['anthropic/claude-sonnet-4.5', 'openai', [1456, 819], [1456, 819], 1560],
    ['gpt-4o', 'openai', [1365, 768], [1365, 768], 1105],
  ] as const)('%s (%s)', async (model, kind, sent, input, tokens) => {
    h = await suite.harness();
    // OpenAI's own /v1/models says nothing about vision: declared, as in Settings.
    const vision = model === 'gpt-4o' ? { vision: 'yes' as const } : {};
    const { outcome, events } = await h.turn({ model, kind, ...vision, text: 'What is on the chart?', attachments: [{ source: screen, name: 'screen.png', origin: 'user', requestedBy: 'user' }] });
    expect(outcome.status).toBe('done');
    const received = server().requests.at(-1)!.images[0]!;
    // What arrived: never more pixels than the server keeps.
    expect([received.width, received.height]).toEqual(sent);
    // The fixture's own transform agrees with Glance's prediction…
    expect(received.encoder).toMatchObject({ width: input[0], height: input[1], tokens });
    // …and the known answer survives it.
    expect(received.encoder!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    const attached = ofType(events, 'image_attached')[0]!;
    expect(attached).toMatchObject({ width: sent[0], height: sent[1], modelInput: { width: input[0], height: input[1] }, tokens });
    expect(attached.legibility?.textPx).toBeGreaterThan(0);
  });

  it('labels every image the model is shown, and warns when small text will not survive the resize', async () => {
    h = await suite.harness();
    await h.turn({ model: 'gemma3:4b', text: 'Read the code on my screen.', attachments: [{ source: screen, name: 'screen.png', origin: 'user', requestedBy: 'user' }] });
    const user = server().requests.at(-1)!.messages.findLast((m) => m.role === 'user')!;
    expect(user.text).toMatch(/^Read the code on my screen\.\n\n\[image [a-f0-9]{16}: screen\.png, shown as 896×896, ≈256 tokens, small text is likely unreadable at this size \(≈3\.3 px\)/);
    h = await suite.harness();
    await h.turn({ model: 'qwen2.5vl:7b', text: 'And now?', attachments: [{ source: await sharp(screen).resize(1280, 720).png().toBuffer(), name: 'small.png', origin: 'user', requestedBy: 'user' }] });
    const legible = server().requests.at(-1)!.messages.findLast((m) => m.role === 'user')!;
    expect(legible.text).toMatch(/\[image [a-f0-9]{16}: small\.png, shown as 1280×720, your encoder sees 1288×728, ≈\d+ tokens\]$/);
  });

  it('a model Glance does not know keeps the provider default profile and an unknown encoder size', async () => {
    h = await suite.harness();
    const { events } = await h.turn({ model: 'llava-seer', text: 'hi', attachments: [{ source: screen, name: 'screen.png', origin: 'user', requestedBy: 'user' }] });
    expect(server().requests.at(-1)!.images[0]).toMatchObject({ width: 1568, height: 882 });
    expect(ofType(events, 'image_attached')[0]).toMatchObject({ modelInput: null, tokens: null });
  });
});

describe('history within the context window', () => {
  it('Ollama gets num_ctx for what the request needs, within the model maximum', async () => {
    h = await suite.harness();
    await h.turn({ model: 'gemma3:4b', text: 'hello' });
    // gemma3:4b runs 4096 by default (its Modelfile) and this request is small.
    const options = (server().requests.at(-1)!.body as { options?: { num_ctx?: number } }).options;
    expect(options?.num_ctx).toBe(4096);
    // A remote model gets no num_ctx (its server has its own window).
    await h.turn({ model: 'gpt-4o', kind: 'openai', vision: 'yes', text: 'hello' });
    expect(JSON.stringify(server().requests.at(-1)!.body)).not.toMatch(/num_ctx/);
  });

  it('older turns are dropped with a stub once the conversation outgrows the window; the new question always goes', async () => {
    h = await suite.harness();
    // llava-seer: context_length 8192 (model_info), so the budget is 8192 less room for the answer.
    const long = 'word '.repeat(2400); // ≈ 3.4k tokens a turn, the fixture echoes it back
    let conversationId: string | undefined;
    for (let n = 1; n <= 4; n++) {
      const { outcome } = await h.turn({ model: 'llava-seer', text: `turn ${n}: ${long}`, ...(conversationId ? { conversationId } : {}) });
      expect(outcome.status).toBe('done');
      conversationId = outcome.conversationId;
    }
    const last = server().requests.at(-1)!;
    const system = last.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.text).toMatch(/earlier turns? of this conversation (was|were) left out to fit the model's context window \(8192 tokens\)\. The user had asked: "turn 1: word word/);
    expect(last.messages.at(-1)!.text).toMatch(/^turn 4: /);
    expect(last.messages.some((m) => m.text.startsWith('turn 1:'))).toBe(false);
    expect((last.body as { options?: { num_ctx?: number } }).options?.num_ctx).toBe(8192);
  });
});
