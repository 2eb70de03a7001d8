// The import rule (VS Code's code-layering / code-import-patterns semantics): every file belongs
// to exactly one row, each row names the rows and the packages it may import, and anything else
// is a lint error — a file that matches no row, an import that resolves to no row, a module path
// that cannot be read statically. docs/architecture.md §2 draws the same picture.
// A row is a top-level folder (common, renderer, preload, test, bench, scripts, bin), a sub-folder
// of main/ (main/chat, main/images…), `main/util` for files directly in main/, `config` for the
// files at the repository root; every `*.test.ts(x)`, wherever it sits, is in the `test` row;
// test/support (shared set-up) and test/fixtures (servers, generators) have rows of their own.
import { isBuiltin } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRODUCT = ['common', 'renderer', 'preload', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/accessibility', 'main/ocr', 'main/privacy', 'main/egress', 'main/tools', 'main/mcp', 'main/chat', 'main/core', 'main/api', 'main/mcpServer', 'main/cli', 'main/harness', 'main/app'];
// main/privacy is left out: redaction is the image door's stage, reached only through it.
const MAIN_BELOW_CORE = ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/accessibility', 'main/ocr', 'main/egress', 'main/tools', 'main/mcp', 'main/chat'];

/**
 * Who may import whom, and which packages. Lower rows first; a row may import itself. Packages:
 * a name, a scope glob (`@scope/*`), `node:*` for Node's built-ins, `*` for any. `dynamic`: the
 * row may import a module named at run time (a bench's baseline checkout, the CLI launcher's
 * built-or-source entry); product rows may not, so every product import is checked.
 */
const TEST_PACKAGES = ['node:*', 'vitest', 'eslint', 'sharp', 'zod', 'ws', 'ollama', 'openai', 'playwright-core', 'tesseract.js', 'vite', 'electron', '@modelcontextprotocol/sdk'];

export const LAYERS = {
  common: { layers: [], packages: ['zod'] },
  renderer: { layers: ['common'], packages: ['react', 'react-dom', 'zustand'] },
  preload: { layers: ['common'], packages: ['electron'] },
  'main/util': { layers: ['common'], packages: ['node:*'] },
  'main/settings': { layers: ['common', 'main/util'], packages: ['node:*', 'zod'] },
  // Only the providers speak to model servers, through their clients.
  'main/models': { layers: ['common', 'main/util'], packages: ['node:*', 'ollama', 'openai'] },
  // Secret detection and masking (main/privacy): used only by the image door.
  'main/privacy': { layers: ['common', 'main/util'], packages: ['node:*', 'sharp', '@secretlint/*', '@scure/bip39'] },
  'main/images': { layers: ['common', 'main/util', 'main/privacy'], packages: ['node:*', 'sharp', 'file-type', 'libheif-js', 'pako'] },
  // electron only in main/capture/electron* (eslint.config.js says so per file).
  'main/capture': { layers: ['common', 'main/util'], packages: ['node:*', 'sharp', 'node-screenshots', 'electron'] },
  // A window's own words (architecture §7): its accessible text over AT-SPI (D-Bus, pure JS).
  'main/accessibility': { layers: ['common', 'main/util', 'main/capture'], packages: ['node:*', 'dbus-next'] },
  'main/ocr': { layers: ['common', 'main/util', 'main/images'], packages: ['node:*', 'sharp', 'tesseract.js'] },
  // The one way out (architecture §3b): what leaves for a model or an MCP client is handed over here.
  'main/egress': { layers: ['common', 'main/util', 'main/images'], packages: ['node:*'] },
  'main/tools': { layers: ['common', 'main/util', 'main/images', 'main/egress', 'main/capture', 'main/accessibility', 'main/models', 'main/ocr'], packages: ['node:*', 'zod'] },
  'main/mcp': { layers: ['common', 'main/util', 'main/images'], packages: ['node:*', 'zod', '@modelcontextprotocol/sdk', 'file-type', 'mime-types'] },
  'main/chat': { layers: ['common', 'main/util', 'main/images', 'main/egress', 'main/models', 'main/tools', 'main/ocr'], packages: ['node:*', 'zod'] },
  // The composition: builds every service below for each entry.
  'main/core': { layers: MAIN_BELOW_CORE, packages: ['node:*'] },
  // The typed API over the core, transport-neutral (Electron IPC and the harness's WebSocket).
  'main/api': { layers: [...MAIN_BELOW_CORE, 'main/core'], packages: ['node:*', 'zod', '@modelcontextprotocol/sdk'] },
  // Entries: each composes the core and adds only what it alone has.
  // Glance as an MCP server (`glance mcp serve`): screen tools over the core's services, for the CLI.
  // The third row that may speak MCP through the SDK, beside main/mcp and main/api.
  'main/mcpServer': { layers: ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/egress', 'main/capture', 'main/accessibility', 'main/ocr', 'main/core'], packages: ['node:*', 'zod', '@modelcontextprotocol/sdk'] },
  'main/cli': { layers: [...MAIN_BELOW_CORE, 'main/core', 'main/mcpServer'], packages: ['node:*'] },
  'main/harness': { layers: [...MAIN_BELOW_CORE, 'main/core', 'main/api'], packages: ['node:*', 'ws'] },
  'main/app': { layers: [...MAIN_BELOW_CORE, 'main/core', 'main/api'], packages: ['node:*', 'zod', 'electron'] },
  // Not shipped: tests and benches reach into any product row; product code never into them.
  // Helpers the suites and benches share (one composition entry, desktop, MCP hub, stored text):
  // product rows only, and the fixtures they set up; never a test file.
  'test/support': { layers: [...PRODUCT, 'test/fixtures'], packages: ['node:*', 'vitest', 'sharp'] },
  'test/fixtures': { dynamic: true, layers: [...PRODUCT, 'test/fixtures'], packages: TEST_PACKAGES },
  test: { dynamic: true, layers: [...PRODUCT, 'test/support', 'test/fixtures', 'scripts'], packages: TEST_PACKAGES },
  bench: { dynamic: true, layers: [...PRODUCT, 'test', 'test/support', 'test/fixtures'], packages: ['node:*', 'sharp', 'zod', 'vite', 'playwright-core', '@modelcontextprotocol/sdk'] },
  scripts: { layers: [...PRODUCT, 'test', 'test/support', 'test/fixtures'], packages: ['node:*', 'sharp', 'playwright-core'] },
  bin: { dynamic: true, layers: ['main/cli'], packages: ['node:*'] },
  config: { layers: ['scripts'], packages: ['node:*', '@eslint/js', 'typescript-eslint', 'globals', 'vite', 'vitest', '@vitejs/plugin-react'] },
};

/** The row a repository-relative path belongs to, or undefined when it matches none. */
export function layerOf(rel) {
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const parts = rel.split(/[\\/]/);
  if (/\.test\.[cm]?[jt]sx?$/.test(rel) && parts[0] !== 'node_modules') return 'test';
  if (parts.length === 1) return 'config';
  if (parts[0] === 'main') return parts.length === 2 ? 'main/util' : `main/${parts[1]}`;
  if (parts[0] === 'test' && (parts[1] === 'support' || parts[1] === 'fixtures') && parts.length > 2) return `test/${parts[1]}`;
  return LAYERS[parts[0]] !== undefined ? parts[0] : undefined;
}

/** The package a bare specifier names: `node:*` for a built-in, `@scope/name`, or `name`. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:') || isBuiltin(specifier)) return 'node:*';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageAllowed(row, name) {
  return row.packages.some((p) => p === '*' || p === name || (p.endsWith('/*') && name.startsWith(p.slice(0, -1))));
}

/** Why `specifier`, imported by the file at `fromRel`, breaks the rule; undefined when it is allowed. */
export function violation(fromRel, specifier, root) {
  const from = layerOf(fromRel);
  if (from === undefined) return `${fromRel} is in no layer: add its folder to scripts/eslintLayers.js (and docs/architecture.md §2).`;
  const row = LAYERS[from];
  if (row === undefined) return `${from} has no row in scripts/eslintLayers.js: add one (and to docs/architecture.md §2).`;
  let target;
  if (specifier.startsWith('file:')) target = fileURLToPath(specifier);
  else if (specifier.startsWith('.')) target = resolve(root, dirname(fromRel), specifier);
  else if (isAbsolute(specifier)) target = specifier;
  if (target === undefined) {
    const name = packageOf(specifier);
    if (packageAllowed(row, name)) return undefined;
    return `${from} may not import the package ${name}. Allowed: ${row.packages.join(', ') || 'no packages'}. See docs/architecture.md §2.`;
  }
  const targetRel = relative(root, target);
  const to = layerOf(targetRel);
  if (to === undefined) return `${from} imports ${specifier}, which is in no layer. See docs/architecture.md §2.`;
  if (to === from || row.layers.includes(to)) return undefined;
  return `${from} may not import ${to} (${specifier}). Allowed: ${row.layers.join(', ') || 'nothing outside itself'}. See docs/architecture.md §2.`;
}

/** The module paths an expression can evaluate to, when they are all written out; undefined otherwise. */
function staticStrings(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return [node.value];
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return [node.quasis[0].value.cooked];
  if (node.type === 'ConditionalExpression') {
    const a = staticStrings(node.consequent);
    const b = staticStrings(node.alternate);
    return a && b ? [...a, ...b] : undefined;
  }
  return undefined;
}

function check(context, node, specifiers, root) {
  const file = context.filename ?? context.getFilename();
  const fromRel = relative(root, file);
  // A file in no row is reported once, by Program.
  if (fromRel.startsWith('..') || LAYERS[layerOf(fromRel)] === undefined) return;
  if (specifiers === undefined) {
    if (LAYERS[layerOf(fromRel)].dynamic) return;
    context.report({ node, message: 'A module path the layer rule cannot read: write it out as a string (a conditional of two strings is fine).' });
    return;
  }
  for (const specifier of specifiers) {
    const message = violation(fromRel, specifier, root);
    if (message) context.report({ node, message });
  }
}

export function layersPlugin(root) {
  const base = root.endsWith(sep) ? root.slice(0, -1) : root;
  return {
    rules: {
      layers: {
        meta: { type: 'problem', schema: [] },
        create(context) {
          const visit = (node) => node.source && check(context, node.source, staticStrings(node.source), base);
          return {
            Program(node) {
              // A file in no row is an error even when it imports nothing.
              const fromRel = relative(base, context.filename ?? context.getFilename());
              const from = layerOf(fromRel);
              if (fromRel.startsWith('..')) return;
              if (from === undefined) context.report({ node, loc: { line: 1, column: 0 }, message: `${fromRel} is in no layer: add its folder to scripts/eslintLayers.js (and docs/architecture.md §2).` });
              else if (LAYERS[from] === undefined) context.report({ node, loc: { line: 1, column: 0 }, message: `${from} has no row in scripts/eslintLayers.js: add one (and to docs/architecture.md §2).` });
            },
            ImportDeclaration: visit,
            ExportNamedDeclaration: visit,
            ExportAllDeclaration: visit,
            ImportExpression: (node) => check(context, node.source, staticStrings(node.source), base),
            CallExpression(node) {
              if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) check(context, node, staticStrings(node.arguments[0]), base);
            },
            NewExpression(node) {
              // new Worker('./w.js') or new Worker(new URL('./w.ts', import.meta.url)): a module too.
              if (node.callee.type !== 'Identifier' || node.callee.name !== 'Worker') return;
              const [arg] = node.arguments;
              const url = arg?.type === 'NewExpression' && arg.callee.type === 'Identifier' && arg.callee.name === 'URL' ? arg.arguments[0] : arg;
              check(context, node, staticStrings(url), base);
            },
          };
        },
      },
    },
  };
}
