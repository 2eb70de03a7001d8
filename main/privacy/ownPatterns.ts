// A person's own patterns (architecture §3 "Redact"): JavaScript regular expressions, checked
// before they are kept and time-boxed when they run. V8's regex engine backtracks, so a pattern
// such as (a+)+$ can take minutes on a line of a's; a pattern like that is refused when saved
// (a quantified group that itself holds an unbounded quantifier, or a probe run that overruns),
// and every match runs inside a vm context whose timeout interrupts the regex itself.
import { createContext, runInContext, type Context } from 'node:vm';
import { patternProblem, type OwnPattern } from '../../common/privacy.ts';
import type { Finding } from './findings.ts';

/** One pattern's matching over one text may take this long; past it, the pattern is skipped for that text and said so. */
const PATTERN_TIME_BOX_MS = 200;
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

/**
 * Matches of the person's patterns in `text`. A pattern that fails the check (say, edited by hand
 * in settings.json) or overruns its time box finds nothing here and is named in `skipped`.
 */
export function ownPatternFindings(text: string, patterns: readonly OwnPattern[]): { findings: Finding[]; skipped: string[] } {
  const findings: Finding[] = [];
  const skipped: string[] = [];
  for (const p of patterns) {
    if (!checkOwnPattern(p.pattern).ok) {
      skipped.push(`${p.name} (not a safe regular expression)`);
      continue;
    }
    const run = timedMatches(p.pattern, text, PATTERN_TIME_BOX_MS);
    if (run === 'timeout') {
      skipped.push(`${p.name} (took over ${PATTERN_TIME_BOX_MS} ms)`);
      continue;
    }
    for (const [start, end] of run) findings.push({ start, end, kind: 'own pattern', rule: `pattern:${p.name}` });
  }
  return { findings, skipped };
}
