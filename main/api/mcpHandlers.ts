// MCP servers as the Settings view shows them: state and tools, live (every state change of
// the hub is pushed as `mcp:changed`), a restart button, and the end of each server's log.
import { open } from 'node:fs/promises';
import type { McpServerLog, McpServerStatus, McpToolSource } from '../../common/ipc.ts';
import type { McpHub } from '../mcp/mcpHub.ts';
import type { Tool } from '../tools/tool.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { fail, ok, type IpcHandlers } from './ipcRouter.ts';
import { errorMessage } from '../errors.ts';

type McpHandlers = Pick<IpcHandlers, 'mcp:status' | 'mcp:restart' | 'mcp:answer' | 'mcp:tools' | 'mcp:log'>;

/** "Show log" shows at most this much of the end of a server's log. */
const LOG_TAIL_BYTES = 64 * 1024;

/** The hub's view of each server, in the words the Settings list uses. */
function mcpStatusViews(hub: McpHub | undefined): McpServerStatus[] {
  if (!hub) return [];
  const toolNames = new Map<string, string[]>();
  const titles = new Map<string, Record<string, string>>();
  // The tools of servers that are running now (peekTools starts nothing).
  for (const t of hub.peekTools()) {
    toolNames.set(t.server, [...(toolNames.get(t.server) ?? []), t.tool]);
    if (t.title) titles.set(t.server, { ...titles.get(t.server), [t.tool]: t.title });
  }
  return hub.status().map((st) => {
    const state = st.state === 'ready' || st.state === 'idle' || st.state === 'starting' || st.state === 'failed' ? st.state : st.state === 'closed' || st.state === 'disabled' ? 'stopped' : 'failed';
    const out: McpServerStatus = { name: st.name, transport: st.transport ?? 'stdio', state, tools: state === 'ready' ? (toolNames.get(st.name) ?? []) : [] };
    if (st.title) out.title = st.title;
    const toolTitles = titles.get(st.name);
    if (state === 'ready' && toolTitles) out.toolTitles = toolTitles;
    if (st.message) out.message = st.message;
    if (st.warnings?.length) out.warnings = st.warnings;
    if (st.logFile) out.logFile = st.logFile;
    return out;
  });
}

/**
 * Glance's own tools as one source, listed first: they are offered to the model as MCP tools are,
 * so they can be switched off per conversation the same way (their names in `offTools`).
 */
function builtInToolSource(tools: readonly Tool[]): McpToolSource[] {
  if (!tools.length) return [];
  return [{ server: 'glance', title: 'Built-in', builtIn: true, state: 'ready', tools: tools.map((t) => ({ name: t.spec.name, tool: t.spec.name, ...(t.title ? { title: t.title } : {}) })) }];
}

/** Each configured server and the tools it offers now (namespaced as the model sees them), for the switches. */
function mcpToolSources(hub: McpHub | undefined): McpToolSource[] {
  if (!hub) return [];
  const tools = hub.peekTools();
  return mcpStatusViews(hub).map((s) => ({
    server: s.name,
    ...(s.title ? { title: s.title } : {}),
    state: s.state,
    tools: tools.filter((t) => t.server === s.name).map((t) => ({ name: t.name, tool: t.tool, ...(t.title ? { title: t.title } : {}) })),
  }));
}

/**
 * The end of a log file, cut at a line start: the path comes from the hub's status for a
 * configured server, never from the renderer. A server that has logged nothing has no file yet.
 */
export async function logTail(file: string, maxBytes = LOG_TAIL_BYTES): Promise<McpServerLog> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', bytes: 0, truncated: false };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    let text = buffer.toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    return { text, bytes: size, truncated: start > 0 };
  } finally {
    await handle.close();
  }
}

export function mcpHandlers(deps: ApiDeps): { handlers: McpHandlers; close(): void } {
  const hub = deps.services.hub;
  const status = () => mcpStatusViews(hub);
  const off = hub?.onChange(() => deps.emit('mcp:changed', status()));

  return {
    handlers: {
      'mcp:status': async () => {
        // Opening Settings starts servers not started yet (the app starts them at launch anyway);
        // their states follow as `mcp:changed`.
        void hub?.startAll();
        return ok(status());
      },
      'mcp:answer': async (answer) => ok({ answered: deps.questions?.answer(answer) ?? false }),
      'mcp:tools': async () => ok([...builtInToolSource(deps.services.tools.builtIns()), ...mcpToolSources(hub)]),
      'mcp:log': async ({ name }) => {
        const server = hub?.status().find((s) => s.name === name);
        if (!server) return fail('not-found', `No MCP server named "${name}".`);
        if (!server.logFile) return fail('not-found', `The server "${name}" keeps no log here.`);
        try {
          return ok(await logTail(server.logFile));
        } catch (error) {
          return fail('failed', `The log of "${name}" cannot be read: ${errorMessage(error)}`);
        }
      },
      'mcp:restart': async ({ name }) => {
        if (!hub) return fail('not-found', 'No MCP servers are configured.');
        const restarted = await hub.restart(name);
        if (!restarted) return fail('not-found', `No MCP server named "${name}".`);
        const view = status().find((m) => m.name === name);
        return view ? ok(view) : fail('not-found', `No MCP server named "${name}".`);
      },
    },
    close: () => off?.(),
  };
}
