// Builds the renderer (renderer/ → dist/renderer/) for Electron and the harness alike.
// Relative asset paths (base './') so the page works from app://, file:// or the harness.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./renderer/', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer/', import.meta.url));

/**
 * The entry (main.tsx) is small: it connects to Glance, asks for the conversation, then
 * `import()`s the app. Vite preloads only an entry's static imports, so this adds
 * `<link rel="modulepreload">` for what the entry imports dynamically (and their imports):
 * the app downloads and compiles while the entry runs, instead of after it.
 */
function preloadEntryImports(): Plugin {
  return {
    name: 'glance:preload-entry-imports',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return;
        const files = new Set<string>();
        const add = (fileName: string) => {
          const dep = bundle[fileName];
          if (files.has(fileName) || dep?.type !== 'chunk') return;
          files.add(fileName);
          dep.imports.forEach(add);
        };
        chunk.dynamicImports.forEach(add);
        return [...files]
          .filter((f) => f !== chunk.fileName && !chunk.imports.includes(f))
          .map((f): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' }));
      },
    },
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), preloadEntryImports()],
  // No inline scripts or eval in the output: the CSP (script-src 'self') forbids them.
  build: {
    outDir,
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // common/*.ts build zod schemas at the top level; calls are kept unless known pure, which
      // put all of zod (~90 KB) in the first script for one formatImageSize(). zod's builders
      // are pure, so unused schemas drop and zod goes to the Settings chunk that uses it.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: { host: '127.0.0.1', strictPort: true },
});
