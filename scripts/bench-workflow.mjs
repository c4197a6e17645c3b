// `node scripts/bench-workflow.mjs`: hostile inputs for the workflow files. Times parsing (what the tree and
// the status bar do on every change) and Cancel / Mark Failed's edit (planEnd) on 100 KB and 1 MB inputs of
// each class that used to be slow, and prints one line per input. Targets: 1 MB well under a second, and no
// input under 100 KB slower than 100 ms. Exits 1 when a target is missed. Flags: --runs R (median of R; default 5).
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 5) : 5;

const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-wf-')), 'core.cjs');
await esbuild.build({
  stdin: {
    contents: "export { parseJson } from './src/core/workflow/json'; export { planEnd } from './src/core/workflow/end';",
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: bundle,
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  logLevel: 'warning',
});
const { parseJson, planEnd } = createRequire(import.meta.url)(bundle);
const now = new Date('2026-11-21T16:00:00Z');

/** Inputs of each class, padded to about `size` bytes. */
const classes = {
  'newlines before the end (the old writer regex)': (size) => `{"phase":"WORK"${'\n'.repeat(size)},"x":1}`,
  'spaces after a line break': (size) => `{"phase":"WORK",\n${' '.repeat(size)}"x":1}`,
  'many big numbers': (size) => `{"phase":"WORK","n":[${'12345678901234567890,'.repeat(Math.floor(size / 21))}-0]}`,
  'a long key above many values': (size) => `{"phase":"WORK","${'k'.repeat(size / 2)}":[${'1,'.repeat(size / 4)}1]}`,
  'one long string with escapes': (size) => `{"phase":"WORK","s":"${'\\n'.repeat(size / 2)}"}`,
  'many transitions': (size) => `{"phase":"WORK","transitions":[${'{"from":"PLAN","to":"WORK","at":"2026-11-21T14:31:00Z"},'.repeat(Math.floor(size / 56))}{"from":"PLAN","to":"WORK"}]}`,
};

function median(fn) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

let missed = 0;
console.log(`workflow files, hostile inputs (median of ${RUNS}; parse = parseJson, edit = planEnd for Mark Failed)`);
for (const [name, make] of Object.entries(classes)) {
  for (const size of [100_000, 1_000_000]) {
    const status = make(size);
    const registry = `{"k":"wd",${'"x":1e400,'.repeat(Math.floor(size / 100))}"z":-0}`;
    const parse = median(() => { if (!parseJson(status).ok) throw new Error(`${name}: did not parse`); });
    const edit = median(() => { const plan = planEnd(status, registry, 'k', 'FAILED', now); if (!plan.ok) throw new Error(`${name}: ${plan.message}`); });
    const limit = status.length < 100_000 * 1.05 ? 100 : 1000;
    const bad = parse > limit || edit > limit;
    if (bad) missed++;
    console.log(`  ${name.padEnd(48)} ${(status.length / 1024).toFixed(0).padStart(5)} KB  parse ${parse.toFixed(1).padStart(7)} ms  edit ${edit.toFixed(1).padStart(7)} ms${bad ? `  MISSED (< ${limit} ms)` : ''}`);
  }
}
// The regex the writer used to test on the whole file, for comparison (100 KB of line breaks, then one character).
const old = `{${'\n'.repeat(100_000)}x`;
const t0 = performance.now();
/\r?\n\s*$/.test(old);
console.log(`  before: the old writer's /\\r?\\n\\s*$/ on 98 KB of line breaks: ${(performance.now() - t0).toFixed(0)} ms`);
fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
process.exit(missed ? 1 : 0);
