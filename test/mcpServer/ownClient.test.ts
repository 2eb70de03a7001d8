// Glance's own MCP client (the hub every entry builds) connected to Glance's own server over
// stdio: a model's call to glance__capture_screen brings the screen — the known-answer chart on
// Xvfb — to the seeing fixture model as pixels on a user turn, never as base64 in the tool
// message, exactly as an image from any other MCP server does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { mcpToolProvider } from '../../main/core/mcpTools.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { engineSuite, ofType } from '../chat/engineHarness.ts';
import { hasBase64Run } from '../support/storedText.ts';
import { SUITE_TURN_WAIT_MS } from '../support/mcpSetup.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { CLI } from './serveHelpers.ts';

const suite = engineSuite();
let x: XServer;
let screen: ScreenPage;
let serverDir: string;
let hub: McpHub | undefined;

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(new NodeScreenshotsCapturer({ timeoutMs: 20_000 })));
  serverDir = await mkdtemp(join(tmpdir(), 'glance-serve-own-'));
}, 120_000);

afterAll(async () => {
  await hub?.close();
  await screen?.close();
  await x?.stop();
  if (serverDir) await rm(serverDir, { recursive: true, force: true });
});

describe("Glance's MCP client on Glance's MCP server", () => {
  it('the screen reaches the model on a user turn; the tool message keeps a descriptor and the facts line', async () => {
    const h = await suite.harness();
    const capture = new BinaryCapture({ intake: h.core.intake, capturesDir: join(h.dataDir, 'captures') });
    // The person's config names the server and trusts it (its read-only hints are claims otherwise).
    const entry = { command: process.execPath, args: [CLI, 'mcp', 'serve', '--data-dir', serverDir], env: { DISPLAY: x.display }, trusted: true };
    hub = new McpHub({ config: parseMcpConfig({ mcpServers: { glance: entry } }), capture, turnWaitMs: SUITE_TURN_WAIT_MS });
    h.core.tools.addProvider(mcpToolProvider(hub));
    suite.server().script({ toolCalls: [{ name: 'glance__capture_screen', arguments: { model: 'claude-sonnet-4.5' } }] });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Look at my screen and tell me what the chart shows.' });
    expect(outcome.status, JSON.stringify(ofType(events, 'error'))).toBe('done');
    const requests = suite.server().requests;
    expect(requests[0]!.toolNames).toEqual(expect.arrayContaining(['glance__capture_screen', 'glance__zoom', 'glance__read_text']));
    const second = requests[1]!;
    const shown = second.images.filter((i) => i.role === 'user' && i.messageIndex > 1);
    // One image: the fitted one. The resource_link to the original is not fetched and sent as well.
    expect(shown).toHaveLength(1);
    expect(shown[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    const tool = second.messages.find((m) => m.role === 'tool')!;
    expect(tool.imageCount).toBe(0);
    expect(hasBase64Run(tool.text)).toBe(false);
    expect(tool.text).toMatch(/Captured display .*1920×1080 pixels/);
    expect(outcome.text).toContain('tallest green');
    expect(ofType(events, 'image_retracted')).toHaveLength(1);
  }, 180_000);
});
