// Dates and times in the user's locale, kept off a window's first frame. The first Intl call in
// a renderer loads ICU's data: 30–90 ms of the main thread on the bench machine, paid before a
// conversation could paint when the formatters were made at import (bench:ui, 24 alternating
// cold loads: 632 → 599 ms). Now a <time> renders empty until the window has painted what it
// opened on (`formatTimesSoon`: the message list, the ask window, Settings), or at the latest
// FALLBACK_MS after the first one asked; ICU then loads in a task of its own and the times fill
// in. A row's height does not change: a footer's height is its buttons'.
import { useSyncExternalStore } from 'react';

type Formatters = { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat; weekday: Intl.DateTimeFormat; day: Intl.DateTimeFormat };

/** Windows that open on no message list (Settings) show their times by then. */
const FALLBACK_MS = 1000;

let made: Formatters | undefined;
let ready = false;
let soon = false;
let fallback = false;
const listeners = new Set<() => void>();

/** The formatters, made on first use (one each: toLocale*String would build one per call). */
function formatters(): Formatters {
  made ??= {
    time: new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }),
    dateTime: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    weekday: new Intl.DateTimeFormat(undefined, { weekday: 'short' }),
    day: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }),
  };
  return made;
}

function becomeReady(): void {
  if (ready) return;
  formatters();
  ready = true;
  for (const l of listeners) l();
}

/** The window shows what it opened on: times may fill in once that frame is on screen. */
export function formatTimesSoon(): void {
  if (soon) return;
  soon = true;
  // The second frame's callback runs once the first (the one drawing it) has been presented.
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(becomeReady)));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!fallback) {
    fallback = true;
    setTimeout(becomeReady, FALLBACK_MS);
  }
  return () => listeners.delete(listener);
}

/** The formatters once the window has painted what it opened on; undefined before. */
export function useLocaleFormatters(): Formatters | undefined {
  return useSyncExternalStore(subscribe, () => ready) ? formatters() : undefined;
}
