// MCP image results through the whole engine to the seeing fixture model (issue 4): the chart
// a server returns is captured, the tool message holds only a descriptor, the pixels ride a
// synthetic user turn in the same user turn, and are retracted afterwards. A crashing server
// fails its call while the chat goes on; a blind model gets the descriptor only.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpToolProvider } from '../../main/core/mcpTools.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { main } from '../../main/cli/main.ts';
import { ChatEvent } from '../../common/events.ts';
import { engineSuite, ofType, type Harness } from '../chat/engineHarness.ts';
import { hasBase64Run } from '../support/storedText.ts';
import { SUITE_TURN_WAIT_MS, fixtureEntry } from '../support/mcpSetup.ts';

const suite = engineSuite();
const server = suite.server;
let h: Harness;
let hub: McpHub | undefined;

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function withHub() {
  h = await suite.harness();
  const capture = new BinaryCapture({ intake: h.core.intake, capturesDir: join(h.dataDir, 'captures') });
  hub = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry() } }), capture, turnWaitMs: SUITE_TURN_WAIT_MS });
  h.core.tools.addProvider(mcpToolProvider(hub));
  return h;
}

describe('MCP images through the engine', () => {
  for (const kind of ['ollama', 'openai'] as const) {
    it(`the chart from an MCP tool reaches the model as a user turn, never in the tool message (${kind})`, async () => {
      await withHub();
      server().script({ toolCalls: [{ name: 'fx__chart_image', arguments: {} }] });
      const { outcome, events } = await h.turn({ kind, model: 'llava-seer', text: 'Get the chart and describe it.' });
      expect(outcome.status).toBe('done');
      expect(server().requests[0]!.toolNames).toContain('fx__chart_image');
      const second = server().requests[1]!;
      expect(second.images).toHaveLength(1);
      expect(second.images[0]!.role).toBe('user');
      expect(second.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
      const tool = second.messages.find((m) => m.role === 'tool')!;
      expect(tool.imageCount).toBe(0);
      expect(tool.text.length).toBeLessThan(1024);
      expect(hasBase64Run(tool.text)).toBe(false);
      expect(tool.text).toMatch(/[a-f0-9]{16}/);
      expect(outcome.text).toContain('tallest green');
      expect(ofType(events, 'image_attached')[0]).toMatchObject({ origin: 'fx__chart_image' });
      expect(ofType(events, 'image_retracted')).toHaveLength(1);
    });
  }

  it("the system prompt carries an MCP server's unavailability; the model's call to its tool is told why", async () => {
    h = await suite.harness();
    const capture = new BinaryCapture({ intake: h.core.intake, capturesDir: join(h.dataDir, 'captures') });
    hub = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry(), broken: { command: join(h.dataDir, 'no-such-server') } } }), capture, turnWaitMs: SUITE_TURN_WAIT_MS });
    h.core.tools.addProvider(mcpToolProvider(hub));
    server().script({ toolCalls: [{ name: 'broken__search', arguments: {} }] }, { text: 'That server is down.' });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Search.' });
    expect(outcome.status).toBe('done');
    const system = server().requests[0]!.messages.find((m) => m.role === 'system')!;
    expect(system.text).toMatch(/These MCP servers are unavailable, so their tools are not offered: "broken" \(failed: MCP server "broken" could not start: the command was not found/);
    expect(ofType(events, 'tool_result')[0]?.text).toMatch(/its server "broken" is failed/);
  });

  it('a blind model gets the descriptor only', async () => {
    await withHub();
    server().script({ toolCalls: [{ name: 'fx__chart_image', arguments: {} }] });
    const { outcome, events } = await h.turn({ model: 'blind-llm', text: 'Get the chart.' });
    expect(outcome.status).toBe('done');
    for (const r of server().requests) expect(r.images).toHaveLength(0);
    expect(server().requests[1]!.messages.find((m) => m.role === 'tool')!.text).toMatch(/chart|image/i);
    expect(ofType(events, 'image_delivered')).toHaveLength(0);
  });

  it('a crashing server fails that call, the chat goes on, and the next call restarts it', async () => {
    await withHub();
    server().script({ toolCalls: [{ name: 'fx__crash', arguments: {} }] }, { text: 'The tool crashed; sorry.' });
    const first = await h.turn({ model: 'llava-seer', text: 'Crash it.' });
    expect(first.outcome.status).toBe('done');
    const crashed = ofType(first.events, 'tool_result')[0]!;
    expect(crashed.ok).toBe(false);
    expect(crashed.text).toMatch(/crash|exit|closed/i);
    server().script({ toolCalls: [{ name: 'fx__echo', arguments: { text: 'still here' } }] });
    const second = await h.turn({ conversationId: first.outcome.conversationId, model: 'llava-seer', text: 'Echo.' });
    const echoed = ofType(second.events, 'tool_result')[0]!;
    expect(echoed).toMatchObject({ ok: true });
    expect(echoed.text).toContain('still here');
  });

  it('glance ask --mcp-config wires the same path', async () => {
    const hh = await suite.harness();
    h = hh;
    const config = join(hh.dataDir, 'mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
    server().script({ toolCalls: [{ name: 'fx__chart_image', arguments: {} }] });
    let out = '';
    const code = await main(['ask', 'Chart?', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', hh.dataDir, '--json'], {
      out: (t) => void (out += t),
      err: () => undefined,
      env: { ...process.env, OLLAMA_HOST: server().url },
    });
    expect(code).toBe(0);
    const events = out.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));
    expect(events.some((e) => e.type === 'image_delivered')).toBe(true);
    expect(server().requests[1]!.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });
});
