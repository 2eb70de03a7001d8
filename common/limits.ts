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
};

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  ingestBytes: 50 * 1024 * 1024,
  maxInputPixels: 100_000_000,
  maxImageDeliveriesPerTurn: 3,
  maxImagesPerRequest: 4,
  fetchTimeoutMs: 15_000,
});
