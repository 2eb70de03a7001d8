// The import allow-list (VS Code's code-layering style): every folder names the folders it may
// import from; anything else is a lint error. docs/architecture.md draws the same picture.
// A folder is a top-level directory (common, renderer, preload, test, bench…) or, inside
// main/, a sub-folder (main/chat, main/images…); files directly in main/ are `main/util`.
import { dirname, relative, resolve, sep } from 'node:path';

/** Who may import whom. Lower layers first; a layer may import itself. */
export const LAYERS = {
  common: [],
  renderer: ['common'],
  preload: ['common'],
  'main/util': [],
  'main/settings': ['common', 'main/util'],
  'main/models': ['common', 'main/util'],
  // Secret detection and masking (issue 25): used only by the image door.
  'main/privacy': ['common', 'main/util'],
  'main/images': ['common', 'main/util', 'main/privacy'],
  'main/capture': ['common', 'main/util'],
  'main/ocr': ['common', 'main/util', 'main/images'],
  'main/tools': ['common', 'main/util', 'main/images', 'main/capture', 'main/models', 'main/ocr'],
  'main/mcp': ['common', 'main/util', 'main/images'],
  'main/chat': ['common', 'main/util', 'main/images', 'main/models', 'main/tools', 'main/ocr'],
  // The composition: builds every service below for each entry.
  'main/core': ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/ocr', 'main/tools', 'main/mcp', 'main/chat'],
  // The typed API over the core, transport-neutral (Electron IPC and the harness's WebSocket).
  'main/api': ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/ocr', 'main/tools', 'main/mcp', 'main/chat', 'main/core'],
  // Entries: each composes the core and adds only what it alone has.
  'main/cli': ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/ocr', 'main/tools', 'main/mcp', 'main/chat', 'main/core'],
  'main/harness': ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/ocr', 'main/tools', 'main/mcp', 'main/chat', 'main/core', 'main/api'],
  'main/app': ['common', 'main/util', 'main/settings', 'main/models', 'main/images', 'main/capture', 'main/ocr', 'main/tools', 'main/mcp', 'main/chat', 'main/core', 'main/api'],
};

/** The layer a repository-relative path belongs to, or undefined outside the layered tree. */
export function layerOf(rel) {
  const parts = rel.split(/[\\/]/);
  if (parts[0] === 'main') {
    if (parts.length === 2) return 'main/util';
    return `main/${parts[1]}`;
  }
  return parts.length > 1 && LAYERS[parts[0]] !== undefined ? parts[0] : undefined;
}

function check(context, node, source, root) {
  if (typeof source !== 'string' || !source.startsWith('.')) return;
  const file = context.filename ?? context.getFilename();
  const fromRel = relative(root, file);
  if (fromRel.startsWith('..')) return;
  const from = layerOf(fromRel);
  if (from === undefined || /\.test\.tsx?$/.test(file)) return; // tests may reach into any layer
  const target = relative(root, resolve(dirname(file), source));
  const to = layerOf(target);
  if (to === undefined || to === from) return;
  if (LAYERS[from].includes(to)) return;
  context.report({
    node,
    message: `${from} may not import ${to} (${source}). Allowed: ${LAYERS[from].join(', ') || 'nothing outside itself'}. See docs/architecture.md.`,
  });
}

export function layersPlugin(root) {
  const base = root.endsWith(sep) ? root.slice(0, -1) : root;
  return {
    rules: {
      layers: {
        meta: { type: 'problem', schema: [] },
        create(context) {
          const visit = (node) => check(context, node.source ?? node, node.source?.value, base);
          return {
            ImportDeclaration: visit,
            ExportNamedDeclaration: (node) => node.source && visit(node),
            ExportAllDeclaration: visit,
            ImportExpression: (node) => node.source.type === 'Literal' && check(context, node, node.source.value, base),
          };
        },
      },
    },
  };
}
