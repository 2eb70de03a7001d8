// The stored conversations: list, open (as the renderer's view), rename, delete, search, switch versions; and their drafts.
import type { Conversation } from '../chat/conversation.ts';
import type { LiveTurns } from '../chat/liveTurns.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { conversationView, withLiveTurn } from './conversationView.ts';
import { fail, ok, type IpcHandlers } from './ipcRouter.ts';

type ConversationHandlers = Pick<IpcHandlers, 'conversations:list' | 'conversations:get' | 'conversations:rename' | 'conversations:delete' | 'conversations:search' | 'conversations:setTools' | 'conversations:switchVersion' | 'drafts:list' | 'drafts:set'>;

/**
 * Where the conversation's `last` turns start (at its `last`-th user message from the end: a
 * turn starts at a user message), and how many turns come before: a window opening on a long
 * conversation paints its end from a small answer, and asks for the rest once it has.
 */
function lastTurns(c: Conversation, last: number | undefined): { from: number; earlier: number } {
  const turns = c.messages.reduce((n, m) => (m.role === 'user' ? n + 1 : n), 0);
  if (last === undefined || turns <= last) return { from: 0, earlier: 0 };
  let seen = 0;
  return { from: c.messages.findLastIndex((m) => m.role === 'user' && ++seen === last), earlier: turns - last };
}

export function conversationHandlers({ services }: ApiDeps, live: LiveTurns): ConversationHandlers {
  const missing = (id: string) => fail('not-found', `No conversation with id ${id}.`);
  return {
    'conversations:list': async () => ok(await services.conversations.list()),
    'conversations:get': async ({ id, last }) => {
      const c = await services.conversations.get(id);
      if (!c) return missing(id);
      const { from, earlier } = lastTurns(c, last);
      const view = withLiveTurn(await conversationView(c, services.attachments, from), live.get(id));
      return ok(earlier ? { ...view, earlier } : view);
    },
    'conversations:rename': async ({ id, title }) => {
      if (!(await services.conversations.rename(id, title))) return missing(id);
      const c = (await services.conversations.list()).find((x) => x.id === id);
      return c ? ok(c) : missing(id);
    },
    'conversations:delete': async ({ id }) => {
      if (!(await services.conversations.delete(id))) return missing(id);
      await services.drafts.set(id, { text: '', images: [] });
      return ok({ id });
    },
    'drafts:list': async () => ok(await services.drafts.list()),
    'drafts:set': async ({ key, text, images }) => {
      await services.drafts.set(key, { text, images });
      return ok({ key });
    },
    'conversations:search': async ({ query }) => ok(await services.conversations.search(query)),
    'conversations:setTools': async ({ id, tools }) => {
      // A turn holds the conversation while it runs (and saves it at the end): switch between turns.
      if (live.get(id)) return fail('busy', 'Wait for the answer to finish, then switch tools for the next message.');
      return (await services.conversations.setTools(id, tools)) ? ok({ id, tools }) : missing(id);
    },
    'conversations:switchVersion': async ({ id, turnId, index }) => {
      if (live.get(id)) return fail('busy', 'Wait for the answer to finish, then switch versions.');
      if (!(await services.conversations.switchVersion(id, turnId, index))) return fail('not-found', `No version ${index + 1} of that message in conversation ${id}.`);
      const c = await services.conversations.get(id);
      return c ? ok(await conversationView(c, services.attachments)) : missing(id);
    },
  };
}
