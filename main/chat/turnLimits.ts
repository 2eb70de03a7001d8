// The bounds every user turn keeps (architecture §5 "Bounds"): a model that calls
// tools forever (2,119 calls in 60 s before this) or streams an answer forever (100 MB, stored
// whole) is stopped with a note a person can read, not by running out of memory.

/** The turn ended because the model kept asking for tools past the step limit. */
export function stepLimitMessage(maxSteps: number): string {
  return `Stopped after ${maxSteps} model steps in this turn (the limit, in Settings → Limits): the model kept asking for tools. Its last tool calls were not run.`;
}

/** Tool calls a model returned although no tools were offered in that step. */
export const NOT_OFFERED_MESSAGE = 'The model asked for tools although none were offered in that step; the calls were not run.';

/** Keeps at most `max` characters of one answer (text and thinking counted apart). */
export class AnswerCap {
  #left: number;
  readonly max: number;

  constructor(max: number) {
    this.max = max;
    this.#left = max;
  }

  /** The part of `delta` that still fits; once the cap is reached, with the note and `full`. */
  take(delta: string): { delta: string; full: boolean } {
    if (delta.length < this.#left) {
      this.#left -= delta.length;
      return { delta, full: false };
    }
    const kept = delta.slice(0, this.#left);
    this.#left = 0;
    return { delta: kept + answerCutNote(this.max), full: true };
  }
}

function answerCutNote(max: number): string {
  return `\n\n[Glance stopped this answer at ${max.toLocaleString('en-US')} characters (the limit in Settings → Limits); the rest was not kept.]`;
}

/** A turn ended by a limit rather than by the model's answer. */
export class TurnLimitError extends Error {
  readonly code = 'step-limit';
  constructor(message: string) {
    super(message);
    this.name = 'TurnLimitError';
  }
}
