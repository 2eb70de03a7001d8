// Dates and times in the user's locale, kept off a window's first frame. The first Intl call in
// a renderer loads ICU's data: 30–90 ms of the main thread on the bench machine, paid before a
// conversation could paint when the formatters were made at import (bench:ui, 24 alternating
// cold loads: 632 → 599 ms). Now a <time> renders empty until the window has painted what it
// opened on (windowOpened.ts); ICU then loads in a task of its own and the times fill in. A
// row's height does not change: a footer's height is its buttons'.
import { useSyncExternalStore } from 'react';
import { afterWindowOpened } from './windowOpened.ts';

type Formatters = { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat; weekday: Intl.DateTimeFormat; day: Intl.DateTimeFormat };

let made: Formatters | undefined;
let ready = false;
let asked = false;
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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!asked) {
    asked = true;
    afterWindowOpened(becomeReady);
  }
  return () => listeners.delete(listener);
}

/** The formatters once the window has painted what it opened on; undefined before. */
export function useLocaleFormatters(): Formatters | undefined {
  return useSyncExternalStore(subscribe, () => ready) ? formatters() : undefined;
}
