// The one way to turn anything thrown into words (architecture §8). `errorMessage` is what
// was thrown, as text; `errorText` is that text fit to show a person or to store: scrubbed of
// keys and image payloads, on one line, bounded.
import { errorMessage } from '../common/errors.ts';
import { safeErrorText } from './scrubSecrets.ts';

export { errorMessage };

/** What was thrown, fit for a person: scrubbed of secrets (known values and key shapes), one line, bounded. */
export function errorText(error: unknown, secrets: Iterable<string> = []): string {
  return safeErrorText(errorMessage(error).replace(/\s+/g, ' ').trim() || 'no details', secrets);
}
