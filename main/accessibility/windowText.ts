// A window's own words (architecture §7 "A window's own words"): the text an application exposes to
// assistive technology, read beside the pixels. One port, one adapter per platform: AT-SPI over
// D-Bus on Linux (atspiWindowText.ts); macOS (AX) and Windows (UI Automation) say they are not
// built yet. Failures are values with one line a person can read; the caller then uses OCR.

/** The window to read, as the capturer lists it: screen coordinates, its title, its process if known. */
export type WindowRef = {
  title: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The owning process (X11 `_NET_WM_PID`), when the capturer knows it: the surest match. */
  pid?: number;
  /** Screen pixels per window pixel (1 on X11): element boxes are scaled by it. */
  scale?: number;
};

/** A rectangle in the window's own pixels (origin at its top-left). */
export type Box = { x: number; y: number; width: number; height: number };

export type TextElement = {
  /** The AT-SPI role name ("text", "label", "push button", "password text", "terminal"…). */
  role: string;
  /** Its accessible name (a label's words, a button's caption); '' when none. */
  name: string;
  /** The text it holds (Text interface), scrolled-off parts included; '' when none or a password. */
  text: string;
  /** Where it is in the window (clipped to it); absent when it is not on screen (scrolled off, hidden). */
  box?: Box;
  /** A password field: its text is never read, and its box is always hidden. */
  password?: true;
  /**
   * Secrets found in its text (ReadOptions.find) where they lie on screen, in the window's pixels:
   * exact words with their own boxes, hidden in the image as its secrets are.
   */
  secrets?: Array<{ box: Box; kind: string; rule: string }>;
};

/** Secrets in a text, as character ranges (the privacy rules, given by the composition). */
export type FindSecrets = (text: string) => Promise<ReadonlyArray<{ start: number; end: number; kind: string; rule: string }>>;

export type WindowTextRead = {
  ok: true;
  /** The application that owns the window, as it names itself on the bus. */
  app: string;
  elements: TextElement[];
  /** True when a limit (nodes, characters, time) cut the read short. */
  truncated: boolean;
  /** Accessible objects visited. */
  nodes: number;
  ms: number;
};

export type WindowTextFailure = {
  ok: false;
  /**
   * not-available: no accessibility on this platform or session; no-window: no application
   * exposes this window (accessibility off in it, or not supported); timeout: the application did
   * not answer within the time limit.
   */
  code: 'not-available' | 'no-window' | 'timeout';
  /** One line, for the person and the model: why there is no accessible text, so OCR is used. */
  message: string;
  ms: number;
};

export type WindowTextResult = WindowTextRead | WindowTextFailure;

export type ReadOptions = {
  signal?: AbortSignal;
  /** The whole read, bus connection included (default 2500 ms: a busy desktop answers in tens of ms; a stalled app costs at most this). */
  timeoutMs?: number;
  /** Accessible objects visited at most (default 4000). */
  maxNodes?: number;
  /** Characters of text at most, over all elements (default 200 000). */
  maxChars?: number;
  /** Finds secrets in the text read; each one on screen is located (its own box) before the read ends. */
  find?: FindSecrets;
};

export const READ_DEFAULTS = { timeoutMs: 2500, maxNodes: 4000, maxChars: 200_000 } as const;

/** The port: a window's accessible text. */
export interface WindowText {
  read(window: WindowRef, options?: ReadOptions): Promise<WindowTextResult>;
}

/** The adapter for a platform whose accessibility API is not read yet. */
export class UnavailableWindowText implements WindowText {
  private readonly why: string;

  constructor(why: string) {
    this.why = why;
  }

  read(): Promise<WindowTextResult> {
    return Promise.resolve({ ok: false, code: 'not-available', message: this.why, ms: 0 });
  }
}

/** What each platform says until its adapter is built. */
export function unavailableOn(platform: NodeJS.Platform): UnavailableWindowText {
  const api = platform === 'darwin' ? 'the macOS accessibility API (AX)' : platform === 'win32' ? 'Windows UI Automation' : `accessibility on ${platform}`;
  return new UnavailableWindowText(`Reading a window's text through ${api} is not available on this platform yet; its text is read by OCR.`);
}
