// A person's own patterns: refused with a reason when they cannot compile or can backtrack without
// end, matched (time-boxed) when they can.
import { describe, expect, it } from 'vitest';
import { findSecrets } from './detect.ts';
import { checkOwnPattern, ownPatternMatches } from './ownPatterns.ts';

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

  it('skips, and names, a hand-written unsafe pattern instead of stalling', async () => {
    const out = await ownPatternMatches(['a'.repeat(40) + '!'], [{ name: 'bad', pattern: '(a+)+$' }]);
    expect(out).toEqual({ perText: [[]], skipped: ['bad (not a safe regular expression)'] });
  });

  // 50 patterns that each pass the shape check but backtrack for long on a line of digits: they
  // used to run one after another on the main thread, each within its own 200 ms (23.7 s an image,
  // the event loop blocked). Now they share one budget in a worker, and the app keeps running.
  it("runs an image's patterns off the main thread within one budget, and names those it could not run", async () => {
    const slow = Array.from({ length: 50 }, (_, i) => ({ name: `slow ${i}`, pattern: String.raw`\d*\d*\d*\d*\d*\d*x` }));
    const patterns = [{ name: 'employee id', pattern: 'EMP-\\d{6}' }, ...slow];
    const text = 'EMP-204519 ' + '1'.repeat(3000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const out = await ownPatternMatches([text, text], patterns, 2000);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    expect(out.perText[0]).toContainEqual({ start: 0, end: 10, kind: 'own pattern', rule: 'pattern:employee id' });
    expect(out.skipped.length).toBeGreaterThan(40);
    expect(out.skipped[0]).toMatch(/^slow \d+ \(not run: this image's 2000 ms for own patterns was spent\)$/);
  });
});
