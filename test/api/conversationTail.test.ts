// conversations:get with `last`: the end of a long conversation for a window's first screen,
// through the real router (both ways validated), the same turns the whole view has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '../../common/ipc.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { apiHarness, value, type ApiHarness } from './apiHarness.ts';

let server: ModelServer;
let api: ApiHarness;
let id: string;

beforeAll(async () => {
  server = await createModelServer();
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [] } });
  const store = new ConversationStore(api.dataDir);
  const c = store.create('Forty turns');
  for (let i = 0; i < 40; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    c.messages.push({ role: 'user', id: `u${i}`, text: `Question ${i}`, attachmentIds: [], createdAt: at }, { role: 'assistant', id: `a${i}`, text: `Answer ${i}`, createdAt: at });
  }
  // The first turn answered comes in two versions (a Regenerate): the fork is keyed by the message before it.
  c.versions = { a33: { active: 1, tails: [[{ role: 'user', id: 'u34', text: 'Question 34', attachmentIds: [], createdAt: c.messages[68]!.createdAt }, { role: 'assistant', id: 'old34', text: 'An older answer', createdAt: c.messages[68]!.createdAt }], null] } };
  await store.save(c);
  id = c.id;
});

afterAll(async () => {
  await api?.close();
  await server?.close();
});

describe('conversations:get', () => {
  it('answers the last turns and how many came before, each as the whole view has it', async () => {
    const whole = value<ConversationView>(await api.call('conversations:get', { id }));
    expect(whole.turns).toHaveLength(40);
    expect(whole.earlier).toBeUndefined();
    const end = value<ConversationView>(await api.call('conversations:get', { id, last: 6 }));
    expect(end.earlier).toBe(34);
    expect(end.turns.map((t) => t.id)).toEqual(['u34', 'u35', 'u36', 'u37', 'u38', 'u39']);
    expect(end.turns).toEqual(whole.turns.slice(34));
    expect(end.turns[0]!.versions).toEqual({ index: 1, count: 2 });
    expect({ ...end, turns: [], earlier: undefined }).toEqual({ ...whole, turns: [], earlier: undefined });
  });

  it('answers every turn when there are no more than asked, and refuses a count that is not one', async () => {
    const all = value<ConversationView>(await api.call('conversations:get', { id, last: 40 }));
    expect(all.turns).toHaveLength(40);
    expect(all.earlier).toBeUndefined();
    expect(await api.call('conversations:get', { id, last: 0 })).toMatchObject({ ok: false, code: 'bad-request' });
    expect(await api.call('conversations:get', { id, last: 2.5 })).toMatchObject({ ok: false });
  });
});
