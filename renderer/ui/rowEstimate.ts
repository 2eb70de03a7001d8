// A turn's height before it has been laid out, from what it holds. The message list is
// virtualised: which rows it renders, and how tall the scrollbar says the conversation is,
// come from these estimates until each row is measured. A flat guess (160 px, when real turns
// are 150–450 px) made the first frame of an opened conversation render 11 rows to keep 5, and
// lay out and measure all of them, on the path to its first paint. Estimates need not be exact
// (every rendered row is measured before the browser paints), only close: the constants are
// the stylesheet's (styles.css: 15 px text at line-height 1.5, rows at most 860 px wide) and
// the average advance of the window's sans-serif text.
import type { TurnView } from '../state/chatReducer.ts';

/** The widest a message is (`.row > *` max-width) less its side padding (`.message`). */
const MAX_TEXT_WIDTH = 820;
const SIDE_PADDING = 40;
const LINE = 22.5;
/** Average advance of a character of the UI's 15 px sans-serif text. */
const CHAR_PX = 7.5;
const CODE_LINE = 19;
/** `.row` padding, both `.message` margins and the actions row under each message. */
const ROW_CHROME = 12;
const MESSAGE_CHROME = 12;
const ACTIONS = 26;
const USER_BUBBLE_PADDING = 18;
/** An image chip on the user's message (box 120 px) with its caption. */
const IMAGE_ROW = 86;
const CODE_BLOCK_CHROME = 66;
/** Between two blocks: their 0.5 em margins collapse into one. */
const PARAGRAPH_GAP = 7.5;
const TOOL_CARD = 44;
const NOTICE = 40;

/** Lines that `text` wraps to in `width` px at `charPx` per character. */
function wrapped(text: string, width: number, charPx: number): number {
  const perLine = Math.max(8, Math.floor(width / charPx));
  return Math.max(1, Math.ceil(text.length / perLine));
}

/** The height of Markdown `text` rendered `width` px wide: paragraphs, lists, headings, code blocks. */
export function estimateMarkdownHeight(text: string, width: number): number {
  let height = 0;
  let code = false;
  let blocks = 0;
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (!code) {
        height += CODE_BLOCK_CHROME;
        blocks++;
      }
      code = !code;
      inBlock = false;
      continue;
    }
    if (code) {
      height += CODE_LINE; // a code block scrolls sideways: its lines do not wrap
      continue;
    }
    if (!line.trim()) {
      inBlock = false;
      continue;
    }
    if (!inBlock) blocks++;
    inBlock = true;
    const heading = /^#{1,6}\s/.test(line);
    const item = /^\s*([-*+]|\d+[.)])\s/.test(line);
    height += (heading ? LINE * 1.2 : LINE) * wrapped(line, item ? width - 21 : width, heading ? CHAR_PX * 1.2 : CHAR_PX);
  }
  return height + Math.max(0, blocks - 1) * PARAGRAPH_GAP;
}

/** Estimated height (px) of a turn — the user's message and the answer — in a list `listWidth` px wide. */
export function estimateTurnHeight(turn: Pick<TurnView, 'text' | 'userAttachmentIds' | 'parts' | 'refusals' | 'error'>, listWidth: number): number {
  const width = Math.max(120, Math.min(MAX_TEXT_WIDTH, listWidth - SIDE_PADDING));
  let height = ROW_CHROME;
  if (turn.text || turn.userAttachmentIds.length) {
    height += MESSAGE_CHROME + ACTIONS;
    if (turn.userAttachmentIds.length) height += IMAGE_ROW;
    if (turn.text) height += USER_BUBBLE_PADDING + LINE * wrapped(turn.text, width * 0.85 - 28, CHAR_PX);
  }
  height += MESSAGE_CHROME + ACTIONS;
  for (const part of turn.parts) {
    if (part.kind === 'text') height += estimateMarkdownHeight(part.text, width);
    else if (part.kind === 'thinking') height += LINE * 1.5;
    else height += TOOL_CARD;
  }
  if (turn.refusals.length || turn.error) height += NOTICE;
  return Math.round(height);
}
