// Limits every layer agrees on. Settings may override them; these are the defaults.
export type Limits = {
  /** Refuse a source larger than this before decoding it (bytes). */
  ingestBytes: number;
  /** Refuse an image with more pixels than this before decoding it (width × height). */
  maxInputPixels: number;
  /** Synthetic image deliveries (tool captures shown to the model) per user turn. */
  maxImageDeliveriesPerTurn: number;
  /** User-attached images carried by one model request; older ones become text stubs. */
  maxImagesPerRequest: number;
  /** Timeout for fetching an http(s) image source (ms). */
  fetchTimeoutMs: number;
  /** Model steps in one user turn; the last is offered no tools, and calls past it are not run. */
  maxStepsPerTurn: number;
  /** Images one tool result may deliver; the rest stay descriptors (show_attachment re-shows them). */
  maxImagesPerToolResult: number;
  /** Characters of one answer kept and shown; past it the stream is stopped with a note. */
  maxAnswerChars: number;
  /** Silence between two pieces of a model's stream before the answer is stopped as interrupted (ms). */
  streamIdleMs: number;
  /** How long one model answer (one step's stream) may run before it is stopped as interrupted (ms). */
  maxAnswerMs: number;
  /** Images one MCP result may store (the rest are dropped with a note); delivery is bounded apart (maxImagesPerToolResult). */
  maxStoredImagesPerToolResult: number;
  /** Bytes one MCP result may store, images and files together; past it the rest are dropped with a note. */
  maxStoredBytesPerToolResult: number;
  /**
   * How long a chat turn waits for an MCP server that is still starting, counted from that
   * server's own start (ms). Past it the turn goes on without its tools (they join later); a
   * server waiting for the person's answer is never waited for.
   */
  mcpTurnWaitMs: number;
};

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  ingestBytes: 50 * 1024 * 1024,
  maxInputPixels: 100_000_000,
  maxImageDeliveriesPerTurn: 3,
  maxImagesPerRequest: 4,
  fetchTimeoutMs: 15_000,
  maxStepsPerTurn: 25,
  maxImagesPerToolResult: 4,
  // ~50k tokens: more than any model's output limit, far less than a runaway stream.
  maxAnswerChars: 200_000,
  streamIdleMs: 60_000,
  // A local model on a slow machine can take minutes for a long answer; a stuck one never ends.
  maxAnswerMs: 15 * 60_000,
  maxStoredImagesPerToolResult: 32,
  maxStoredBytesPerToolResult: 128 * 1024 * 1024,
  mcpTurnWaitMs: 5000,
});

/** At most this many marks on one image (common/marks.ts; here without zod, for the renderer). */
export const MAX_MARKS = 50;
