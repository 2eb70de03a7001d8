import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../common/events.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { ConversationView } from '../../common/ipc.ts';
import { answerText, initialChatState, missedEvents, reduceChat, runningTurnId, type ChatAction, type ChatState } from './chatReducer.ts';

const T = 'turn-1';
const C = 'conv-1';

const chart: AttachmentInfo = {
  id: 'a'.repeat(16),
  sha256: 'b'.repeat(64),
  mime: 'image/png',
  width: 240,
  height: 120,
  bytes: 569,
  name: 'chart.png',
  origin: 'user',
  source: { mime: 'image/png', width: 240, height: 120, bytes: 569 },
  createdAt: '2026-01-01T00:00:00.000Z',
};

const fold = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(reduceChat, state);
const ev = (event: ChatEvent, turnId = T, conversationId = C): ChatAction => ({ type: 'event', turnId, conversationId, event });
const started = (fields: Partial<Extract<ChatAction, { type: 'turn_started' }>> = {}): ChatAction => ({ type: 'turn_started', turnId: T, text: 'What is this?', attachments: [], ...fields });

describe('reduceChat: a live turn', () => {
  it('streams text into one part, marks the turn streaming, then done with the answer in its text parts', () => {
    let s = fold(initialChatState, started());
    expect(s.turns[T]!.status).toBe('sending');
    expect(runningTurnId(s)).toBe(T);
    s = fold(s, ev({ type: 'text', delta: 'Three ' }), ev({ type: 'text', delta: 'bars.' }));
    expect(s.turns[T]!.status).toBe('streaming');
    expect(s.turns[T]!.parts).toEqual([{ kind: 'text', text: 'Three bars.' }]);
    s = fold(s, ev({ type: 'done', conversationId: C, text: 'Three bars.' }));
    expect(s.turns[T]!.status).toBe('done');
    expect(answerText(s.turns[T]!)).toBe('Three bars.');
    expect(s.conversationId).toBe(C);
    expect(runningTurnId(s)).toBeUndefined();
  });

  it('keeps thinking, text and tool cards in the order they arrived', () => {
    const s = fold(
      initialChatState,
      started(),
      ev({ type: 'thinking', delta: 'Let me ' }),
      ev({ type: 'thinking', delta: 'look.' }),
      ev({ type: 'text', delta: 'Looking.' }),
      ev({ type: 'tool_call', id: 'c1', name: 'screenshot_desktop', arguments: {} }),
      ev({ type: 'text', delta: 'Done.' }),
    );
    expect(s.turns[T]!.parts).toEqual([
      { kind: 'thinking', text: 'Let me look.' },
      { kind: 'text', text: 'Looking.' },
      { kind: 'tool', id: 'c1' },
      { kind: 'text', text: 'Done.' },
    ]);
    expect(answerText(s.turns[T]!)).toBe('Looking.Done.');
  });

  it('follows a tool call from running through progress to its result and images', () => {
    let s = fold(initialChatState, started(), ev({ type: 'tool_call', id: 'c1', name: 'mcp__chart', arguments: { size: 2 } }));
    expect(s.turns[T]!.tools.c1).toMatchObject({ status: 'running', name: 'mcp__chart', arguments: { size: 2 } });
    s = fold(s, ev({ type: 'tool_progress', id: 'c1', progress: 1, total: 4, message: 'step 1 of 4' }));
    expect(s.turns[T]!.tools.c1!.progress).toEqual({ progress: 1, total: 4, message: 'step 1 of 4' });
    s = fold(
      s,
      ev({ type: 'image_attached', attachmentId: 'img1', origin: 'mcp__chart', name: 'chart.png', mime: 'image/png', width: 240, height: 120, bytes: 600, toolCallId: 'c1' }),
      ev({ type: 'tool_result', id: 'c1', name: 'mcp__chart', ok: true, text: 'Captured [image img1]', durationMs: 42, attachmentIds: ['img1'] }),
    );
    expect(s.turns[T]!.tools.c1).toMatchObject({ status: 'finished', text: 'Captured [image img1]', durationMs: 42, attachmentIds: ['img1'] });
    // A tool's image is not the user's.
    expect(s.turns[T]!.userAttachmentIds).toEqual([]);
    expect(s.turns[T]!.images.img1).toMatchObject({ name: 'chart.png', toolCallId: 'c1', delivered: false, retracted: false });

    s = fold(s, ev({ type: 'image_delivered', attachmentIds: ['img1'], origin: 'mcp__chart' }));
    expect(s.turns[T]!.images.img1).toMatchObject({ delivered: true, retracted: false });
    s = fold(s, ev({ type: 'image_retracted', attachmentIds: ['img1'] }), ev({ type: 'done', conversationId: C, text: '' }));
    expect(s.turns[T]!.images.img1).toMatchObject({ delivered: true, retracted: true });
  });

  it('marks a failed tool and one that never answered', () => {
    const s = fold(
      initialChatState,
      started(),
      ev({ type: 'tool_call', id: 'c1', name: 'fail_tool', arguments: {} }),
      ev({ type: 'tool_result', id: 'c1', name: 'fail_tool', ok: false, text: 'broken' }),
      ev({ type: 'tool_call', id: 'c2', name: 'hang', arguments: {} }),
      ev({ type: 'error', code: 'cancelled', message: 'Stopped.' }),
      ev({ type: 'done', conversationId: C, text: '' }),
    );
    expect(s.turns[T]!.tools.c1!.status).toBe('failed');
    // Stopped by the user, not broken: the one still running when the turn was stopped is "cancelled".
    expect(s.turns[T]!.tools.c2!.status).toBe('cancelled');
    expect(s.turns[T]!.status).toBe('cancelled');
    // A result the engine marks as cancelled is cancelled too; one that never answered a failed turn failed.
    const broken = fold(
      initialChatState,
      started(),
      ev({ type: 'tool_call', id: 'c1', name: 'slow', arguments: {} }),
      ev({ type: 'tool_result', id: 'c1', name: 'slow', ok: false, text: 'The call was cancelled.', cancelled: true }),
      ev({ type: 'tool_call', id: 'c2', name: 'hang', arguments: {} }),
      ev({ type: 'error', code: 'unreachable', message: 'Gone.' }),
      ev({ type: 'done', conversationId: C, text: '' }),
    );
    expect(broken.turns[T]!.tools.c1!.status).toBe('cancelled');
    expect(broken.turns[T]!.tools.c2!.status).toBe('failed');
  });

  it('shows the user images at once and swaps in what the engine confirms', () => {
    let s = fold(initialChatState, started({ attachments: [chart] }));
    expect(s.turns[T]!.userAttachmentIds).toEqual([chart.id]);
    expect(s.turns[T]!.images[chart.id]).toMatchObject({ width: 240, height: 120, bytes: 569, name: 'chart.png' });
    // Re-checked for the model, the image may come back normalised under another id.
    s = fold(s, ev({ type: 'image_attached', attachmentId: 'c'.repeat(16), origin: 'user', name: 'chart.png', mime: 'image/webp', width: 240, height: 120, bytes: 400 }));
    expect(s.turns[T]!.userAttachmentIds).toEqual(['c'.repeat(16)]);
    expect(s.turns[T]!.optimistic).toBe(false);
  });

  it('records what was hidden in an image before the model got it (image_redacted)', () => {
    const regions = [{ x: 10, y: 20, width: 200, height: 24, kind: 'aws key' as const, rule: 'secretlint:aws' }];
    const s = fold(
      initialChatState,
      started({ attachments: [chart] }),
      ev({ type: 'image_attached', attachmentId: chart.id, origin: 'user', name: chart.name, mime: chart.mime, width: 240, height: 120, bytes: 569 }),
      ev({ type: 'image_redacted', attachmentId: chart.id, regions, ms: 812 }),
    );
    expect(s.turns[T]!.images[chart.id]!.redactions).toEqual(regions);
    const same = fold(s, ev({ type: 'image_redacted', attachmentId: 'c'.repeat(16), regions, ms: 1 }));
    expect(same.turns[T]!.images).toBe(s.turns[T]!.images);
  });

  it('marks a user image sent as text (local OCR for a blind model)', () => {
    const s = fold(
      initialChatState,
      started({ attachments: [chart] }),
      ev({ type: 'image_attached', attachmentId: chart.id, origin: 'user', name: chart.name, mime: chart.mime, width: 240, height: 120, bytes: 569 }),
      ev({ type: 'image_transcribed', attachmentId: chart.id, origin: 'user', chars: 42, engine: 'tesseract.js 7 (eng)' }),
    );
    expect(s.turns[T]!.images[chart.id]!.sentAsText).toEqual({ chars: 42, engine: 'tesseract.js 7 (eng)' });
    // Cut later to fit the context window: the same image learns how much of its reading went.
    const cut = fold(s, ev({ type: 'image_transcribed', attachmentId: chart.id, origin: 'user', chars: 42, sentChars: 30, engine: 'tesseract.js 7 (eng)' }));
    expect(cut.turns[T]!.images[chart.id]!.sentAsText).toEqual({ chars: 42, sentChars: 30, engine: 'tesseract.js 7 (eng)' });
    // An id the turn never showed changes nothing.
    const same = fold(s, ev({ type: 'image_transcribed', attachmentId: 'c'.repeat(16), origin: 'user', chars: 1, engine: 'x' }));
    expect(same.turns[T]!.images).toBe(s.turns[T]!.images);
  });

  it('an error fails the turn with its message; a refusal keeps its reason', () => {
    let s = fold(initialChatState, started(), ev({ type: 'error', code: 'unreachable', message: "Can't reach Ollama." }), ev({ type: 'done', conversationId: C, text: '' }));
    expect(s.turns[T]!).toMatchObject({ status: 'failed', error: { code: 'unreachable', message: "Can't reach Ollama." } });
    s = fold(
      initialChatState,
      started({ attachments: [chart] }),
      ev({ type: 'image_refused', origin: 'user', code: 'model-blind', message: 'blind-llm cannot see images.' }),
      ev({ type: 'error', code: 'image-refused', message: 'Nothing was sent.' }),
      ev({ type: 'done', conversationId: C, text: '' }),
    );
    expect(s.turns[T]!.status).toBe('refused');
    expect(s.turns[T]!.refusals).toEqual([{ origin: 'user', code: 'model-blind', message: 'blind-llm cannot see images.' }]);
    // A refused first turn created no conversation: the next send starts a new one.
    expect(s.conversationId).toBeNull();
  });

  it('records a send that failed before any event, and a retry replaces the turn', () => {
    let s = fold(initialChatState, started(), { type: 'turn_failed', turnId: T, code: 'bad-request', message: 'chat:send: text: too long' });
    expect(s.turns[T]!).toMatchObject({ status: 'failed', error: { code: 'bad-request' } });
    s = fold(s, { type: 'turn_removed', turnId: T });
    expect(s.order).toEqual([]);
    expect(s.turns).toEqual({});
  });

  it('adopts the conversation id when main accepts the first turn', () => {
    const s = fold(initialChatState, started(), { type: 'turn_accepted', turnId: T, conversationId: C });
    expect(s.conversationId).toBe(C);
    // A later turn in another conversation does not move it.
    expect(fold(s, { type: 'turn_accepted', turnId: T, conversationId: 'other' }).conversationId).toBe(C);
  });

  it('ignores events of turns it does not show, but follows a turn another window started here', () => {
    const s = fold(initialChatState, started(), ev({ type: 'done', conversationId: C, text: 'ok' }));
    expect(fold(s, ev({ type: 'text', delta: 'x' }, 'elsewhere', 'conv-2'))).toBe(s);
    const followed = fold(s, ev({ type: 'text', delta: 'from the ask window' }, 'turn-2', C));
    expect(followed.order).toEqual([T, 'turn-2']);
    expect(followed.turns['turn-2']!.parts).toEqual([{ kind: 'text', text: 'from the ask window' }]);
    expect(fold(initialChatState, ev({ type: 'text', delta: 'x' }, 'stray'))).toBe(initialChatState);
  });

  it('does not touch other turns (rows that did not change keep their identity)', () => {
    const s1 = fold(initialChatState, started(), ev({ type: 'done', conversationId: C, text: '' }), started({ turnId: 'turn-2' }));
    const s2 = fold(s1, ev({ type: 'text', delta: 'hi' }, 'turn-2'));
    expect(s2.turns[T]).toBe(s1.turns[T]);
    expect(s2.turns['turn-2']).not.toBe(s1.turns['turn-2']);
  });
});

describe('reduceChat: history', () => {
  const view: ConversationView = {
    id: C,
    title: 'Chart',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:01:00.000Z',
    turns: [
      {
        id: 'u1',
        text: 'What is on my screen?',
        attachmentIds: [chart.id],
        createdAt: '2026-01-01T00:00:00.000Z',
        events: [
          { type: 'image_attached', attachmentId: chart.id, origin: 'user', name: 'chart.png', mime: 'image/png', width: 240, height: 120, bytes: 569 },
          { type: 'tool_call', id: 'c1', name: 'screenshot_desktop', arguments: {} },
          { type: 'image_attached', attachmentId: 'shot', origin: 'screenshot_desktop', name: 'screenshot.png', mime: 'image/png', width: 1568, height: 882, bytes: 90_000, toolCallId: 'c1' },
          { type: 'tool_result', id: 'c1', name: 'screenshot_desktop', ok: true, text: 'Captured.', durationMs: 120, attachmentIds: ['shot'] },
          { type: 'image_delivered', attachmentIds: ['shot'], origin: 'screenshot_desktop' },
          { type: 'image_retracted', attachmentIds: ['shot'] },
          { type: 'text', delta: 'A bar chart.' },
          { type: 'done', conversationId: C, text: 'A bar chart.' },
        ],
      },
      // The app stopped mid-turn: no `done`, nothing from the model.
      { id: 'u2', text: 'And now?', attachmentIds: [], createdAt: '2026-01-01T00:01:00.000Z', events: [] },
    ],
  };

  it('replays stored turns through the same reducer', () => {
    const s = reduceChat(initialChatState, { type: 'loaded', view });
    expect(s.conversationId).toBe(C);
    expect(s.order).toEqual(['u1', 'u2']);
    const first = s.turns.u1!;
    expect(first.status).toBe('done');
    expect(first.userAttachmentIds).toEqual([chart.id]);
    expect(first.images[chart.id]).toMatchObject({ name: 'chart.png', width: 240, bytes: 569 });
    expect(first.tools.c1).toMatchObject({ status: 'finished', durationMs: 120, attachmentIds: ['shot'] });
    expect(first.images.shot).toMatchObject({ delivered: true, retracted: true });
    expect(answerText(first)).toBe('A bar chart.');
    expect(s.turns.u2!.status).toBe('failed');
    expect(runningTurnId(s)).toBeUndefined();
  });

  it('reset empties the view for a new chat', () => {
    const s = reduceChat(reduceChat(initialChatState, { type: 'loaded', view }), { type: 'reset' });
    expect(s).toEqual(initialChatState);
  });

  it('resumes a live turn: events it holds are skipped, the rest extend it, a gap is noticed', () => {
    const live: ConversationView = {
      id: C,
      title: 'Live',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      turns: [{ id: T, text: 'Go on', attachmentIds: [], createdAt: '2026-01-01T00:00:00.000Z', live: true, events: [{ type: 'text', delta: 'Alpha ' }, { type: 'text', delta: 'bravo ' }] }],
    };
    let s = reduceChat(initialChatState, { type: 'loaded', view: live });
    expect(s.turns[T]!.status).toBe('streaming');
    expect(runningTurnId(s)).toBe(T);
    // seq 1 was in the view already (sent while the view was on its way); seq 2 is new.
    s = fold(s, { ...ev({ type: 'text', delta: 'bravo ' }), seq: 1 } as ChatAction, { ...ev({ type: 'text', delta: 'charlie' }), seq: 2 } as ChatAction);
    expect(answerText(s.turns[T]!)).toBe('Alpha bravo charlie');
    expect(missedEvents(s, T, C, 3)).toBe(false);
    expect(missedEvents(s, T, C, 5)).toBe(true);
    s = fold(s, { ...ev({ type: 'done', conversationId: C, text: 'Alpha bravo charlie' }), seq: 3 } as ChatAction);
    expect(s.turns[T]!.status).toBe('done');
  });
});
