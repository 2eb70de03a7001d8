// The SVG a set of marks draws (architecture §5, "mark-up"): one generator for the editor's
// preview and for the copy main composites into the model's image, so what a person sees is
// what is sent. Plain strings, no DOM and no zod: it runs in the renderer and in main. Text is
// escaped and colours are #rrggbb (checked by common/marks.ts on the way into main).
import type { Mark } from './marks.ts';

type Size = { width: number; height: number };

/** The overlay: every mark in order, numbered ones (box, arrow, marker) carrying their number. */
export function marksSvg(marks: readonly Mark[], size: Size): string {
  const stroke = Math.max(2, Math.round(Math.min(size.width, size.height) / 220));
  const font = Math.max(12, Math.round(Math.min(size.width, size.height) / 40));
  const parts = marks.map((m, i) => {
    const n = i + 1;
    const c = m.color;
    switch (m.kind) {
      case 'box':
        return `<rect x="${f(m.x)}" y="${f(m.y)}" width="${f(m.width)}" height="${f(m.height)}" fill="none" stroke="${c}" stroke-width="${stroke}"/>` + badge(n, m.x, m.y, c, font);
      case 'arrow': {
        const angle = Math.atan2(m.y2 - m.y1, m.x2 - m.x1);
        const head = stroke * 5;
        const a1 = [m.x2 - head * Math.cos(angle - 0.45), m.y2 - head * Math.sin(angle - 0.45)];
        const a2 = [m.x2 - head * Math.cos(angle + 0.45), m.y2 - head * Math.sin(angle + 0.45)];
        return (
          `<line x1="${f(m.x1)}" y1="${f(m.y1)}" x2="${f(m.x2)}" y2="${f(m.y2)}" stroke="${c}" stroke-width="${stroke}" stroke-linecap="round"/>` +
          `<polygon points="${f(m.x2)},${f(m.y2)} ${f(a1[0]!)},${f(a1[1]!)} ${f(a2[0]!)},${f(a2[1]!)}" fill="${c}"/>` +
          badge(n, m.x1, m.y1, c, font)
        );
      }
      case 'marker': {
        const r = font * 0.9;
        return `<circle cx="${f(m.x)}" cy="${f(m.y)}" r="${f(r)}" fill="${c}"/>` + number(n, m.x, m.y, font);
      }
      case 'line':
        return `<polyline points="${m.points.map(([x, y]) => `${f(x)},${f(y)}`).join(' ')}" fill="none" stroke="${c}" stroke-width="${stroke}" stroke-linejoin="round" stroke-linecap="round"/>`;
      case 'text':
        return `<text x="${f(m.x)}" y="${f(m.y)}" font-family="DejaVu Sans, sans-serif" font-size="${font}" font-weight="bold" fill="${c}" stroke="#ffffff" stroke-width="${Math.max(1, font / 8)}" paint-order="stroke">${xml(m.text)}</text>`;
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}">${parts.join('')}</svg>`;
}

/** A filled circle with the mark's number, at a shape's start (its top-left corner, an arrow's tail). */
function badge(n: number, x: number, y: number, color: string, font: number): string {
  const r = font * 0.7;
  return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="${color}"/>` + number(n, x, y, font * 0.8);
}

function number(n: number, x: number, y: number, font: number): string {
  return `<text x="${f(x)}" y="${f(y + font * 0.35)}" font-family="DejaVu Sans, sans-serif" font-size="${f(font)}" font-weight="bold" fill="#ffffff" text-anchor="middle">${n}</text>`;
}

const f = (v: number) => (Math.round(v * 10) / 10).toString();

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!);
}
