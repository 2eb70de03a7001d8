import { describe, expect, it } from 'vitest';
import { ChatEvent } from './events.ts';
import { attachmentStub, formatImageSize } from './images.ts';

describe('ChatEvent', () => {
  it('accepts each documented event shape and rejects unknown types', () => {
    const good: unknown[] = [
      { type: 'text', delta: 'hi' },
      { type: 'tool_call', id: 'c1', name: 'screenshot_desktop', arguments: {} },
      { type: 'tool_result', id: 'c1', name: 'screenshot_desktop', ok: true, text: 'ok' },
      { type: 'image_attached', attachmentId: 'abcdef0123456789', origin: 'user', mime: 'image/png', width: 2, height: 2, bytes: 70 },
      { type: 'image_refused', origin: 'user', code: 'not-an-image', message: 'SVG' },
      { type: 'image_delivered', attachmentIds: ['abcdef0123456789'], origin: 'screenshot_desktop' },
      { type: 'image_retracted', attachmentIds: ['abcdef0123456789'] },
      { type: 'error', code: 'unreachable', message: 'down' },
      { type: 'done', conversationId: 'x', text: 'all' },
    ];
    for (const e of good) expect(ChatEvent.safeParse(e).success, JSON.stringify(e)).toBe(true);
    expect(ChatEvent.safeParse({ type: 'nope' }).success).toBe(false);
    expect(ChatEvent.safeParse({ type: 'image_refused', origin: 'user', code: 'made-up', message: '' }).success).toBe(false);
  });
});

describe('attachment text', () => {
  const a = { id: 'abcdef0123456789', origin: 'screenshot_desktop', width: 1568, height: 882, bytes: 217_088, sha256: 'a'.repeat(64), mime: 'image/webp' as const, name: 'screen.webp' };
  it('stub names origin, size, hash and how to see it again', () => {
    const s = attachmentStub(a);
    expect(s).toContain('screenshot_desktop');
    expect(s).toContain('1568×882');
    expect(s).toContain('217088 bytes');
    expect(s).toContain('show_attachment("abcdef0123456789")');
  });
  it('formats the final size as the UI shows it', () => {
    expect(formatImageSize(a)).toBe('1568×882 · 212 KB');
  });
});
