// Issue 12 items 3, 5 (engine path) and 6, against the seeing fixture model server, which
// decodes and counts every image that really arrives.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { resolveModel } from '../../main/core/modelResolver.ts';
import type { Tool } from '../../main/tools/tool.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { engineSuite, ofType, type Harness } from './engineHarness.ts';

const suite = engineSuite();
const server = suite.server;
let h: Harness;

async function seerTarget() {
  return (await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server().url })).target;
}

/** A tool whose one result carries `count` images (the same chart: the store dedupes it to one id). */
function manyImages(count: number): Tool {
  return {
    needsVision: true,
    spec: { name: 'many_images', description: 'Returns many images.', parameters: { type: 'object', properties: {} } },
    async run(_args, context) {
      const result = await h.core.intake.admit({ source: await makeBarChart(), name: 'chart.png', origin: 'many_images', requestedBy: 'user' }, context.imageTarget!, 'user');
      if (!result.ok) return { ok: false, text: result.message };
      return { ok: true, text: `${count} images`, images: Array.from({ length: count }, () => result.attachment) };
    },
  };
}

describe('maxImagesPerRequest counts images, not ids (item 3)', () => {
  it('the same screenshot attached in 8 turns rides at most 4 times', async () => {
    h = await suite.harness({ limits: { maxImagesPerRequest: 4 } });
    const added = await h.core.intake.admit({ source: await makeBarChart(), name: 'shot.png', origin: 'user', requestedBy: 'user' }, await seerTarget(), 'user');
    expect(added.ok).toBe(true);
    const id = added.ok ? added.attachment.id : '';
    const conversationId = `c-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 8; i++) {
      const { outcome } = await h.turn({ model: 'llava-seer', conversationId, createIfMissing: true, text: `turn ${i}`, attachments: [{ attachmentId: id }] });
      expect(outcome.status).toBe('done');
    }
    const last = server().requests.at(-1)!;
    expect(last.images).toHaveLength(4);
    // The newest four ride; the older turns carry a stub instead.
    const users = last.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.imageCount)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(users[0]!.text).toContain(`show_attachment("${id}")`);
  });

  it('one tool result with 12 images delivers at most maxImagesPerToolResult; the rest stay descriptors', async () => {
    h = await suite.harness({ limits: { maxImagesPerRequest: 8, maxImagesPerToolResult: 3 } });
    h.core.tools.add(manyImages(12));
    server().script({ toolCalls: [{ name: 'many_images', arguments: {} }] }, { text: 'seen' });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'show me' });
    expect(outcome.status).toBe('done');
    const after = server().requests[1]!;
    expect(after.images).toHaveLength(3);
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.text).toMatch(/9 more images not shown: at most 3 per tool result/);
    expect(result.text).toContain('show_attachment');
    expect(ofType(events, 'image_delivered')[0]!.attachmentIds).toHaveLength(3);
  });

  it('user attachments and a delivery share one budget', async () => {
    h = await suite.harness({ limits: { maxImagesPerRequest: 4, maxImagesPerToolResult: 4 } });
    h.core.tools.add(manyImages(4));
    const chart = await makeBarChart();
    server().script({ toolCalls: [{ name: 'many_images', arguments: {} }] }, { text: 'seen' });
    const { outcome } = await h.turn({
      model: 'llava-seer',
      text: 'compare',
      attachments: [1, 2, 3].map((n) => ({ source: chart, name: `mine-${n}.png`, origin: 'user', requestedBy: 'user' as const })),
    });
    expect(outcome.status).toBe('done');
    expect(server().requests[0]!.images).toHaveLength(3);
    // 3 user images + 4 delivered: the newest 4 (the delivery) ride.
    expect(server().requests[1]!.images).toHaveLength(4);
    expect(server().requests[1]!.images.every((i) => i.role === 'user')).toBe(true);
  });
});

describe('a crashed turn (item 6)', () => {
  it('a delivery left unretracted is retracted on load and not re-sent', async () => {
    h = await suite.harness();
    const shot = await h.core.intake.admit({ source: await makeBarChart(), name: 'screen.png', origin: 'screenshot_desktop', requestedBy: 'user' }, await seerTarget(), 'user');
    expect(shot.ok).toBe(true);
    const id = shot.ok ? shot.attachment.id : '';
    // What a process killed mid-turn leaves: a tool call, its result, a live delivery, no answer.
    const c = h.core.conversations.create('crashed', 'crashed-1');
    const at = new Date().toISOString();
    c.messages.push(
      { role: 'user', id: 'u1', text: 'look at my screen', attachmentIds: [], createdAt: at },
      { role: 'assistant', id: 'a1', text: '', toolCalls: [{ id: 'call1', name: 'screenshot_desktop', arguments: {} }, { id: 'call2', name: 'screenshot_desktop', arguments: {} }], createdAt: at },
      { role: 'tool', id: 't1', toolCallId: 'call1', name: 'screenshot_desktop', ok: true, text: 'captured', attachmentIds: [id], createdAt: at },
      { role: 'delivery', id: 'd1', origin: 'screenshot_desktop', attachmentIds: [id], retracted: false, createdAt: at },
    );
    await h.core.conversations.save(c);
    const { outcome } = await h.turn({ model: 'llava-seer', conversationId: 'crashed-1', text: 'and now?' });
    expect(outcome.status).toBe('done');
    expect(server().requests.at(-1)!.images).toHaveLength(0);
    const stored = await h.core.conversations.get('crashed-1');
    expect(stored!.messages.find((m) => m.role === 'delivery')).toMatchObject({ retracted: true });
    // The call that never got a result now has one, so the request stays well-formed.
    expect(stored!.messages.filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && m.toolCallId)).toEqual(['call1', 'call2']);
  });
});

describe('concurrent turns on one conversation, in one process (item 5)', () => {
  it('five turns at once: all five land, none overwritten', async () => {
    h = await suite.harness();
    const conversationId = 'busy-1';
    await h.turn({ model: 'llava-seer', conversationId, createIfMissing: true, text: 'start' });
    server().script(...Array.from({ length: 5 }, (_, i) => ({ text: `answer ${i}`, chunkDelayMs: 20 })));
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => h.turn({ model: 'llava-seer', conversationId, text: `parallel ${i}` })));
    expect(results.map((r) => r.outcome.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    const stored = await h.core.conversations.get(conversationId);
    const users = stored!.messages.filter((m) => m.role === 'user').map((m) => m.role === 'user' && m.text);
    expect(users).toHaveLength(6);
    expect(new Set(users)).toEqual(new Set(['start', ...Array.from({ length: 5 }, (_, i) => `parallel ${i}`)]));
    expect(stored!.messages.filter((m) => m.role === 'assistant')).toHaveLength(6);
  });

  it('a turn that cannot get the conversation in time fails with a clear "busy" error, storing nothing', async () => {
    h = await suite.harness();
    h.core.conversations.lockOptions = { waitMs: 300 };
    const conversationId = 'busy-2';
    await h.turn({ model: 'llava-seer', conversationId, createIfMissing: true, text: 'start' });
    const held = await h.core.conversations.lock(conversationId);
    try {
      const { outcome, events } = await h.turn({ model: 'llava-seer', conversationId, text: 'blocked' });
      expect(outcome.status).toBe('failed');
      expect(ofType(events, 'error')[0]).toMatchObject({ code: 'conversation-busy' });
      expect(ofType(events, 'error')[0]!.message).toMatch(/busy/);
    } finally {
      await held.release();
    }
    const stored = await h.core.conversations.get(conversationId);
    expect(stored!.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });
});

describe('Stop (item 4)', () => {
  it('the first Stop ends a turn whose tool ignores the signal', async () => {
    h = await suite.harness();
    let started = false;
    h.core.tools.add({
      needsVision: false,
      spec: { name: 'stuck', description: 'Blocks and ignores the signal.', parameters: { type: 'object', properties: {} } },
      run: () => {
        started = true;
        return new Promise<never>(() => {});
      },
    });
    server().script({ toolCalls: [{ name: 'stuck', arguments: {} }] });
    const controller = new AbortController();
    const chat = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server().url });
    const events: { type: string }[] = [];
    const running = h.core.engine.runTurn({ text: 'run it', chat, signal: controller.signal }, (e) => events.push(e));
    await expect.poll(() => started).toBe(true);
    controller.abort();
    const outcome = await running;
    expect(outcome.status).toBe('cancelled');
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const stored = await h.core.conversations.get(outcome.conversationId);
    expect(stored!.messages.find((m) => m.role === 'tool')).toMatchObject({ ok: false });
  });
});
