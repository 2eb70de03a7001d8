import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WindowStateStore, fitBounds } from './windowState.ts';

const primary = { x: 0, y: 0, width: 1920, height: 1040 };
const right = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('fitBounds', () => {
  it('reuses saved bounds that are on a display', () => {
    const saved = { x: 2000, y: 100, width: 1000, height: 700 };
    expect(fitBounds(saved, [primary, right], { width: 1040, height: 760 })).toEqual(saved);
  });

  it('centres on the primary display when the saved display is gone or barely overlaps', () => {
    expect(fitBounds({ x: 2000, y: 100, width: 1000, height: 700 }, [primary], { width: 1040, height: 760 })).toEqual({ x: 440, y: 140, width: 1040, height: 760 });
    expect(fitBounds({ x: 1900, y: 100, width: 1000, height: 700 }, [primary], { width: 1040, height: 760 }).x).toBe(440);
    expect(fitBounds(undefined, [{ x: 0, y: 0, width: 800, height: 600 }], { width: 1040, height: 760 })).toEqual({ x: 0, y: 0, width: 800, height: 600 });
  });
});

describe('WindowStateStore', () => {
  it('remembers bounds across instances and shrugs off a damaged file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glance-winstate-'));
    try {
      const store = new WindowStateStore(dir);
      await store.load();
      await store.save('main', { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: true });
      const again = new WindowStateStore(dir);
      await again.load();
      expect(again.get('main')).toEqual({ bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: true });
      expect(JSON.parse(await readFile(store.path, 'utf8'))).toHaveProperty('main');

      await writeFile(store.path, '{"main": {"bounds": "nope"');
      const damaged = new WindowStateStore(dir);
      await damaged.load();
      expect(damaged.get('main')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
