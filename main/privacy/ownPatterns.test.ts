// A person's own patterns: refused with a reason when they cannot compile or can backtrack without
// end, matched (time-boxed) when they can.
import { describe, expect, it } from 'vitest';
import { findSecrets } from './detect.ts';
import { checkOwnPattern, ownPatternFindings } from './ownPatterns.ts';

describe('own patterns', () => {
  it('refuses a pattern that is not a regular expression, saying why', () => {
    const check = checkOwnPattern('EMP-(\\d+');
    expect(check).toEqual({ ok: false, message: expect.stringMatching(/"EMP-\(\\d\+" is not a valid regular expression: .*(unterminated group|Unterminated group)/i) });
  });

  it('refuses patterns that can backtrack without end', () => {
    for (const p of ['(a+)+$', '(\\w*\\s?)*x', '(a|aa)+b', '([a-z]+){2,}!']) {
      const check = checkOwnPattern(p);
      expect(check.ok, p).toBe(false);
      expect(!check.ok && check.message).toMatch(/without end|took over/);
    }
    expect(checkOwnPattern('a*').ok).toBe(false); // matches empty text
  });

  it('keeps and matches a safe pattern, with the rule named after it', async () => {
    expect(checkOwnPattern('EMP-\\d{6}')).toEqual({ ok: true });
    const { findings } = await findSecrets('badge EMP-204519 issued', { patterns: [{ name: 'employee id', pattern: 'EMP-\\d{6}' }] });
    expect(findings).toContainEqual({ start: 6, end: 16, kind: 'own pattern', rule: 'pattern:employee id' });
  });

  it('skips, and names, a hand-written unsafe pattern instead of stalling', () => {
    const started = performance.now();
    const out = ownPatternFindings('a'.repeat(40) + '!', [{ name: 'bad', pattern: '(a+)+$' }]);
    expect(out).toEqual({ findings: [], skipped: ['bad (not a safe regular expression)'] });
    expect(performance.now() - started).toBeLessThan(5000); // not a speed claim: an unbounded backtrack would never return
  });
});
