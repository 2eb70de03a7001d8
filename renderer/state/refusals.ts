import type { RefusalNotice } from './attachmentsSlice.ts';

/** Refusals about the model (it cannot see, or nobody knows): they go stale when the model changes. */
export function isVisionRefusal(code: string): boolean {
  return code === 'model-blind' || code === 'capability-unknown';
}

export type RefusalGroup = { keys: string[]; names: string[]; code: string; message: string; fromSend: boolean };

/** One group per reason, naming each file once, in the order they were refused. */
export function groupRefusals(refusals: readonly RefusalNotice[]): RefusalGroup[] {
  const groups = new Map<string, RefusalGroup>();
  for (const r of refusals) {
    // Vision refusals share one reason whatever main's wording for each file.
    const id = `${r.fromSend ? 'send' : 'add'}|${r.code}|${isVisionRefusal(r.code) ? '' : r.message}`;
    const group = groups.get(id) ?? { keys: [], names: [], code: r.code, message: r.message, fromSend: r.fromSend === true };
    group.keys.push(r.key);
    if (!group.names.includes(r.name)) group.names.push(r.name);
    groups.set(id, group);
  }
  return [...groups.values()];
}
