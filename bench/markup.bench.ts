// npm run bench:markup — pointer-to-paint latency while drawing in the mark-up editor on a 4K
// capture, in Debian's Chromium via the harness (the real renderer, the real thumbnail path).
//   node bench/markup.bench.ts [--moves 120] [--runs 3] [--no-write]
// A 3840×2160 capture (the known-answer chart drawn large) is attached and opened in the editor.
// For each case, the pointer is dragged across the canvas in `moves` steps (CDP Input events,
// as a person's mouse arrives); for every pointermove the page records event.timeStamp and the
// time the frame that shows its effect has been produced (the first requestAnimationFrame after
// the move, then a task posted from it, which runs once that frame's rendering is done).
// Cases: a free line (the mark grows a point per move) and a box, each on an image without
// marks and with 40 marks already drawn (the overlay is one SVG redrawn per move).
// Writes docs/benchmarks-markup.md.
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../test/fixtures/chart.ts';
import { createModelServer } from '../test/fixtures/modelServer.ts';
import { launchChromium, modelShown, openSession } from '../test/e2e/browserHarness.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { moves: { type: 'string', default: '120' }, runs: { type: 'string', default: '3' }, 'no-write': { type: 'boolean', default: false } } });
const MOVES = Math.max(10, Number(args.moves) || 120);
const RUNS = Math.max(1, Number(args.runs) || 3);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const p95 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

/** Installs the probe: per pointermove, the delay until the frame showing it is done. */
const PROBE = `() => {
  window.__lat = [];
  document.addEventListener('pointermove', (e) => {
    const t0 = e.timeStamp;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => window.__lat.push(performance.now() - t0);
      ch.port2.postMessage(0);
    });
  }, { capture: true });
}`;

async function dragCase(page: Page, tool: 'Line' | 'Box'): Promise<number[]> {
  const toolbar = page.getByRole('toolbar', { name: 'Mark up' });
  await toolbar.getByRole('radio', { name: tool }).click();
  const box = (await page.getByRole('group', { name: 'Mark-up canvas' }).boundingBox())!;
  await page.evaluate('window.__lat = []');
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.2);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) {
    const f = i / MOVES;
    await page.mouse.move(box.x + box.width * (0.1 + 0.8 * f), box.y + box.height * (0.2 + 0.6 * Math.abs(Math.sin(f * 6))));
  }
  await page.mouse.up();
  await page.waitForTimeout(200);
  return (await page.evaluate('window.__lat')) as number[];
}

async function main() {
  const server = await createModelServer();
  const browser = await launchChromium();
  const png = await makeBarChart({ width: 3840, height: 2160 });
  const results: Record<string, number[]> = {};
  try {
    for (let run = 0; run < RUNS; run++) {
      const s = await openSession(browser, { ollamaHost: server.url, viewport: { width: 1600, height: 1000 } });
      try {
        const { page } = s;
        await modelShown(page, 'llava-seer');
        await page.locator('main').drop({ files: { name: 'screen-4k.png', mimeType: 'image/png', buffer: png } });
        const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'screen-4k.png' });
        await item.getByRole('button', { name: 'Mark up screen-4k.png' }).click();
        await page.getByRole('dialog').getByRole('img', { name: 'screen-4k.png' }).waitFor();
        await page.evaluate(`(${PROBE})()`);
        for (const tool of ['Line', 'Box'] as const) (results[`${tool}, no marks`] ??= []).push(...(await dragCase(page, tool)));
        // Fill up to 40 marks (the two drawn above, then boxes), then measure again.
        const canvas = page.getByRole('group', { name: 'Mark-up canvas' });
        const cb = (await canvas.boundingBox())!;
        await page.getByRole('toolbar', { name: 'Mark up' }).getByRole('radio', { name: 'Box' }).click();
        for (let i = 0; i < 38; i++) {
          const x = cb.x + cb.width * (0.05 + (i % 10) * 0.09);
          const y = cb.y + cb.height * (0.05 + Math.floor(i / 10) * 0.22);
          await page.mouse.move(x, y);
          await page.mouse.down();
          await page.mouse.move(x + cb.width * 0.05, y + cb.height * 0.1, { steps: 2 });
          await page.mouse.up();
        }
        await page.locator('.markup-footer .muted').filter({ hasText: '40 marks' }).waitFor();
        // Measured on top of 40 marks (these drags add the 41st and 42nd; the cap is 50).
        for (const tool of ['Line', 'Box'] as const) (results[`${tool}, 40 marks`] ??= []).push(...(await dragCase(page, tool)));
      } finally {
        await s.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const rows = Object.entries(results).map(([name, v]) => `| ${name} | ${v.length} | ${median(v).toFixed(1)} ms | ${p95(v).toFixed(1)} ms | ${Math.max(...v).toFixed(1)} ms |`);
  const load = loadavg().map((l) => l.toFixed(2)).join(', ');
  const report = [
    '# Mark-up: pointer-to-paint latency on a 4K capture',
    '',
    `\`npm run bench:markup\` (bench/markup.bench.ts), ${new Date().toISOString().slice(0, 10)}: ${RUNS} runs × ${MOVES} pointer moves per case, headless Chromium`,
    `(--disable-gpu) through the harness, a 1600×1000 window, a 3840×2160 capture shown from its 1024-px preview with the marks as one SVG`,
    `over it in the capture's own coordinates. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${load} —`,
    'shared with other jobs, so read the medians, not the maxima.',
    '',
    'Per pointermove: from `event.timeStamp` to the end of the frame that shows it (first `requestAnimationFrame` after the',
    'move, then a task posted from it). A 60 Hz display has a frame every 16.7 ms, so a median under that is one frame behind the pointer.',
    '',
    '| case | moves | median | p95 | max |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  console.log(report);
  if (!args['no-write']) await writeFile(join(root, 'docs', 'benchmarks-markup.md'), report);
}

await main();
