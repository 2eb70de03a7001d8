// MCP servers as the Settings view shows them: state and tools, and a restart button.
import type { McpServerStatus } from '../../common/ipc.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { fail, ok, type IpcHandlers } from './ipcRouter.ts';

export function mcpHandlers(deps: ApiDeps): Pick<IpcHandlers, 'mcp:status' | 'mcp:restart' | 'mcp:answer'> {
  const hub = deps.services.hub;
  /** Tool names per server from the last listing (status alone does not start servers). */
  let toolsCache: { server: string; tool: string }[] = [];
  const refreshTools = async () => {
    if (hub) toolsCache = (await hub.listTools()).map((t) => ({ server: t.server, tool: t.tool }));
  };

  function status(): McpServerStatus[] {
    if (!hub) return [];
    const toolNames = new Map<string, string[]>();
    for (const t of toolsCache) toolNames.set(t.server, [...(toolNames.get(t.server) ?? []), t.tool]);
    return hub.status().map((st) => {
      const state = st.state === 'ready' || st.state === 'idle' || st.state === 'starting' || st.state === 'failed' ? st.state : st.state === 'closed' || st.state === 'disabled' ? 'stopped' : 'failed';
      const out: McpServerStatus = { name: st.name, transport: st.transport ?? 'stdio', state, tools: toolNames.get(st.name) ?? [] };
      if (st.message) out.message = st.message;
      if (st.warnings?.length) out.warnings = st.warnings;
      if (st.logFile) out.logFile = st.logFile;
      return out;
    });
  }

  return {
    'mcp:status': async () => {
      await refreshTools();
      return ok(status());
    },
    'mcp:answer': async (answer) => ok({ answered: deps.questions?.answer(answer) ?? false }),
    'mcp:restart': async ({ name }) => {
      if (!hub) return fail('not-found', 'No MCP servers are configured.');
      const restarted = await hub.restart(name);
      if (!restarted) return fail('not-found', `No MCP server named "${name}".`);
      await refreshTools();
      const views = status();
      deps.emit('mcp:changed', views);
      const view = views.find((m) => m.name === name);
      return view ? ok(view) : fail('not-found', `No MCP server named "${name}".`);
    },
  };
}
