// The tool schemas' cost in the "Context" meter: built-ins and each running MCP server, measured
// as the turn sends them (JSON of the specs), through the real router and composition.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextEstimate, IpcResult } from '../../common/ipc.ts';
import { createApiHandlers } from '../../main/api/apiHandlers.ts';
import { createIpcRouter } from '../../main/api/ipcRouter.ts';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import { fixtureEntry } from '../support/mcpSetup.ts';

let server: ModelServer;
let dataDir: string;
let services: Services;
let call: (channel: string, payload?: unknown) => Promise<IpcResult<unknown>>;
// A window wide enough that no description is shortened (toolSpecFit.ts cuts them when tools would
// take over a quarter of a request): this file counts what each source costs, as given.
const seer = { provider: 'ollama', name: 'wide-seer' } as const;

beforeAll(async () => {
  server = await createModelServer({
    models: [...DEFAULT_MODELS, ...VISION_MODELS, { name: 'wide-seer', capabilities: ['completion', 'vision', 'tools'], contextLength: 131_072, numCtx: 131_072 }],
  });
  dataDir = await mkdtemp(join(tmpdir(), 'glance-toolcost-'));
  const settings = new SettingsStore({ dataDir });
  await settings.load();
  await settings.update({ providers: { ollama: { host: server.url }, openai: [] }, mcpServers: { fx: fixtureEntry() } });
  services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), log: () => undefined });
  const handlers = createApiHandlers({ services, settingsStore: settings, emit: () => undefined, shell: { version: '0.1.0', platform: 'linux' } });
  const router = createIpcRouter({ handlers, isTrustedSender: (s) => s.url === 'app://glance/' });
  call = (channel, payload = {}) => router.handle(channel, { url: 'app://glance/', isMainFrame: true }, payload);
});
afterAll(async () => {
  await services?.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const estimate = async () => {
  const result = await call('chat:context', { model: seer });
  if (!result.ok) throw new Error(result.message);
  return result.value as ContextEstimate;
};

describe('tool schema cost', () => {
  it('counts built-ins before any MCP server runs (the meter starts nothing), then each running server', async () => {
    const before = await estimate();
    expect(before.tools?.bySource.map((s) => s.source)).toEqual(['built-in']);
    expect(services.hub?.status()[0]?.state).toBe('idle');

    const listed = await services.hub!.listTools();
    const after = await estimate();
    const fx = after.tools!.bySource.find((s) => s.source === 'fx')!;
    expect(fx.tools).toBe(listed.length);
    // The same bytes the request carries: JSON of each spec as the engine offers it.
    const specs = (await services.tools.forTurn(true)).values();
    const fxBytes = [...specs].filter((t) => t.source === 'fx').reduce((n, t) => n + Buffer.byteLength(JSON.stringify(t.spec)), 0);
    expect(fx.bytes).toBe(fxBytes);
    expect(after.tools!.bytes).toBe(after.tools!.bySource.reduce((n, s) => n + s.bytes, 0));
    expect(after.tools!.tokens).toBeGreaterThan(before.tools!.tokens);
    expect(after.estimatedTokens - before.estimatedTokens).toBe(after.tools!.tokens - before.tools!.tokens);
  });

  it('leaves out what the conversation switched off: a whole server, or one tool of it (the same as the turn offers)', async () => {
    const all = await estimate();
    const fx = all.tools!.bySource.find((s) => s.source === 'fx')!;
    const serverOff = await call('chat:context', { model: seer, tools: { offServers: ['fx'], offTools: [] } });
    if (!serverOff.ok) throw new Error(serverOff.message);
    const withoutFx = (serverOff.value as ContextEstimate).tools!;
    expect(withoutFx.bySource.map((s) => s.source)).toEqual(['built-in']);
    expect(withoutFx.tokens).toBe(all.tools!.tokens - fx.tokens);
    expect([...(await services.tools.forTurn(true, undefined, { offServers: ['fx'], offTools: [] })).values()].some((t) => t.source === 'fx')).toBe(false);

    const toolOff = await call('chat:context', { model: seer, tools: { offServers: [], offTools: ['fx__echo'] } });
    if (!toolOff.ok) throw new Error(toolOff.message);
    expect((toolOff.value as ContextEstimate).tools!.bySource.find((s) => s.source === 'fx')!.tools).toBe(fx.tools - 1);
    const offered = await services.tools.forTurn(true, undefined, { offServers: [], offTools: ['fx__echo'] });
    expect(offered.has('fx__echo')).toBe(false);
    expect(offered.has('fx__chart_image')).toBe(true);
  });
});
