// Shared setup for the MCP integration tests: a real intake + attachment store in a temp data
// dir, and configs that run the fixture server (or a real peer) as a child process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import type { CaptureRule } from '../../main/mcp/config.ts';

export const FIXTURE_SERVER = fileURLToPath(new URL('../fixtures/mcpServer.ts', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A hub's wait for a server still starting, in suites that are not about it: their servers join
 * the first turn however loaded the machine is (the product waits 5 s from a server's start).
 */
export const SUITE_TURN_WAIT_MS = 120_000;

/** Gitea's get_file_contents, as a capture rule: base64 in the JSON field "content". */
export const GITEA_RULE: CaptureRule = { tools: ['get_file_contents', 'get_file_mangled'], contentField: 'content', nameField: 'name', encodingField: 'encoding' };

export async function tempDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'glance-mcp-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function captureFor(dataDir: string, options: { store?: FileAttachmentStore; log?: (m: string) => void } = {}) {
  const store = options.store ?? new FileAttachmentStore(dataDir);
  const intake = new ImageIntake({ config: { limits: DEFAULT_LIMITS, allowedRoots: [] }, store });
  const capture = new BinaryCapture({ intake, capturesDir: join(dataDir, 'captures'), ...(options.log ? { log: options.log } : {}) });
  return { store, intake, capture };
}

/**
 * The fixture server over stdio, as an `mcpServers` entry: trusted, so its read-only tools run
 * without asking, as in the tests written before annotations became claims (issue 30).
 */
export function fixtureEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER], capture: { rules: [GITEA_RULE] }, trusted: true, ...extra };
}

/** The model must never get base64: short text and no long run of base64 characters. */
export function expectNoBase64(text: string, maxChars = 1024): void {
  expect(text.length).toBeLessThanOrEqual(maxChars);
  expect(text).not.toMatch(/[A-Za-z0-9+/=]{64,}/);
}
