// What one MCP result may write to disk: 1,000 images in one result were all
// stored (8.1 MB) though only 4 reached the model. Images and files are counted and weighed as
// they come; past either bound (Settings → Limits) the rest are not stored and one note says so.

export type StoreLimits = { maxStoredImagesPerToolResult: number; maxStoredBytesPerToolResult: number };

export class StoreBudget {
  readonly #limits: StoreLimits;
  #images = 0;
  #bytes = 0;
  #dropped = { count: 0, bytes: 0 };

  constructor(limits: StoreLimits) {
    this.#limits = limits;
  }

  /** Whether these bytes may be stored; counts them when they may, tallies them when not. */
  take(bytes: number, image: boolean): boolean {
    const overCount = image && this.#images >= this.#limits.maxStoredImagesPerToolResult;
    if (overCount || this.#bytes + bytes > this.#limits.maxStoredBytesPerToolResult) {
      this.#dropped.count++;
      this.#dropped.bytes += bytes;
      return false;
    }
    if (image) this.#images++;
    this.#bytes += bytes;
    return true;
  }

  /** The first drop gets a descriptor; the rest are only counted (1,000 lines would be text for nothing). */
  get firstDrop(): boolean {
    return this.#dropped.count === 1;
  }

  /** One sentence for the model and the person, when anything was dropped. */
  summary(origin: string): string | undefined {
    const { count, bytes } = this.#dropped;
    if (count === 0) return undefined;
    const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
    return (
      `${count} more item${count === 1 ? '' : 's'} from ${origin} (${mb(bytes)}) not stored: one tool result keeps at most ` +
      `${this.#limits.maxStoredImagesPerToolResult} images and ${mb(this.#limits.maxStoredBytesPerToolResult)} (Settings → Limits → Images kept per tool result, MB kept per tool result)`
    );
  }
}
