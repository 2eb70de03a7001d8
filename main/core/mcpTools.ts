import type { McpHub, McpHubTool } from '../mcp/mcpHub.ts';
import { needsConsent } from '../chat/toolApproval.ts';
import type { Tool, ToolHints, ToolProvider } from '../tools/tool.ts';

/**
 * The MCP hub as a tool source for the engine. Every MCP tool may return images, but it is
 * offered to blind models too: its text still helps, and captured images then stay
 * descriptors (the engine only delivers images to a model that sees).
 */
export function mcpToolProvider(hub: McpHub): ToolProvider {
  return {
    // A turn's tools: servers start in the background; the turn never waits for a person or a hung server.
    async listTools(signal) {
      return (await hub.turnTools(signal)).tools.map(asTool);
    },
    pending: (skip) => hub.pending(skip),
    peekTools: () => hub.peekTools().map(asTool),
    promptNotes: (skip) => hub.promptNotes(skip),
    whyMissing: (name) => hub.whyNoTool(name),
  };

  function asTool(t: McpHubTool): Tool {
    return {
      needsVision: false,
      source: t.server,
      sourceTool: t.tool,
      ...(needsConsent(t) ? { consent: 'always' as const } : {}),
      spec: { name: t.name, description: t.description || `${t.tool} (from MCP server ${t.server})`, parameters: t.inputSchema },
      ...(t.title ? { title: t.title } : {}),
      ...(t.serverTitle ? { sourceTitle: t.serverTitle } : {}),
      ...(t.annotations ? { hints: hintsOf(t.annotations) } : {}),
      async run(args, context) {
        const outcome = await hub.callTool(t.name, args, {
          signal: context.signal,
          onProgress: context.onProgress,
          imageTarget: context.imageTarget,
        });
        // outcome.text already carries a descriptor for every captured image and file.
        return { ok: outcome.ok, text: outcome.text, images: outcome.images };
      },
    };
  }
}

function hintsOf(a: NonNullable<McpHubTool['annotations']>): ToolHints {
  const out: ToolHints = {};
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) if (typeof a[k] === 'boolean') out[k] = a[k];
  return out;
}
