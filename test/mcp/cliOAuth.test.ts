// The CLI's MCP sign-in lasts across runs (issue 13): the first `glance mcp call` signs in
// through the real SDK client auth against the OAuth fixture (discovery, dynamic registration,
// PKCE, a browser that follows the redirect to the loopback URI) and keeps the tokens in
// <data dir>/mcp-tokens.json (0600); a second run reuses the token with no browser at all.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../main/cli/io.ts';
import { main } from '../../main/cli/main.ts';
import { TOKEN_FILE } from '../../main/settings/fileTokenStore.ts';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/mcpOAuthServer.ts';
import { tempDataDir } from '../support/mcpSetup.ts';

function capturingIO(env: NodeJS.ProcessEnv): CommandIO & { all: () => string; stdout: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), env, stdout: () => out, all: () => out + err };
}

/** A "browser" that opens the page and follows its redirect (the fixture signs the user in at once). */
const BROWSER = `${JSON.stringify(process.execPath)} -e "fetch(process.argv[1]).then((r) => r.text())"`;

describe('glance mcp call against a server that needs sign-in', () => {
  let fx: OAuthFixture;
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let config: string;
  const run = (io: CommandIO) => main(['mcp', 'call', 'secure', 'whoami', '--mcp-config', config, '--data-dir', data.dir, '--yes'], io);

  beforeAll(async () => {
    fx = await startOAuthFixture();
    data = await tempDataDir();
    config = join(data.dir, 'servers.json');
    await writeFile(config, JSON.stringify({ mcpServers: { secure: { type: 'http', url: fx.url } } }));
  });
  afterAll(async () => {
    await fx?.close();
    await data?.remove();
  });

  it('signs in once, keeps the token in a 0600 file (never printed), and the next run reuses it without a browser', async () => {
    const first = capturingIO({ BROWSER });
    expect(await run(first)).toBe(0);
    expect(first.stdout()).toContain('signed in');
    expect(fx.authorizations).toBe(1);
    expect(fx.issued).toHaveLength(1);
    const token = fx.issued[0]!;

    const file = join(data.dir, TOKEN_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(data.dir)).mode & 0o077).toBe(0); // the folder is the user's only, too
    expect(await readFile(file, 'utf8')).toContain(token);
    expect(first.all()).not.toContain(token);

    // A browser that cannot open anything: a second sign-in would fail.
    const second = capturingIO({ BROWSER: 'false' });
    expect(await run(second)).toBe(0);
    expect(second.stdout()).toContain('signed in');
    expect(fx.authorizations).toBe(1);
    expect(fx.issued).toHaveLength(1);
    expect(fx.used.at(-1)).toBe(token);
    expect(second.all()).not.toContain(token);
  });
});
