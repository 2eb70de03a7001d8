// Standing tool-approval rules (Settings' toolApproval), read the same way by main's approver
// and by the Settings screen (which shows what each rule covers). Pure: no node, no DOM.
import type { ToolPolicy } from './settings.ts';

/** An exact name wins over globs; among globs the longest (most specific) wins. */
export function policyFor(policy: ToolPolicy, name: string): 'allow' | 'deny' | 'ask' | undefined {
  return ruleFor(policy, name)?.value;
}

/** The rule that decides for a name (see policyFor), with the pattern it was written as. */
export function ruleFor(policy: ToolPolicy, name: string): { pattern: string; value: 'allow' | 'deny' | 'ask' } | undefined {
  const exact = Object.hasOwn(policy, name) ? policy[name] : undefined;
  if (exact) return { pattern: name, value: exact };
  let best: { pattern: string; value: 'allow' | 'deny' | 'ask' } | undefined;
  for (const [pattern, value] of Object.entries(policy)) {
    if (!isToolGlob(pattern)) continue;
    if (globMatch(pattern, name) && (!best || pattern.length > best.pattern.length)) best = { pattern, value };
  }
  return best;
}

/** Whether a rule names a pattern (`files__*`) rather than one tool. */
export function isToolGlob(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/** `*` any run of characters, `?` one; everything else literal. */
export function globMatch(glob: string, name: string): boolean {
  const source = glob.trim().replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${source}$`).test(name);
}
