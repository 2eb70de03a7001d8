// Per-conversation tool switches (architecture §6 "Per-conversation switches"): MCP servers and single tools the person switched
// off for one conversation. No zod here (the renderer's first screen uses these); the schema
// the IPC and the conversation file check is `ToolSwitches` in ipcPayloads.ts.

export type ToolSwitchState = { offServers: readonly string[]; offTools: readonly string[] };

export const NO_SWITCHES: ToolSwitchState = { offServers: [], offTools: [] };

/** A tool (by the name the model sees, and its MCP server when it has one) is switched off. */
export function switchedOff(name: string, server: string | undefined, switches: ToolSwitchState | undefined): boolean {
  if (!switches) return false;
  return switches.offTools.includes(name) || (server !== undefined && switches.offServers.includes(server));
}

/** The switches with one server or tool turned on or off. */
export function withSwitch(switches: ToolSwitchState, kind: 'server' | 'tool', name: string, on: boolean): ToolSwitchState {
  const key = kind === 'server' ? 'offServers' : 'offTools';
  const rest = switches[key].filter((n) => n !== name);
  return { ...switches, [key]: on ? rest : [...rest, name] };
}
