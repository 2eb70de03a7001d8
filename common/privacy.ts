import { z } from 'zod';
import { errorMessage } from './errors.ts';

/**
 * On-device redaction (architecture §3 "Redact"): what was hidden in an image before a model got it,
 * and the person's privacy settings. Shared by main (the door, the CLI), the event stream and the UI.
 */

/** What a hidden region held, in words a person and a model understand ("aws key", "card number"). */
export const RedactionKind = z.enum([
  'aws key',
  'cloud key',
  'github token',
  'slack token',
  'api key',
  'private key',
  'password',
  'database url',
  'jwt',
  'card number',
  'iban',
  'secret',
  'key-like text',
  'email',
  'phone number',
  'own pattern',
  'excluded window',
]);
export type RedactionKind = z.infer<typeof RedactionKind>;

/** One hidden rectangle, in the pixels of the original as shown (EXIF orientation applied). */
export const Redaction = z.object({
  x: z.number().int().nonnegative(),
  y: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  kind: RedactionKind,
  /** The rule that found it: a secretlint rule id, "luhn", "iban", "jwt", "pem", "label", "entropy", "pattern:<name>", "window:<app>". */
  rule: z.string(),
});
export type Redaction = z.infer<typeof Redaction>;

/** `remote`: redact when the model's endpoint is not on this machine (loopback). */
export const RedactPolicy = z.enum(['remote', 'always', 'never']);
export type RedactPolicy = z.infer<typeof RedactPolicy>;

/** Groups of rules a person can turn off or on. `contact` (emails, phone numbers) is off by default. */
export const RedactCategory = z.enum(['keys', 'cards', 'banking', 'passwords', 'highEntropy', 'contact']);
export type RedactCategory = z.infer<typeof RedactCategory>;

export const DEFAULT_REDACT_CATEGORIES: Readonly<Record<RedactCategory, boolean>> = Object.freeze({
  keys: true,
  cards: true,
  banking: true,
  passwords: true,
  highEntropy: true,
  contact: false,
});

/** Password managers and keychains: their windows are filled before anything else is looked at. */
const DEFAULT_EXCLUDED_APPS: readonly string[] = Object.freeze([
  'KeePassXC',
  'KeePass',
  '1Password',
  'Bitwarden',
  'Keychain Access',
  'LastPass',
  'Dashlane',
  'Enpass',
  'Proton Pass',
  'Seahorse',
  'Passwords',
]);

/**
 * Why `source` cannot be a person's own pattern, or undefined when it can: it must compile, need at
 * least one character, and have no repeated group that itself repeats — the shapes that make V8's
 * backtracking engine run without end ((a+)+, (\w*\s?)*, (a|aa)+). Settings refuse such a pattern
 * on save; main/privacy/ownPatterns.ts also probes it with a time box before it runs.
 */
export function patternProblem(source: string): string | undefined {
  if (!source.trim()) return 'The pattern is empty.';
  let re: RegExp;
  try {
    re = new RegExp(source, 'u');
  } catch (error) {
    const why = errorMessage(error).replace(/^Invalid regular expression: /, '');
    return `"${source}" is not a valid regular expression: ${why}.`;
  }
  if (re.test('')) return `"${source}" matches empty text, so it would hide everything or nothing. Make it need at least one character.`;
  const nested = nestedQuantifier(source);
  if (nested) return `"${source}" can take without end on some text: ${nested}. Write it without a repeated group that itself repeats (e.g. (ab+)+ → ab+(?:ab+)*, or bound it: {1,20}).`;
  return undefined;
}

/**
 * A group closed by an unbounded quantifier that holds an unbounded quantifier or an alternation
 * inside it: the classic catastrophic-backtracking shapes (a+)+, (\w*\s?)*, (a|aa)+.
 */
function nestedQuantifier(source: string): string | undefined {
  type Group = { start: number; inner: boolean; alternation: boolean };
  const stack: Group[] = [{ start: 0, inner: false, alternation: false }];
  let inClass = false;
  const unboundedAt = (i: number) => {
    const c = source[i];
    if (c === '+' || c === '*') return true;
    if (c === '{') return /^\{\d*,\}/.test(source.slice(i)) || /^\{\d*,\d{3,}\}/.test(source.slice(i));
    return false;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    const top = stack[stack.length - 1] as Group;
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ start: i, inner: false, alternation: false });
    else if (c === '|') top.alternation = true;
    else if (c === ')') {
      const group = stack.pop();
      if (!group || stack.length === 0) return undefined; // unbalanced: the compile check already refused it
      if (unboundedAt(i + 1) && (group.inner || group.alternation)) return `the group ${source.slice(group.start, i + 1)} repeats and has a repeat inside`;
      const parent = stack[stack.length - 1] as Group;
      if (group.inner || unboundedAt(i + 1)) parent.inner = true;
    } else if (unboundedAt(i)) top.inner = true;
  }
  return undefined;
}

/** A person's own pattern: a JavaScript regular expression, checked on save. */
export const OwnPattern = z.strictObject({
  name: z.string().min(1).max(64),
  pattern: z.string().min(1).max(500).superRefine((p, ctx) => {
    const problem = patternProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});
export type OwnPattern = z.infer<typeof OwnPattern>;

export const PrivacySection = z.object({
  redact: RedactPolicy.default('remote'),
  categories: z
    .object({
      keys: z.boolean().default(true),
      cards: z.boolean().default(true),
      banking: z.boolean().default(true),
      passwords: z.boolean().default(true),
      highEntropy: z.boolean().default(true),
      contact: z.boolean().default(false),
    })
    .prefault({}),
  patterns: z.array(OwnPattern).max(50).default([]),
  /** App names or window titles (case-insensitive substrings) whose windows are filled whole. */
  excludedApps: z.array(z.string().min(1).max(200)).max(100).default([...DEFAULT_EXCLUDED_APPS]),
  /** Conversation id → policy, set from the composer for one conversation. */
  conversations: z.record(z.string(), RedactPolicy).default({}),
});
export type PrivacySettings = z.infer<typeof PrivacySection>;

/** Follows `image_attached` when regions of it were hidden from the model (architecture §5). */
export const ImageRedactedEvent = z.object({
  type: z.literal('image_redacted'),
  attachmentId: z.string(),
  regions: z.array(Redaction),
  /** Regions found but sent as they were: the person chose "Show anyway" for this send. */
  shown: z.array(Redaction).optional(),
  /** How long detection took on this device. */
  ms: z.number().nonnegative(),
});
export type ImageRedactedEvent = z.infer<typeof ImageRedactedEvent>;

/** "2 regions hidden on this device (aws key, card number)": the words the model's image label and the CLI use. */
export function hiddenPhrase(regions: readonly Pick<Redaction, 'kind'>[]): string {
  if (regions.length === 0) return '';
  const kinds = [...new Set(regions.map((r) => r.kind))];
  return `${regions.length} region${regions.length === 1 ? '' : 's'} hidden on this device (${kinds.join(', ')})`;
}
