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

  it('every main/ folder on disk has a row in the allow-list', async () => {
    const { readdirSync } = await import('node:fs');
    const folders = readdirSync(`${root}main`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `main/${d.name}`);
    for (const folder of folders) expect(LAYERS, `${folder} needs a row in scripts/eslintLayers.js`).toHaveProperty([folder]);
    expect(layerOf('main/fsAtomic.ts')).toBe('main/util');
    expect(layerOf('main/chat/chatEngine.ts')).toBe('main/chat');
  });
});
