import type { z } from 'zod';

/** "providers.openai.0.baseUrl: must be an http(s) URL; hotkey: …" — names the offending fields. */
export function formatZodIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.length ? i.path.join('.') : '(value)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (+${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}
