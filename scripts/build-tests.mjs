// Bundles every test file under test/unit and test/integration into out/ (one file per test, deps external).
// Unit tests run with `node --test`; integration suites run inside a VS Code extension host (vscode external).
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, pattern) {
  let found = [];
  let entries = [];
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return found; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) found = found.concat(find(p, pattern));
    else if (pattern.test(e.name)) found.push(p);
  }
  return found;
}

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
