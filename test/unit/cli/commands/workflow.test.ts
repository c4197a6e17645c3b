import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';

const FIXTURE = nodePath.resolve('test/fixtures/workflow/basic');

async function run(argv: string[], cwd = process.cwd()) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

test('workflow status --format json prints the documented shape for every registry entry', async () => {
  // --stale-after large enough that the 2026 fixture is never stale, whatever today is.
  const r = await run(['workflow', 'status', '--root', FIXTURE, '--format', 'json', '--stale-after', '100000000']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  const json = JSON.parse(r.out);
  assert.deepEqual(Object.keys(json), ['workflows', 'problems']);
  assert.deepEqual(json.problems, []);
  assert.equal(json.workflows.length, 4);
  assert.deepEqual(json.workflows[0], {
    key: '20261121-143000',
    workDir: '.workflow/20261121-143000/login/implement',
    mode: 'full',
    phase: 'WORK',
    stale: false,
    updatedAt: '2026-11-21T15:10:00Z',
    agent: 'worker',
    artifacts: ['.prompt/user_prompt.txt', 'plan.md', 'work/skill-map.md', 'work/W01-setup.md', 'work/W02-api.md', 'summary.txt'],
    problems: [],
  });
  assert.deepEqual(json.workflows[1].problems.map((p: { code: string }) => p.code), ['transition-illegal', 'transition-illegal']);
  assert.deepEqual(json.workflows[3], {
    key: '20261121-160000', workDir: '.workflow/20261121-160000/gone/research', mode: 'full', phase: null, stale: false, updatedAt: null, agent: null, artifacts: [],
    problems: [{ code: 'workdir-missing', message: "workDir '.workflow/20261121-160000/gone/research' does not exist" }],
  });
});

test('the fixture is stale with the default threshold (its timestamps are in the past)', async () => {
  const r = await run(['workflow', 'status', '--format', 'json'], FIXTURE);
  assert.equal(r.code, 0);
  const json = JSON.parse(r.out);
  assert.deepEqual(json.workflows.map((w: { stale: boolean }) => w.stale), [true, true, false, false]);
});

test('text format: one line per workflow, problems indented, a summary line', async () => {
  const r = await run(['workflow', 'status', '--root', FIXTURE, '--stale-after', '100000000']);
  assert.equal(r.code, 0);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines[0], '20261121-143000  WORK  mode=full  agent=worker  updated=2026-11-21T15:10:00Z  .workflow/20261121-143000/login/implement');
  assert.equal(lines[1], '20261121-150000  REPORT  mode=noplan  agent=reporter  updated=2026-11-21T15:40:00Z  .workflow/20261121-150000/audit/review');
  assert.equal(lines[2], '    warning transition-illegal Illegal transition INIT → PLAN in noplan mode (from INIT only WORK, STALE)');
  assert.ok(lines[4].startsWith('20261121-090000  COMPLETED  mode=strategy  updated='), lines[4]);
  assert.equal(lines[5], '20261121-160000  ?  mode=full  .workflow/20261121-160000/gone/research');
  assert.equal(lines[6], "    error workdir-missing workDir '.workflow/20261121-160000/gone/research' does not exist");
  assert.equal(lines[7], '4 workflows, 0 stale, 3 problems');
});

test('a root without a registry: exit 0, the problem reported as data', async () => {
  const root = nodePath.resolve('test/fixtures/workflow');
  const r = await run(['workflow', 'status', '--root', root, '--format', 'json']);
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.out), { workflows: [], problems: [{ code: 'registry-missing', message: `No workflow registry: ${nodePath.join(root, '.workflow/registry.json')} not found` }] });
  const text = await run(['workflow', 'status', '--root', root]);
  assert.match(text.out, /^registry: warning registry-missing No workflow registry: /);
  assert.match(text.out, /\n0 workflows, 0 stale, 1 problem\n$/);
});

test('bad usage exits 2 with a message', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['workflow'], /missing subcommand/],
    [['workflow', 'stats'], /unknown subcommand 'stats'/],
    [['workflow', 'status', '--frobnicate'], /unknown option '--frobnicate'/],
    [['workflow', 'status', '--stale-after', 'soon'], /needs a number \(got 'soon'\)/],
    [['workflow', 'status', '--stale-after', '0'], /positive number of minutes/],
    [['workflow', 'status', '--format', 'xml'], /must be one of text, json/],
    [['workflow', 'status', '--root', 'no/such/dir'], /root 'no\/such\/dir' is not a directory/],
    [['workflow', 'status', 'extra'], /unexpected argument 'extra'/],
  ];
  for (const [argv, message] of cases) {
    const r = await run(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, message, argv.join(' '));
    assert.equal(r.out, '');
  }
});
