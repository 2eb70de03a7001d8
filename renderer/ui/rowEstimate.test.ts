import { describe, expect, it } from 'vitest';
import type { TurnView } from '../state/chatReducer.ts';
import { estimateMarkdownHeight, estimateTurnHeight } from './rowEstimate.ts';

/** What the estimate reads of a turn: the question, its images and the answer's parts. */
const turn = ({ answer, ...over }: Partial<TurnView> & { answer?: string }) => ({
  text: 'What does this show?',
  userAttachmentIds: [],
  parts: answer === undefined ? [] : [{ kind: 'text' as const, text: answer }],
  refusals: [],
  ...over,
});

describe('estimateTurnHeight', () => {
  // Measured in Chromium (bench:ui's conversation, list 1,020 px wide): 155 px for a one-line
  // question and a one-line answer, 335 px with four two-line paragraphs.
  it('is close to what the window lays out for the shapes bench:ui measures', () => {
    expect(estimateTurnHeight(turn({ answer: 'Turn 496: the chart shows **three bars** — red, green and blue; green is the tallest.' }), 1020)).toBeCloseTo(155, -1);
    const paragraphs = Array.from({ length: 4 }, (_, k) => `Paragraph ${k + 1} of answer 499: a longer explanation that wraps over a couple of lines in the chat window, as answers often do.`).join('\n\n');
    expect(Math.abs(estimateTurnHeight(turn({ answer: paragraphs }), 1020) - 335)).toBeLessThan(20);
  });

  it('grows with the text, the images and a narrower list', () => {
    const short = estimateTurnHeight(turn({ answer: 'One line.' }), 1020);
    const long = estimateTurnHeight(turn({ answer: 'word '.repeat(400) }), 1020);
    expect(long).toBeGreaterThan(short + 200);
    expect(estimateTurnHeight(turn({ answer: 'One line.', userAttachmentIds: ['a'] }), 1020)).toBeGreaterThan(short);
    expect(estimateTurnHeight(turn({ answer: 'word '.repeat(400) }), 500)).toBeGreaterThan(long);
  });

  it('counts a code block line by line: its lines scroll sideways instead of wrapping', () => {
    const wide = ['```ts', 'x'.repeat(400), '```'].join('\n');
    const narrow = ['```ts', 'x', '```'].join('\n');
    expect(estimateMarkdownHeight(wide, 800)).toBe(estimateMarkdownHeight(narrow, 800));
    expect(estimateMarkdownHeight(['```', 'a', 'b', 'c', '```'].join('\n'), 800)).toBeGreaterThan(estimateMarkdownHeight(narrow, 800));
  });

  it('gives a turn with no answer yet its user message and footer only', () => {
    expect(estimateTurnHeight(turn({}), 1020)).toBeGreaterThan(0);
    expect(estimateTurnHeight(turn({}), 1020)).toBeLessThan(estimateTurnHeight(turn({ answer: 'Hi.' }), 1020));
  });
});
