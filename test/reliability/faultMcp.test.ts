// A hostile MCP server behind the real CLI and engine (issue 12): a crash, a hang and garbage
// fail that call and the turn goes on; 1,000 images deliver a bounded few; 8 MB of text and an
// error text echoing a key and base64 reach neither the model nor the conversation file whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChatEvent } from '../../common/events.ts';
import { main } from '../../main/cli/main.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { ofType } from '../chat/engineHarness.ts';
import { hasBase64Run } from '../support/storedText.ts';
import { tempDataDir } from '../support/mcpSetup.ts';
import { FAULT_KEY } from './faultMcpServer.ts';

const FAULT_SERVER = fileURLToPath(new URL('./faultMcpServer.ts', import.meta.url));
let server: ModelServer;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let config: string;

beforeAll(async () => {
  server = await createModelServer();
  data = await tempDataDir();
  config = join(data.dir, 'fault.json');
  await writeFile(config, JSON.stringify({ mcpServers: { bad: { command: process.execPath, args: [FAULT_SERVER], timeoutMs: 2000, trusted: true } } }));
});
afterAll(async () => {
  await server.close();
  await data.remove();
});

async function callThen(tools: string[], dataDir = join(data.dir, 'data')) {
  server.reset();
  server.script(...tools.map((name) => ({ toolCalls: [{ name: `bad__${name}`, arguments: {} }] })), { text: 'carried on' });
  let out = '';
  const io: CommandIO = { out: (t) => void (out += t), err: () => undefined, env: { ...process.env, OLLAMA_HOST: server.url } };
  const code = await main(['ask', 'use the tools', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', dataDir, '--json'], io);
  const events = out.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));
  return { code, events, conversationId: (events.at(-1) as { conversationId: string }).conversationId };
}

describe('a hostile MCP server', () => {
  it('crash, hang and garbage each fail their call with a clear message; the turn goes on, the server restarts', { timeout: 120_000 }, async () => {
    const { code, events } = await callThen(['crash', 'hang', 'garbage', 'huge_text']);
    expect(code).toBe(0);
    const results = ofType(events, 'tool_result');
    expect(results.map((r) => r.name)).toEqual(['bad__crash', 'bad__hang', 'bad__garbage', 'bad__huge_text']);
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.text).toMatch(/crash|exited|closed/i);
    expect(results[1]!.ok).toBe(false);
    expect(results[1]!.text).toMatch(/did not answer|timed out|timeout/i);
    // Garbage on the protocol stream never reaches the model as text.
    expect(results[2]!.text).not.toMatch(/#{100}/);
    // After the hang the server was restarted and still answers.
    expect(results[3]!.ok).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'carried on' });
  });

  it('8 MB of text is bounded before it reaches the model', { timeout: 60_000 }, async () => {
    const { events } = await callThen(['huge_text']);
    expect(ofType(events, 'tool_result')[0]!.text.length).toBeLessThan(200_000);
    expect(server.requests.at(-1)!.bodyBytes).toBeLessThan(400_000);
  });

  it('1,000 images: at most 4 are delivered; the rest stay descriptors; the file stays small', { timeout: 120_000 }, async () => {
    const { events, conversationId } = await callThen(['thousand_images']);
    const delivered = ofType(events, 'image_delivered');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.attachmentIds.length).toBeLessThanOrEqual(4);
    expect(server.requests.at(-1)!.images.length).toBeLessThanOrEqual(4);
    expect(ofType(events, 'tool_result')[0]!.text).toMatch(/more images not shown/);
    const file = new ConversationStore(join(data.dir, 'data')).fileOf(conversationId);
    expect(hasBase64Run(await readFile(file, 'utf8'))).toBe(false);
    expect((await stat(file)).size).toBeLessThan(200_000);
  });

  it('an error text echoing a key and base64 is stored redacted and bounded', { timeout: 60_000 }, async () => {
    const { events, conversationId } = await callThen(['echo_error']);
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.ok).toBe(false);
    expect(result.text).not.toContain(FAULT_KEY);
    expect(hasBase64Run(result.text)).toBe(false);
    expect(result.text.length).toBeLessThan(500);
    const stored = await readFile(new ConversationStore(join(data.dir, 'data')).fileOf(conversationId), 'utf8');
    expect(stored).not.toContain(FAULT_KEY);
    expect(hasBase64Run(stored)).toBe(false);
    expect(server.requests.at(-1)!.messages.find((m) => m.role === 'tool')!.text).not.toContain(FAULT_KEY);
  });

  it('issue 30 item 8: one result stores at most the Settings bound (10 of 1,000 images here) and says what was dropped', { timeout: 120_000 }, async () => {
    const dataDir = join(data.dir, 'bounded');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, limits: { maxStoredImagesPerToolResult: 10 } }));
    const { events } = await callThen(['thousand_images'], dataDir);
    const payloads = (await readdir(join(dataDir, 'attachments'))).filter((n) => n.endsWith('.json'));
    expect(payloads.length).toBe(10);
    const text = ofType(events, 'tool_result')[0]!.text;
    expect(text).toMatch(/990 more items from bad__thousand_images \(0\.\d MB\) not stored: one tool result keeps at most 10 images/);
    expect(text).toMatch(/Settings → Limits → Images kept per tool result/);
    expect(text.length).toBeLessThan(20_000);
  });
});
