// A hostile model server for the reliability suite: speaks the Ollama (/api/*) and OpenAI
// (/v1/*) wire formats on loopback, like the seeing fixture, but misbehaves on cue:
//   echo-error  HTTP 4xx/5xx whose body quotes the whole request (headers with the API key,
//               the body with every image's base64) — as some proxies and servers do
//   drop        a few tokens, then the socket is destroyed
//   endless     tokens forever, until the client hangs up
//   huge        an answer of `chars` characters, streamed as fast as the socket takes it
//   tool-loop   every reply calls `tool` again, whether or not tools were offered
//   stall       `text` (maybe none), then nothing: headers sent, the socket left open
//   trickle     a token every `everyMs`, forever, until the client hangs up
//   bad-line    (Ollama) "Before ", then `line` raw on a line of its own (not JSON), then
//               "after." and done — what a proxy's debug output or a broken server sends
// Without a cue it answers "ok". Plain node:http; counts what it did in `stats`.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'echo-error'; status: number }
  | { kind: 'error-object'; status: number; message: string }
  | { kind: 'drop' }
  | { kind: 'endless' }
  | { kind: 'huge'; chars: number }
  | { kind: 'tool-loop'; tool: string; arguments?: Record<string, unknown> }
  | { kind: 'stall'; text?: string }
  | { kind: 'trickle'; everyMs: number }
  | { kind: 'bad-line'; line: string }
  | { kind: 'ok'; text?: string };

export type FaultModelServer = {
  url: string;
  openaiBaseUrl: string;
  /** Every chat request from now on gets this fault (until set again). */
  setFault(fault: Fault): void;
  stats: { chatRequests: number; toolsOffered: number[]; bytesStreamed: number; clientHangups: number; lastBodyBytes: number };
  close(): Promise<void>;
};

const MODEL_CAPABILITIES = ['completion', 'vision', 'tools'];

export async function createFaultModelServer(): Promise<FaultModelServer> {
  let fault: Fault = { kind: 'ok' };
  const stats = { chatRequests: 0, toolsOffered: [] as number[], bytesStreamed: 0, clientHangups: 0, lastBodyBytes: 0 };
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/api/tags') return json(200, { models: [{ name: 'faulty:latest', model: 'faulty:latest', modified_at: new Date(0).toISOString(), size: 1, digest: 'x', details: {} }] });
    if (path === '/api/show') return json(200, { capabilities: MODEL_CAPABILITIES, details: { family: 'faulty' }, model_info: {} });
    if (path === '/v1/models') return json(200, { object: 'list', data: [{ id: 'faulty', object: 'model', created: 0, owned_by: 'fault' }] });
    if (path !== '/api/chat' && path !== '/v1/chat/completions') return json(404, { error: 'not found' });

    const api = path === '/api/chat' ? 'ollama' : 'openai';
    stats.chatRequests++;
    stats.lastBodyBytes = raw.length;
    let body: { tools?: unknown[] } = {};
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      // echoed as is
    }
    stats.toolsOffered.push(body.tools?.length ?? 0);
    res.on('close', () => {
      if (!res.writableFinished) stats.clientHangups++;
    });

    if (fault.kind === 'echo-error') {
      const echo = `request rejected: ${JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: raw })}`;
      return json(fault.status, api === 'openai' ? { error: { message: echo, type: 'invalid_request_error', param: null, code: null } } : { error: echo });
    }
    if (fault.kind === 'error-object') return json(fault.status, { error: { message: fault.message, type: 'invalid_request_error' } });
    res.writeHead(200, { 'Content-Type': api === 'openai' ? 'text/event-stream' : 'application/x-ndjson' });
    const send = (text: string, done = false, toolCall?: { name: string; arguments: Record<string, unknown> }) =>
      new Promise<void>((resolve) => {
        const line = api === 'openai' ? openaiChunk(text, done, toolCall) : ollamaChunk(text, done, toolCall);
        stats.bytesStreamed += line.length;
        if (res.write(line)) resolve();
        else res.once('drain', resolve);
      });
    const gone = () => res.destroyed || res.writableEnded;

    switch (fault.kind) {
      case 'drop':
        await send('Partial ans');
        await new Promise((r) => setTimeout(r, 20));
        res.destroy();
        return;
      case 'endless':
        while (!gone()) await send('and on '.repeat(1000));
        return;
      case 'huge': {
        const piece = 'x'.repeat(64 * 1024);
        for (let sent = 0; sent < fault.chars && !gone(); sent += piece.length) await send(piece.slice(0, Math.min(piece.length, fault.chars - sent)));
        if (!gone()) await send('', true);
        break;
      }
      case 'tool-loop':
        await send('', true, { name: fault.tool, arguments: fault.arguments ?? {} });
        break;
      case 'stall':
        if (fault.text) await send(fault.text);
        return; // never ends: the socket stays open until the client goes
      case 'trickle': {
        const everyMs = fault.everyMs;
        while (!gone()) {
          await send('tick ');
          await new Promise((r) => setTimeout(r, everyMs));
        }
        return;
      }
      case 'bad-line':
        await send('Before ');
        res.write(`${fault.line}\n`);
        await send('after.');
        await send('', true);
        break;
      case 'ok':
        await send(fault.text ?? 'ok');
        await send('', true);
        break;
    }
    if (!gone()) res.end(api === 'openai' ? 'data: [DONE]\n\n' : '');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    setFault: (f) => void (fault = f),
    stats,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

let callCounter = 0;

function openaiChunk(text: string, done: boolean, toolCall?: { name: string; arguments: Record<string, unknown> }): string {
  const delta: Record<string, unknown> = { role: 'assistant' };
  if (text) delta.content = text;
  if (toolCall) delta.tool_calls = [{ index: 0, id: `call_${++callCounter}`, type: 'function', function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments) } }];
  const finish = done ? (toolCall ? 'tool_calls' : 'stop') : null;
  return `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 0, model: 'faulty', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function ollamaChunk(text: string, done: boolean, toolCall?: { name: string; arguments: Record<string, unknown> }): string {
  const message: Record<string, unknown> = { role: 'assistant', content: text };
  if (toolCall) message.tool_calls = [{ function: { name: toolCall.name, arguments: toolCall.arguments } }];
  return `${JSON.stringify({ model: 'faulty:latest', created_at: new Date().toISOString(), message, done, ...(done ? { done_reason: 'stop' } : {}) })}\n`;
}
