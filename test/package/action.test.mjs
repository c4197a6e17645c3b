// action.yml, run as GitHub runs a composite action: each step's `${{ }}` expressions filled in (inputs with their
// defaults, github.action_path, steps.<id>.outputs), a fresh GITHUB_OUTPUT file per step, GITHUB_STEP_SUMMARY,
// GITHUB_WORKSPACE as the working folder, `bash --noprofile --norc -eo pipefail` for `shell: bash`. An expression the
// runner below does not know fails the test, so the action cannot come to rely on what is not modelled here.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { NPM_OFFLINE, pack, ROOT, SKILL, sh, tempDir, writeFiles } from './lib.mjs';

/** The `name=value` and `name<<DELIM` lines of a GITHUB_OUTPUT file. */
function readOutputs(file) {
  const out = {};
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const body = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]);
      out[heredoc[1]] = body.join('\n');
    } else if (lines[i].includes('=')) {
      out[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
    }
  }
  return out;
}

function runAction(actionPath, workspace, given = {}, extraEnv = {}) {
  const action = YAML.parse(fs.readFileSync(path.join(actionPath, 'action.yml'), 'utf8'));
  assert.equal(action.runs.using, 'composite');
  for (const name of Object.keys(given)) assert.ok(name in action.inputs, `unknown input ${name}`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, given[k] ?? v.default ?? '']));
  const runner = tempDir('skillflow-runner-');
  const summary = path.join(runner, 'step_summary.md');
  fs.writeFileSync(summary, '');
  const steps = {};
  const expr = (text) => String(text).replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e) => {
    let m;
    if ((m = /^inputs\.([\w-]+)$/.exec(e))) { assert.ok(m[1] in inputs, `no input ${m[1]}`); return inputs[m[1]]; }
    if (e === 'github.action_path') return actionPath;
    if (e === 'github.workspace') return workspace;
    if (e === 'runner.temp') return runner;
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e))) return steps[m[1]]?.[m[2]] ?? '';
    throw new Error(`the test runner does not model the expression \${{ ${e} }}`);
  });
  let log = '';
  let status = 0;
  action.runs.steps.forEach((step, i) => {
    if (status !== 0) return;
    assert.equal(step.shell, 'bash', 'every step runs in bash');
    assert.equal(step.if, undefined, 'no conditional steps (not modelled)');
    const output = path.join(runner, `output_${i}`);
    fs.writeFileSync(output, '');
    const script = path.join(runner, `step_${i}.sh`);
    fs.writeFileSync(script, expr(step.run));
    const env = {
      ...process.env, ...NPM_OFFLINE, ...extraEnv, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: actionPath,
      RUNNER_TEMP: runner, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(v)])),
    };
    const r = sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env });
    log += r.out;
    status = r.status;
    if (step.id) steps[step.id] = readOutputs(output);
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expr(v.value)]));
  const result = { status, outputs, summary: fs.readFileSync(summary, 'utf8'), log };
  fs.rmSync(runner, { recursive: true, force: true });
  return result;
}

function repo() {
  const ws = tempDir('skillflow-action-ws-');
  writeFiles(ws, {
    '.claude/skills/log-summary/SKILL.md': SKILL('log-summary', 'Summarise a log file. Use it for logs.\nargument-hint: [file] [mode]'),
    '.claude/skills/notes-writer/SKILL.md': SKILL('notes-writer', undefined, '# Notes\n\nSee [the style](references/style.md).\n'),
    '.claude/skills/tidy/SKILL.md': SKILL('tidy'),
  });
  sh('git', ['init', '-q'], { cwd: ws, check: 0 });
  return ws;
}

test('action: defaults (github annotations, fail-on error) on a repository with an error: fails, outputs the counts, summary with problems and listing budget', () => {
  const ws = repo();
  try {
    const r = runAction(ROOT, ws);
    assert.equal(r.status, 1, r.log);
    assert.deepEqual(r.outputs, { errors: '1', warnings: '1', 'sarif-file': '' });
    assert.match(r.log, /^::error file=\.claude\/skills\/log-summary\/SKILL\.md,line=4,/m);
    assert.match(r.log, /^::warning file=\.claude\/skills\/notes-writer\/SKILL\.md,line=7,/m);
    assert.match(r.log, /Skillflow: 1 error\(s\) \(fail-on: error\)/);
    assert.match(r.summary, /^### Skillflow: 3 skills checked$/m);
    assert.match(r.summary, /^\| error \| `\.claude\/skills\/log-summary\/SKILL\.md:4:23` \| \[yaml-syntax\]\(/m);
    assert.match(r.summary, /^### Skill listing budget\n\n\d+ of \d+ characters used/m);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('action: fail-on never and warning, sarif-file, profile, config, path; a bad input fails the step with its message', () => {
  const ws = repo();
  try {
    writeFiles(ws, { 'ci/skillflow.json': JSON.stringify({ rules: { 'yaml-syntax': 'off' } }) });
    const never = runAction(ROOT, ws, { 'fail-on': 'never', 'sarif-file': 'out/skillflow.sarif', format: 'text' });
    assert.equal(never.status, 0, never.log);
    assert.deepEqual(never.outputs, { errors: '1', warnings: '1', 'sarif-file': 'out/skillflow.sarif' });
    const sarif = JSON.parse(fs.readFileSync(path.join(ws, 'out/skillflow.sarif'), 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.equal(sarif.runs[0].results.length, 2);
    assert.match(never.log, /^\.claude\/skills\/log-summary\/SKILL\.md:4:23: error yaml-syntax /m);

    const configured = runAction(ROOT, ws, { config: 'ci/skillflow.json', 'fail-on': 'warning' });
    assert.equal(configured.outputs.errors, '0');
    assert.equal(configured.status, 1, 'the warning fails under fail-on: warning');
    const one = runAction(ROOT, ws, { path: '.claude/skills/tidy', 'fail-on': 'warning' });
    assert.deepEqual([one.status, one.outputs.errors, one.outputs.warnings], [0, '0', '0']);
    const spec = runAction(ROOT, ws, { path: '.claude/skills/tidy .claude/skills/log-summary', profile: 'spec', format: 'json' });
    assert.equal(JSON.parse(spec.log.slice(spec.log.indexOf('{'), spec.log.lastIndexOf('}') + 1)).summary.skills, 2);

    const bad = runAction(ROOT, ws, { 'fail-on': 'sometimes' });
    assert.equal(bad.status, 2);
    assert.match(bad.log, /::error::fail-on must be error, warning or never/);
    const missing = runAction(ROOT, ws, { config: 'nope.json' });
    assert.equal(missing.status, 2);
    assert.match(missing.log, /config file 'nope\.json' not found/);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('action: a checkout of the action without a build installs the CLI package (here the packed tarball, offline)', () => {
  const ws = repo();
  const dir = tempDir();
  try {
    const { tarball } = pack(dir);
    const actionPath = path.join(dir, 'action-checkout');
    fs.mkdirSync(path.join(actionPath, 'action'), { recursive: true });
    for (const f of ['action.yml', 'package.json', 'action/run.sh']) fs.copyFileSync(path.join(ROOT, f), path.join(actionPath, f));
    const r = runAction(actionPath, ws, { 'fail-on': 'never' }, { SKILLFLOW_CLI_PACKAGE: tarball });
    assert.equal(r.status, 0, r.log);
    assert.deepEqual(r.outputs, { errors: '1', warnings: '1', 'sarif-file': '' });
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
