import type { ToolCall } from './provider.ts';

/**
 * Tool-call arguments as the engine wants them: a JSON object. Models sometimes send
 * broken JSON (a cut stream, a small model's typo) or a non-object; then `arguments` is
 * `{}` and `invalidArguments` keeps the raw text, so the engine can answer the call with an
 * error the model can correct instead of running the tool on a guess.
 */
export function toolArguments(raw: unknown): Pick<ToolCall, 'arguments' | 'invalidArguments'> {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { arguments: {} };
    try {
      value = JSON.parse(raw);
    } catch {
      return { arguments: {}, invalidArguments: raw };
    }
  }
  if (value === undefined || value === null) return { arguments: {} };
  if (typeof value === 'object' && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
  return { arguments: {}, invalidArguments: typeof raw === 'string' ? raw : JSON.stringify(raw) };
}
