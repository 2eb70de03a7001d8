// A settings file that cannot be read whole never weakens privacy or tool approval (architecture §3b
// "Fail closed"): a typo elsewhere once made the CLI drop the whole file, `privacy.redact: "always"`
// and the tool deny rules with it.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEY } from '../../common/settings.ts';
import { readCliSettings } from '../../main/cli/cliSettings.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-salvage-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TYPO = {
  version: 1,
  hotkey: 42,
  privacy: { redact: 'always', excludedApps: ['Vault'] },
  toolApproval: { 'fs__write_file': 'deny', 'everything__*': 'ask' },
};

describe('a settings file with one bad field', () => {
  it('the CLI keeps privacy.redact "always" and the deny rule, names the bad field and uses its default', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify(TYPO));
    const { settings, warning } = await readCliSettings(dir);
    expect(settings.privacy.redact).toBe('always');
    expect(settings.privacy.excludedApps).toEqual(['Vault']);
    expect(settings.toolApproval).toEqual({ 'fs__write_file': 'deny', 'everything__*': 'ask' });
    expect(settings.hotkey).toBe(DEFAULT_HOTKEY);
    expect(warning).toMatch(/"hotkey" could not be read .*keeps its default/);
  });

  it('a bad field inside a section costs only that field (a bad redact policy keeps the default "remote", never "never")', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 1, privacy: { redact: 'sometimes', excludedApps: ['Vault'] }, toolApproval: { 'x__rm': 'deny', 'x__ls': 'perhaps' } }));
    const { settings, warning } = await readCliSettings(dir);
    expect(settings.privacy.redact).toBe('remote');
    expect(settings.privacy.excludedApps).toEqual(['Vault']);
    expect(settings.toolApproval).toEqual({ 'x__rm': 'deny' });
    expect(warning).toContain('"privacy.redact"');
    expect(warning).toContain('"toolApproval.x__ls"');
  });

  it('the CLI reads the file as the app writes hand edits: comments and trailing commas are no reason to drop it', async () => {
    await writeFile(join(dir, 'settings.json'), '{\n  // mine\n  "version": 1,\n  "privacy": { "redact": "always", },\n}\n');
    const { settings, warning } = await readCliSettings(dir);
    expect(settings.privacy.redact).toBe('always');
    expect(warning).toBeUndefined();
  });

  it('the app loads the readable fields, copies the file aside and does not rewrite it', async () => {
    const path = join(dir, 'settings.json');
    const text = JSON.stringify(TYPO);
    await writeFile(path, text);
    const { settings, warnings, keptAs } = await new SettingsStore({ dataDir: dir }).load();
    expect(settings.privacy.redact).toBe('always');
    expect(settings.toolApproval['fs__write_file']).toBe('deny');
    expect(warnings.join('\n')).toMatch(/"hotkey" could not be read/);
    expect(keptAs).toBeDefined();
    expect(await readFile(keptAs!, 'utf8')).toBe(text);
    expect(await readFile(path, 'utf8')).toBe(text);
    expect((await readdir(dir)).filter((n) => n.startsWith('settings.json'))).toHaveLength(2);
  });
});
