// The folder allow-list must catch a wrong import before review does: lint a would-be file
// in each layer with the project's own ESLint config and expect the rule to fire.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain JS module of the lint config, no types
import { LAYERS, layerOf } from '../../scripts/eslintLayers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'glance/layers').map((m) => m.message);
}

describe('layer allow-list', () => {
  it.each([
    ['main/core/x.ts', '../app/main.ts', 'main/core may not import main/app'],
    ['main/api/x.ts', '../app/compositionRoot.ts', 'main/api may not import main/app'],
    ['main/harness/x.ts', '../app/windows.ts', 'main/harness may not import main/app'],
    ['main/settings/x.ts', '../mcp/config.ts', 'main/settings may not import main/mcp'],
    ['main/images/x.ts', '../chat/chatEngine.ts', 'main/images may not import main/chat'],
    // Redaction is the door's stage, reached only through it.
    ['main/chat/x.ts', '../privacy/detect.ts', 'main/chat may not import main/privacy'],
    ['main/privacy/x.ts', '../ocr/tesseractReader.ts', 'main/privacy may not import main/ocr'],
    ['main/chat/x.ts', '../mcp/mcpHub.ts', 'main/chat may not import main/mcp'],
    ['main/cli/x.ts', '../api/apiHandlers.ts', 'main/cli may not import main/api'],
    ['common/x.ts', '../main/images/sniff.ts', 'common may not import main/images'],
    ['renderer/ui/x.ts', '../../main/chat/chatEngine.ts', 'renderer may not import main/chat'],
  ])('%s importing %s is an error', async (file, source, message) => {
    const messages = await lint(file, `import { x } from '${source}';\nexport const y = x;\n`);
    expect(messages.join('\n')).toContain(message);
  });

  it('allowed imports pass, dynamic imports and re-exports are checked too', async () => {
    expect(await lint('main/chat/x.ts', `import { x } from '../images/sniff.ts';\nexport const y = x;\n`)).toEqual([]);
    expect(await lint('main/app/x.ts', `import { x } from '../api/ipcRouter.ts';\nexport const y = x;\n`)).toEqual([]);
    expect(await lint('main/core/x.ts', `export { x } from '../app/main.ts';\n`)).toHaveLength(1);
    expect(await lint('main/core/x.ts', `export const m = () => import('../app/main.ts');\n`)).toHaveLength(1);
  });

  // Each hole the rule used to have (issue 24), shown to fire.
  it.each([
    ['product code importing test/', 'main/images/x.ts', `import { quadrantImage } from '../../test/fixtures/images.ts';\nexport const y = quadrantImage;\n`, 'main/images may not import test'],
    ['product code importing bench/', 'main/chat/x.ts', `import { x } from '../../bench/lib/stats.ts';\nexport const y = x;\n`, 'main/chat may not import bench'],
    ['product code importing scripts/', 'main/core/x.ts', `import { LAYERS } from '../../scripts/eslintLayers.js';\nexport const y = LAYERS;\n`, 'main/core may not import scripts'],
    ['an import that resolves to no layer', 'main/cli/x.ts', `import { x } from '../../dist/main/cli/main.js';\nexport const y = x;\n`, 'which is in no layer'],
    ['an absolute path', 'main/images/x.ts', `import { x } from '${root}main/chat/chatEngine.ts';\nexport const y = x;\n`, 'main/images may not import main/chat'],
    ['a file:// URL', 'main/images/x.ts', `export const m = () => import('file://${root}main/mcp/mcpHub.ts');\n`, 'main/images may not import main/mcp'],
    ['a template-string import() with a hole', 'main/tools/x.ts', 'export const m = (n: string) => import(`../chat/${n}.ts`);\n', 'cannot read'],
    ['a template-string import() without one', 'main/tools/x.ts', 'export const m = () => import(`../chat/chatEngine.ts`);\n', 'main/tools may not import main/chat'],
    ['new Worker(new URL(...))', 'main/images/x.ts', `export const w = new Worker(new URL('../chat/worker.ts', import.meta.url));\n`, 'main/images may not import main/chat'],
    ['require() in a .cjs file', 'main/models/x.cjs', `module.exports = require('../mcp/mcpHub.ts');\n`, 'main/models may not import main/mcp'],
    ['a .tsx file under main/', 'main/chat/x.tsx', `import { x } from '../mcp/mcpHub.ts';\nexport const y = x;\n`, 'main/chat may not import main/mcp'],
    ['a .js file under main/', 'main/settings/x.js', `import { x } from '../mcp/config.ts';\nexport const y = x;\n`, 'main/settings may not import main/mcp'],
    ['a new top-level folder', 'tools/x.ts', `export const y = 1;\n`, 'tools/x.ts is in no layer'],
    ['a new main/ folder (reported, not a crash)', 'main/newfolder/x.ts', `import { x } from '../images/sniff.ts';\nexport const y = x;\n`, 'main/newfolder has no row'],
    ['the MCP SDK in the CLI (the server is main/mcpServer)', 'main/cli/x.ts', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const y = McpServer;\n`, 'main/cli may not import the package @modelcontextprotocol/sdk'],
    ['main/mcpServer reaching the engine', 'main/mcpServer/x.ts', `import { ChatEngine } from '../chat/chatEngine.ts';\nexport const y = ChatEngine;\n`, 'main/mcpServer may not import main/chat'],
    ['the MCP SDK outside main/mcp and main/api', 'main/chat/x.ts', `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport const y = Client;\n`, 'main/chat may not import the package @modelcontextprotocol/sdk'],
    ['the ollama client outside main/models', 'main/images/x.ts', `import { Ollama } from 'ollama';\nexport const y = Ollama;\n`, 'main/images may not import the package ollama'],
    ['the openai client outside main/models', 'main/tools/x.ts', `import OpenAI from 'openai';\nexport const y = OpenAI;\n`, 'main/tools may not import the package openai'],
    ['a type-only import of a package', 'main/core/x.ts', `import type { Sharp } from 'sharp';\nexport type Y = Sharp;\n`, 'main/core may not import the package sharp'],
    ['Node built-ins in renderer/', 'renderer/ui/x.ts', `import { readFile } from 'node:fs/promises';\nexport const y = readFile;\n`, 'renderer may not import the package node:*'],
    ['a bare built-in in common/', 'common/x.ts', `import { join } from 'path';\nexport const y = join;\n`, 'common may not import the package node:*'],
    ['vitest in a bench', 'bench/x.ts', `import { expect } from 'vitest';\nexport const y = expect;\n`, 'bench may not import the package vitest'],
    ['a test importing a bench', 'test/x.test.ts', `import { x } from '../bench/lib/stats.ts';\nexport const y = x;\n`, 'test may not import bench'],
    ['product code importing test/support', 'main/core/x.ts', `import { testServices } from '../../test/support/testServices.ts';\nexport const y = testServices;\n`, 'main/core may not import test/support'],
    ['test/support importing a suite', 'test/support/x.ts', `import { engineSuite } from '../chat/engineHarness.ts';\nexport const y = engineSuite;\n`, 'test/support may not import test'],
    ['test/support speaking to a model server itself', 'test/support/x.ts', `import { Ollama } from 'ollama';\nexport const y = Ollama;\n`, 'test/support may not import the package ollama'],
  ])('%s is an error', async (_what, file, code, message) => {
    const messages = await lint(file, code);
    expect(messages.join('\n')).toContain(message);
  });

  it('the rows that should pass do: packages where they belong, tests and benches into any product row', async () => {
    const clean = `export const y = 1;\n`;
    expect(await lint('main/models/x.ts', `import { Ollama } from 'ollama';\nimport OpenAI from 'openai';\nexport const y = [Ollama, OpenAI];\n`)).toEqual([]);
    expect(await lint('main/mcp/x.ts', `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport const y = Client;\n`)).toEqual([]);
    expect(await lint('main/api/x.ts', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const y = McpServer;\n`)).toEqual([]);
    expect(await lint('main/mcpServer/x.ts', `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const y = McpServer;\n`)).toEqual([]);
    expect(await lint('main/images/x.ts', `export const w = new Worker(new URL(import.meta.url.endsWith('.ts') ? './w.ts' : './w.js', import.meta.url));\n`)).toEqual([]);
    expect(await lint('main/chat/x.test.ts', `import { x } from '../mcp/mcpHub.ts';\nimport { expect } from 'vitest';\nexport const y = [x, expect];\n`)).toEqual([]);
    expect(await lint('test/x.ts', `import { x } from '../main/app/main.ts';\nexport const y = x;\n`)).toEqual([]);
    expect(await lint('bench/x.ts', `import { x } from '../test/fixtures/images.ts';\nimport { y as z } from '../main/images/sniff.ts';\nexport const y = [x, z];\n`)).toEqual([]);
    expect(await lint('test/chat/x.test.ts', `import { testServices } from '../support/testServices.ts';\nexport const y = testServices;\n`)).toEqual([]);
    expect(await lint('bench/x.ts', `import { testServices } from '../test/support/testServices.ts';\nexport const y = testServices;\n`)).toEqual([]);
    expect(await lint('test/support/x.ts', `import { startXvfb } from '../fixtures/xvfb.ts';\nimport { composeServices } from '../../main/core/composeServices.ts';\nexport const y = [startXvfb, composeServices];\n`)).toEqual([]);
    expect(await lint('vite.config.ts', clean)).toEqual([]);
  });

  it('every main/ folder on disk has a row in the allow-list', async () => {
    const { readdirSync } = await import('node:fs');
    const folders = readdirSync(`${root}main`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `main/${d.name}`);
    for (const folder of folders) expect(LAYERS, `${folder} needs a row in scripts/eslintLayers.js`).toHaveProperty([folder]);
    expect(layerOf('main/fsAtomic.ts')).toBe('main/util');
    expect(layerOf('main/chat/chatEngine.ts')).toBe('main/chat');
    expect(layerOf('test/support/testServices.ts')).toBe('test/support');
    expect(layerOf('test/fixtures/xvfb.ts')).toBe('test/fixtures');
    expect(layerOf('test/fixtures/modelServer.test.ts')).toBe('test');
    expect(layerOf('test/chat/engineHarness.ts')).toBe('test');
  });
});
