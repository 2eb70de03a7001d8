// How image sizes and costs read in the UI and the CLI. No zod here: the renderer's first
// script imports these, and zod would double its size.

/** "≈1,105 tokens" for thumbnails; empty when unknown. */
export function formatTokens(tokens: number | null | undefined): string {
  return typeof tokens === 'number' ? `≈${tokens.toLocaleString('en-US')} tokens` : '';
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
