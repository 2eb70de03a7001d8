// Window bounds remembered across launches, in `<dataDir>/window-state.json`. A saved
// position that no longer lies on any display (a monitor was unplugged) is not reused.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fsAtomic.ts';

const Bounds = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(200), height: z.number().int().min(100) });
type Bounds = z.infer<typeof Bounds>;
const WindowState = z.object({ bounds: Bounds, maximized: z.boolean().default(false) });
type WindowState = z.infer<typeof WindowState>;
const StateFile = z.record(z.string(), WindowState);

type Rect = { x: number; y: number; width: number; height: number };

/** How much of a saved window must be on a display for it to be reused as is. */
const MIN_VISIBLE = 64;

/** Saved bounds if enough of them is on some display's work area; else `fallback` centred on the primary. */
export function fitBounds(saved: Bounds | undefined, workAreas: readonly Rect[], fallback: { width: number; height: number }): Bounds {
  if (saved) {
    const visible = workAreas.some((a) => {
      const w = Math.min(saved.x + saved.width, a.x + a.width) - Math.max(saved.x, a.x);
      const h = Math.min(saved.y + saved.height, a.y + a.height) - Math.max(saved.y, a.y);
      return w >= MIN_VISIBLE && h >= MIN_VISIBLE;
    });
    if (visible) return saved;
  }
  const area = workAreas[0] ?? { x: 0, y: 0, width: fallback.width, height: fallback.height };
  const width = Math.min(fallback.width, area.width);
  const height = Math.min(fallback.height, area.height);
  return { x: Math.round(area.x + (area.width - width) / 2), y: Math.round(area.y + (area.height - height) / 2), width, height };
}

export class WindowStateStore {
  readonly path: string;
  #state: Record<string, WindowState> = {};

  constructor(dataDir: string) {
    this.path = join(dataDir, 'window-state.json');
  }

  /** A missing or damaged file just means default placement: it holds nothing worth keeping. */
  async load(): Promise<void> {
    try {
      const parsed = StateFile.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      this.#state = parsed.success ? parsed.data : {};
    } catch {
      this.#state = {};
    }
  }

  get(name: string): WindowState | undefined {
    return this.#state[name];
  }

  async save(name: string, state: WindowState): Promise<void> {
    this.#state = { ...this.#state, [name]: WindowState.parse(state) };
    await writeFileAtomic(this.path, JSON.stringify(this.#state, null, 2) + '\n');
  }
}
