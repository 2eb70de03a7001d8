// axe-core (Deque's accessibility engine) run inside the page under test: its source injected
// with playwright-core, its findings answered as data so a test can name what is wrong.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

export type AxeFinding = { id: string; impact: string; help: string; targets: string[] };

/** Every serious or critical finding in the page as it is now (all of axe's WCAG 2.x A/AA rules and best practices). */
export async function seriousFindings(page: Page): Promise<AxeFinding[]> {
  source ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated, not added as a <script>: the window's CSP (script-src 'self') refuses inline scripts, as it should.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(await source);
  const findings = await page.evaluate<AxeFinding[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  })()`);
  return findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/** All findings, for the moderate ones a view should also be free of. */
export async function allFindings(page: Page): Promise<AxeFinding[]> {
  await seriousFindings(page);
  return page.evaluate<AxeFinding[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  })()`);
}

/** The findings of the named rules only, experimental ones included (axe runs those only when asked). */
export async function ruleFindings(page: Page, rules: readonly string[]): Promise<AxeFinding[]> {
  await seriousFindings(page);
  return page.evaluate<AxeFinding[]>(`(async () => {
    const rules = ${JSON.stringify(rules)};
    const result = await window.axe.run(document, { runOnly: { type: 'rule', values: rules }, rules: Object.fromEntries(rules.map((r) => [r, { enabled: true }])), resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  })()`);
}
