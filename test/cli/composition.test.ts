// One composition for every entry: the CLI commands and the app's API read the same settings
// the same way. Two drifts this pins: `mcp call` ignored the settings' limits (ask applied
// them), and a vision verdict declared for `mystery` did not count for `mystery:latest`
// (or the other way round) in some entries.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../main/cli/io.ts';
import { main } from '../../main/cli/main.ts';
import { composeServices } from '../../main/core/composeServices.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

function capturingIO(env: NodeJS.ProcessEnv = {}): CommandIO & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), env, stdout: () => out, stderr: () => err };
}

describe('every entry applies the settings the same way', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let server: ModelServer;
  let config: string;

  beforeAll(async () => {
    data = await tempDataDir();
    server = await createModelServer();
    config = join(data.dir, 'servers.json');
    await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
  });
  afterAll(async () => {
    await server.close();
    await data.remove();
  });

  async function writeSettings(dir: string, settings: Record<string, unknown>) {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 1, ...settings }));
  }

  it('mcp call honours limits.ingestBytes from settings.json, as ask does', async () => {
    const small = await tempDataDir();
    try {
      await writeSettings(small.dir, { limits: { ingestBytes: 1024 * 1024 } });
      const io = capturingIO();
      const code = await main(['mcp', 'call', 'fx', 'big_image', '--args', '{"megabytes":2.2}', '--mcp-config', config, '--data-dir', small.dir, '--json'], io);
      const result = JSON.parse(io.stdout()) as { ok: boolean; images: unknown[]; notes: string[]; text: string };
      expect(code).toBe(0);
      expect(result.images).toEqual([]);
      expect(`${result.text}\n${result.notes.join('\n')}`).toMatch(/too large|larger than|MB/i);

      // The same call with the default limit (50 MB) captures the image.
      const roomy = capturingIO();
      await main(['mcp', 'call', 'fx', 'big_image', '--args', '{"megabytes":2.2}', '--mcp-config', config, '--data-dir', data.dir, '--json'], roomy);
      expect((JSON.parse(roomy.stdout()) as { images: unknown[] }).images).toHaveLength(1);
    } finally {
      await small.remove();
    }
  });

  it.each([['mystery'], ['mystery:latest']])('vision declared as %s counts for both names in models, check-image and the app', async (declaredAs) => {
    const dir = await tempDataDir();
    try {
      await writeSettings(dir.dir, { vision: { ollama: { [declaredAs]: 'yes' } } });
      const env = { GLANCE_DATA_DIR: dir.dir, OLLAMA_HOST: server.url };

      const models = capturingIO(env);
      expect(await main(['models', '--json'], models)).toBe(0);
      const listed = JSON.parse(models.stdout()) as { name: string; capabilities: { vision: string; visionSource: string } }[];
      expect(listed.find((m) => m.name === 'mystery:latest')?.capabilities).toMatchObject({ vision: 'yes', visionSource: 'settings' });

      const png = join(dir.dir, 'chart.png');
      await writeFile(png, await makeBarChart());
      for (const name of ['mystery', 'mystery:latest']) {
        const check = capturingIO(env);
        expect(await main(['check-image', png, '--model', name, '--json'], check), `check-image --model ${name}`).toBe(0);
      }

      const settings = new SettingsStore({ dataDir: dir.dir });
      await settings.load();
      const services = composeServices({ dataDir: dir.dir, settings, secrets: new EnvSecretStore({}), log: () => undefined });
      for (const name of ['mystery', 'mystery:latest']) {
        const choice = await services.models.choiceFor({ provider: 'ollama', name });
        expect(choice.capabilities.vision, `app: ${name}`).toBe('yes');
      }
      await services.close();
    } finally {
      await dir.remove();
    }
  });
});
