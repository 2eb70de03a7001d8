// A window's own words on Linux: the AT-SPI tree of the application that owns it, read over the
// accessibility bus (atspiBus.ts). GTK, Qt, VTE terminals and Chromium/Electron (with accessibility
// on) expose their text this way. Facts this follows (at-spi2-core, seen with pyatspi as a control):
// - the registry's root lists one accessible per application; an application's children are its
//   top-level windows (role frame, dialog, window), named by their title, with extents in screen
//   coordinates (Component.GetExtents(0));
// - a text view holds all its text, scrolled-off lines included (Text.GetText over CharacterCount);
// - an element that is not on screen reports extents of INT_MIN, or lacks the SHOWING state;
// - a password entry has role "password text": its text is never asked for (it would be bullets
//   anyway, but an application may not be so careful).
// Bounded: one time limit for the whole read (Deadline), a node budget, a character budget.
import { performance } from 'node:perf_hooks';
import { AccessibilityBus, BusUnavailable, Deadline, TimedOut } from './atspiBus.ts';
import { READ_DEFAULTS, type Box, type FindSecrets, type ReadOptions, type TextElement, type WindowRef, type WindowText, type WindowTextResult } from './windowText.ts';

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const TEXT = 'org.a11y.atspi.Text';
const COMPONENT = 'org.a11y.atspi.Component';
const REGISTRY = 'org.a11y.atspi.Registry';
const ROOT = '/org/a11y/atspi/accessible/root';
const COORD_SCREEN = 0;
// AtspiStateType bit numbers (atspi-constants.h).
const STATE_DEFUNCT = 6;
const STATE_SHOWING = 25;
const STATE_VISIBLE = 30;
/** Calls in flight at once: they pipeline over the one socket; more only queue in the application. */
const CONCURRENCY = 24;
/** Part of the time limit the search for the window may take: an application that does not answer is left out. */
const MATCH_SHARE = 0.4;
/** matchScore of an exact title on a showing window it overlaps by 3/4 or more. */
const SURE_MATCH = 4.5;
const OBJECT_REPLACEMENT = /\uFFFC/g;

type Ref = { bus: string; path: string };
type TopLevel = { ref: Ref; app: string; appRef: Ref; name: string; extents?: Extents; showing: boolean };
type Extents = { x: number; y: number; width: number; height: number };
/** Secrets located with their own boxes, at most, per read (one call each). */
const MAX_LOCATED = 64;

/**
 * An element found, and where it sits in the tree: its child index at each level below the window;
 * `ref` and `removed` (where U+FFFC stood in its raw text) to ask where a range of its text lies.
 */
export type Visited = { order: number[]; element: TextElement; ref?: Ref; removed?: number[] };

export class AtspiWindowText implements WindowText {
  private readonly env: NodeJS.ProcessEnv;
  private readonly find: FindSecrets | undefined;

  /** `find`: the secret rules, so each secret in the words gets its own box (ReadOptions.find overrides it). */
  constructor(env: NodeJS.ProcessEnv = process.env, options: { find?: FindSecrets } = {}) {
    this.env = env;
    this.find = options.find;
  }

  async read(window: WindowRef, options: ReadOptions = {}): Promise<WindowTextResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const timeoutMs = options.timeoutMs ?? READ_DEFAULTS.timeoutMs;
    const deadline = new Deadline(timeoutMs, options.signal);
    const stopped = "Reading the window's text over accessibility was stopped; its text is read by OCR.";
    let bus: AccessibilityBus | undefined;
    try {
      bus = await AccessibilityBus.open(this.env, deadline);
      const matchDeadline = new Deadline(Math.max(1, timeoutMs * MATCH_SHARE), options.signal);
      let found: { best?: TopLevel; silent: number };
      try {
        found = await findWindow(bus, window, matchDeadline, deadline);
      } finally {
        matchDeadline.clear();
      }
      if (!found.best) {
        const message = options.signal?.aborted
          ? stopped
          : found.silent > 0
            ? `No application answered for this window over accessibility within the time limit (${found.silent} did not answer); its text is read by OCR.`
            : `No application exposes this window over accessibility (accessibility is off in it, or it has none); its text is read by OCR.`;
        return { ok: false, code: found.silent > 0 ? 'timeout' : 'no-window', message, ms: ms() };
      }
      const find = options.find ?? this.find;
      const walked = await new Walk(bus, deadline, window, { ...options, ...(find ? { find } : {}) }).run(found.best.ref);
      if (walked.timedOut && walked.elements.length === 0) {
        const message = options.signal?.aborted ? stopped : `${found.best.app || 'The application'} did not answer over accessibility within ${timeoutMs} ms; its text is read by OCR.`;
        return { ok: false, code: 'timeout', message, ms: ms() };
      }
      return { ok: true, app: found.best.app, elements: walked.elements, truncated: walked.truncated, nodes: walked.nodes, ms: ms() };
    } catch (error) {
      if (error instanceof TimedOut) {
        const message = options.signal?.aborted ? stopped : `The accessibility bus did not answer within ${timeoutMs} ms; the window's text is read by OCR.`;
        return { ok: false, code: 'timeout', message, ms: ms() };
      }
      if (error instanceof BusUnavailable) {
        return { ok: false, code: 'not-available', message: `Accessibility is not available: ${error.message}; the window's text is read by OCR.`, ms: ms() };
      }
      throw error;
    } finally {
      deadline.clear();
      bus?.close();
    }
  }
}

/** The top-level accessible that is this window: the best of every application's, by pid, title and place. */
async function findWindow(bus: AccessibilityBus, window: WindowRef, deadline: Deadline, overall: Deadline): Promise<{ best?: TopLevel; silent: number }> {
  const apps = refs((await bus.call(REGISTRY, ROOT, ACCESSIBLE, 'GetChildren', '', [], overall))[0]);
  let silent = 0;
  let best: TopLevel | undefined;
  let bestScore = 0;
  const consider = (tops: TopLevel[]) => {
    for (const top of tops) {
      const score = matchScore(window, top.name, top.extents, top.showing);
      if (score > bestScore) [best, bestScore] = [top, score];
    }
  };
  await new Promise<void>((resolve) => {
    let left = apps.length;
    if (left === 0) resolve();
    for (const appRef of apps) {
      void (async () => {
        try {
          if (window.pid !== undefined) {
            // The bus daemon answers this, never the application: a stalled application costs nothing here.
            const [pid] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID', 's', [appRef.bus], overall);
            if (pid !== window.pid) return;
          }
          consider(await topLevels(bus, appRef, deadline));
          // Its title and place both agree: no need to wait for applications that are slow to answer.
          if (bestScore >= SURE_MATCH) resolve();
        } catch (error) {
          if (error instanceof TimedOut) silent++;
        } finally {
          if (--left === 0) resolve();
        }
      })();
    }
  });
  return { best, silent };
}

async function topLevels(bus: AccessibilityBus, appRef: Ref, deadline: Deadline): Promise<TopLevel[]> {
  const [app, kids] = await Promise.all([bus.property(appRef.bus, appRef.path, ACCESSIBLE, 'Name', deadline), bus.call(appRef.bus, appRef.path, ACCESSIBLE, 'GetChildren', '', [], deadline)]);
  return Promise.all(
    refs(kids[0]).map(async (ref) => {
      const [name, extents, state] = await Promise.all([
        bus.property(ref.bus, ref.path, ACCESSIBLE, 'Name', deadline),
        bus.call(ref.bus, ref.path, COMPONENT, 'GetExtents', 'u', [COORD_SCREEN], deadline).then(
          (body) => toExtents(body[0]),
          () => undefined,
        ),
        bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetState', '', [], deadline).then((body) => states(body[0])),
      ]);
      return { ref, app: typeof app === 'string' ? app : '', appRef, name: typeof name === 'string' ? name : '', extents, showing: state.has(STATE_SHOWING) };
    }),
  );
}

/**
 * How well a top-level accessible matches the window: its title (exact, else one containing the
 * other) and how much its extents overlap the window's rectangle (window managers frame a client,
 * so they seldom agree exactly). 0 means no match; a pid mismatch never reaches here.
 */
export function matchScore(window: WindowRef, name: string, extents: Extents | undefined, showing: boolean): number {
  const title = window.title.trim();
  const own = name.trim();
  let score = 0;
  if (title && own) {
    if (own === title) score += 3;
    else if (title.includes(own) || own.includes(title)) score += 1;
  }
  const overlap = extents ? overlapRatio(window, extents) : 0;
  score += 2 * overlap;
  if (score < 1.5 && !(window.pid !== undefined && overlap > 0)) return 0;
  return showing ? score : score - 1;
}

/** Intersection over union of two rectangles. */
export function overlapRatio(a: Extents, b: Extents): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** Screen extents → the window's pixels, clipped to it; undefined when off screen or outside the window. */
export function toWindowBox(extents: Extents | undefined, window: WindowRef): Box | undefined {
  if (!extents || extents.width <= 0 || extents.height <= 0 || extents.x <= -(2 ** 30) || extents.y <= -(2 ** 30)) return undefined;
  const scale = window.scale ?? 1;
  const x0 = Math.max(extents.x, window.x);
  const y0 = Math.max(extents.y, window.y);
  const x1 = Math.min(extents.x + extents.width, window.x + window.width);
  const y1 = Math.min(extents.y + extents.height, window.y + window.height);
  if (x1 <= x0 || y1 <= y0) return undefined;
  return { x: Math.round((x0 - window.x) * scale), y: Math.round((y0 - window.y) * scale), width: Math.round((x1 - x0) * scale), height: Math.round((y1 - y0) * scale) };
}

/** A bounded walk of one window's subtree, many calls in flight, elements in document order. */
class Walk {
  private readonly roleNames = new Map<number, Promise<string>>();
  private readonly visited: Visited[] = [];
  private nodes = 0;
  private chars = 0;
  private truncated = false;
  private timedOut = false;
  private readonly maxNodes: number;
  private readonly maxChars: number;
  private readonly find: FindSecrets | undefined;

  private readonly bus: AccessibilityBus;
  private readonly deadline: Deadline;
  private readonly window: WindowRef;

  constructor(bus: AccessibilityBus, deadline: Deadline, window: WindowRef, options: ReadOptions) {
    this.bus = bus;
    this.deadline = deadline;
    this.window = window;
    this.maxNodes = options.maxNodes ?? READ_DEFAULTS.maxNodes;
    this.maxChars = options.maxChars ?? READ_DEFAULTS.maxChars;
    this.find = options.find;
  }

  async run(root: Ref): Promise<{ elements: TextElement[]; truncated: boolean; timedOut: boolean; nodes: number }> {
    const queue: Array<{ ref: Ref; order: number[] }> = [{ ref: root, order: [] }];
    this.nodes = 1;
    await new Promise<void>((resolve) => {
      let active = 0;
      const pump = () => {
        while (active < CONCURRENCY && queue.length > 0 && !this.timedOut) {
          const item = queue.shift()!;
          active++;
          this.visit(item.ref, item.order)
            .then(
              (kids) => queue.push(...kids),
              (error: unknown) => {
                if (error instanceof TimedOut) this.timedOut = true;
                // Any other error: this one object went away (defunct) or refused; its siblings go on.
              },
            )
            .finally(() => {
              active--;
              pump();
            });
        }
        if (active === 0 && (queue.length === 0 || this.timedOut)) resolve();
      };
      pump();
    });
    const kept = tidyVisited(this.visited);
    if (this.find && !this.timedOut) await this.locate(kept, this.find);
    return { elements: kept.map((v) => v.element), truncated: this.truncated || this.timedOut, timedOut: this.timedOut, nodes: this.nodes };
  }

  /**
   * The secrets in the words on screen, each with its own box (Text.GetRangeExtents), while the bus
   * is open: redaction gets exact words where they lie instead of what OCR made of them. One pass of
   * the rules over all the text (elements apart by a blank line); a range the toolkit cannot place
   * hides its element's visible box; one scrolled out of view has none.
   */
  private async locate(kept: Visited[], find: FindSecrets): Promise<void> {
    const shown = kept.filter((v) => v.ref && v.element.box && v.element.text.trim());
    if (!shown.length) return;
    const starts: number[] = [];
    let joined = '';
    for (const v of shown) {
      starts.push(joined.length);
      joined += `${v.element.text}\n\n`;
    }
    let found: Awaited<ReturnType<FindSecrets>>;
    try {
      found = await find(joined);
    } catch {
      return;
    }
    let located = 0;
    await Promise.all(
      found.map(async (f) => {
        // The element the finding starts in; a finding runs no further than its element's text.
        let i = starts.length - 1;
        while (i > 0 && starts[i]! > f.start) i--;
        const v = shown[i]!;
        const own = v.element;
        const start = f.start - starts[i]!;
        const end = Math.min(f.end - starts[i]!, own.text.length);
        if (end <= start || located >= MAX_LOCATED) return;
        located++;
        const box = await this.rangeBox(v, start, end);
        if (box) (own.secrets ??= []).push({ box, kind: f.kind, rule: f.rule });
      }),
    ).catch(() => undefined);
  }

  /** Where characters start..end of an element's text lie, clipped to its visible box; its box when the toolkit cannot say. */
  private async rangeBox(v: Visited, start: number, end: number): Promise<Box | undefined> {
    const visible = v.element.box!;
    // AT-SPI counts characters (code points) of the raw text, U+FFFC included; JS strings count UTF-16 units.
    const raw = (i: number) => {
      const at = [...v.element.text.slice(0, i)].length;
      return at + (v.removed ?? []).filter((r) => r <= at).length;
    };
    let extents: Extents | undefined;
    try {
      const body = await this.bus.call(v.ref!.bus, v.ref!.path, TEXT, 'GetRangeExtents', 'iiu', [raw(start), raw(end), COORD_SCREEN], this.deadline);
      extents = toExtents(body);
    } catch (error) {
      if (error instanceof TimedOut) throw error;
    }
    if (!extents || extents.width <= 0 || extents.height <= 0) return visible;
    const box = toWindowBox(extents, this.window);
    if (!box) return undefined;
    const x0 = Math.max(box.x, visible.x), y0 = Math.max(box.y, visible.y);
    const x1 = Math.min(box.x + box.width, visible.x + visible.width), y1 = Math.min(box.y + box.height, visible.y + visible.height);
    return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
  }

  private async visit(ref: Ref, order: number[]): Promise<Array<{ ref: Ref; order: number[] }>> {
    const { bus, deadline } = this;
    // An application answers one call at a time (measured on a loaded 2-core machine: 8, 24 or 96
    // calls in flight read 4000 objects of a Chromium page in 4.7 to 9.6 s alike, this process spending
    // 0.5 ms of CPU an object in dbus-next), so each object costs as few calls as it can: name and child
    // count in one GetAll, children only when there are some, a box only for what is kept.
    const [roleId, stateBits, ifaces, props] = await Promise.all([
      bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetRole', '', [], deadline).then((b) => Number(b[0])),
      bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetState', '', [], deadline).then((b) => states(b[0])),
      bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetInterfaces', '', [], deadline).then((b) => new Set(Array.isArray(b[0]) ? (b[0] as string[]) : [])),
      bus.properties(ref.bus, ref.path, ACCESSIBLE, deadline),
    ]);
    const name = typeof props.Name === 'string' ? props.Name : '';
    const childCount = typeof props.ChildCount === 'number' ? props.ChildCount : 1;
    // Hidden widgets (a dialog's unused check box) are not part of what the window shows; a
    // scrolled-off row is VISIBLE but not SHOWING, and is kept (without a box).
    if (stateBits.has(STATE_DEFUNCT) || !stateBits.has(STATE_VISIBLE)) return [];
    const role = await this.roleName(ref, roleId);
    const password = role === 'password text';
    const wantsBox = ifaces.has(COMPONENT) && (password || stateBits.has(STATE_SHOWING));
    if (password) {
      const box = wantsBox ? await this.box(ref) : undefined;
      this.visited.push({ order, element: { role, name, text: '', ...(box ? { box } : {}), password: true } });
      return [];
    }
    const children = childCount > 0 ? bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetChildren', '', [], deadline) : Promise.resolve([[]]);
    children.catch(() => undefined);
    const read = ifaces.has(TEXT) ? await this.text(ref) : { text: '', removed: [] };
    const { text } = read;
    if (name.trim() || text.trim()) {
      const box = wantsBox ? await this.box(ref) : undefined;
      this.visited.push({ order, element: { role, name, text, ...(box ? { box } : {}) }, ref, ...(read.removed.length ? { removed: read.removed } : {}) });
    }
    const kids = refs((await children)[0]);
    const room = Math.max(0, this.maxNodes - this.nodes);
    if (kids.length > room) this.truncated = true;
    const taken = kids.slice(0, room);
    this.nodes += taken.length;
    return taken.map((kid, i) => ({ ref: kid, order: [...order, i] }));
  }

  private roleName(ref: Ref, id: number): Promise<string> {
    // Role numbers are AT-SPI's one enumeration: one GetRoleName per role seen, not per object.
    let name = this.roleNames.get(id);
    if (!name) {
      name = this.bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetRoleName', '', [], this.deadline).then((b) => String(b[0] ?? ''));
      name.catch(() => this.roleNames.delete(id));
      this.roleNames.set(id, name);
    }
    return name;
  }

  private async box(ref: Ref): Promise<Box | undefined> {
    try {
      const [extents] = await this.bus.call(ref.bus, ref.path, COMPONENT, 'GetExtents', 'u', [COORD_SCREEN], this.deadline);
      return toWindowBox(toExtents(extents), this.window);
    } catch (error) {
      if (error instanceof TimedOut) throw error;
      return undefined;
    }
  }

  /** Its text, and where U+FFFC stood in it (code points of the returned text before each). */
  private async text(ref: Ref): Promise<{ text: string; removed: number[] }> {
    const none = { text: '', removed: [] };
    const count = Number(await this.bus.property(ref.bus, ref.path, TEXT, 'CharacterCount', this.deadline));
    if (!Number.isFinite(count) || count <= 0) return none;
    const room = this.maxChars - this.chars;
    if (room <= 0) {
      this.truncated = true;
      return none;
    }
    const take = Math.min(count, room);
    if (take < count) this.truncated = true;
    this.chars += take;
    const [text] = await this.bus.call(ref.bus, ref.path, TEXT, 'GetText', 'ii', [0, take], this.deadline);
    if (typeof text !== 'string') return none;
    // U+FFFC stands for an embedded child (a link in a paragraph): the child is read as its own element.
    const removed: number[] = [];
    let kept = 0;
    for (const c of text) {
      if (c === '\uFFFC') removed.push(kept);
      else kept++;
    }
    return { text: text.replace(OBJECT_REPLACEMENT, ''), removed };
  }
}

/**
 * The elements in document order, each word once. Toolkits repeat text up the tree: Chromium's
 * heading, link and label each hold one "static" child with the same words, and a paragraph holds
 * its runs' text with U+FFFC where a link sits. So an element whose words its descendants carry is
 * kept for its name only (and dropped without one), and a lone descendant that repeats its
 * ancestor's words is folded into the ancestor, which keeps its role and box.
 */
export function tidy(visited: Visited[]): TextElement[] {
  return tidyVisited(visited).map((v) => v.element);
}

/** tidy, keeping what each kept element was read from. */
function tidyVisited(visited: Visited[]): Visited[] {
  const sorted = [...visited].sort((a, b) => compareOrder(a.order, b.order));
  const drop = new Set<number>();
  const out = sorted.map((v) => ({ ...v.element }));
  for (let i = 0; i < sorted.length; i++) {
    if (!out[i]!.text.trim() || drop.has(i)) continue;
    const textful: number[] = [];
    for (let j = i + 1; j < sorted.length && isUnder(sorted[j]!.order, sorted[i]!.order); j++) {
      if (out[j]!.text.trim()) textful.push(j);
      if (textful.length > 1) break;
    }
    if (textful.length === 0) continue;
    const own = out[i]!.text.trim();
    if (textful.length === 1 && out[textful[0]!]!.text.trim() === own) {
      drop.add(textful[0]!);
      continue;
    }
    out[i]!.text = '';
    if (!out[i]!.name.trim()) drop.add(i);
  }
  return sorted.flatMap((v, i) => (drop.has(i) ? [] : [{ ...v, element: out[i]! }]));
}

function isUnder(order: number[], ancestor: number[]): boolean {
  return order.length > ancestor.length && ancestor.every((n, k) => order[k] === n);
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function refs(value: unknown): Ref[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((pair) => (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string' && pair[1] !== '/org/a11y/atspi/null' ? [{ bus: pair[0], path: pair[1] }] : []));
}

function toExtents(value: unknown): Extents | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((n) => typeof n === 'number')) return undefined;
  const [x, y, width, height] = value as number[];
  return { x: x!, y: y!, width: width!, height: height! };
}

/** AT-SPI states: two 32-bit words of bits, as the set of bit numbers that are on. */
function states(value: unknown): Set<number> {
  const on = new Set<number>();
  if (!Array.isArray(value)) return on;
  value.forEach((word, w) => {
    for (let bit = 0; bit < 32; bit++) if ((Number(word) >>> bit) & 1) on.add(w * 32 + bit);
  });
  return on;
}
