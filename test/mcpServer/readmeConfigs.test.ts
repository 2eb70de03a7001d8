// The client configs README gives for glance mcp serve (Claude Desktop, Claude Code, Cursor,
// VS Code) are the shapes those clients read: each is parsed here by Glance's own config reader,
// which reads the same shapes (common/mcpConfig.ts), and must name the server that was meant.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../common/mcpConfig.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Glance as an MCP server'), readme.indexOf('### Tools that can change things ask first'));
/** Every JSON object in the section's code blocks: a line starting with "{", and the indented lines that go on with it. */
const configs = [...section.matchAll(/```jsonc\n([\s\S]*?)```/g)].flatMap((m) =>
  m[1]!.split('\n').reduce<string[]>((out, line) => {
    if (line.startsWith('{')) out.push(line);
    else if (line.startsWith('  ') && out.length) out[out.length - 1] += line;
    return out;
  }, []),
);

describe('README: the glance mcp serve client configs', () => {
  it('has the stdio and HTTP configs', () => {
    expect(configs.length).toBe(4);
  });

  it.each(configs)('%s parses as a "glance" server', (line) => {
    const parsed = parseMcpConfig(JSON.parse(line), { env: { GLANCE_MCP_TOKEN: 't' } });
    expect(parsed.errors).toEqual([]);
    const glance = parsed.servers.get('glance');
    expect(glance).toBeDefined();
    if (glance!.kind === 'stdio') expect([glance!.command, ...(glance!.args ?? [])]).toEqual(['glance', 'mcp', 'serve']);
    else expect(glance).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:7337/mcp' });
  });
});
