// Builds the renderer (renderer/ → dist/renderer/) for Electron and the harness alike.
// Relative asset paths (base './') so the page works from app://, file:// or the harness.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer/', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer/', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  // No inline scripts or eval in the output: the CSP (script-src 'self') forbids them.
  build: { outDir, emptyOutDir: true, target: 'chrome130', sourcemap: true, modulePreload: { polyfill: false } },
  server: { host: '127.0.0.1', strictPort: true },
});
