// npm run bench:window-words — what a window's own words (accessibility) add to redaction, on
// screens nobody tuned to, written to docs/benchmarks-redact.md.
//   node bench/windowWords.bench.ts [--runs N] [--no-write] [--only NAME,NAME]
// Each screen of the held-out sets A–E and of the corpus is shown in a real Chromium window
// on a real desktop (Xvfb, openbox, the AT-SPI bus and registry; Chromium with accessibility on,
// maximised at 1920×1080, its own bar above the page), captured as a window capture is (node-screenshots), its words read
// over AT-SPI with the secret rules at hand (readCapturedWindow, as screenshot_desktop {window}
// does), and its secrets found by the door's detection twice: from OCR alone, and with the secrets
// and password fields the words placed. Leaks are scored as bench:redact-corpus scores them (6
// characters in a row with ink outside every fill; the characters' boxes from the DOM).
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { defaultSettings } from '../common/settings.ts';
import { AtspiWindowText } from '../main/accessibility/atspiWindowText.ts';
import { readCapturedWindow } from '../main/accessibility/capturedWindowText.ts';
import { NodeScreenshotsCapturer } from '../main/capture/nodeScreenshotsCapturer.ts';
import { doorWindows } from '../main/capture/screenCapturer.ts';
import { readImageWords } from '../main/ocr/readImageWords.ts';
import { ReaderPool } from '../main/ocr/readerPool.ts';
import { RegionReader } from '../main/ocr/regionReader.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { findSecrets } from '../main/privacy/detect.ts';
import { redactImage } from '../main/privacy/redactImage.ts';
import { openAccessibleDesktop } from '../test/fixtures/atspiSession.ts';
import { HELD_OUT_B_ORDINARY_SCREENS, HELD_OUT_B_SECRET_SCREENS, HELD_OUT_ORDINARY_SCREENS, HELD_OUT_SECRET_SCREENS, heldOutBScreen, heldOutScreen } from '../test/fixtures/heldOutScreens.ts';
import { HELD_OUT_C_ORDINARY_SCREENS, HELD_OUT_C_SECRET_SCREENS, heldOutCScreen } from '../test/fixtures/heldOutScreensC.ts';
import { HELD_OUT_D_ORDINARY_SCREENS, HELD_OUT_D_SECRET_SCREENS, heldOutDScreen } from '../test/fixtures/heldOutScreensD.ts';
import { HELD_OUT_E_ORDINARY_SCREENS, HELD_OUT_E_SECRET_SCREENS, heldOutEScreen } from '../test/fixtures/heldOutScreensE.ts';
import { scoreScreen } from '../test/fixtures/leakScore.ts';
import { ALL_SECRET_SCREENS, corpusScreen, ORDINARY_SCREENS, SIZES, type CorpusScreen } from '../test/fixtures/realScreens.ts';
import { COLLECT, type CharBox, type RenderedScreen } from '../test/fixtures/renderScreens.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '1' }, 'no-write': { type: 'boolean', default: false }, only: { type: 'string' } } });
const RUNS = Math.max(1, Number(args.runs) || 1);
const only = args.only ? new Set(args.only.split(',')) : undefined;
const SIZE = SIZES.find((s) => s.name === '1080p')!;
const TITLE = 'Glance window words bench';

type Entry = { set: string; name: string; make: (name: string, options: { seed: number; size: typeof SIZE }) => CorpusScreen };
const sets: Entry[] = [
  ...[...HELD_OUT_SECRET_SCREENS, ...HELD_OUT_ORDINARY_SCREENS].map((name) => ({ set: 'held-out A', name, make: heldOutScreen })),
  ...[...HELD_OUT_B_SECRET_SCREENS, ...HELD_OUT_B_ORDINARY_SCREENS].map((name) => ({ set: 'held-out B', name, make: heldOutBScreen })),
  ...[...HELD_OUT_C_SECRET_SCREENS, ...HELD_OUT_C_ORDINARY_SCREENS].map((name) => ({ set: 'held-out C', name, make: heldOutCScreen })),
  ...[...HELD_OUT_D_SECRET_SCREENS, ...HELD_OUT_D_ORDINARY_SCREENS].map((name) => ({ set: 'held-out D', name, make: heldOutDScreen })),
  ...[...HELD_OUT_E_SECRET_SCREENS, ...HELD_OUT_E_ORDINARY_SCREENS].map((name) => ({ set: 'held-out E', name, make: heldOutEScreen })),
  ...[...ALL_SECRET_SCREENS, ...ORDINARY_SCREENS].map((name) => ({ set: 'corpus', name, make: corpusScreen })),
].filter((e) => !only || only.has(e.name));

const desktop = await openAccessibleDesktop({ width: SIZE.width, height: SIZE.height });
const browser = await chromium.launch({
  executablePath: process.env.GLANCE_CHROMIUM ?? '/usr/bin/chromium',
  headless: false,
  timeout: 60_000,
  env: { ...process.env, ACCESSIBILITY_ENABLED: '1' },
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--force-renderer-accessibility', '--window-position=0,0', `--window-size=${SIZE.width},${SIZE.height}`],
});
const page = await (await browser.newContext({ viewport: null })).newPage();
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const privacy = defaultSettings().privacy;
const words = new AtspiWindowText(process.env, { find: async (text) => (await findSecrets(text, privacy)).findings });
const ocr = new RegionReader(new ReaderPool(() => new TesseractReader({ timeoutMs: 300_000 })));
const limits = { maxInputPixels: 100_000_000 };

type Tally = { hidden: number; total: number };
const modes = ['OCR alone', 'OCR + the window’s words'] as const;
const hidden = new Map<string, Tally>();
const masked = new Map<string, { total: number; masked: number }>();
const add = (key: string, ok: boolean) => {
  const t = hidden.get(key) ?? { hidden: 0, total: 0 };
  t.total++;
  if (ok) t.hidden++;
  hidden.set(key, t);
};
const readMs: number[] = [];
const located: number[] = [];
const misses: string[] = [];
let noWords = 0;
const load = loadavg().map((l) => l.toFixed(1)).join(' / ');

try {
  for (let run = 0; run < RUNS; run++) {
    for (const entry of sets) {
      const screen = entry.make(entry.name, { seed: 1000 + run * 97 + entry.name.length, size: SIZE });
      await page.setContent(screen.html, { waitUntil: 'load' });
      await page.evaluate(`document.fonts.ready.then(() => { document.title = ${JSON.stringify(TITLE)}; })`);
      const got = (await page.evaluate(COLLECT)) as { secrets: Record<string, CharBox[]>; ordinary: Array<CharBox & { cat: string }> };
      // The tree follows the page a moment later: read until the page's words are there.
      let captured;
      let own;
      for (let attempt = 0; attempt < 6; attempt++) {
        await new Promise((r) => setTimeout(r, 300));
        const shot = await capturer.capture({ window: TITLE });
        if (!shot.ok) throw new Error(`capture: ${shot.message}`);
        captured = shot.capture;
        const t = performance.now();
        own = await readCapturedWindow(words, captured);
        if (attempt === 0 || own?.result.ok) readMs.push(performance.now() - t);
        if (own?.result.ok && own.result.elements.length > 2) break;
      }
      if (!captured) continue;
      if (!own?.result.ok) noWords++;
      // The page starts below the browser's own bar: its boxes move by where the viewport sits in the window.
      const [dx, dy] = (await page.evaluate('[Math.round((window.outerWidth - window.innerWidth) / 2), window.outerHeight - window.innerHeight]')) as [number, number];
      const moved = <B extends CharBox>(b: B): B => ({ ...b, x: b.x + dx, y: b.y + dy });
      const inside = (b: CharBox) => b.x + b.width > 0 && b.y + b.height > 0 && b.x < captured.width && b.y < captured.height;
      const rendered: RenderedScreen = {
        ...screen,
        png: Buffer.from(captured.png),
        width: captured.width,
        height: captured.height,
        placed: screen.secrets.map((s) => ({ ...s, chars: (got.secrets[String(s.id)] ?? []).map(moved).filter(inside) })),
        ordinaryChars: got.ordinary.map(moved).filter(inside),
      };
      const fields = own?.fields ?? [];
      located.push(fields.length);
      const windows = doorWindows(captured).windows ?? [];
      for (const mode of modes) {
        const out = await redactImage(
          { data: captured.png, mime: 'image/png' },
          { readWords: (image, signal) => readImageWords(ocr, image, { limits, ...(signal ? { signal } : {}) }), pixels: () => sharp(captured.png) },
          { windows: mode === 'OCR alone' ? windows : [...windows, ...fields] },
        );
        if (!out.ok) {
          console.log(`${entry.name} (${mode}): ${out.message}`);
          continue;
        }
        const score = await scoreScreen(rendered, out.regions);
        for (const s of score.secrets) {
          add(`${mode}|${entry.set}`, !s.leaked);
          add(`${mode}|all`, !s.leaked);
          if (s.leaked && mode !== 'OCR alone') misses.push(`${entry.set}, ${entry.name} (${screen.look}): ${s.kind} (${s.longest} in a row)`);
        }
        if (screen.ordinary) {
          for (const a of score.area.values()) {
            const m = masked.get(mode) ?? { total: 0, masked: 0 };
            m.total += a.total;
            m.masked += a.masked;
            masked.set(mode, m);
          }
        }
        const lost = score.secrets.filter((s) => s.leaked).length;
        console.log(`${entry.set} ${entry.name} [${mode}]: ${score.secrets.length - lost}/${score.secrets.length} hidden, ${fields.length} placed by the words`);
      }
    }
  }
} finally {
  await browser.close();
  await ocr.close();
  await desktop.close();
}

const pct = (t: Tally | undefined) => (t && t.total ? `${((t.hidden / t.total) * 100).toFixed(1)}% (${t.hidden}/${t.total})` : '—');
const setNames = ['held-out A', 'held-out B', 'held-out C', 'held-out D', 'held-out E', 'corpus', 'all'];
const table = markdownTable(
  ['', ...modes],
  [
    ...setNames.map((set) => [`secrets hidden, ${set === 'all' ? '**all**' : set}`, ...modes.map((m) => pct(hidden.get(`${m}|${set}`)))]),
    ['ordinary screens’ text area masked', ...modes.map((m) => {
      const a = masked.get(m);
      return a && a.total ? `${((a.masked / a.total) * 100).toFixed(1)}%` : '—';
    })],
  ],
);
const section = `### window-words (${new Date().toISOString().slice(0, 10)}, ${RUNS} run(s) of ${sets.length} screens)

Machine: ${cpus().length} cores, load ${load} at the start. Every screen at 1080p in a Chromium window with accessibility on, on Xvfb with the AT-SPI bus; the window's words were read in a median ${median(readMs).toFixed(0)} ms (${noWords} screen(s) gave none) and placed a median ${median(located)} secret or password box(es) a screen.

${table}

Leaked with the words too:

${misses.length ? misses.map((m) => `- ${m}`).join('\n') : '- none'}
`;
console.log(section);
if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-redact.md'), 'window-words', section, 'bench:redact — on-device redaction');
