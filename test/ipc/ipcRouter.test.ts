import { describe, expect, it } from 'vitest';
import { IPC, INVOKE_CHANNELS, type InvokeChannel } from '../../common/ipc.ts';
import { createIpcRouter, createSenderCheck, fail, ok, type IpcHandlers, type SenderInfo } from '../../main/api/ipcRouter.ts';

const APP: SenderInfo = { url: 'app://glance/index.html', isMainFrame: true };
const isTrustedSender = createSenderCheck({ appOrigin: 'app://glance' });

const attachment = {
  id: '0123456789abcdef',
  sha256: 'a'.repeat(64),
  mime: 'image/png',
  width: 10,
  height: 8,
  bytes: 120,
  name: 'shot.png',
  origin: 'user',
  source: { mime: 'image/png', width: 10, height: 8, bytes: 120 },
  createdAt: '2025-01-01T00:00:00.000Z',
} as const;
const summary = { id: 'c1', title: 'Chat', createdAt: 'a', updatedAt: 'b', messageCount: 2 };
const mcp = { name: 'everything', transport: 'stdio', state: 'ready', tools: ['echo'] } as const;

/**
 * For every channel: a request the schema accepts, a value the response schema accepts, and
 * malformed requests with the field the error must name.
 */
const CASES: { [C in InvokeChannel]: { good: unknown; value: unknown; bad: [payload: unknown, field: string][] } } = {
  'chat:send': {
    good: { turnId: 'turn-0001', text: 'what is this?', attachmentIds: [attachment.id], model: { provider: 'ollama', name: 'llava' } },
    value: { conversationId: 'c1', turnId: 'turn-0001' },
    bad: [
      [{ turnId: 'turn-0001', text: 42 }, 'text'],
      [{ text: 'hi' }, 'turnId'],
      [{ turnId: 'turn-0001', text: '   ' }, 'a message needs text or an image'],
      [{ turnId: 'turn-0001', text: 'hi', attachmentIds: ['../../etc/passwd'] }, 'attachmentIds.0'],
      [{ turnId: 'turn-0001', text: 'hi', model: { provider: 'openai', name: 'gpt-4o' } }, 'model.endpoint'],
      [{ turnId: 'turn-0001', text: 'hi', channel: 'x' }, 'Unrecognized key: "channel"'],
    ],
  },
  'chat:cancel': { good: { turnId: 'turn-0001' }, value: { cancelled: true }, bad: [[{}, 'turnId'], [{ turnId: 'a/b' }, 'turnId']] },
  'chat:approveTool': {
    good: { turnId: 'turn-0001', callId: 'call_1', decision: 'once' },
    value: { answered: true },
    bad: [
      [{ turnId: 'turn-0001', callId: 'call_1', decision: 'pending' }, 'decision'],
      [{ turnId: 'turn-0001', callId: 'call_1', decision: 'yes' }, 'decision'],
      [{ turnId: 'turn-0001', decision: 'deny' }, 'callId'],
    ],
  },
  'chat:context': {
    good: { conversationId: 'c1', text: 'draft', attachmentIds: [attachment.id] },
    value: { estimatedTokens: 1200, systemTokens: 60, historyTokens: 882, draftTokens: 2, imageTokens: 256, contextWindow: 32_768, budget: 30_720, overBudget: false, maxContext: 131_072, source: 'ollama-model-info', droppedTurns: 0, numCtx: 4096 },
    bad: [
      [{ text: 7 }, 'text'],
      [{ attachmentIds: ['../x'] }, 'attachmentIds.0'],
      [{ conversationId: 'a/b' }, 'conversationId'],
    ],
  },
  'attachments:add': {
    good: { source: { kind: 'bytes', name: 'paste.png', bytes: new Uint8Array([1, 2, 3]) } },
    value: attachment,
    bad: [
      [{ source: { kind: 'path' } }, 'source.path'],
      [{ source: { kind: 'bytes', name: 'a.png', bytes: 'iVBORw0KGgo=' } }, 'source.bytes'],
      [{ source: { kind: 'url', url: 'http://169.254.169.254/' } }, 'source.kind'],
      [{}, 'source'],
    ],
  },
  'attachments:thumbnail': {
    good: { id: attachment.id },
    value: { dataUrl: 'data:image/png;base64,iVBORw0KGgo=', mime: 'image/png', width: 4, height: 4 },
    bad: [[{ id: 'zz' }, 'id'], [{ id: attachment.id, maxEdge: 5000 }, 'maxEdge']],
  },
  'attachments:crop': {
    good: { id: attachment.id, region: { x: 0, y: 0, width: 5, height: 5 } },
    value: attachment,
    bad: [
      [{ id: attachment.id, region: { x: -1, y: 0, width: 5, height: 5 } }, 'region.x'],
      [{ id: attachment.id, region: { x: 0, y: 0, width: 0, height: 5 } }, 'region.width'],
      [{ id: attachment.id }, 'region'],
    ],
  },
  'attachments:preview': {
    good: { id: attachment.id, shown: [{ x: 1, y: 2, width: 30, height: 10, kind: 'aws key', rule: '@secretlint/secretlint-rule-aws' }] },
    value: attachment,
    bad: [
      [{ id: attachment.id, shown: [{ x: 1, y: 2, width: 0, height: 10, kind: 'aws key', rule: 'x' }] }, 'shown.0.width'],
      [{ id: attachment.id, shown: [{ x: 1, y: 2, width: 3, height: 10, kind: 'anything', rule: 'x' }] }, 'shown.0.kind'],
    ],
  },
  'attachments:original': {
    good: { id: attachment.id },
    value: {
      dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
      mime: 'image/png',
      width: 3840,
      height: 2160,
      bytes: 8,
      name: 'screenshot.png',
      original: { mime: 'image/heic', bytes: 1200 },
      fromOriginal: true,
    },
    bad: [[{ id: '../x' }, 'id'], [{}, 'id']],
  },
  'conversations:list': { good: {}, value: [summary], bad: [[{ extra: 1 }, 'Unrecognized key: "extra"'], [null, '(request)']] },
  'conversations:get': {
    good: { id: 'c1' },
    value: { id: 'c1', title: 'Chat', createdAt: 'a', updatedAt: 'b', turns: [{ id: 'u1', text: 'hi', attachmentIds: [], createdAt: 'a', events: [{ type: 'text', delta: 'hello' }] }] },
    bad: [[{ id: '../../etc' }, 'id'], [{}, 'id']],
  },
  'conversations:rename': { good: { id: 'c1', title: 'New' }, value: summary, bad: [[{ id: 'c1', title: '' }, 'title'], [{ id: 'c1' }, 'title']] },
  'conversations:delete': { good: { id: 'c1' }, value: { id: 'c1' }, bad: [[{}, 'id']] },
  'conversations:search': { good: { query: 'invoice' }, value: [{ id: 'c1', inTitle: false, snippet: '…the invoice total…' }], bad: [[{}, 'query'], [{ query: 'x'.repeat(201) }, 'query']] },
  'conversations:setTools': {
    good: { id: 'c1', tools: { offServers: ['files'], offTools: ['web__fetch'] } },
    value: { id: 'c1', tools: { offServers: ['files'], offTools: ['web__fetch'] } },
    bad: [[{ id: 'c1', tools: { offServers: [''] } }, 'tools.offServers.0'], [{ id: 'c1' }, 'tools']],
  },
  'conversations:switchVersion': {
    good: { id: 'c1', turnId: 'u1', index: 0 },
    value: { id: 'c1', title: 'Chat', createdAt: 'a', updatedAt: 'b', turns: [{ id: 'u1', text: 'hi', attachmentIds: [], createdAt: 'a', events: [], versions: { index: 0, count: 2 } }] },
    bad: [[{ id: 'c1', turnId: 'u1', index: -1 }, 'index'], [{ id: 'c1', index: 0 }, 'turnId']],
  },
  'drafts:list': { good: {}, value: { new: { text: 'half a thought', images: [] } }, bad: [[{ a: 1 }, 'Unrecognized key: "a"']] },
  'drafts:set': {
    good: { key: 'new', text: 'half a thought', images: [{ id: '0123456789abcdef', name: 'a.png', origin: 'user' }] },
    value: { key: 'new' },
    bad: [[{ key: '../x', text: '' }, 'key'], [{ key: 'new', text: 1 }, 'text']],
  },
  'models:list': {
    good: {},
    value: { models: [{ provider: 'ollama', endpoint: 'ollama', name: 'llava', capabilities: { vision: 'yes', visionSource: 'ollama-capabilities', tools: 'no', thinking: 'no' }, details: {} }], errors: [] },
    bad: [[{ refresh: 'yes' }, 'refresh']],
  },
  'models:pull': { good: { name: 'gemma3' }, value: { name: 'gemma3' }, bad: [[{ name: '' }, 'name'], [{}, 'name']] },
  'models:cancelPull': { good: { name: 'gemma3' }, value: { cancelled: false }, bad: [[{ name: 3 }, 'name']] },
  'models:route': {
    good: { model: { provider: 'ollama', name: 'gemma3' } },
    value: { chat: 'gemma3', way: 'pixels', policy: 'remote', hides: false, remote: false },
    bad: [[{ model: { provider: 'ollama' } }, 'model.name'], [{ conversationId: 5 }, 'conversationId']],
  },
  'settings:get': { good: {}, value: { version: 1 }, bad: [[{ a: 1 }, 'Unrecognized key: "a"']] },
  'settings:set': {
    good: { patch: { hotkey: 'Alt+G' } },
    value: { version: 1, hotkey: 'Alt+G' },
    bad: [
      [{ patch: { hotkey: 5 } }, 'patch.hotkey'],
      [{ patch: { providers: { openai: [{ name: 'x', baseUrl: 'file:///etc/passwd' }] } } }, 'patch.providers.openai.0.baseUrl'],
      [{ patch: { version: 2 } }, 'Unrecognized key: "version"'],
      [{ patch: { limits: { maxImagesPerRequest: 0 } } }, 'patch.limits.maxImagesPerRequest'],
      [{ patch: { mcpServers: { files: { command: 5 } } } }, 'patch.mcpServers.files.command'],
      [{}, 'patch'],
    ],
  },
  'secrets:set': {
    good: { name: 'openrouter', value: 'k' },
    value: { name: 'openrouter', set: true },
    bad: [[{ name: 'a b', value: 'x' }, 'name'], [{ name: 'a' }, 'value'], [{ name: 'a', value: '' }, 'value']],
  },
  'secrets:status': { good: {}, value: { backend: { name: 'env', persistent: false, secure: true }, secrets: [] }, bad: [[{ a: 1 }, 'Unrecognized key: "a"']] },
  'mcp:status': { good: {}, value: [mcp], bad: [[[], '(request)']] },
  'mcp:restart': { good: { name: 'everything' }, value: mcp, bad: [[{}, 'name']] },
  'mcp:answer': {
    good: { id: 'q1', action: 'accept', content: { name: 'Ada', age: 30, ok: true, tags: ['a'] } },
    value: { answered: true },
    bad: [[{ id: 'q1', action: 'maybe' }, 'action'], [{ id: 'q1', action: 'accept', content: { nested: { x: 1 } } }, 'content.nested']],
  },
  'mcp:tools': { good: {}, value: [{ server: 'files', state: 'ready', tools: [{ name: 'files__read', tool: 'read', title: 'Read a file' }] }], bad: [[[], '(request)']] },
  'mcp:log': { good: { name: 'everything' }, value: { text: 'a line\n', bytes: 7, truncated: false }, bad: [[{}, 'name'], [{ name: '' }, 'name']] },
  'capture:screenshot': {
    good: { display: { id: '1' } },
    value: attachment,
    bad: [[{ display: 'left' }, 'display'], [{ display: { id: '' } }, 'display.id']],
  },
  'app:openMain': { good: {}, value: {}, bad: [[{ conversationId: 5 }, 'conversationId']] },
  'app:listening': { good: {}, value: {}, bad: [[{ a: 1 }, 'Unrecognized key: "a"']] },
  'app:info': {
    good: {},
    value: { version: '0.1.0', platform: 'linux', hotkey: { accelerator: 'Alt+G', registered: true }, notices: [] },
    bad: [[{ a: 1 }, 'Unrecognized key: "a"']],
  },
};

function recordingHandlers() {
  const calls: { channel: InvokeChannel; request: unknown }[] = [];
  const handlers = Object.fromEntries(
    INVOKE_CHANNELS.map((channel) => [
      channel,
      async (request: unknown) => {
        calls.push({ channel, request });
        return ok(CASES[channel].value);
      },
    ]),
  ) as unknown as IpcHandlers;
  return { handlers, calls };
}

describe('IPC router with the real schemas', () => {
  it('covers every channel of the contract in this test', () => {
    expect(Object.keys(CASES).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(Object.keys(IPC).sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  for (const channel of INVOKE_CHANNELS) {
    describe(channel, () => {
      it('passes a well-formed request to its handler and answers ok', async () => {
        const { handlers, calls } = recordingHandlers();
        const router = createIpcRouter({ handlers, isTrustedSender });
        const result = await router.handle(channel, APP, CASES[channel].good);
        expect(result.ok, JSON.stringify(result)).toBe(true);
        expect(calls.map((c) => c.channel)).toEqual([channel]);
      });

      for (const [payload, field] of CASES[channel].bad) {
        it(`rejects ${JSON.stringify(payload)} naming ${field}`, async () => {
          const { handlers, calls } = recordingHandlers();
          const router = createIpcRouter({ handlers, isTrustedSender });
          const result = await router.handle(channel, APP, payload);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.code).toBe('bad-request');
          expect(result.message.startsWith(`${channel}: `)).toBe(true);
          expect(result.message).toContain(field);
          expect(calls).toEqual([]);
        });
      }
    });
  }

  it('applies request defaults before the handler sees the request', async () => {
    const { handlers, calls } = recordingHandlers();
    const router = createIpcRouter({ handlers, isTrustedSender });
    await router.handle('attachments:thumbnail', APP, { id: attachment.id });
    await router.handle('capture:screenshot', APP, {});
    expect(calls.map((c) => c.request)).toEqual([{ id: attachment.id, maxEdge: 256 }, { display: 'under-cursor' }]);
  });

  it('refuses an unknown channel', async () => {
    const router = createIpcRouter({ handlers: recordingHandlers().handlers, isTrustedSender });
    expect(await router.handle('fs:read', APP, {})).toEqual({ ok: false, code: 'bad-request', message: 'unknown channel "fs:read"' });
  });

  it('refuses senders other than the app’s own top frame, before looking at the payload', async () => {
    const { handlers, calls } = recordingHandlers();
    const logs: string[] = [];
    const router = createIpcRouter({ handlers, isTrustedSender, log: (l) => logs.push(l) });
    for (const sender of [
      { url: 'https://evil.example/', isMainFrame: true },
      { url: 'app://glance/index.html', isMainFrame: false },
      { url: 'app://other/index.html', isMainFrame: true },
      { url: 'file:///tmp/x.html', isMainFrame: true },
      { url: '', isMainFrame: true },
    ]) {
      const result = await router.handle('settings:get', sender, {});
      expect(result).toMatchObject({ ok: false, code: 'forbidden-sender' });
    }
    expect(calls).toEqual([]);
    expect(logs).toHaveLength(5);
  });

  it('turns a throwing handler into a redacted failure that keeps a domain code', async () => {
    const { handlers } = recordingHandlers();
    const key = 'sk-proj-' + 'x'.repeat(30);
    const image = Buffer.alloc(2000, 7).toString('base64');
    handlers['models:list'] = async () => {
      throw Object.assign(new Error(`401 from https://api.example.com with Authorization: Bearer ${key} body data:image/png;base64,${image}`), { code: 'auth' });
    };
    handlers['models:pull'] = async () => {
      throw Object.assign(new Error('boom'), { code: 'ENOENT' });
    };
    const logs: string[] = [];
    const router = createIpcRouter({ handlers, isTrustedSender, log: (l) => logs.push(l) });
    const result = await router.handle('models:list', APP, {});
    expect(result).toMatchObject({ ok: false, code: 'auth' });
    const text = JSON.stringify(result) + logs.join('\n');
    expect(text).not.toContain(key);
    expect(text).not.toContain(image.slice(0, 100));
    expect(await router.handle('models:pull', APP, { name: 'x' })).toEqual({ ok: false, code: 'internal', message: 'boom' });
  });

  it('passes a handler’s refusal through as data, redacted', async () => {
    const { handlers } = recordingHandlers();
    handlers['attachments:add'] = async () => fail('not-an-image', 'This is an SVG (text), not an image; data:image/svg+xml;base64,' + 'A'.repeat(400));
    const router = createIpcRouter({ handlers, isTrustedSender });
    const result = await router.handle('attachments:add', APP, CASES['attachments:add'].good);
    expect(result).toEqual({ ok: false, code: 'not-an-image', message: 'This is an SVG (text), not an image; data:image/svg+xml;base64,[400 chars redacted]' });
  });

  it('strips fields the response contract does not name, and refuses a response that breaks it', async () => {
    const { handlers } = recordingHandlers();
    handlers['secrets:status'] = async () =>
      ok({ backend: { name: 'env', persistent: false, secure: true }, secrets: [{ name: 'openrouter', set: true, value: 'sk-leak' }] } as never);
    handlers['chat:send'] = async () => ok({ conversationId: 'c1' } as never);
    const logs: string[] = [];
    const router = createIpcRouter({ handlers, isTrustedSender, log: (l) => logs.push(l) });
    const status = await router.handle('secrets:status', APP, {});
    expect(JSON.stringify(status)).not.toContain('sk-leak');
    expect(status).toEqual({ ok: true, value: { backend: { name: 'env', persistent: false, secure: true }, secrets: [{ name: 'openrouter', set: true }] } });
    const sent = await router.handle('chat:send', APP, CASES['chat:send'].good);
    expect(sent).toEqual({ ok: false, code: 'internal', message: 'chat:send: Glance produced an invalid answer' });
    expect(logs[0]).toContain('turnId');
  });
});

describe('createSenderCheck', () => {
  it('trusts the app origin, the dev server when given, and files under the renderer folder only', () => {
    const check = createSenderCheck({ appOrigin: 'app://glance', devServerUrl: 'http://localhost:5173/', fileRoot: '/opt/glance/renderer' });
    const main = (url: string) => check({ url, isMainFrame: true });
    expect(main('app://glance/index.html#/ask')).toBe(true);
    expect(main('http://localhost:5173/index.html')).toBe(true);
    expect(main('http://localhost:5174/')).toBe(false);
    expect(main('file:///opt/glance/renderer/index.html')).toBe(true);
    expect(main('file:///opt/glance/renderer/../secrets.html')).toBe(false);
    expect(main('file:///opt/glance/renderer-evil/index.html')).toBe(false);
    expect(main('file://remote-host/opt/glance/renderer/index.html')).toBe(false);
    expect(main('not a url')).toBe(false);
    expect(createSenderCheck({ appOrigin: 'app://glance' })({ url: 'http://localhost:5173/', isMainFrame: true })).toBe(false);
  });
});
