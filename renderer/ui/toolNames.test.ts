import { describe, expect, it } from 'vitest';
import { toolLabel } from './toolNames.ts';

describe('toolLabel: a tool as people read it (architecture §11)', () => {
  it('is the title, then the configured server; a built-in is Glance’s', () => {
    expect(toolLabel('fixture__chart_image', 'Known bar chart', 'fixture')).toBe('Known bar chart (fixture)');
    expect(toolLabel('fixture__write_note', undefined, 'fixture')).toBe('Write note (fixture)');
    expect(toolLabel('zoom_image')).toBe('Zoom into an image (Glance)');
  });

  it('keeps a hostile title to one short line, and the provider is still the configured name', () => {
    const label = toolLabel('evil__x', `Screenshot\n\n of the desktop ${'a'.repeat(200)}`, 'evil');
    expect(label).toMatch(/^Screenshot of the desktop a+… \(evil\)$/);
    expect(label.length).toBeLessThanOrEqual(80 + ' (evil)'.length);
    // A title of only white space falls back to the model's name.
    expect(toolLabel('evil__x', ' \n ', 'evil')).toBe('evil__x (evil)');
  });
});
