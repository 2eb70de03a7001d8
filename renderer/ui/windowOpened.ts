// "The window has painted what it opened on", for work that must not delay that frame: loading
// the locale's data (localeTime.ts), and asking main for the model list, the settings and the
// conversation list (store.ts). The views that know say so (`windowOpened`): the message list
// once it shows a conversation's rows or has none to open, the ask window, Settings. Work queued
// with `afterWindowOpened` then runs in a task of its own after that frame has been presented,
// or at the latest FALLBACK_MS after it was first queued (a window that never says).
//
// Why: bench:ui's cold load of a 1,000-message conversation painted it, then spent the next
// frame's time on follow-ups (the model list, settings and conversation list arriving, each a
// render of their own) before the frame after it; times and those answers now come after.

/** A window that never says it has opened runs the queued work by then. */
const FALLBACK_MS = 1000;

let opened = false;
let signalled = false;
let fallback: ReturnType<typeof setTimeout> | undefined;
const queued: (() => void)[] = [];

function flush(): void {
  if (opened) return;
  opened = true;
  if (fallback !== undefined) clearTimeout(fallback);
  for (const fn of queued.splice(0)) fn();
}

/** The window shows what it opened on: queued work may run once this frame is on screen. */
export function windowOpened(): void {
  if (signalled || opened) return;
  signalled = true;
  if (typeof requestAnimationFrame !== 'function') return void setTimeout(flush);
  // The second frame's callback runs once the first (the one drawing it) has been presented.
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(flush)));
}

/** Runs `fn` once the window has painted what it opened on (at once if it already has). */
export function afterWindowOpened(fn: () => void): void {
  if (opened) return fn();
  queued.push(fn);
  fallback ??= setTimeout(flush, FALLBACK_MS);
}
