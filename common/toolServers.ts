// Tool servers a chat turn goes without, in words (the `tool_servers` event, the system prompt).

/** A configured server whose tools a turn does not have, and why. */
export type ServerReadiness = {
  name: string;
  /** `asking`: its start waits for the person's answer (a question, a sign-in). */
  state: 'starting' | 'asking' | 'failed';
  message?: string;
};

/** One server's line: `"slow" (still starting)`. */
export function readinessWords(r: ServerReadiness): string {
  if (r.state === 'starting') return `"${r.name}" (still starting)`;
  if (r.state === 'asking') return `"${r.name}" (waiting for your answer to its question)`;
  const why = r.message?.replace(/^MCP server "[^"]*" could not start: /, '');
  return `"${r.name}" (could not start${why ? `: ${why}` : ''})`;
}

/** The readiness list in plain words, e.g. `Not in this answer yet: the tools of "slow" (still starting); …`. */
export function readinessText(list: readonly ServerReadiness[]): string {
  const waiting = list.filter((r) => r.state !== 'failed');
  const failed = list.filter((r) => r.state === 'failed');
  const parts: string[] = [];
  if (waiting.length) parts.push(`Not in this answer yet: the tools of ${waiting.map(readinessWords).join(', ')}; they join once the server is ready.`);
  if (failed.length) parts.push(`Not offered: the tools of ${failed.map(readinessWords).join(', ')}.`);
  return parts.join(' ');
}
