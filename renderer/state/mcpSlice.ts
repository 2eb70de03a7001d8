import type { IpcResult, McpAnswer, McpQuestion, McpServerLog, McpServerStatus } from '../../common/ipc.ts';
import type { SliceCreator } from './store.ts';

export type McpSlice = {
  mcpServers: McpServerStatus[];
  mcpError: string | null;
  restarting: string | null;
  /** Questions from MCP servers waiting for the person, oldest first (one dialog at a time). */
  mcpQuestions: McpQuestion[];
  loadMcp(): Promise<void>;
  restartMcp(name: string): Promise<string | null>;
  /** The end of a server's log, read when asked (not kept in the store). */
  readMcpLog(name: string): Promise<IpcResult<McpServerLog>>;
  receiveMcpQuestion(question: McpQuestion): void;
  answerMcpQuestion(answer: McpAnswer): Promise<void>;
};

export const createMcpSlice: SliceCreator<McpSlice> = (set, _get, api) => ({
  mcpServers: [],
  mcpError: null,
  restarting: null,
  mcpQuestions: [],

  receiveMcpQuestion(question) {
    set((s) => ({
      mcpQuestions: question.withdrawn ? s.mcpQuestions.filter((q) => q.id !== question.id) : [...s.mcpQuestions.filter((q) => q.id !== question.id), question],
    }));
  },

  async answerMcpQuestion(answer) {
    set((s) => ({ mcpQuestions: s.mcpQuestions.filter((q) => q.id !== answer.id) }));
    await api.mcpAnswer(answer);
  },

  async loadMcp() {
    const result = await api.mcpStatus();
    if (result.ok) set({ mcpServers: result.value, mcpError: null });
    else set({ mcpError: result.message });
  },

  readMcpLog(name) {
    return api.mcpLog({ name });
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
