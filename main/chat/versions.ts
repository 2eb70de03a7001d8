import type { Conversation, StoredMessage } from './conversation.ts';

/**
 * Answer versions (Regenerate, Edit, Retry keep what they replace). `messages` is always the
 * active branch — the only one sent to a model or estimated — and `versions` holds, for each
 * point where the conversation forked, every branch that followed it: keyed by the id of the
 * message just before the fork (`''` for a fork at the very start), the active branch's slot
 * left `null` (its messages are in `messages`). A fork inside a branch that is not active keeps
 * its entry (its key is a message of that branch), so it is there again when the branch is.
 */
export const START = '';

type Fork = NonNullable<Conversation['versions']>[string];

/** The key of the fork at message `index` of the active branch. */
function keyAt(conversation: Conversation, index: number): string {
  return index > 0 ? conversation.messages[index - 1]!.id : START;
}

/** A branch is worth keeping when the model answered something in it (a send that never got an answer is not a version). */
function answered(tail: readonly StoredMessage[]): boolean {
  return tail.some((m) => m.role === 'assistant' && (m.text !== '' || (m.toolCalls?.length ?? 0) > 0 || m.thinking !== undefined));
}

/** A kept branch never carries a live image delivery: its stub stays a stub. */
function retracted(tail: StoredMessage[]): StoredMessage[] {
  for (const m of tail) if (m.role === 'delivery') m.retracted = true;
  return tail;
}

/**
 * The active branch from message `index` on gives way to a new one (the turn about to be
 * stored): the old branch is kept as a version when it holds an answer, and the new branch is
 * the last version.
 */
export function branchFrom(conversation: Conversation, index: number): void {
  if (index < 0 || index > conversation.messages.length) return;
  const key = keyAt(conversation, index);
  const tail = retracted(conversation.messages.splice(index));
  const versions = (conversation.versions ??= {});
  const fork: Fork = versions[key] ?? { active: 0, tails: [null] };
  if (answered(tail)) fork.tails[fork.active] = tail;
  else fork.tails.splice(fork.active, 1);
  fork.tails.push(null);
  fork.active = fork.tails.length - 1;
  if (fork.tails.length > 1) versions[key] = fork;
  else delete versions[key];
  if (!Object.keys(versions).length) delete conversation.versions;
}

/** Which version the turn starting at message `index` is, when it has others. */
export function versionAt(conversation: Conversation, index: number): { index: number; count: number } | undefined {
  const fork = conversation.versions?.[keyAt(conversation, index)];
  return fork && fork.tails.length > 1 ? { index: fork.active, count: fork.tails.length } : undefined;
}

/**
 * Makes version `to` of the turn whose user message is `userMessageId` the active branch.
 * False when there is no such turn or version.
 */
export function switchVersion(conversation: Conversation, userMessageId: string, to: number): boolean {
  const index = conversation.messages.findIndex((m) => m.role === 'user' && m.id === userMessageId);
  if (index < 0) return false;
  const fork = conversation.versions?.[keyAt(conversation, index)];
  const next = fork?.tails[to];
  if (!fork || !next) return to === fork?.active;
  fork.tails[fork.active] = retracted(conversation.messages.splice(index));
  conversation.messages.push(...next);
  fork.tails[to] = null;
  fork.active = to;
  return true;
}

/** Every message the conversation keeps, in every version (what retention must not sweep). */
export function allMessages(conversation: Conversation): StoredMessage[] {
  const kept = Object.values(conversation.versions ?? {}).flatMap((f) => f.tails.flatMap((t) => t ?? []));
  return [...conversation.messages, ...kept];
}

/**
 * Makes room for a turn that repeats one (Retry: the last user turn, when it has this text and
 * never finished; Edit and Regenerate: the user turn `replaceFrom` and all after it): what it
 * replaces is kept as a version.
 */
export function makeRoom(conversation: Conversation, request: { replaceLastTurn?: boolean; replaceFrom?: string; text: string }): void {
  if (request.replaceLastTurn) {
    // A send that failed before anything was stored must not take the previous turn with it.
    const last = conversation.messages.findLastIndex((m) => m.role === 'user');
    const tail = conversation.messages.slice(last);
    const end = tail.at(-1);
    const finished = end?.role === 'assistant' && !end.interrupted && !end.toolCalls?.length;
    if (last >= 0 && tail[0]?.role === 'user' && tail[0].text === request.text && !finished) branchFrom(conversation, last);
  }
  if (request.replaceFrom !== undefined) {
    const from = conversation.messages.findIndex((m) => m.role === 'user' && m.id === request.replaceFrom);
    if (from >= 0) branchFrom(conversation, from);
  }
}
