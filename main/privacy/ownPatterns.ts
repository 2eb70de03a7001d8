// A person's own patterns (architecture §3 "Redact"): JavaScript regular expressions, checked
// before they are kept and time-boxed when they run. V8's regex engine backtracks, so a pattern
// such as (a+)+$ can take minutes on a line of a's; a pattern like that is refused when saved
// (a quantified group that itself holds an unbounded quantifier, or a probe run that overruns),
// and every match runs inside a vm context whose timeout interrupts the regex itself.
import { createContext, runInContext, type Context } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { patternProblem, type OwnPattern } from '../../common/privacy.ts';
import type { Finding } from './findings.ts';

/** A catastrophic pattern takes seconds on the probes; a sound one well under a millisecond (room for a loaded machine). */
const PROBE_MS = 250;

type PatternCheck = { ok: true } | { ok: false; message: string };

/** Whether `source` may be kept as an own pattern: it compiles, and it cannot backtrack without end. */
export function checkOwnPattern(source: string): PatternCheck {
  const problem = patternProblem(source);
  if (problem) return { ok: false, message: problem };
  for (const probe of PROBES) {
    const run = timedMatches(source, probe, PROBE_MS);
    if (run === 'timeout') return { ok: false, message: `"${source}" took over ${PROBE_MS} ms on a ${probe.length}-character test line, so it could stall on a screen's text. Simplify it.` };
  }
  return { ok: true };
}

const PROBES = ['a'.repeat(28) + '!', '0'.repeat(28) + 'x', ' '.repeat(28) + '\u0000', 'aA0_-'.repeat(8) + '\n'];

let context: Context | undefined;

/** All matches of `source` in `text` as [start, end) pairs, or 'timeout' when it ran past `ms`. */
function timedMatches(source: string, text: string, ms: number): Array<[number, number]> | 'timeout' {
  context ??= createContext(Object.create(null));
  (context as Record<string, unknown>).input = { source, text };
  try {
    const json = runInContext(
      `(() => { const out = []; const re = new RegExp(input.source, 'gu'); for (const m of input.text.matchAll(re)) { if (m[0].length) out.push([m.index, m.index + m[0].length]); if (out.length > 10000) break; } return JSON.stringify(out); })()`,
      context,
      { timeout: ms },
    ) as string;
    return JSON.parse(json) as Array<[number, number]>;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    return [];
  } finally {
    (context as Record<string, unknown>).input = undefined;
  }
}

/** All of one image's own patterns together may take this long (both of its texts); the rest are skipped and named. */
export const OWN_PATTERNS_BUDGET_MS = 1000;
/**
 * A worker that has not started in this long runs nothing for this image (its patterns are named as
 * skipped). Starting takes a few hundred ms; under heavy load (a test suite on two busy cores) it
 * took over 15 s, and skipping a person's patterns for that is worse than waiting.
 */
const START_MS = 60_000;

type Message = { ready: true } | { id: number; done: true } | { id: number; index: number; perText: Array<Array<[number, number]>> };
type Shared = { worker: Worker; ready: Promise<boolean> };
let shared: Shared | undefined;
let queue: Promise<unknown> = Promise.resolve();
let jobs = 0;

/** The patterns' worker, started once and kept (it costs a few hundred ms to start); ended when a budget runs out. */
function patternWorker(): Shared {
  if (shared) return shared;
  const here = import.meta.url;
  // Source (.ts, under Node's type stripping) and build (.js) each start their own sibling.
  const worker = new Worker(new URL(here.endsWith('.ts') ? './ownPatternsWorker.ts' : './ownPatternsWorker.js', here), { resourceLimits: { maxOldGenerationSizeMb: 128 } });
  worker.unref();
  const ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_MS);
    worker.once('message', () => {
      clearTimeout(timer);
      resolve(true);
    });
    worker.once('error', () => resolve(false));
  });
  const mine: Shared = { worker, ready };
  worker.once('exit', () => {
    if (shared === mine) shared = undefined;
  });
  shared = mine;
  return mine;
}

/**
 * Matches of the person's patterns in each of `texts` (an image's text as OCR spaced it and with
 * its invented gaps closed), run off the main thread in a worker, within ONE time budget for all
 * of them: when it is spent the worker is ended, and every pattern not done is named in `skipped`
 * (so 50 slow patterns cost the budget once, not 50 time boxes, and the event loop never waits).
 */
export function ownPatternMatches(texts: readonly string[], patterns: readonly OwnPattern[], budgetMs = OWN_PATTERNS_BUDGET_MS): Promise<{ perText: Finding[][]; skipped: string[] }> {
  // One image at a time: each gets the whole budget.
  const run = queue.then(() => runPatterns(texts, patterns, budgetMs));
  queue = run.catch(() => undefined);
  return run;
}

async function runPatterns(texts: readonly string[], patterns: readonly OwnPattern[], budgetMs: number): Promise<{ perText: Finding[][]; skipped: string[] }> {
  const perText: Finding[][] = texts.map(() => []);
  const skipped: string[] = [];
  const runnable: OwnPattern[] = [];
  for (const p of patterns) {
    if (patternProblem(p.pattern)) skipped.push(`${p.name} (not a safe regular expression)`);
    else runnable.push(p);
  }
  if (!runnable.length || !texts.some((t) => t.length)) return { perText, skipped };
  const { worker, ready } = patternWorker();
  const done = new Set<number>();
  const started = await ready;
  if (started) {
    const id = ++jobs;
    const finished = await new Promise<boolean>((resolve) => {
      const onMessage = (m: Message) => {
        if (!('id' in m) || m.id !== id) return;
        if ('done' in m) return end(true);
        const p = runnable[m.index];
        if (!p) return;
        done.add(m.index);
        m.perText.forEach((matches, t) => {
          for (const [start, end] of matches) perText[t]?.push({ start, end, kind: 'own pattern', rule: `pattern:${p.name}` });
        });
      };
      const end = (ok: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(ok);
      };
      const onExit = () => end(false);
      const timer = setTimeout(() => end(false), budgetMs);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ id, texts: [...texts], patterns: runnable.map((p) => p.pattern) });
    });
    // Still matching past the budget: the pattern holding it cannot be interrupted, so the worker ends.
    if (!finished) await worker.terminate();
  }
  runnable.forEach((p, i) => {
    if (done.has(i)) return;
    skipped.push(started ? `${p.name} (not run: this image's ${budgetMs} ms for own patterns was spent)` : `${p.name} (not run: the worker for own patterns did not start)`);
  });
  return { perText, skipped };
}
