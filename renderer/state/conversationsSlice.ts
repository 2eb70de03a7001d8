// The conversation list: listing, search (titles here at once, message text by main), rename,
// and delete with a few seconds to undo it. A delete is held in the window until the undo time
// is over (or the window goes away): nothing is lost to a mis-click.
import type { ConversationMatch, ConversationSummary } from '../../common/ipc.ts';
import type { SliceCreator } from './store.ts';

/** How long "Undo" is offered after a delete. */
export const UNDO_MS = 8000;
/** Main is asked to search the text this long after the last keystroke (titles filter at once). */
const SEARCH_DEBOUNCE_MS = 150;

/** A conversation as the list shows it: with where a search found it, when searching. */
export type ListedConversation = ConversationSummary & { snippet?: string };

export type ConversationsSlice = {
  conversations: ConversationSummary[];
  conversationsError: string | null;
  search: string;
  /** Main's answer for the text of the search (null until it answers for the words typed). */
  searchMatches: { query: string; matches: ConversationMatch[] } | null;
  /** A conversation deleted in this window, hidden from the list while "Undo" is offered. */
  deleting: ConversationSummary | null;
  loadConversations(): Promise<void>;
  renameConversation(id: string, title: string): Promise<string | null>;
  /** Hides the conversation and offers "Undo"; main deletes it when the undo time is over. */
  deleteConversation(id: string): Promise<string | null>;
  undoDelete(): void;
  /** A pending delete goes to main now (another delete, the window closing). */
  commitDelete(): Promise<void>;
  setSearch(search: string): void;
};

export const createConversationsSlice: SliceCreator<ConversationsSlice> = (set, get, api) => {
  let undoTimer: ReturnType<typeof setTimeout> | undefined;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;

  const askMain = async (query: string) => {
    const result = await api.conversationsSearch({ query });
    // Only the answer for what the box still says.
    if (get().search !== query) return;
    if (result.ok) set({ searchMatches: { query, matches: result.value } });
    else set({ conversationsError: result.message });
  };

  return {
    conversations: [],
    conversationsError: null,
    search: '',
    searchMatches: null,
    deleting: null,

    async loadConversations() {
      const result = await api.conversationsList();
      // Newest first. ISO timestamps sort as plain strings (localeCompare would load ICU's collator).
      if (result.ok) set({ conversations: [...result.value].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)), conversationsError: null });
      else set({ conversationsError: result.message });
      // The text may have changed with the list (a turn ended): the search is asked again.
      const query = get().search;
      if (result.ok && query.trim()) void askMain(query);
    },

    async renameConversation(id, title) {
      const result = await api.conversationsRename({ id, title });
      if (!result.ok) return result.message;
      // In place: a rename is not activity, so the list keeps its order.
      set((s) => ({ conversations: s.conversations.map((c) => (c.id === id ? { ...c, title: result.value.title } : c)) }));
      return null;
    },

    async deleteConversation(id) {
      const item = get().conversations.find((c) => c.id === id);
      if (!item) return null;
      await get().commitDelete();
      if (get().chat.conversationId === id) get().newChat();
      set({ deleting: item });
      undoTimer = setTimeout(() => void get().commitDelete(), UNDO_MS);
      return null;
    },

    undoDelete() {
      clearTimeout(undoTimer);
      set({ deleting: null });
    },

    async commitDelete() {
      const item = get().deleting;
      if (!item) return;
      clearTimeout(undoTimer);
      const result = await api.conversationsDelete({ id: item.id });
      // Deleted, or it could not be: then it shows again, with why.
      set((s) => ({
        deleting: s.deleting?.id === item.id ? null : s.deleting,
        ...(result.ok ? { conversations: s.conversations.filter((c) => c.id !== item.id) } : { conversationsError: `“${item.title}” was not deleted: ${result.message}` }),
      }));
    },

    setSearch(search) {
      set({ search });
      clearTimeout(searchTimer);
      if (search.trim()) searchTimer = setTimeout(() => void askMain(search), SEARCH_DEBOUNCE_MS);
      else set({ searchMatches: null });
    },
  };
};

/**
 * What the list shows: every conversation, or those whose title (here, at once) or text (main's
 * answer) holds every word searched for, with the text around the first word found; never the
 * one whose delete can still be undone.
 */
export function listedConversations(list: readonly ConversationSummary[], search: string, matches: ConversationsSlice['searchMatches'], deleting: ConversationSummary | null): ListedConversation[] {
  const shown = deleting ? list.filter((c) => c.id !== deleting.id) : list;
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...shown];
  const found = matches && matches.query === search ? new Map(matches.matches.map((m) => [m.id, m])) : undefined;
  return shown.flatMap((c) => {
    const title = c.title.toLowerCase();
    if (words.every((w) => title.includes(w))) return [c];
    const match = found?.get(c.id);
    return match && !match.inTitle ? [{ ...c, ...(match.snippet ? { snippet: match.snippet } : {}) }] : [];
  });
}
