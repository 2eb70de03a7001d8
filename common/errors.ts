// The message of anything thrown, for every runtime (main, renderer, common): the one helper.
// main/errors.ts adds `errorText`, which also scrubs secrets and bounds the text for a person.

/** The message of anything thrown: an Error's message, else the value as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
