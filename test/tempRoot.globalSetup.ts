// Every temp file the tests make (data dirs, renderer builds, Chromium's artifacts) goes under one
// folder for the run, removed at the end: a test that forgets to clean up leaves nothing behind,
// and a run cut short leaves that one folder. The test processes inherit TMPDIR from here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'glance-tests-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
