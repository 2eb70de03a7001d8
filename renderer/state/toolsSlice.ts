import type { McpToolSource } from '../../common/ipc.ts';
import { NO_SWITCHES, withSwitch, type ToolSwitchState } from '../../common/toolSwitches.ts';
import type { SliceCreator } from './store.ts';

export type ToolsSlice = {
  /** Servers and tools switched off in the conversation on screen (a new chat's until its first send). */
  toolSwitches: ToolSwitchState;
  /** The MCP servers and their tools, for the "Tools" menu. */
  toolSources: McpToolSource[];
  toolsError: string | null;
  loadToolSources(): Promise<void>;
  /** Switch a server or a tool on or off: stored with the conversation, or sent with a new chat's first message. */
  setToolSwitch(kind: 'server' | 'tool', name: string, on: boolean): Promise<void>;
  /** A conversation was opened (its stored switches) or a new chat started (none). */
  showToolSwitches(switches: ToolSwitchState | undefined): void;
};

export const createToolsSlice: SliceCreator<ToolsSlice> = (set, get, api) => ({
  toolSwitches: NO_SWITCHES,
  toolSources: [],
  toolsError: null,

  async loadToolSources() {
    const result = await api.mcpTools();
    if (result.ok) set({ toolSources: result.value, toolsError: null });
    else set({ toolsError: result.message });
  },

  async setToolSwitch(kind, name, on) {
    const before = get().toolSwitches;
    const next = withSwitch(before, kind, name, on);
    set({ toolSwitches: next, toolsError: null });
    const id = get().chat.conversationId;
    if (id) {
      const saved = await api.conversationsSetTools({ id, tools: { offServers: [...next.offServers], offTools: [...next.offTools] } });
      if (!saved.ok) set({ toolSwitches: before, toolsError: saved.message });
    }
    void get().refreshContext();
  },

  showToolSwitches(switches) {
    set({ toolSwitches: switches ?? NO_SWITCHES, toolsError: null });
  },
});
