import type { McpServerStatus } from '../../common/ipc.ts';
import type { SliceCreator } from './store.ts';

export type McpSlice = {
  mcpServers: McpServerStatus[];
  mcpError: string | null;
  restarting: string | null;
  loadMcp(): Promise<void>;
  restartMcp(name: string): Promise<string | null>;
};

export const createMcpSlice: SliceCreator<McpSlice> = (set, _get, api) => ({
  mcpServers: [],
  mcpError: null,
  restarting: null,

  async loadMcp() {
    const result = await api.mcpStatus();
    if (result.ok) set({ mcpServers: result.value, mcpError: null });
    else set({ mcpError: result.message });
  },

  async restartMcp(name) {
    set({ restarting: name });
    const result = await api.mcpRestart({ name });
    set((s) => ({
      restarting: null,
      mcpServers: result.ok ? s.mcpServers.map((server) => (server.name === name ? result.value : server)) : s.mcpServers,
    }));
    return result.ok ? null : result.message;
  },
});
