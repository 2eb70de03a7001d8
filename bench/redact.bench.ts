// npm run bench:redact — on-device redaction (issue 25), written to docs/benchmarks-redact.md.
//   node bench/redact.bench.ts [--runs N] [--no-write]
// Generated screens with planted secrets, fresh random ones on every run (test/fixtures/
// secretScreens.ts: a terminal, an editor with .env, a checkout form, devtools with a JWT, a PEM
// key) and two controls with none (code, prose), at 1080p, 1440p, 4K@1 and Retina (2880×1800,
// text drawn at 2×). For each screen, the door's own path: local OCR words (readImageWords with
// the engine's TesseractReader), detection, opaque fill. Then:
// - secrets readable by OCR in what is sent: the masked output read again by tesseract, every
//   8-character run of every planted secret looked for (target: none; ≥ 99.5% hidden);
// - ordinary words hidden on code and prose screens: OCR words inside a filled region (≤ 1%);
// - detection time per screen (OCR + rules + fill);
// - how long a send waits when it comes 3 s after the capture: the door's admit for a remote
//   target, timed from the capture, less 3 s (never below 0).
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { defaultSettings } from '../common/settings.ts';
import { testServices } from '../test/support/testServices.ts';
import { profileFor, targetFor } from '../main/images/profiles.ts';
import { readImageWords, type ImageWord } from '../main/ocr/readImageWords.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { redactImage } from '../main/privacy/redactImage.ts';
import { readable, secretScreen, type SecretScreenKind } from '../test/fixtures/secretScreens.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SCREENS = [
  { name: '1080p', width: 1920, height: 1080, scale: 1 },
  { name: '1440p', width: 2560, height: 1440, scale: 1 },
  { name: '4K@1', width: 3840, height: 2160, scale: 1 },
  { name: 'Retina 2880×1800 @2', width: 2880, height: 1800, scale: 2 },
] as const;
const SECRET_KINDS: SecretScreenKind[] = ['terminal', 'env', 'checkout', 'devtools', 'pem'];
const CONTROL_KINDS: SecretScreenKind[] = ['code', 'prose'];
const limits = { maxInputPixels: 100_000_000 };

const reader = new TesseractReader({ timeoutMs: 300_000 });
const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};
const ocrText = async (png: Uint8Array) => (await reader.read(await sharp(png).greyscale().png().toBuffer())).text;
const inside = (w: ImageWord, r: { x: number; y: number; width: number; height: number }) => {
  const cx = w.x + w.width / 2, cy = w.y + w.height / 2;
  return cx >= r.x && cx <= r.x + r.width && cy >= r.y && cy <= r.y + r.height;
};

const load = loadavg()[0]!.toFixed(1);
say(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), 1-minute load ${load} at the start — shared with other work, so times are noisy; medians of ${RUNS} run(s) per screen.`);
say('');
say('| screen | planted | readable before | readable after | hidden | ordinary words hidden (code, prose) | detection, median | send wait 3 s after capture, median |');
say('| --- | --- | --- | --- | --- | --- | --- | --- |');

const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-redact-'));
const core = testServices({ dataDir, privacy: { ...defaultSettings().privacy, redact: 'always' } });
const target = { ...targetFor('openai', 'gpt-4o', { vision: 'yes', visionSource: 'settings' }), profile: profileFor('openai'), remote: true };
const leaks: string[] = [];
let totalPlanted = 0, totalAfter = 0;
try {
  for (const screen of SCREENS) {
    let planted = 0, before = 0, after = 0, words = 0, hiddenWords = 0;
    const detect: number[] = [];
    const waits: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const kind of [...SECRET_KINDS, ...CONTROL_KINDS]) {
        const s = await secretScreen(kind, { width: screen.width, height: screen.height, scale: screen.scale });
        let read: ImageWord[] = [];
        const started = performance.now();
        const out = await redactImage(
          { data: s.png, mime: 'image/png' },
          {
            readWords: async (image, signal) => {
              const w = await readImageWords(reader, image, { limits, ...(signal ? { signal } : {}) });
              if (w.ok) read = w.words;
              return w;
            },
            pixels: () => sharp(s.png),
          },
        );
        detect.push(performance.now() - started);
        if (!out.ok) throw new Error(`${screen.name} ${kind}: ${out.message}`);
        if (s.secrets.length === 0) {
          words += read.length;
          hiddenWords += read.filter((w) => out.regions.some((r) => inside(w, r))).length;
          continue;
        }
        planted += s.secrets.length;
        const plain = await ocrText(s.png);
        before += s.secrets.filter((x) => readable(x, plain)).length;
        const masked = await ocrText(out.png ?? s.png);
        const left = s.secrets.filter((x) => readable(x, masked));
        after += left.length;
        for (const x of left) leaks.push(`${screen.name} ${kind}: ${x}`);
      }
      // The send: the door's admit for a remote model, started at the capture; the person sends 3 s later.
      const shot = await secretScreen('env', { width: screen.width, height: screen.height, scale: screen.scale });
      const t0 = performance.now();
      const admitted = await core.intake.admit({ source: shot.png, name: 'screen.png', origin: 'hotkey', requestedBy: 'user' }, target, 'user');
      if (!admitted.ok) throw new Error(admitted.message);
      waits.push(Math.max(0, performance.now() - t0 - 3000));
    }
    totalPlanted += planted;
    totalAfter += after;
    const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : '—');
    say(
      `| ${screen.name} | ${planted} | ${before} | ${after} | ${pct(planted - after, planted)} | ${pct(hiddenWords, words)} of ${words} | ${(median(detect) / 1000).toFixed(2)} s | ${(median(waits) / 1000).toFixed(2)} s |`,
    );
  }
  say('');
  say(`All screens: ${totalPlanted - totalAfter} of ${totalPlanted} planted secrets hidden (${(((totalPlanted - totalAfter) / totalPlanted) * 100).toFixed(2)}%).`);
  for (const l of leaks) say(`- readable after masking: ${l}`);
} finally {
  await reader.close();
  await core.close();
  await rm(dataDir, { recursive: true, force: true });
}

if (!args['no-write']) {
  const doc = `# bench:redact — on-device redaction

\`npm run bench:redact\` (bench/redact.bench.ts). Generated screens with planted secrets, fresh
random ones every run: a terminal (AWS key id and secret, a GitHub token), an editor with a .env
(database URL password, Stripe, OpenAI, Slack, a session secret), a checkout form (a Luhn-valid
card, an IBAN), devtools with a bearer JWT wrapped over two lines, a PEM private key — and code and
prose screens with none. "Readable" means OCR (tesseract.js, the engine Glance ships) reads any
8-character run of the secret; "readable before" shows how much the unmasked screen gives away.
Ordinary words hidden: OCR words of the code and prose screens whose centre lies in a filled region.
Detection is local OCR + rules + fill; the send wait is the door's admit for a remote model
(OCR, rules, fill, fit, encode, store), timed from the capture, less the 3 s a person takes to type.

Figures from ${new Date().toISOString().slice(0, 10)}:

${lines.join('\n')}
`;
  await writeFile(join(root, 'docs', 'benchmarks-redact.md'), doc);
}
