// Desktop screens of known text for bench:ocr (issue 28), rendered by Debian's Chromium: a
// wallpaper, a dark code editor, a light document (proportional type), a terminal, a top bar.
// Sizes follow the screen (more lines on a larger one, text at the same CSS size), so a 4K
// screen holds ~4× a 1080p screen's text. `changed` adds five lines at the end of the terminal's output
// (a command ran; nothing scrolled): the "one window changed" second capture. Deterministic: same arguments, same text and pixels.
import type { Browser } from 'playwright-core';
import { launchBenchChromium } from './screenshot.ts';

export type KnownWindow = { name: string; lines: string[]; box: { x: number; y: number; width: number; height: number } };
export type OcrScreen = { label: string; width: number; height: number; png: Buffer; windows: KnownWindow[] };

const WORDS = ['image', 'capture', 'screen', 'model', 'token', 'width', 'height', 'profile', 'encode', 'source', 'window', 'region', 'pixels', 'reader', 'worker', 'result', 'signal', 'budget', 'answer', 'format', 'quality', 'limit', 'store', 'route', 'order', 'total', 'invoice', 'status', 'review', 'deploy'];

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function codeLines(n: number, r: () => number): string[] {
  const w = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const k = () => Math.floor(r() * 9000) + 10;
  const shapes = [
    () => `export function ${w()}${k()}(${w()}: number, ${w()}: string) {`,
    () => `  const ${w()} = await ${w()}(${k()}, { limit: ${k()}, label: "${w()}-${k()}" });`,
    () => `  if (${w()}.length > ${k()}) return ${w()}.slice(0, ${k()});`,
    () => `  // keep the ${w()} under ${k()} px so the ${w()} stays legible`,
    () => `  return ${w()} * ${k()} + ${w()}.size;`,
    () => '}',
  ];
  return Array.from({ length: n }, (_, i) => shapes[i % shapes.length]!());
}

function proseLines(n: number, r: () => number): string[] {
  return Array.from({ length: n }, () => {
    const words = Array.from({ length: 7 + Math.floor(r() * 5) }, () => WORDS[Math.floor(r() * WORDS.length)]!);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(' ')} ${Math.floor(r() * 90000) + 1000}.`;
  });
}

function terminalLines(n: number, r: () => number): string[] {
  return Array.from({ length: n }, () => {
    const size = Math.floor(r() * 900000);
    return `-rw-r--r-- 1 glance staff ${String(size).padStart(7)} Dec ${1 + Math.floor(r() * 28)} ${WORDS[Math.floor(r() * WORDS.length)]}-${Math.floor(r() * 999)}.png`;
  });
}

/** The page and its known text, in CSS pixels (= device pixels: scale 1). */
export function desktopHtml(width: number, height: number, changed = false): { html: string; windows: KnownWindow[] } {
  const r = random(28_000 + width);
  const line = 20; // 14 px text
  const bar = 28;
  const gap = Math.round(width * 0.02);
  const editor = { x: gap, y: bar + gap, width: Math.round(width * 0.46), height: height - bar - 2 * gap };
  const doc = { x: editor.x + editor.width + gap, y: bar + gap, width: width - editor.width - 3 * gap, height: Math.round((height - bar - 3 * gap) * 0.55) };
  const term = { x: doc.x, y: doc.y + doc.height + gap, width: doc.width, height: height - doc.y - doc.height - 2 * gap };
  const rows = (h: number) => Math.floor((h - 60) / line);
  // Lines never wider than their window (the page cuts what overflows; the known text must not).
  const fit = (lines: string[], w: number, advance: number) => lines.map((l) => l.slice(0, Math.floor((w - 40) / advance)).trimEnd());
  const code = fit(codeLines(rows(editor.height), r), editor.width, 8.5);
  const prose = fit(proseLines(Math.min(rows(doc.height), 60), r), doc.width, 10);
  // The terminal is three-fifths full; the second capture has printed five more lines below (no scroll).
  const printed = Math.floor(rows(term.height) * 0.6);
  const shell = fit(terminalLines(printed + 5, r), term.width, 8.5).slice(0, changed ? printed + 5 : printed);
  const clock = 'Thu 3 Dec 14:05   Wi-Fi   Battery 82%';
  const windows: KnownWindow[] = [
    { name: 'top bar', lines: [clock], box: { x: width - 460, y: 0, width: 460, height: bar } },
    { name: 'editor (dark)', lines: code, box: { x: editor.x, y: editor.y + 32, width: editor.width, height: editor.height - 32 } },
    { name: 'document (light)', lines: prose, box: { x: doc.x, y: doc.y + 32, width: doc.width, height: doc.height - 32 } },
    { name: 'terminal', lines: shell, box: { x: term.x, y: term.y + 32, width: term.width, height: term.height - 32 } },
  ];
  const win = (b: typeof editor, title: string, cls: string, lines: string[]) =>
    `<div class="win ${cls}" style="left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px"><div class="title">${title}</div>` +
    `<div class="body">${lines.map((l) => `<div>${esc(l) || '&#8203;'}</div>`).join('')}</div></div>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    html,body{margin:0;height:100%;overflow:hidden;background:linear-gradient(135deg,#3a6186 0%,#89253e 100%)}
    .top{position:fixed;left:0;right:0;top:0;height:${bar}px;background:#202020;color:#eee;font:13px "DejaVu Sans",sans-serif;line-height:${bar}px;text-align:right;padding-right:16px;white-space:pre}
    .win{position:fixed;border-radius:8px;overflow:hidden;box-shadow:0 6px 24px rgba(0,0,0,.45)}
    .title{height:32px;line-height:32px;font:13px "DejaVu Sans",sans-serif;text-indent:14px}
    .body{padding:12px 16px;white-space:pre;font-size:14px;line-height:${line}px;overflow:hidden}
    .dark{background:#1e1e1e;color:#d4d4d4}.dark .title{background:#323233;color:#ccc}.dark .body{font-family:"DejaVu Sans Mono",monospace}
    .light{background:#fff;color:#222}.light .title{background:#e8e8e8;color:#333}.light .body{font-family:"DejaVu Sans",sans-serif;font-size:15px}
    .term{background:#0c0c0c;color:#cccccc}.term .title{background:#2b2b2b;color:#ddd}.term .body{font-family:"DejaVu Sans Mono",monospace}
  </style></head><body>
  <div class="top">${esc(clock)}</div>
  ${win(editor, 'ocr.bench.ts — Glance', 'dark', code)}
  ${win(doc, 'Release notes', 'light', prose)}
  ${win(term, 'Terminal', 'term', shell)}
  </body></html>`;
  return { html, windows };
}

/** Width and height in CSS pixels; `scale` device pixels per CSS pixel (4K @2: 28 px text, as a 4K display at 200% shows it). */
export const OCR_SCREENS = [
  { label: '1080p', width: 1920, height: 1080, scale: 1 },
  { label: '1440p', width: 2560, height: 1440, scale: 1 },
  { label: '4K', width: 3840, height: 2160, scale: 1 },
  { label: '4K @2', width: 1920, height: 1080, scale: 2 },
] as const;

export async function renderOcrScreen(browser: Browser, screen: { label: string; width: number; height: number; scale: number }, changed = false): Promise<OcrScreen> {
  const { html, windows: css } = desktopHtml(screen.width, screen.height, changed);
  const k = screen.scale;
  const windows = css.map((w) => ({ ...w, box: { x: w.box.x * k, y: w.box.y * k, width: w.box.width * k, height: w.box.height * k } }));
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, deviceScaleFactor: k });
  try {
    const tab = await context.newPage();
    await tab.setContent(html, { waitUntil: 'load' });
    await tab.evaluate('document.fonts.ready');
    const png = await tab.screenshot({ type: 'png', timeout: 60_000 });
    return { label: screen.label, width: screen.width * k, height: screen.height * k, png, windows };
  } finally {
    await context.close();
  }
}

export { launchBenchChromium };
