// Invariants that have two guards, each tested on its own so removing one fails a test (issue 24):
// - a delivered tool image is retracted in the stored conversation right after its turn (not only
//   repaired on the next load by recoverTurn.ts);
// - an MCP tool that says destructiveHint asks for consent even on a trusted server that also
//   says readOnlyHint (not only in the e2e approval tests).
import { describe, expect, it } from 'vitest';
import { needsConsent } from '../../main/chat/toolApproval.ts';
import { mcpToolProvider } from '../../main/core/mcpTools.ts';
import type { McpHub, McpHubTool } from '../../main/mcp/mcpHub.ts';
import { chartTool, engineSuite, ofType } from './engineHarness.ts';
import { conversationFiles } from '../support/storedText.ts';

const suite = engineSuite();

describe('retraction is stored with the turn', () => {
  it('every delivery in the conversation file is retracted as soon as runTurn returns', async () => {
    const h = await suite.harness();
    h.core.tools.add(chartTool(h.core));
    suite.server().script({ toolCalls: [{ name: 'capture_chart', arguments: {} }] }, { text: 'Three bars.' });
    const { outcome, events } = await h.turn({ text: 'Look at the chart', model: 'llava-seer' });
    expect(outcome.status).toBe('done');
    expect(ofType(events, 'image_delivered')).toHaveLength(1);
    // The file as written, not as a later load would repair it.
    const [file] = await conversationFiles(h.dataDir);
    const messages = (JSON.parse(file!) as { messages: { role: string; retracted?: boolean }[] }).messages;
    const deliveries = messages.filter((m) => m.role === 'delivery');
    expect(deliveries).toHaveLength(1);
    expect(deliveries.every((d) => d.retracted === true)).toBe(true);
  });
});

describe('destructiveHint always asks', () => {
  const tool = (annotations: McpHubTool['annotations'], trusted = true): McpHubTool => ({
    name: 'srv__wipe',
    server: 'srv',
    tool: 'wipe',
    description: 'wipes',
    inputSchema: { type: 'object' },
    alwaysAllow: false,
    trusted,
    ...(annotations ? { annotations } : {}),
  });

  it('a trusted server claiming readOnlyHint and destructiveHint still needs consent', () => {
    expect(needsConsent(tool({ readOnlyHint: true, destructiveHint: true }))).toBe(true);
    // The control: the same server's plain read-only tool skips approval.
    expect(needsConsent(tool({ readOnlyHint: true }))).toBe(false);
  });

  it('the engine gets that tool with consent "always" (the MCP tool source applies the check)', () => {
    const tools = [tool({ readOnlyHint: true, destructiveHint: true }), { ...tool({ readOnlyHint: true }), name: 'srv__read', tool: 'read' }];
    const hub = { peekTools: () => tools } as unknown as McpHub;
    const offered = mcpToolProvider(hub).peekTools?.() ?? [];
    expect(offered.find((t) => t.spec.name === 'srv__wipe')?.consent).toBe('always');
    expect(offered.find((t) => t.spec.name === 'srv__read')?.consent).toBeUndefined();
  });
});
