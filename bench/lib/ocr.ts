// OCR with tesseract.js, fully offline: language data from @tesseract.js-data/eng in
// node_modules (LSTM "best_int" model), the wasm core from tesseract.js-core, no cache written.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);
const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export type Box = { x: number; y: number; width: number; height: number };

export class Ocr {
  readonly #worker: Promise<Worker>;

  constructor() {
    this.#worker = (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
      // One uniform block of text (the code column); keep runs of spaces out of the comparison.
      // Screens are about 96 dpi (the PNGs carry none, and tesseract would guess and warn).
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '0', user_defined_dpi: '96' });
      return worker;
    })();
  }

  /**
   * Text in `box` of an encoded image. `scaleTo` resizes the crop first (Lanczos) so every
   * variant is read at the same text size: what is measured is what the pixels still hold,
   * not tesseract's taste in font sizes.
   */
  async read(image: Uint8Array, box: Box, scaleTo?: { width: number; height: number }): Promise<string> {
    let crop = sharp(image).extract({ left: box.x, top: box.y, width: box.width, height: box.height });
    if (scaleTo && (scaleTo.width !== box.width || scaleTo.height !== box.height)) {
      crop = sharp(await crop.png().toBuffer()).resize(scaleTo.width, scaleTo.height, { fit: 'fill', kernel: 'lanczos3' });
    }
    const png = await crop.greyscale().png().toBuffer();
    const worker = await this.#worker;
    const { data } = await worker.recognize(png);
    return data.text;
  }

  async close(): Promise<void> {
    await (await this.#worker).terminate();
  }
}
