// Shared set-up for the browser tests: the renderer built from the current sources (into a
// temp folder per test process, so a stale dist/ can never pass a test), the harness on a
// temp data dir in this process, and Debian's Chromium driven by playwright-core.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { startHarness, type Harness, type HarnessOptions } from '../../main/harness/startHarness.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MCP_FIXTURE = fileURLToPath(new URL('../fixtures/mcpServer.ts', import.meta.url));
const CHROMIUM = process.env.GLANCE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Screenshots of the states under test, for people to look at (kept out of git). */
export const SHOTS_DIR = join(REPO_ROOT, 'test-results', 'e2e');

let built: Promise<string> | undefined;

/** Builds the renderer once per test process into a temp folder and answers the folder. */
export function buildRenderer(): Promise<string> {
  built ??= (async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'glance-renderer-'));
    await build({ configFile: join(REPO_ROOT, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false } });
    return outDir;
  })();
  return built;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

export type Session = {
  harness: Harness;
  dataDir: string;
  context: BrowserContext;
  page: Page;
  /** A fresh page in the same context (the harness token travels in the URL). */
  open(url?: string): Promise<Page>;
  shot(name: string, page?: Page): Promise<void>;
  close(): Promise<void>;
};

/** A harness on a fresh data dir, and a page on it that has loaded the models. */
export async function openSession(browser: Browser, options: Omit<HarnessOptions, 'dataDir' | 'rendererDir'> & { colorScheme?: 'light' | 'dark'; url?: 'main' | 'ask'; viewport?: { width: number; height: number } }): Promise<Session> {
  const { colorScheme, url, viewport, ...harnessOptions } = options;
  const dataDir = await mkdtemp(join(tmpdir(), 'glance-e2e-'));
  const harness = await startHarness({ dataDir, rendererDir: await buildRenderer(), log: () => undefined, ...harnessOptions });
  const context = await browser.newContext({ viewport: viewport ?? { width: 1200, height: 820 }, colorScheme: colorScheme ?? 'light', deviceScaleFactor: 1 });
  const errors: string[] = [];
  const open = async (target = harness.url) => {
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(target);
    return page;
  };
  const page = await open(url === 'ask' ? harness.askUrl : harness.url);
  return {
    harness,
    dataDir,
    context,
    page,
    open,
    async shot(name, target = page) {
      await mkdir(SHOTS_DIR, { recursive: true });
      await target.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });
    },
    async close() {
      await context.close();
      await harness.close();
      // A write the harness began just before it closed can land in a folder rm is emptying
      // (ENOTEMPTY under load): retried, as rm does for EBUSY and ENOTEMPTY when asked.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      if (errors.length) throw new Error(`uncaught errors in the page: ${errors.join('; ')}`);
    },
  };
}

/**
 * Runs `source`, a JavaScript function given as text, in the page with `arg` (JSON). As text
 * because this project's Node tsconfig has no DOM types (and must not: main/ may not use them).
 */
export function inPage<T>(page: Page, source: string, arg: unknown = null): Promise<T> {
  return page.evaluate(`(${source})(${JSON.stringify(arg)})`) as Promise<T>;
}

/** Waits until the model picker shows `name` (the model list has loaded, or a pick took). */
export async function modelShown(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Model' }).filter({ hasText: name }).waitFor();
}

/** Picks `name` in the model picker and waits until it shows. */
export async function pickModel(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  await modelShown(page, name);
}


/** Settings → Privacy: picks the policy whose radio's name matches `label` (e.g. /^Always/), saves, and goes back to the chat. */
export async function setRedactPolicy(page: Page, label: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Privacy' });
  await section.getByRole('radio', { name: label }).check();
  await section.getByRole('button', { name: 'Save privacy' }).click();
  await section.getByRole('status').getByText('Saved').waitFor();
  await page.getByRole('button', { name: 'Back to chat' }).click();
}
