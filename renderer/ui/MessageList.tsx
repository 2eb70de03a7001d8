import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { shownTurnIds } from '../state/chatReducer.ts';
import { useApp, useAppStore } from '../state/store.ts';
import { estimateTurnHeight } from './rowEstimate.ts';
import { TurnBlock } from './Turn.tsx';
import { visibleRange } from './visibleRange.ts';
import { windowOpened } from './windowOpened.ts';
/** Rendered beyond the viewport on each side (px), so fast scrolling rarely shows a gap. */
const OVERSCAN = 800;
/** Within this of the bottom, the list follows new content. */
const STICK_PX = 48;

const Row = memo(function Row({ id, top, observe }: { id: string; top: number; observe: (el: HTMLElement | null, id: string) => void }) {
  const turn = useApp((s) => s.chat.turns[id]);
  const ref = useCallback((el: HTMLDivElement | null) => observe(el, id), [observe, id]);
  if (!turn) return null;
  return (
    <div className="row" ref={ref} data-turn={id} style={{ transform: `translateY(${top}px)` }}>
      <TurnBlock turn={turn} />
    </div>
  );
});

/**
 * A row's height as the ResizeObserver reports it (fractional: text is 22.5 px a line), so that
 * its first report of a row measured here finds nothing changed. offsetHeight rounds, and each
 * half-pixel it differed by cost the opened conversation another render and layout.
 */
const heightOfElement = (el: HTMLElement) => el.getBoundingClientRect().height;

type View = { top: number; height: number; width: number };

/** The scroller's viewport; the same object when nothing moved, so setting it does not re-render. */
const viewOf = (el: HTMLElement) => (view: View): View =>
  view.top === el.scrollTop && view.height === el.clientHeight && view.width === el.clientWidth ? view : { top: el.scrollTop, height: el.clientHeight, width: el.clientWidth };

function Welcome() {
  return (
    <div className="welcome">
      <h2>What should Glance look at?</h2>
      <ul>
        <li>Drop images anywhere, paste a screenshot, or use “Attach image”.</li>
        <li>“Screenshot” attaches the display under the pointer.</li>
        <li>Each image shows the size the model will really receive.</li>
      </ul>
    </div>
  );
}

/**
 * The conversation, virtualised: only turns near the viewport are in the DOM. Heights are
 * measured with one ResizeObserver; a row that grows above the viewport shifts the scroll
 * position by the same amount so what the user reads stays put, and the list follows the
 * bottom while an answer streams, unless the user scrolled up.
 */
export function MessageList() {
  const order = useApp(useShallow((s) => shownTurnIds(s.chat)));
  const conversationId = useApp((s) => s.chat.conversationId);
  const loading = useApp((s) => s.loadingConversation);
  const earlier = useApp((s) => s.earlierTurns);
  const store = useAppStore();
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [version, bump] = useReducer((x: number) => x + 1, 0);
  // Before the first layout: the window's size (the list is at most as wide, and its rows' text
  // no wider than 820 px anyway).
  const [view, setView] = useState((): View => ({ top: 0, height: 800, width: typeof window === 'undefined' ? 1024 : window.innerWidth }));
  // Rows wait for the scroller's real size: rendered at a guessed width, their estimates (and so
  // which rows, and where) changed once it was read, and the opened conversation paid for a
  // second render and layout of them before its first frame.
  const [sized, setSized] = useState(false);
  const stick = useRef(true);
  const frame = useRef(0);
  const offsetsRef = useRef<Float64Array>(new Float64Array(1));
  const orderRef = useRef(order);

  // A turn not measured yet counts as tall as its content suggests (rowEstimate.ts), once per
  // turn and list width.
  const estimates = useRef({ width: view.width, heights: new Map<string, number>() });
  if (estimates.current.width !== view.width) estimates.current = { width: view.width, heights: new Map() };
  const heightOf = useCallback((id: string): number => {
    const measured = heights.current.get(id);
    if (measured !== undefined) return measured;
    const { width, heights: known } = estimates.current;
    let estimate = known.get(id);
    if (estimate === undefined) {
      const turn = store.getState().chat.turns[id];
      estimate = turn ? estimateTurnHeight(turn, width) : 0;
      known.set(id, estimate);
    }
    return estimate;
  }, [store]);
  const offsets = useMemo(() => {
    const o = new Float64Array(order.length + 1);
    for (let i = 0; i < order.length; i++) o[i + 1] = o[i]! + heightOf(order[i]!);
    return o;
    // `version` changes when a measured height does; `view.width` changes the estimates.
  }, [order, version, view.width, heightOf]);
  offsetsRef.current = offsets;
  orderRef.current = order;
  const total = offsets[order.length]!;

  /** Records a row's height; a row above the viewport that changed moves the scroll position with it. */
  const record = useCallback((measured: Iterable<[string, number]>): boolean => {
    const el = scroller.current;
    let changed = false;
    let anchorShift = 0;
    for (const [id, height] of measured) {
      const before = heightOf(id);
      if (Math.abs(before - height) < 0.5) continue;
      heights.current.set(id, height);
      changed = true;
      const index = orderRef.current.indexOf(id);
      if (el && index >= 0 && offsetsRef.current[index + 1]! <= el.scrollTop) anchorShift += height - before;
    }
    if (changed && el && anchorShift && !stick.current) el.scrollTop += anchorShift;
    return changed;
  }, [heightOf]);

  // Later changes (an image loading, an answer streaming in) arrive through a ResizeObserver.
  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return undefined;
    return new ResizeObserver((entries) => {
      const measured = entries.flatMap((entry): [string, number][] => {
        const id = (entry.target as HTMLElement).dataset.turn;
        return id ? [[id, entry.borderBoxSize[0]?.blockSize ?? heightOfElement(entry.target as HTMLElement)]] : [];
      });
      if (record(measured)) bump();
    });
  }, [record]);
  useEffect(() => () => observer?.disconnect(), [observer]);
  const observed = useRef(new Map<string, HTMLElement>());
  const observe = useCallback(
    (el: HTMLElement | null, id: string) => {
      const previous = observed.current.get(id);
      if (previous && previous !== el) {
        observer?.unobserve(previous);
        observed.current.delete(id);
      }
      if (el && previous !== el) {
        observer?.observe(el);
        observed.current.set(id, el);
      }
    },
    [observer],
  );

  // Following the bottom stops only when the user moves up (wheel, keys, scrollbar): content
  // growing below, or a scroll event fired by layout, never takes the list off the bottom.
  const lastTop = useRef(0);
  const [away, setAway] = useState(false);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX) stick.current = true;
    else if (el.scrollTop < lastTop.current - 1) stick.current = false;
    lastTop.current = el.scrollTop;
    setAway(!stick.current);
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setView(viewOf(el));
    });
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setView(viewOf(el));
    setSized(true);
    const resize = new ResizeObserver(() => setView(viewOf(el)));
    resize.observe(el);
    return () => resize.disconnect();
  }, []);

  // Rows just rendered are measured before the browser paints, so the first frame a user sees
  // is laid out and scrolled into place (a few passes at most: new heights can bring new rows).
  const passes = useRef(0);
  useLayoutEffect(() => {
    if (passes.current >= 4) {
      passes.current = 0;
      return;
    }
    const measured = [...observed.current].map(([id, el]): [string, number] => [id, heightOfElement(el)]);
    if (record(measured)) {
      passes.current++;
      bump();
    } else passes.current = 0;
  });

  // Once what the window opened on is drawn (a conversation's rows, or no conversation to open),
  // what waits for it (the locale's data, the model list: windowOpened.ts) may follow.
  useEffect(() => {
    if (order.length > 0 || loading === null) windowOpened();
  }, [order.length, loading]);

  // A conversation opens at its end.
  const shownConversation = useRef(conversationId);
  useLayoutEffect(() => {
    stick.current = true;
    shownConversation.current = conversationId;
  }, [conversationId]);
  // Turns put before the first one (the rest of a conversation opened on its end) keep what the
  // user reads where it was, unless the list follows the bottom anyway.
  const first = useRef(order[0]);
  useLayoutEffect(() => {
    const before = first.current;
    first.current = order[0];
    const el = scroller.current;
    const at = before === undefined ? -1 : order.indexOf(before);
    if (el && at > 0 && !stick.current) el.scrollTop += offsets[at]!;
  }, [order, offsets]);
  // A new turn (the user sent something) brings the list back to the bottom.
  const last = order.at(-1);
  useLayoutEffect(() => {
    stick.current = true;
    setAway(false);
  }, [last]);
  const jumpToLatest = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = true;
    setAway(false);
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  };
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stick.current && el.scrollTop !== el.scrollHeight - el.clientHeight) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
      setView(viewOf(el));
    }
  }, [total, order.length]);

  // A list that sticks to the end (as a conversation opens) renders the rows at the end right
  // away, rather than the top ones first and the end ones once scrolled there: half the work.
  const atEnd = stick.current || conversationId !== shownConversation.current;
  const windowTop = atEnd ? Math.max(0, total - view.height) : view.top;
  const [start, end] = visibleRange(offsets, windowTop - OVERSCAN, windowTop + view.height + OVERSCAN);
  const rows = [];
  if (sized) for (let i = start; i < end; i++) rows.push(<Row key={order[i]} id={order[i]!} top={offsets[i]!} observe={observe} />);

  return (
    <div className="messages-frame">
      <section className="messages" ref={scroller} onScroll={onScroll} aria-label="Messages" tabIndex={0} aria-busy={loading !== null || earlier > 0}>
        {order.length === 0 ? (
          loading ? <p className="muted center">Opening…</p> : <Welcome />
        ) : (
          <div className="rows" style={{ height: total }}>
            {rows}
          </div>
        )}
      </section>
      {away && order.length > 0 && (
        <button type="button" className="jump-latest small" onClick={jumpToLatest}>
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}
