// How image sizes and costs read in the UI and the CLI. No zod here: the renderer's first
// script imports these, and zod would double its size.
import { fallbackImageTokens } from './tokens.ts';

/** "≈1,105 tokens" for thumbnails; empty when unknown. */
export function formatTokens(tokens: number | null | undefined): string {
  return typeof tokens === 'number' ? `≈${groupDigits(tokens)} tokens` : '';
}

/**
 * A thumbnail's cost for every model: its model's estimate, else — the model's image rule not
 * known — what the Context meter counts for an image of its size (one token per 28-px square),
 * with a title that says it is a guess. Empty only when the size is not known either.
 */
export function imageTokensText(image: { tokens?: number | null; width?: number; height?: number }): { text: string; title?: string } {
  if (typeof image.tokens === 'number') return { text: formatTokens(image.tokens) };
  if (!image.width || !image.height) return { text: '' };
  return {
    text: formatTokens(fallbackImageTokens(image.width, image.height)),
    title: "Estimated from the image's size: Glance does not know how this model turns images into tokens",
  };
}

/**
 * 1234567 → "1,234,567" (rounded to a whole number): what toLocaleString('en-US') gives, without
 * Intl, whose first use in a window loads ICU's data (30–90 ms before its first paint).
 */
export function groupDigits(n: number): string {
  const whole = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n <= -0.5 ? `-${whole}` : whole;
}

/** "1568×882 · 212 KB" — the size the model actually receives. */
export function formatImageSize(a: { width: number; height: number; bytes: number }): string {
  return `${a.width}×${a.height} · ${formatBytes(a.bytes)}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
