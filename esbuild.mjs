// Six bundles from one script: the extension (cjs, `vscode` external), the CLI's launcher (`dist/cli.js`) and its main bundle
// (`dist/skillflow.js`), the CLI's validate worker (`dist/validate-worker.js`) and the two webviews (browser iife).
// Flags: --production (minify, no sourcemap), --watch.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow (the bundle would fail at run
  // time with "Cannot find module './impl/format'"); its ES module build bundles cleanly.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The CLI: `dist/cli.js` (the package's bin) starts the bundle `dist/skillflow.js` from V8's code cache (src/cli/runtime/launcher.ts).
  { ...common, entryPoints: ['src/cli/runtime/launcher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, sourcemap: false },
  { ...common, entryPoints: ['src/cli/bin.ts'], outfile: 'dist/skillflow.js' },
  // The language server (`skillflow lsp --stdio` loads it; src/lsp).
  { ...common, entryPoints: ['src/lsp/main.ts'], outfile: 'dist/lsp.js' },
  // Worker threads of `skillflow validate` on large sets of skills (src/cli/runtime/parallel.ts).
  { ...common, entryPoints: ['src/cli/runtime/validateWorker.ts'], outfile: 'dist/validate-worker.js' },
  // The reference-graph webview script runs in the webview's browser sandbox (media/graph.css is its static style).
  { ...common, entryPoints: ['src/webview/graph.ts'], outfile: 'dist/webview/graph.js', platform: 'browser', format: 'iife', target: 'es2022' },
  // The What Claude Sees webview script (media/listing.css is its static style).
  { ...common, entryPoints: ['src/webview/listing.ts'], outfile: 'dist/webview/listing.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  for (const bundle of ['dist/skillflow.js', 'dist/validate-worker.js']) plainBuiltins(bundle);
  writeCodeCache();
}

/**
 * `import * as path from 'node:path'` becomes `var path = __toESM(require("node:path"))` in a cjs bundle: an object
 * whose every property is a getter, so each `path.join` or `nodeFs.readSync` is a function call, tens of thousands in
 * a bulk `validate` (mostly before the optimizing compiler has inlined them). A Node built-in module is the object the
 * namespace mirrors (same properties, same values), so the bundle takes it as it is: `var path = require("node:path")`,
 * wherever the namespace is assigned to a variable whose `.default` the bundle never reads (checked here; in a minified
 * bundle a short name may be reused elsewhere, and then it is left as it was). The helper is found by its body (it
 * tests `__esModule`), so minified builds (`--production`, whose helper has another name) get the same.
 * Measured: ~1 % fewer instructions in a cold `validate` of 1,000 skills.
 */
function plainBuiltins(bundle) {
  const source = readFileSync(bundle, 'utf8');
  const helper = /(?:(?<![\w$])var |,)([\w$]+) ?= ?\([\w$]+, ?[\w$]+, ?[\w$]+\) ?=> ?\([^]{0,600}?\.__esModule\b/.exec(source)?.[1];
  if (helper === undefined) return;
  const esc = helper.replace(/\$/g, '\\$');
  const call = new RegExp(`([\\w$]+) ?= ?${esc}\\(require\\("(node:[a-z_/]+)"\\)\\)`, 'g');
  const out = source.replace(call, (whole, name, id) =>
    new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\.default\\b`).test(source) ? whole : `${name} = require("${id}")`);
  if (out !== source) writeFileSync(bundle, out);
}

/**
 * Binds the CLI bundle to a code cache made now (see src/cli/runtime/launcher.ts): a build id at the end of the bundle, then
 * one CLI run over the test fixtures with SKILLFLOW_CODE_CACHE=write, which stores what V8 compiled. Watch builds
 * skip this (their bundles carry no id, so a stale cache is never used). A failed run leaves no cache: the CLI then
 * compiles as usual.
 */
function writeCodeCache() {
  const bundle = 'dist/skillflow.js';
  rmSync(`${bundle}.cache`, { force: true });
  const source = readFileSync(bundle);
  const id = createHash('sha1').update(source).digest('hex');
  writeFileSync(bundle, Buffer.concat([source, Buffer.from(`\n// skillflow-build ${id}\n`)]));
  const run = spawnSync(process.execPath, ['dist/cli.js', 'validate', 'test/fixtures', '--format', 'json'], {
    env: { ...process.env, SKILLFLOW_CODE_CACHE: 'write', SKILLFLOW_WORKERS: '0' },
    stdio: 'ignore',
  });
  if (!existsSync(`${bundle}.cache`)) console.warn(`[esbuild] no code cache for ${bundle} (the CLI run exited ${run.status ?? run.error}); the CLI still works, it starts a little slower`);
}
