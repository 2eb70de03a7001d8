// `glance models` in-process (capturing io) and once as a real process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelInfo } from '../../common/models.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { main } from '../../main/cli/main.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => server.reset());

function capture(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('glance models (in-process)', () => {
  it('--json prints an array of ModelInfo with vision and its source', async () => {
    const c = capture();
    const code = await main(['models', '--base-url', server.url, '--json'], c.io);
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const models = z.array(ModelInfo).parse(JSON.parse(c.out()));
    expect(models.map((m) => [m.name, m.capabilities.vision, m.capabilities.visionSource])).toEqual([
      ['llava-seer:latest', 'yes', 'ollama-capabilities'],
      ['blind-llm:latest', 'no', 'ollama-capabilities'],
      ['mystery:latest', 'unknown', 'none'],
      ['old-vision:latest', 'yes', 'ollama-projector'],
    ]);
  });

  it('a table for people, defaulting to OLLAMA_HOST, with a hint for unknown vision', async () => {
    const c = capture({ OLLAMA_HOST: new URL(server.url).host });
    expect(await main(['models'], c.io)).toBe(0);
    const lines = c.out().split('\n');
    expect(lines[0]).toMatch(/^MODEL\s+VISION\s+FROM\s+TOOLS\s+THINKING\s+DETAILS$/);
    expect(lines.find((l) => l.startsWith('llava-seer:latest'))).toMatch(/\syes\s+reported by Ollama\s+yes\s+yes\s+7\.2B Q4_K_M ctx 8192$/);
    expect(lines.find((l) => l.startsWith('blind-llm:latest'))).toMatch(/\sno\s+reported by Ollama\s/);
    expect(lines.find((l) => l.startsWith('old-vision:latest'))).toMatch(/\syes\s+has a vision projector\s/);
    expect(lines.find((l) => l.startsWith('mystery:latest'))).toMatch(/\sunknown\s+not reported\s/);
    expect(c.out()).toContain('--vision yes|no');
  });

  it('OpenAI-compatible servers, key read from the variable --api-key-env names', async () => {
    const keyed = await createModelServer({ apiKey: 'sk-test' });
    try {
      const c = capture({ MY_KEY: 'sk-test' });
      expect(await main(['models', '--provider', 'openai', '--base-url', keyed.openaiBaseUrl, '--api-key-env', 'MY_KEY', '--json'], c.io)).toBe(0);
      const models = z.array(ModelInfo).parse(JSON.parse(c.out()));
      expect(models.find((m) => m.name === 'llava-seer')?.capabilities).toMatchObject({ vision: 'yes', visionSource: 'openrouter-metadata' });
      const missing = capture({});
      expect(await main(['models', '--provider', 'openai', '--base-url', keyed.openaiBaseUrl, '--api-key-env', 'MY_KEY'], missing.io)).toBe(2);
      expect(missing.err()).toContain('MY_KEY');
      const noKey = capture({});
      expect(await main(['models', '--provider', 'openai', '--base-url', keyed.openaiBaseUrl], noKey.io)).toBe(4);
      expect(noKey.err()).toMatch(/needs an API key/);
    } finally {
      await keyed.close();
    }
  });

  it('an unreachable server → a clear message on stderr, exit 4, nothing on stdout', async () => {
    await server.setDown(true);
    try {
      const c = capture();
      expect(await main(['models', '--base-url', server.url, '--json'], c.io)).toBe(4);
      expect(c.out()).toBe('');
      expect(c.err()).toBe(`glance models: Can't reach Ollama at ${server.url}. Is Ollama running? Start it with \`ollama serve\`.\n`);
    } finally {
      await server.setDown(false);
    }
  });

  it('usage errors exit 2', async () => {
    const c = capture();
    expect(await main(['models', '--provider', 'anthropic'], c.io)).toBe(2);
    expect(c.err()).toContain('--provider must be ollama or openai');
    expect(await main(['models', '--bogus'], capture().io)).toBe(2);
    expect(await main(['models', 'extra'], capture().io)).toBe(2);
    const help = capture();
    expect(await main(['models', '--help'], help.io)).toBe(0);
    expect(help.out()).toContain('Usage: glance models');
  });
});

describe('glance models (real process)', () => {
  it('node main/cli/main.ts models --json', async () => {
    const cli = fileURLToPath(new URL('../../main/cli/main.ts', import.meta.url));
    // Async exec: the fixture server lives in this process and must keep answering.
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, 'models', '--json'], {
      env: { ...process.env, OLLAMA_HOST: server.url },
      timeout: 30_000,
    });
    expect(stderr).toBe('');
    const models = z.array(ModelInfo).parse(JSON.parse(stdout));
    expect(models.find((m) => m.name === 'llava-seer:latest')?.capabilities.vision).toBe('yes');
    expect(server.log.some((r) => r.path === '/api/tags')).toBe(true);
  });

  it('exits 4 when Ollama is not there', async () => {
    const cli = fileURLToPath(new URL('../../main/cli/main.ts', import.meta.url));
    await server.setDown(true);
    try {
      const error = await promisify(execFile)(process.execPath, [cli, 'models', '--base-url', server.url], { timeout: 30_000 }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; stderr?: string },
      );
      expect(error?.code).toBe(4);
      expect(error?.stderr).toContain('Start it with `ollama serve`');
    } finally {
      await server.setDown(false);
    }
  });
});
