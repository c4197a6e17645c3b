// `node scripts/check-output.mjs save|compare SNAPSHOT_DIR [--bench DIR] [--tree DIR]...` (after `node esbuild.mjs`):
// a regression check for changes that must not change any output byte (performance work). It runs
// `dist/cli.js validate` in all four formats (and text with --profile spec / upload) on every tree under
// test/fixtures (each folder two levels down, and each top folder), examples/demo-workspace, /work/shared/corpus
// when it is there, any --tree DIR, and the bench skills (--bench DIR, e.g. written by
// `node scripts/bench-skills.mjs DIR`), and keeps stdout, stderr and the exit code of each run. `save` writes them
// to SNAPSHOT_DIR; `compare` runs them again and names every run whose output differs (exit 1 when any does).
// The environment is fixed (an empty HOME and managed folder, no SKILLFLOW_* variable) so that two runs compare.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repo } from './bench-skills.mjs';

const [mode, snapDir, ...rest] = process.argv.slice(2);
if ((mode !== 'save' && mode !== 'compare') || !snapDir) {
  console.error('usage: node scripts/check-output.mjs save|compare SNAPSHOT_DIR [--bench DIR] [--tree DIR]...');
  process.exit(2);
}
const extraTrees = [];
let bench;
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === '--tree') extraTrees.push(path.resolve(rest[i + 1]));
  else if (rest[i] === '--bench') bench = path.resolve(rest[i + 1]);
  else { console.error(`check-output: unknown argument ${rest[i]}`); process.exit(2); }
}
const cli = path.join(repo, 'dist', 'cli.js');
if (!fs.existsSync(cli)) { console.error('check-output: dist/cli.js is missing; run `node esbuild.mjs` first.'); process.exit(2); }

const fixtures = path.join(repo, 'test', 'fixtures');
const trees = [];
for (const top of fs.readdirSync(fixtures).sort()) {
  const t = path.join(fixtures, top);
  if (!fs.statSync(t).isDirectory()) continue;
  trees.push(t);
  for (const sub of fs.readdirSync(t).sort()) if (fs.statSync(path.join(t, sub)).isDirectory()) trees.push(path.join(t, sub));
}
trees.push(path.join(repo, 'examples', 'demo-workspace'));
if (fs.existsSync('/work/shared/corpus')) trees.push('/work/shared/corpus');
trees.push(...extraTrees);

const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-check-output-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SKILLFLOW_')));
env.HOME = empty;
env.COLUMNS = '120';

const runs = [];
for (const tree of trees) {
  const label = path.relative(repo, tree).startsWith('..') ? tree : path.relative(repo, tree);
  for (const format of ['json', 'text', 'sarif', 'github']) runs.push({ label, cwd: tree, args: ['--format', format] });
  for (const profile of ['spec', 'upload']) runs.push({ label, cwd: tree, args: ['--format', 'text', '--profile', profile] });
}
if (bench) for (const format of ['json', 'text', 'sarif', 'github']) runs.push({ label: 'bench', cwd: path.dirname(bench), args: [path.basename(bench), '--format', format] });

const key = (r) => `${r.label.replace(/[^A-Za-z0-9._-]+/g, '_')}__${r.args.join('_').replace(/[^A-Za-z0-9._-]+/g, '')}.out`;
let differ = 0;
fs.mkdirSync(snapDir, { recursive: true });
try {
  for (const r of runs) {
    const p = spawnSync(process.execPath, [cli, 'validate', ...r.args, '--no-cache', '--home', empty, '--managed', path.join(empty, 'managed')], { cwd: r.cwd, env, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
    const got = `exit ${p.status}\n--- stderr\n${p.stderr}\n--- stdout\n${p.stdout}`.split(empty).join('<EMPTY>');
    const file = path.join(snapDir, key(r));
    if (mode === 'save') fs.writeFileSync(file, got);
    else {
      const want = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (want !== got) {
        differ++;
        console.log(`DIFFERS: ${r.label} validate ${r.args.join(' ')} (${file}; got ${got.length} chars, saved ${want?.length ?? 'none'})`);
        fs.writeFileSync(`${file}.got`, got);
      }
    }
  }
} finally {
  fs.rmSync(empty, { recursive: true, force: true });
}
console.log(`check-output: ${runs.length} runs ${mode === 'save' ? 'saved' : `compared, ${differ} differ`} (${snapDir})`);
process.exitCode = differ ? 1 : 0;
