// The CLI's sign-in file: concurrent saves both kept, secrets inside a sign-in known to
// scrubSecrets(), a broken file reported in plain words and replaced (nothing thrown at the user).
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore, TOKEN_FILE } from '../../main/settings/fileTokenStore.ts';
import { scrubSecrets } from '../../main/scrubSecrets.ts';

describe('FileTokenStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-tokens-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('keeps concurrent saves, in a 0600 file, and a new store (the next run) reads them', async () => {
    const store = new FileTokenStore(join(dir, 'config'));
    await Promise.all([store.set('mcp-oauth.a', JSON.stringify({ tokens: { access_token: 'at-aaaaaaaaaa' } })), store.set('mcp-oauth.b', 'plain-value-b')]);
    expect((await stat(join(dir, 'config', TOKEN_FILE))).mode & 0o777).toBe(0o600);
    const next = new FileTokenStore(join(dir, 'config'));
    expect(JSON.parse((await next.get('mcp-oauth.a'))!)).toEqual({ tokens: { access_token: 'at-aaaaaaaaaa' } });
    expect(await next.get('mcp-oauth.b')).toBe('plain-value-b');
    await next.delete('mcp-oauth.b');
    expect(await new FileTokenStore(join(dir, 'config')).get('mcp-oauth.b')).toBeUndefined();
  });

  it('knows the tokens inside a stored sign-in, so a log line that echoes one is redacted', async () => {
    const store = new FileTokenStore(dir);
    await store.set('mcp-oauth.x', JSON.stringify({ tokens: { access_token: 'at-1234567890', refresh_token: 'rt-0987654321' }, client: { client_id: 'c1', client_secret: 'shh-secret-1' } }));
    const line = scrubSecrets('request failed: Authorization: Bearer at-1234567890 (refresh rt-0987654321, secret shh-secret-1)', store.knownValues());
    expect(line).not.toMatch(/at-1234567890|rt-0987654321|shh-secret-1/);
  });

  it('a broken file is reported and replaced by the next sign-in', async () => {
    await writeFile(join(dir, TOKEN_FILE), '{ not json');
    const warnings: string[] = [];
    const store = new FileTokenStore(dir, { warn: (m) => warnings.push(m) });
    expect(await store.get('mcp-oauth.a')).toBeUndefined();
    expect(warnings[0]).toMatch(/is not a JSON object of sign-ins; MCP servers will ask to sign in again/);
    await store.set('mcp-oauth.a', 'v');
    expect(JSON.parse(await readFile(join(dir, TOKEN_FILE), 'utf8'))).toEqual({ 'mcp-oauth.a': 'v' });
  });
});
