// The allowed folders apply while Glance runs: a path a model names is checked against the
// folders in Settings now, not those at start (the image door read them once, so a folder added
// in Settings stayed refused, and a removed one stayed readable, until a restart).
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { DEFAULT_PROFILES } from '../../main/images/profiles.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { tempDataDir } from '../support/mcpSetup.ts';

let data: Awaited<ReturnType<typeof tempDataDir>>;
let services: Services;
let settings: SettingsStore;
let first: string;
let second: string;

beforeAll(async () => {
  data = await tempDataDir();
  first = await realpath(await mkdir(join(data.dir, 'first'), { recursive: true }).then(() => join(data.dir, 'first')));
  second = await realpath(await mkdir(join(data.dir, 'second'), { recursive: true }).then(() => join(data.dir, 'second')));
  await writeFile(join(second, 'chart.png'), await makeBarChart());
  settings = new SettingsStore({ dataDir: data.dir });
  await settings.load();
  expect((await settings.update({ allowedRoots: [first] })).ok).toBe(true);
  services = composeServices({ dataDir: data.dir, settings, secrets: new EnvSecretStore({}), noMcp: true, log: () => undefined });
});
afterAll(async () => {
  await services?.close();
  await data?.remove();
});

const named = () => services.intake.admit({ source: join(second, 'chart.png'), origin: 'analyze_image', requestedBy: 'model' }, { profile: DEFAULT_PROFILES.openai }, 'check');

describe('allowed folders changed in Settings', () => {
  it('a model-named path is refused, then read once its folder is allowed, then refused again once it is not', async () => {
    expect(await named()).toMatchObject({ ok: false, code: 'source-forbidden' });
    expect((await settings.update({ allowedRoots: [first, second] })).ok).toBe(true);
    expect(await named()).toMatchObject({ ok: true });
    expect((await settings.update({ allowedRoots: [first] })).ok).toBe(true);
    expect(await named()).toMatchObject({ ok: false, code: 'source-forbidden' });
  });
});
