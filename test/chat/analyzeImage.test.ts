// analyze_image: a side call to the model that sees. A path goes in, prose comes out; the
// image never enters the chat context. Model-requested paths stay inside the allowed roots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBarChart } from '../fixtures/chart.ts';
import { engineSuite, ofType, type Harness } from './engineHarness.ts';

const suite = engineSuite();
const server = suite.server;
let h: Harness;
let roots: string;
let outside: string;

beforeAll(async () => {
  roots = await mkdtemp(join(tmpdir(), 'glance-roots-'));
  outside = await mkdtemp(join(tmpdir(), 'glance-outside-'));
  await mkdir(join(roots, 'pics'));
  await writeFile(join(roots, 'pics', 'chart.png'), await makeBarChart());
  await writeFile(join(outside, 'secret.png'), await makeBarChart());
});
afterAll(async () => {
  await rm(roots, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('analyze_image', () => {
  it('answers about a file inside the allowed roots through a side call; the chat context gets prose only', async () => {
    h = await suite.harness({ allowedRoots: [join(roots, 'pics')] });
    server().script({ toolCalls: [{ name: 'analyze_image', arguments: { source: join(roots, 'pics', 'chart.png'), prompt: 'Which bar is tallest?' } }] });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Look at my chart file.' });
    expect(outcome.status).toBe('done');
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(/tallest green/);
    // Three requests: the chat step, the side call (with the image), the chat step after the tool.
    expect(server().requests).toHaveLength(3);
    const side = server().requests[1]!;
    expect(side.images).toHaveLength(1);
    expect(side.messages.map((m) => m.role)).toEqual(['user']);
    expect(side.messages[0]!.text).toBe('Which bar is tallest?');
    expect(server().requests[2]!.images).toHaveLength(0);
    expect(ofType(events, 'image_delivered')).toHaveLength(0);
  });

  it('refuses a path outside the allowed roots, and a relative path', async () => {
    h = await suite.harness({ allowedRoots: [join(roots, 'pics')] });
    server().script(
      { toolCalls: [{ name: 'analyze_image', arguments: { source: join(outside, 'secret.png'), prompt: 'What is this?' } }] },
      { toolCalls: [{ name: 'analyze_image', arguments: { source: join(roots, 'pics', '..', '..', outside.split('/').pop()!, 'secret.png'), prompt: 'And this?' } }] },
      { toolCalls: [{ name: 'analyze_image', arguments: { source: 'pics/chart.png', prompt: 'Relative?' } }] },
    );
    const { events } = await h.turn({ model: 'llava-seer', text: 'Try to read files.' });
    const results = ofType(events, 'tool_result');
    expect(results).toHaveLength(3);
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.text).toMatch(/source-forbidden/);
    expect(results[1]!.text).toMatch(/source-forbidden/);
    expect(results[2]!.text).toMatch(/source-unreachable.*absolute/is);
    // No side call ever carried the forbidden image.
    expect(server().requests.every((r) => r.images.length === 0)).toBe(true);
  });
});
