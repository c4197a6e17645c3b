// `npm run fuzz -- [--runs N] [--target X] [--property P] [--seed S] [--ceiling-ms M]`: the property-based fuzz suite
// (test/fuzz) with timing checks. `npm run test:fuzz` (part of `npm test`): a fixed seed, a small budget, no timing.
// Failures' shrunk counterexamples go to test-results/fuzz/.
import * as esbuild from 'esbuild';
import { NODE_TEST_BUILD } from './esbuild-node.mjs';
import { spawnSync } from 'node:child_process';

const quick = process.argv.includes('--quick');
const args = process.argv.slice(2).filter((a) => a !== '--quick');
await esbuild.build({
  entryPoints: ['test/fuzz/run.ts'],
  outfile: 'out/fuzz/run.js',
  ...NODE_TEST_BUILD,
});
const runArgs = quick ? ['--runs', '40', ...args] : ['--timing', ...args];
const r = spawnSync(process.execPath, ['--enable-source-maps', 'out/fuzz/run.js', ...runArgs], { stdio: 'inherit' });
process.exit(r.status ?? 1);
