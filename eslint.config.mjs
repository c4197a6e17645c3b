import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.cache/**', 'test-results/**', 'examples/**', 'test/fixtures/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The core and the CLI are plain Node: they must never reach for the VS Code API.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/webview/**/*.ts', 'test/unit/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'vscode may only be imported under src/extension and test/integration.' }] }] },
  },
  {
    // The core is the bottom layer: it imports neither the layers above it (the CLI, the webview, the extension) nor vscode.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'vscode may only be imported under src/extension and test/integration.' }],
        patterns: [{ group: ['**/cli', '**/cli/**', '**/extension', '**/extension/**', '**/webview', '**/webview/**', '**/lsp', '**/lsp/**'], message: 'src/core must not import src/cli, src/extension, src/webview or src/lsp (they build on the core).' }],
      }],
    },
  },
  {
    // The language server is an adapter over the core alone: no vscode, no other adapter (shared logic goes into the core).
    files: ['src/lsp/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'vscode may only be imported under src/extension and test/integration.' }],
        patterns: [{ group: ['**/cli', '**/cli/**', '**/extension', '**/extension/**', '**/webview', '**/webview/**'], message: 'src/lsp imports only the core (move shared logic into src/core).' }],
      }],
    },
  },
  {
    files: ['src/extension/**/*.ts', 'src/core/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' } },
  },
);
