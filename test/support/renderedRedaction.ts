// One rendered corpus screen redacted as the product does it, for the tests that pin a cause of a
// leak or a false positive: Chromium renders the screen (test/fixtures/renderScreens.ts), the
// production reader (RegionReader over tesseract, as composeServices builds it without remembered
// readings) reads it, redactImage detects and fills, and leakScore.ts scores the fills against the
// DOM's character boxes.
import type { Redaction } from '../../common/privacy.ts';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { readImageWords } from '../../main/ocr/readImageWords.ts';
import { ReaderPool } from '../../main/ocr/readerPool.ts';
import { RegionReader } from '../../main/ocr/regionReader.ts';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';
import { redactImage } from '../../main/privacy/redactImage.ts';
import { scoreScreen, type ScreenScore } from '../fixtures/leakScore.ts';
import type { CorpusScreen } from '../fixtures/realScreens.ts';
import { launchCorpusChromium, renderScreen, type RenderedScreen } from '../fixtures/renderScreens.ts';

type Browser = Awaited<ReturnType<typeof launchCorpusChromium>>;

export type RedactedScreen = {
  shown: RenderedScreen;
  score: ScreenScore;
  /** "<kind> <text>" of each secret that leaked. */
  leaked: string[];
  /** Share of the ordinary characters' box area that was filled. */
  maskedShare: number;
  regions: Redaction[];
};

/** Registers the suite's Chromium and reader (beforeAll/afterAll); the returned function renders, redacts and scores one screen. */
export function renderedRedaction(): { check: (screen: CorpusScreen) => Promise<RedactedScreen>; browser: () => Browser } {
  let browser: Browser | undefined;
  const ocr = new RegionReader(new ReaderPool(() => new TesseractReader({ timeoutMs: 120_000 }), 1));
  const limits = { maxInputPixels: 100_000_000 };
  beforeAll(async () => {
    browser = await launchCorpusChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ocr.close();
  });
  const open = () => {
    if (!browser) throw new Error('Chromium is not running (renderedRedaction is used outside its suite)');
    return browser;
  };
  return {
    browser: open,
    check: async (screen) => {
      const shown = await renderScreen(open(), screen);
      const out = await redactImage(
        { data: shown.png, mime: 'image/png' },
        { readWords: (image, signal) => readImageWords(ocr, image, { limits, ...(signal ? { signal } : {}) }), pixels: () => sharp(shown.png) },
        {},
      );
      if (!out.ok) throw new Error(out.message);
      const score = await scoreScreen(shown, out.regions);
      let total = 0, masked = 0;
      for (const a of score.area.values()) {
        total += a.total;
        masked += a.masked;
      }
      return {
        shown,
        score,
        leaked: score.secrets.filter((s) => s.leaked).map((s) => `${s.kind} ${s.text}`),
        maskedShare: total ? masked / total : 0,
        regions: out.regions,
      };
    },
  };
}
