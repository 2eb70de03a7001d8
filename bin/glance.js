#!/usr/bin/env node
// The `glance` command. Runs the built CLI (npm install builds it via `prepare`);
// from a source checkout without a build it falls back to the TypeScript source,
// which Node 24 runs directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/main/cli/main.js', import.meta.url);
const entry = existsSync(fileURLToPath(built)) ? built : new URL('../main/cli/main.ts', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
