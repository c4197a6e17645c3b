// Three bundles from one script: the extension (cjs, `vscode` external), the CLI (plain Node) and the graph webview (browser iife).
// Flags: --production (minify, no sourcemap), --watch.
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
};

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/bin.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // Worker threads of `skillflow validate` on large sets of skills (src/cli/parallel.ts).
  { ...common, entryPoints: ['src/cli/validateWorker.ts'], outfile: 'dist/validate-worker.js' },
  // The reference-graph webview script runs in the webview's browser sandbox (media/graph.css is its static style).
  { ...common, entryPoints: ['src/webview/graph.ts'], outfile: 'dist/webview/graph.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('[esbuild] watching');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
