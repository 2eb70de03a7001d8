// Limits saved in Settings apply at once, without a restart: the intake, the tools and the
// engine read the one limits object the composition keeps in step with the settings.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { targetFor } from '../../main/images/profiles.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { makeBarChart } from '../fixtures/chart.ts';

let dataDir: string;
let services: Services;
let settings: SettingsStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-live-limits-'));
  settings = new SettingsStore({ dataDir });
  await settings.load();
  services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), noMcp: true });
});
afterAll(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('a smaller "Largest file" refuses the next image; a larger one lets it through again', async () => {
  const chart = await makeBarChart({ width: 800, height: 400 });
  const target = targetFor('ollama', 'llava-seer', { vision: 'yes', visionSource: 'ollama-capabilities' });
  const attach = () => services.intake.admit({ source: chart, name: 'chart.png', origin: 'user', requestedBy: 'user' }, target, 'user');
  expect((await attach()).ok).toBe(true);

  const updated = await settings.update({ limits: { ...settings.current().limits, ingestBytes: 1024 } });
  expect(updated.ok).toBe(true);
  expect(services.limits.ingestBytes).toBe(1024);
  const refused = await attach();
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.code).toBe('too-large');

  await settings.update({ limits: { ...settings.current().limits, ingestBytes: 50 * 1024 * 1024 } });
  expect((await attach()).ok).toBe(true);
});
