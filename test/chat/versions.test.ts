// Answer versions: Regenerate, Edit and Retry keep what they replace, in the conversation file;
// only the active branch is sent to the model; files written before versions existed still load.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationView } from '../../main/api/conversationView.ts';
import { Conversation } from '../../main/chat/conversation.ts';
import { sweepAttachments } from '../../main/chat/retention.ts';
import { conversationFiles, hasBase64Run } from '../support/storedText.ts';
import { chartTool, engineSuite, ofType } from './engineHarness.ts';

const suite = engineSuite();
const server = suite.server;

const userTexts = () => server().requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text);

describe('versions', () => {
  it('Regenerate and Edit keep each version with its own branch; the model gets the active branch only', async () => {
    const hh = await suite.harness();
    const first = await hh.turn({ model: 'llava-seer', text: 'first question', userMessageId: 'u1' });
    const id = first.outcome.conversationId;
    await hh.turn({ conversationId: id, model: 'llava-seer', text: 'follow-up', userMessageId: 'u2' });
    // Edit the first question: the follow-up belongs to the old version's branch.
    const edited = await hh.turn({ conversationId: id, replaceFrom: 'u1', model: 'llava-seer', text: 'edited question', userMessageId: 'u3' });
    expect(edited.outcome.status).toBe('done');
    expect(userTexts()).toEqual(['edited question']);
    let stored = (await hh.core.conversations.get(id))!;
    expect(stored.messages.map((m) => (m.role === 'user' ? m.text : m.role))).toEqual(['edited question', 'assistant']);
    let view = await conversationView(stored, hh.core.attachments);
    expect(view.turns.map((t) => [t.text, t.versions])).toEqual([['edited question', { index: 1, count: 2 }]]);

    // Regenerate the edited one: a third version.
    await hh.turn({ conversationId: id, replaceFrom: 'u3', model: 'llava-seer', text: 'edited question', userMessageId: 'u4' });
    stored = (await hh.core.conversations.get(id))!;
    expect((await conversationView(stored, hh.core.attachments)).turns.map((t) => t.versions)).toEqual([{ index: 2, count: 3 }]);

    // Back to version 1: its answer and its follow-up come back, and the next request is that branch.
    expect(await hh.core.conversations.switchVersion(id, 'u4', 0)).toBe(true);
    stored = (await hh.core.conversations.get(id))!;
    view = await conversationView(stored, hh.core.attachments);
    expect(view.turns.map((t) => [t.text, t.versions ?? null])).toEqual([
      ['first question', { index: 0, count: 3 }],
      ['follow-up', null],
    ]);
    expect(view.turns[0]!.events.find((e) => e.type === 'text')).toMatchObject({ delta: expect.stringContaining('You said: "first question"') });
    await hh.turn({ conversationId: id, model: 'llava-seer', text: 'third', userMessageId: 'u5' });
    expect(userTexts()).toEqual(['first question', 'follow-up', 'third']);
    // Version 2 still holds its own answer.
    expect(await hh.core.conversations.switchVersion(id, 'u1', 1)).toBe(true);
    view = await conversationView((await hh.core.conversations.get(id))!, hh.core.attachments);
    expect(view.turns.map((t) => t.text)).toEqual(['edited question']);
    expect(view.turns[0]!.events.find((e) => e.type === 'text')).toMatchObject({ delta: expect.stringContaining('You said: "edited question"') });
    expect(await hh.core.conversations.switchVersion(id, 'u3', 7)).toBe(false);
  });

  it('a kept version holds no image bytes and its retracted image stays a stub; retention keeps its images', async () => {
    const hh = await suite.harness();
    hh.core.tools.add(chartTool(hh.core));
    server().script({ toolCalls: [{ name: 'capture_chart', arguments: {} }] });
    const first = await hh.turn({ model: 'llava-seer', text: 'capture', userMessageId: 'c1' });
    const shot = ofType(first.events, 'image_delivered')[0]!.attachmentIds[0]!;
    const id = first.outcome.conversationId;
    await hh.turn({ conversationId: id, replaceFrom: 'c1', model: 'llava-seer', text: 'capture', userMessageId: 'c2' });
    const stored = (await hh.core.conversations.get(id))!;
    const kept = stored.versions![''];
    expect(kept!.active).toBe(1);
    const delivery = kept!.tails[0]!.find((m) => m.role === 'delivery');
    expect(delivery).toMatchObject({ retracted: true, attachmentIds: [shot] });
    // The active branch (no capture this time) sends no image.
    expect(server().requests.at(-1)!.images).toHaveLength(0);
    for (const text of await conversationFiles(hh.dataDir)) expect(hasBase64Run(text)).toBe(false);
    const swept = await sweepAttachments({ ...hh.core, retentionDays: 0, now: new Date(Date.now() + 86_400_000) });
    expect(swept.removed).not.toContain(shot);
    expect(await hh.core.attachments.info(shot)).toBeDefined();
  });

  it('a retry of a send that got no answer replaces it (nothing to keep); one with a partial answer is kept', async () => {
    const hh = await suite.harness();
    await server().setDown(true);
    const down = await hh.turn({ model: 'llava-seer', text: 'anyone?', userMessageId: 'r1' });
    expect(down.outcome.status).toBe('failed');
    await server().setDown(false);
    const id = down.outcome.conversationId;
    await hh.turn({ conversationId: id, replaceLastTurn: true, model: 'llava-seer', text: 'anyone?', userMessageId: 'r2' });
    let stored = (await hh.core.conversations.get(id))!;
    expect(stored.versions).toBeUndefined();
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    server().script({ text: 'half an answer', fail: 'drop', chunkDelayMs: 20 });
    await hh.turn({ conversationId: id, model: 'llava-seer', text: 'tell me', userMessageId: 'r3' });
    await hh.turn({ conversationId: id, replaceLastTurn: true, model: 'llava-seer', text: 'tell me', userMessageId: 'r4' });
    stored = (await hh.core.conversations.get(id))!;
    const view = await conversationView(stored, hh.core.attachments);
    expect(view.turns.map((t) => t.versions ?? null)).toEqual([null, { index: 1, count: 2 }]);
    expect(userTexts()).toEqual(['anyone?', 'tell me']);
  });

  it('a conversation file written before versions existed loads, shows and takes a new version', async () => {
    const hh = await suite.harness();
    const old = {
      version: 1,
      id: '20250101-abcdef012345',
      title: 'Old chat',
      createdAt: '2025-01-01T10:00:00.000Z',
      updatedAt: '2025-01-01T10:00:05.000Z',
      model: { provider: 'ollama', name: 'llava-seer' },
      messages: [
        { role: 'user', id: 'old-u1', text: 'an old question', attachmentIds: [], createdAt: '2025-01-01T10:00:00.000Z' },
        { role: 'assistant', id: 'old-a1', text: 'an old answer', createdAt: '2025-01-01T10:00:05.000Z' },
      ],
    };
    await mkdir(hh.core.conversations.dir, { recursive: true });
    await writeFile(join(hh.core.conversations.dir, `${old.id}.json`), JSON.stringify(old, null, 1));
    expect((await hh.core.conversations.list()).map((c) => c.title)).toEqual(['Old chat']);
    const loaded = (await hh.core.conversations.get(old.id))!;
    expect(Conversation.parse(loaded).versions).toBeUndefined();
    expect((await conversationView(loaded, hh.core.attachments)).turns.map((t) => [t.text, t.versions ?? null])).toEqual([['an old question', null]]);
    await hh.turn({ conversationId: old.id, replaceFrom: 'old-u1', model: 'llava-seer', text: 'an old question', userMessageId: 'new-u1' });
    expect(await hh.core.conversations.switchVersion(old.id, 'new-u1', 0)).toBe(true);
    const back = await conversationView((await hh.core.conversations.get(old.id))!, hh.core.attachments);
    expect(back.turns[0]!.events).toContainEqual({ type: 'text', delta: 'an old answer' });
    expect(back.turns[0]!.versions).toEqual({ index: 0, count: 2 });
  });
});
