// How an image's local-OCR reading appears in a blind model's message (images/blindText.ts, through the door):
// plainly not the image, plainly machine-read. The history budget (historyBudget.ts) finds these
// readings again to shorten them, never the person's own words, when a turn outgrows the window.
import type { AttachmentInfo } from '../../common/images.ts';

const OPEN = '\n<<<\n';
const CLOSE = '\n>>>';

export function transcriptText(a: Pick<AttachmentInfo, 'id' | 'name'>, transcript: { text: string; engine: string }): string {
  return (
    `[image ${a.id}: ${a.name} — not shown: this model cannot see images]\n` +
    `Text read from ${a.name} by local OCR (${transcript.engine}; it may contain misread characters):${OPEN}${transcript.text}${CLOSE}`
  );
}

/** Where the readings' texts are in a message made with transcriptText: [start, end) of each, in order, with the image's id. */
export function transcriptSpans(content: string): Array<{ id: string; start: number; end: number }> {
  const spans: Array<{ id: string; start: number; end: number }> = [];
  for (const m of content.matchAll(/\[image ([^\s:\]]+): [^\n]* — not shown: this model cannot see images\]\nText read from [^\n]* by local OCR \([^\n]*\):\n<<<\n/g)) {
    const start = m.index + m[0].length;
    const id = m[1]!;
    // A reading ends at the last "\n>>>" before the next reading (the text itself may hold ">>>").
    const next = content.indexOf('\nText read from ', start);
    const close = content.lastIndexOf(CLOSE, next < 0 ? content.length : next);
    if (close >= start) spans.push({ id, start, end: close });
  }
  return spans;
}
