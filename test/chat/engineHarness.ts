// Shared set-up for the engine tests: a real core (intake, stores, engine) in a temp data
// dir, real providers talking to the seeing fixture model server on loopback.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ChatEvent } from '../../common/events.ts';
import type { ProviderKind } from '../../common/models.ts';
import type { TurnRequest, TurnOutcome } from '../../main/chat/chatEngine.ts';
import type { Services } from '../../main/core/composeServices.ts';
import { testServices, type TestServicesOptions } from '../support/testServices.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, type ModelServer, type ModelServerOptions } from '../fixtures/modelServer.ts';
import type { Tool } from '../../main/tools/tool.ts';

export type Harness = {
  core: Services;
  dataDir: string;
  turn(request: Omit<TurnRequest, 'chat' | 'helper'> & { model: string; kind?: ProviderKind; vision?: 'yes' | 'no'; helper?: string }): Promise<{ outcome: TurnOutcome; events: ChatEvent[] }>;
  close(): Promise<void>;
};

export async function makeHarness(baseUrl: { ollama: string; openai: string }, options: Omit<TestServicesOptions, 'dataDir'> = {}): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'glance-engine-'));
  const core = testServices({ dataDir, ...options });
  return {
    core,
    dataDir,
    async turn(request) {
      const kind = request.kind ?? 'ollama';
      const url = kind === 'ollama' ? baseUrl.ollama : baseUrl.openai;
      const chat = await resolveModel({ kind, model: request.model, baseUrl: url, vision: request.vision });
      const helper = request.helper ? await resolveModel({ kind, model: request.helper, baseUrl: url }) : undefined;
      const events: ChatEvent[] = [];
      const outcome = await core.engine.runTurn({ ...request, chat, helper }, (e) => events.push(e));
      return { outcome, events };
    },
    async close() {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type EngineSuite = {
  /** The fixture model server (reset after each test). */
  server(): ModelServer;
  /** A core on a fresh data dir talking to that server; closed after its test. */
  harness(options?: Omit<TestServicesOptions, 'dataDir'>): Promise<Harness>;
};

/** The set-up the engine suites share: one fixture model server per file, harnesses per test. */
export function engineSuite(serverOptions: ModelServerOptions = {}): EngineSuite {
  let server: ModelServer | undefined;
  const open: Harness[] = [];
  beforeAll(async () => {
    server = await createModelServer(serverOptions);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    server?.reset();
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  const running = () => {
    if (!server) throw new Error('engineSuite: the model server starts in beforeAll');
    return server;
  };
  return {
    server: running,
    async harness(options = {}) {
      const h = await makeHarness({ ollama: running().url, openai: running().openaiBaseUrl }, options);
      open.push(h);
      return h;
    },
  };
}

/** A tool that "captures" the known-answer chart through the gate, as an MCP image tool would. */
export function chartTool(core: Services, name = 'capture_chart'): Tool {
  return {
    needsVision: true,
    spec: { name, description: 'Capture the chart.', parameters: { type: 'object', properties: {} } },
    async run(_args, context) {
      if (!context.imageTarget) return { ok: false, text: 'nobody can see' };
      const result = await core.intake.admit({ source: await makeBarChart(), name: 'chart.png', origin: name, requestedBy: 'user' }, context.imageTarget, 'user');
      if (!result.ok) return { ok: false, text: result.message };
      return { ok: true, text: `Captured [image ${result.attachment.id}]`, images: [result.attachment] };
    },
  };
}

export function ofType<T extends ChatEvent['type']>(events: ChatEvent[], type: T): Extract<ChatEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ChatEvent, { type: T }> => e.type === type);
}
