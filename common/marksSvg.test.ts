import { describe, expect, it } from 'vitest';
import { marksSvg } from './marksSvg.ts';

describe('marksSvg', () => {
  it('escapes text notes: a note is text in the SVG, never markup', () => {
    const svg = marksSvg([{ kind: 'text', x: 1, y: 2, text: '</text><image href="file:///etc/passwd"/>&', color: '#ff0000' }], { width: 100, height: 50 });
    expect(svg).not.toContain('<image');
    expect(svg).toContain('&lt;/text&gt;&lt;image href=&quot;file:///etc/passwd&quot;/&gt;&amp;');
  });

  it('numbers box, arrow and marker with their place in the list', () => {
    const svg = marksSvg(
      [
        { kind: 'line', points: [[0, 0], [5, 5]], color: '#000000' },
        { kind: 'marker', x: 10, y: 10, color: '#0000ff' },
      ],
      { width: 100, height: 100 },
    );
    expect(svg).toMatch(/<polyline points="0,0 5,5"/);
    expect(svg).toMatch(/text-anchor="middle">2<\/text>/);
  });
});
