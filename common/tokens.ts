// Token estimates the UI and main share (the "Context" meter, the history budget). Not a
// tokenizer: a deliberately high estimate, so a request that fits here fits the server too.

/**
 * ASCII text runs about 4 characters a token in English and 3 in code; 3.5 is the middle and
 * errs high for prose. Other characters (CJK, emoji, accented text) are counted a token each.
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii++;
    else if (c < 0xdc00 || c > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(ascii / 3.5) + other;
}

/** An image whose model rule Glance does not know: one token per 28-px square, the common vision-encoder grain. */
export function fallbackImageTokens(width: number, height: number): number {
  return Math.ceil(width / 28) * Math.ceil(height / 28);
}

