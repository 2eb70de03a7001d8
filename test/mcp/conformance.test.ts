// A sample of the official MCP conformance suite's client scenarios, run against Glance's client
// in CI (offline: the suite's servers listen on localhost). All 26: `npm run conformance`,
// figures in docs/mcp-conformance.md. Sequential: each scenario starts its own servers.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../scripts/conformance.ts';

const SAMPLE = ['initialize', 'elicitation-sep1034-client-defaults', 'sse-retry', 'auth/metadata-default', 'auth/scope-step-up', 'auth/pre-registration'];

describe('MCP conformance (client scenarios, a sample)', () => {
  it.each(SAMPLE)('%s passes', async (scenario) => {
    const result = await runScenario(scenario, 90_000);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, failed: 0 });
    expect(result.passed).toBeGreaterThan(0);
  }, 150_000);
});
