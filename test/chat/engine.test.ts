import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Conversation } from '../../main/chat/conversation.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { SVG } from '../fixtures/images.ts';
import { chartTool, engineSuite, ofType } from './engineHarness.ts';
import { conversationFiles, hasBase64Run } from '../support/storedText.ts';

const suite = engineSuite();
const server = suite.server;
const harness = () => suite.harness();

describe('user-attached images', () => {
  for (const kind of ['ollama', 'openai'] as const) {
    it(`the known-answer chart reaches the ${kind} wire format as pixels on a user message`, async () => {
      const { turn, dataDir } = await harness();
      const chart = await makeBarChart();
      const { outcome, events } = await turn({
        kind,
        model: 'llava-seer',
        text: 'What does this chart show?',
        attachments: [{ source: chart, name: 'chart.png', origin: 'user', requestedBy: 'user' }],
      });
      expect(outcome.status).toBe('done');
      expect(outcome.text).toContain('red, green, blue');
      expect(outcome.text).toContain('tallest green');
      const req = server().requests.at(-1)!;
      expect(req.api).toBe(kind);
      expect(req.images).toHaveLength(1);
      expect(req.images[0]!.role).toBe('user');
      expect(req.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
      if (kind === 'ollama') {
        const body = req.body as { messages: { role: string; images?: string[] }[] };
        const withImages = body.messages.filter((m) => m.images?.length);
        expect(withImages.map((m) => m.role)).toEqual(['user']);
        // Raw base64, not a data URI and not a path.
        expect(withImages[0]!.images![0]).toMatch(/^[A-Za-z0-9+/]+=*$/);
      } else {
        const body = req.body as { messages: { role: string; content: unknown }[] };
        const user = body.messages.find((m) => m.role === 'user')!;
        const parts = user.content as { type: string; image_url?: { url: string } }[];
        expect(parts.find((p) => p.type === 'image_url')!.image_url!.url).toMatch(/^data:image\/(png|jpeg|webp|gif);base64,/);
      }
      expect(ofType(events, 'image_attached')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'done', conversationId: outcome.conversationId });
      for (const file of await conversationFiles(dataDir)) expect(hasBase64Run(file)).toBe(false);
    });
  }

  it('refuses an SVG before anything is sent', async () => {
    const { turn } = await harness();
    const { outcome, events } = await turn({ model: 'llava-seer', text: 'look', attachments: [{ source: new TextEncoder().encode(SVG), name: 'chart.png', origin: 'user', requestedBy: 'user' }] });
    expect(outcome.status).toBe('refused');
    expect(ofType(events, 'image_refused')[0]).toMatchObject({ code: 'not-an-image' });
    expect(ofType(events, 'image_refused')[0]!.message).toMatch(/SVG/);
    expect(server().requests).toHaveLength(0);
  });

  it('refuses images for a blind model and for one whose capability is unknown, with the way out', async () => {
    const { turn } = await harness();
    const chart = await makeBarChart();
    const blind = await turn({ model: 'blind-llm', text: 'look', attachments: [{ source: chart, origin: 'user', requestedBy: 'user' }] });
    expect(blind.outcome.status).toBe('refused');
    expect(ofType(blind.events, 'image_refused')[0]).toMatchObject({ code: 'model-blind' });
    expect(ofType(blind.events, 'image_refused')[0]!.message).toMatch(/vision helper|vision model/i);
    const unknown = await turn({ model: 'mystery', text: 'look', attachments: [{ source: chart, origin: 'user', requestedBy: 'user' }] });
    expect(ofType(unknown.events, 'image_refused')[0]).toMatchObject({ code: 'capability-unknown' });
    expect(ofType(unknown.events, 'image_refused')[0]!.message).toMatch(/--vision yes/);
    expect(server().requests).toHaveLength(0);
    // Declaring it (--vision yes) lets it through.
    const declared = await turn({ model: 'old-vision', vision: 'yes', text: 'look', attachments: [{ source: chart, origin: 'user', requestedBy: 'user' }] });
    expect(declared.outcome.status).toBe('done');
    expect(server().requests.at(-1)!.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('carries at most maxImagesPerRequest user images; older ones become stubs', async () => {
    const { turn } = await harness();
    let conversationId: string | undefined;
    for (let i = 0; i < 5; i++) {
      const chart = await makeBarChart({ width: 240 + i * 8 });
      const r = await turn({ conversationId, model: 'llava-seer', text: `image ${i}`, attachments: [{ source: chart, name: `c${i}.png`, origin: 'user', requestedBy: 'user' }] });
      conversationId = r.outcome.conversationId;
    }
    const last = server().requests.at(-1)!;
    expect(last.images).toHaveLength(4);
    // The oldest (240 px wide) is the one left out; its stub is in the first user message.
    expect(last.images.map((i) => i.width).sort()).toEqual([248, 256, 264, 272]);
    expect(last.messages.find((m) => m.role === 'user')!.text).toMatch(/no longer shown; call show_attachment/);
  });
});

describe('tool images: ephemeral delivery and retraction', () => {
  for (const kind of ['ollama', 'openai'] as const) {
    it(`delivers a captured image as a user turn in the same user turn, then retracts it (${kind})`, async () => {
      const hh = await harness();
      hh.core.tools.add(chartTool(hh.core));
      server().script({ toolCalls: [{ name: 'capture_chart', arguments: {} }] });
      const first = await hh.turn({ kind, model: 'llava-seer', text: 'Capture the chart and tell me about it.' });
      expect(first.outcome.status).toBe('done');
      expect(server().requests).toHaveLength(2);
      const second = server().requests[1]!;
      // The image rode a user message; the tool message holds only the descriptor.
      expect(second.images).toHaveLength(1);
      expect(second.images[0]!.role).toBe('user');
      expect(second.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
      const toolMessage = second.messages.find((m) => m.role === 'tool')!;
      expect(toolMessage.imageCount).toBe(0);
      expect(toolMessage.text).toMatch(/\[image [a-f0-9]{16}\]/);
      expect(hasBase64Run(toolMessage.text)).toBe(false);
      expect(first.outcome.text).toContain('red, green, blue');
      const delivered = ofType(first.events, 'image_delivered');
      const retracted = ofType(first.events, 'image_retracted');
      expect(delivered).toHaveLength(1);
      expect(retracted[0]!.attachmentIds).toEqual(delivered[0]!.attachmentIds);
      expect(first.events.map((e) => e.type).indexOf('image_retracted')).toBeLessThan(first.events.map((e) => e.type).indexOf('done'));

      // The next user turn carries no image, only the durable stub.
      const next = await hh.turn({ kind, conversationId: first.outcome.conversationId, model: 'llava-seer', text: 'And now?' });
      expect(next.outcome.status).toBe('done');
      const third = server().requests[2]!;
      expect(third.images).toHaveLength(0);
      expect(third.messages.some((m) => m.role === 'user' && /no longer shown; call show_attachment\("[a-f0-9]{16}"\)/.test(m.text))).toBe(true);
      for (const file of await conversationFiles(hh.dataDir)) expect(hasBase64Run(file)).toBe(false);
    });
  }

  it('cuts a model that captures forever off after maxImageDeliveriesPerTurn, with a notice', async () => {
    const hh = await harness();
    hh.core.tools.add(chartTool(hh.core));
    const again = { toolCalls: [{ name: 'capture_chart', arguments: {} }] };
    server().script(again, again, again, again, again, { text: 'Done looking.' });
    const { outcome, events } = await hh.turn({ model: 'llava-seer', text: 'keep looking' });
    expect(outcome.status).toBe('done');
    expect(ofType(events, 'image_delivered')).toHaveLength(3);
    const imagesPerRequest = server().requests.map((r) => r.images.length);
    // Each request carries the deliveries made so far in this turn; never more than 3.
    expect(Math.max(...imagesPerRequest)).toBe(3);
    const fourth = ofType(events, 'tool_result')[3]!;
    expect(fourth.text).toMatch(/limit of 3 image deliveries/);
    expect(server().requests.at(-1)!.messages.some((m) => m.role === 'tool' && /No more images will be shown/.test(m.text))).toBe(true);
  });

  it('show_attachment re-delivers a retracted image in a later turn, ephemerally', async () => {
    const hh = await harness();
    hh.core.tools.add(chartTool(hh.core));
    server().script({ toolCalls: [{ name: 'capture_chart', arguments: {} }] });
    const first = await hh.turn({ model: 'llava-seer', text: 'capture' });
    const id = ofType(first.events, 'image_delivered')[0]!.attachmentIds[0]!;
    server().reset();
    server().script({ toolCalls: [{ name: 'show_attachment', arguments: { attachmentId: id } }] });
    const second = await hh.turn({ conversationId: first.outcome.conversationId, model: 'llava-seer', text: 'look again' });
    expect(server().requests[0]!.images).toHaveLength(0);
    expect(server().requests[1]!.images).toHaveLength(1);
    expect(server().requests[1]!.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    expect(ofType(second.events, 'image_retracted')[0]!.attachmentIds).toEqual([id]);
  });
});

describe('blind models', () => {
  it('are offered no image tools', async () => {
    const hh = await harness();
    hh.core.tools.add(chartTool(hh.core));
    await hh.turn({ model: 'blind-llm', text: 'hello' });
    const offered = server().requests[0]!.toolNames;
    expect(offered).not.toContain('capture_chart');
    expect(offered).not.toContain('show_attachment');
    expect(offered).not.toContain('analyze_image');
  });

  it('with a vision helper: the helper sees, the blind model gets a description and zero images', async () => {
    const hh = await harness();
    hh.core.tools.add(chartTool(hh.core));
    server().script({ model: 'blind-llm', toolCalls: [{ name: 'capture_chart', arguments: {} }] });
    const chart = await makeBarChart();
    const { outcome, events } = await hh.turn({
      model: 'blind-llm',
      helper: 'llava-seer',
      text: 'What is in the picture?',
      attachments: [{ source: chart, name: 'chart.png', origin: 'user', requestedBy: 'user' }],
    });
    expect(outcome.status).toBe('done');
    const toBlind = server().requests.filter((r) => r.model.startsWith('blind-llm'));
    const toHelper = server().requests.filter((r) => r.model.startsWith('llava-seer'));
    expect(toBlind.length).toBeGreaterThanOrEqual(2);
    for (const r of toBlind) expect(r.images).toHaveLength(0);
    expect(toHelper.length).toBe(2); // the user's image, then the tool's capture
    for (const r of toHelper) expect(r.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    // The helper's words reached the blind model as text.
    expect(toBlind[0]!.messages.find((m) => m.role === 'user')!.text).toMatch(/red, green, blue/);
    expect(toBlind[1]!.messages.find((m) => m.role === 'tool')!.text).toMatch(/vision helper.*red, green, blue/s);
    expect(ofType(events, 'image_delivered')).toHaveLength(0);
  });
});

describe('failures keep what arrived', () => {
  it('a stream dropped mid-answer: error event, partial text kept, conversation file valid', async () => {
    const hh = await harness();
    server().script({ text: 'The first half of a long answer that then stops', fail: 'drop' });
    const { outcome, events } = await hh.turn({ model: 'llava-seer', text: 'tell me' });
    expect(outcome.status).toBe('failed');
    const error = ofType(events, 'error')[0]!;
    expect(error.code).toBe('interrupted');
    expect(events.at(-1)!.type).toBe('done');
    const partial = ofType(events, 'text').map((e) => e.delta).join('');
    expect(partial.length).toBeGreaterThan(0);
    const stored = Conversation.parse(JSON.parse(await readFile(hh.core.conversations.fileOf(outcome.conversationId), 'utf8')));
    const assistant = stored.messages.find((m) => m.role === 'assistant');
    expect(assistant).toMatchObject({ role: 'assistant', interrupted: 'error' });
    expect(assistant && 'text' in assistant ? assistant.text : '').toBe(partial);
    // The conversation goes on.
    const next = await hh.turn({ conversationId: outcome.conversationId, model: 'llava-seer', text: 'again' });
    expect(next.outcome.status).toBe('done');
  });

  it('a retry replaces the failed turn instead of repeating the user message', async () => {
    const hh = await harness();
    server().script({ text: 'partial', fail: 'drop', chunkDelayMs: 20 });
    const failed = await hh.turn({ model: 'llava-seer', text: 'tell me' });
    expect(failed.outcome.status).toBe('failed');
    const retried = await hh.turn({ conversationId: failed.outcome.conversationId, replaceLastTurn: true, model: 'llava-seer', text: 'tell me' });
    expect(retried.outcome.status).toBe('done');
    expect(server().requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['tell me']);
    const stored = await hh.core.conversations.get(failed.outcome.conversationId);
    expect(stored!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored!.messages[1]).not.toHaveProperty('interrupted');
    // Retrying something that was never stored (or already answered) replaces nothing.
    const again = await hh.turn({ conversationId: failed.outcome.conversationId, replaceLastTurn: true, model: 'llava-seer', text: 'tell me' });
    expect(again.outcome.status).toBe('done');
    expect((await hh.core.conversations.get(failed.outcome.conversationId))!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('cancel mid-stream stops the request and keeps the partial answer', async () => {
    const hh = await harness();
    server().script({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 150 });
    const controller = new AbortController();
    const events: string[] = [];
    const chat = await (await import('../../main/core/modelResolver.ts')).resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server().url });
    const outcome = await hh.core.engine.runTurn({ text: 'count', chat, signal: controller.signal }, (e) => {
      events.push(e.type);
      if (e.type === 'text') controller.abort();
    });
    expect(outcome.status).toBe('cancelled');
    expect(events).toContain('error');
    expect(events.at(-1)).toBe('done');
    const stored = await hh.core.conversations.get(outcome.conversationId);
    expect(stored!.messages.find((m) => m.role === 'assistant')).toMatchObject({ interrupted: 'cancelled' });
  });

  it('an unreachable server fails the turn with the ollama serve hint', async () => {
    const hh = await harness();
    await server().setDown(true);
    try {
      const { outcome } = await hh.turn({ model: 'llava-seer', vision: 'yes', text: 'hi' });
      expect(outcome.status).toBe('failed');
      expect(outcome.error!.code).toBe('unreachable');
      expect(outcome.error!.message).toMatch(/ollama serve/);
    } finally {
      await server().setDown(false);
    }
  });
});
