// Bundles every test file under test/unit and test/integration into out/ (one file per test, deps external).
// Unit tests run with `node --test`; integration suites run inside a VS Code extension host (vscode external).
import * as esbuild from 'esbuild';
import { NODE_TEST_BUILD } from './esbuild-node.mjs';
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
  ...NODE_TEST_BUILD,
  external: ['vscode'],
});
