// Layering (docs/architecture.md), enforced here: the folder allow-list in
// scripts/eslintLayers.js, and by runtime:
//   common/   imports nothing from electron, node: or other layers (no DOM: its tsconfig lib has none)
//   renderer/ imports only common/ (no electron, no node:, no main/)
//   preload/  imports only common/ and electron
//   main/     never imports renderer/ or preload/; only main/app and main/capture/electron* import electron
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import { layersPlugin } from './scripts/eslintLayers.js';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto', 'url', 'stream', 'worker_threads'];
const pattern = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['.tmp/**', 'dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**', 'renderer/dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a union of string literals (erasable syntax only).' }],
    },
  },
  {
    // The import rule for every file (scripts/eslintLayers.js, docs/architecture.md §2): a file in
    // no row, or an import of a row or package its row does not list, is an error.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { glance: layersPlugin(fileURLToPath(new URL('.', import.meta.url))) },
    rules: { 'glance/layers': 'error' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        pattern(['electron', ...nodeBuiltins], 'common/ runs anywhere: no electron, no Node built-ins.'),
        pattern(['**/main/**', '**/renderer/**', '**/preload/**'], 'common/ imports no other layer.'),
      ] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        pattern(['electron', ...nodeBuiltins], 'renderer/ is browser code: talk to the typed API from common/.'),
        pattern(['**/main/**', '**/preload/**'], 'renderer/ imports only common/.'),
      ] }],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        pattern(['**/main/**', '**/renderer/**'], 'preload/ imports only common/ and electron.'),
      ] }],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/app/**', 'main/capture/electron*'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        pattern(['electron'], 'Only main/app and main/capture/electron* may import electron: the rest runs under plain Node.'),
        pattern(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
      ] }],
    },
  },
  {
    files: ['main/app/**/*.ts', 'main/capture/electron*'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        pattern(['**/renderer/**', '**/preload/**'], 'main/ never imports renderer/ or preload/.'),
      ] }],
    },
  },
);
