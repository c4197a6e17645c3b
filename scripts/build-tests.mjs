// Bundles every test file under test/unit and test/integration into out/ (one file per test, deps external).
// Unit tests run with `node --test`; integration suites run inside a VS Code extension host (vscode external).
import * as esbuild from 'esbuild';
import { rmSync } from 'node:fs';
import { findFiles as find } from './find-files.mjs';

rmSync('out', { recursive: true, force: true });
const entryPoints = [
  ...find('test/unit', /\.test\.ts$/),
  ...find('test/integration', /\.ts$/),
  ...find('test/e2e', /\.ts$/),
];
await esbuild.build({
  entryPoints,
  outdir: 'out',
  outbase: '.',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  packages: 'external',
  external: ['vscode'],
  logLevel: 'warning',
});
