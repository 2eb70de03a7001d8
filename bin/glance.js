#!/usr/bin/env node
// The `glance` command. Runs the built CLI (npm install builds it via `prepare`);
// from a source checkout without a build it falls back to the TypeScript source,
// which Node 24 runs directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Each module from the build when it has it, else from the TypeScript source.
const source = (path) => {
  const built = new URL(`../dist/main/${path}.js`, import.meta.url);
  return (existsSync(fileURLToPath(built)) ? built : new URL(`../main/${path}.ts`, import.meta.url)).href;
};
const args = process.argv.slice(2);
// A long-lived command captures the screen many times: on glibc it starts again with the malloc
// settings that return each 4K frame's memory (main/capture/captureMalloc.ts). One-shot commands
// exit after their captures and keep the defaults (no second start).
const longLived = args[0] === 'mcp' && args[1] === 'serve';
const malloc = longLived ? await import(source('capture/captureMalloc')) : undefined;
if (malloc?.wantsMallocRelaunch()) {
  process.exitCode = await malloc.relaunchWithMalloc();
} else {
  const { main } = await import(source('cli/main'));
  process.exitCode = await main(args);
}
