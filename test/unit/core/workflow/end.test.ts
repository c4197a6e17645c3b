import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MODES, PHASES, isTerminal, type Mode } from '../../../../src/core/workflow/fsm';
import { endActions, endWorkflow, planEnd, whyCannotEnd } from '../../../../src/core/workflow/end';
import { scanWorkflows } from '../../../../src/core/workflow/scan';
import { memFs } from '../../helpers/memfs';

const NOW = new Date('2026-11-21T16:00:00.000Z');
const REGISTRY = '{\n  "20261121-143000": ".workflow/20261121-143000/login/implement",\n  "20261121-150000": { "workDir": "wd2", "owner": "ci" }\n}\n';
const STATUS_PATH = '/r/.workflow/20261121-143000/login/implement/status.json';
const STATUS = '{\n    "phase": "PLAN",\n    "title": "Login",\n    "transitions": [\n        { "from": "INIT", "to": "PLAN", "at": "2026-11-21T14:31:00Z" }\n    ],\n    "x_custom": [1, 2]\n}\n';

function fixture(status = STATUS) {
  return memFs('/r', { '.workflow/registry.json': REGISTRY, '.workflow/20261121-143000/login/implement/status.json': status });
}

test('end actions per mode and phase: cancel only from PLAN in full; fail from WORK/REPORT/STRATEGY', () => {
  const expected: Record<Mode, { cancel: string[]; fail: string[] }> = {
    full: { cancel: ['PLAN'], fail: ['WORK', 'REPORT'] },
    noplan: { cancel: [], fail: ['WORK', 'REPORT'] },
    strategy: { cancel: [], fail: ['STRATEGY'] },
  };
  for (const mode of MODES) {
    for (const phase of PHASES) {
      const actions = endActions({ phase, mode, statusPath: '/s', problems: [] });
      assert.equal(actions.cancel, expected[mode].cancel.includes(phase), `${mode} ${phase} cancel`);
      assert.equal(actions.markFailed, expected[mode].fail.includes(phase), `${mode} ${phase} fail`);
      if (isTerminal(phase)) assert.equal(whyCannotEnd({ phase, mode, statusPath: '/s', problems: [] }, 'CANCELLED'), `It is already ${phase}.`);
    }
  }
});

test('why a workflow cannot be cancelled is explained', () => {
  assert.equal(whyCannotEnd({ phase: 'WORK', mode: 'full', statusPath: '/s', problems: [] }, 'CANCELLED'),
    'In full mode a workflow can be cancelled only from PLAN; from WORK the FSM allows REPORT, FAILED.');
  assert.equal(whyCannotEnd({ phase: 'WORK', mode: 'noplan', statusPath: '/s', problems: [] }, 'CANCELLED'),
    'In noplan mode a workflow can be cancelled only from no phase; from WORK the FSM allows REPORT, FAILED.');
  assert.equal(whyCannotEnd({ phase: 'INIT', mode: 'strategy', statusPath: '/s', problems: [] }, 'FAILED'),
    'In strategy mode a workflow can be marked failed only from STRATEGY; from INIT the FSM allows STRATEGY.');
  assert.equal(whyCannotEnd({ phase: 'PLAN', mode: 'full', statusPath: '/s', problems: [{ code: 'status-invalid', severity: 'error', message: 'half' }] }, 'CANCELLED'),
    'It cannot be cancelled while status.json is broken: half');
  assert.equal(whyCannotEnd({ phase: 'PLAN', mode: 'full', statusPath: undefined, problems: [] }, 'CANCELLED'), 'It cannot be cancelled: its workDir is not usable.');
});

test('planEnd appends the transition, sets phase and updated_at, keeps unknown fields and the indentation', () => {
  const plan = planEnd(STATUS, REGISTRY, '20261121-143000', 'CANCELLED', NOW);
  assert.ok(plan.ok);
  if (!plan.ok) return;
  assert.equal(plan.from, 'PLAN');
  assert.equal(plan.status, [
    '{',
    '    "phase": "CANCELLED",',
    '    "title": "Login",',
    '    "transitions": [',
    '        {',
    '            "from": "INIT",',
    '            "to": "PLAN",',
    '            "at": "2026-11-21T14:31:00Z"',
    '        },',
    '        {',
    '            "from": "PLAN",',
    '            "to": "CANCELLED",',
    '            "at": "2026-11-21T16:00:00.000Z"',
    '        }',
    '    ],',
    '    "x_custom": [',
    '        1,',
    '        2',
    '    ],',
    '    "updated_at": "2026-11-21T16:00:00.000Z"',
    '}',
    '',
  ].join('\n'));
  assert.equal(plan.registry, '{\n  "20261121-150000": {\n    "workDir": "wd2",\n    "owner": "ci"\n  }\n}\n');
});

test('planEnd refuses illegal ends, an unregistered key and broken files', () => {
  const work = STATUS.replace('"phase": "PLAN"', '"phase": "WORK"');
  const refused = planEnd(work, REGISTRY, '20261121-143000', 'CANCELLED', NOW);
  assert.deepEqual(refused, { ok: false, message: 'In full mode a workflow can be cancelled only from PLAN; from WORK the FSM allows REPORT, FAILED.' });
  assert.equal(planEnd(work, REGISTRY, '20261121-143000', 'FAILED', NOW).ok, true);
  assert.deepEqual(planEnd(STATUS, REGISTRY, 'nope', 'CANCELLED', NOW), { ok: false, message: "'nope' is no longer registered in registry.json" });
  const half = planEnd('{"phase": "PL', REGISTRY, '20261121-143000', 'CANCELLED', NOW);
  assert.equal(half.ok, false);
  if (!half.ok) assert.match(half.message, /^status.json is not a valid JSON object: Invalid JSON: unterminated string/);
  const badReg = planEnd(STATUS, '[]', '20261121-143000', 'CANCELLED', NOW);
  assert.deepEqual(badReg, { ok: false, message: 'registry.json is not a valid JSON object' });
  const noplan = planEnd('{"phase": "PLAN", "mode": "noplan"}', REGISTRY, '20261121-143000', 'CANCELLED', NOW);
  assert.equal(noplan.ok, false);
});

test('endWorkflow writes status.json then registry.json atomically, and the scan sees the result', () => {
  const fs = fixture();
  const result = endWorkflow(fs, '/r', '20261121-143000', 'CANCELLED', { now: NOW, expectPhase: 'PLAN' });
  assert.deepEqual(result, { ok: true, from: 'PLAN', to: 'CANCELLED', statusPath: STATUS_PATH, registryPath: '/r/.workflow/registry.json' });
  assert.deepEqual(fs.writes, [STATUS_PATH, '/r/.workflow/registry.json']);
  const status = JSON.parse(fs.files.get(STATUS_PATH)!);
  assert.equal(status.phase, 'CANCELLED');
  assert.deepEqual(status.x_custom, [1, 2]);
  assert.deepEqual(status.transitions.at(-1), { from: 'PLAN', to: 'CANCELLED', at: '2026-11-21T16:00:00.000Z' });
  const scan = scanWorkflows(fs, '/r');
  assert.deepEqual(scan.workflows.map((w) => w.key), ['20261121-150000']);
});

test('endWorkflow refuses when the phase moved since the user confirmed, writing nothing', () => {
  const fs = fixture(STATUS.replace('"phase": "PLAN"', '"phase": "WORK"'));
  const result = endWorkflow(fs, '/r', '20261121-143000', 'FAILED', { now: NOW, expectPhase: 'PLAN' });
  assert.deepEqual(result, { ok: false, message: 'The workflow moved from PLAN to WORK in the meantime; nothing was changed.' });
  assert.deepEqual(fs.writes, []);
});

test('endWorkflow re-reads and retries once when a file changes under it, and gives up on the second change', () => {
  // One concurrent write: the plan is redone on the new content (the new transition is kept).
  const once = fixture();
  let reads = 0;
  once.onRead = (p) => {
    if (p === STATUS_PATH && ++reads === 2) once.files.set(STATUS_PATH, STATUS.replace('"title": "Login"', '"title": "Login v2"'));
  };
  const ok = endWorkflow(once, '/r', '20261121-143000', 'CANCELLED', { now: NOW });
  assert.equal(ok.ok, true);
  assert.equal(JSON.parse(once.files.get(STATUS_PATH)!).title, 'Login v2');

  // A writer that changes the file on every check: refused, nothing written.
  const busy = fixture();
  let n = 0;
  busy.onRead = (p) => {
    if (p === STATUS_PATH) busy.files.set(STATUS_PATH, STATUS.replace('"title": "Login"', `"title": "Login ${n++}"`));
  };
  const refused = endWorkflow(busy, '/r', '20261121-143000', 'CANCELLED', { now: NOW });
  assert.deepEqual(refused, { ok: false, message: 'status.json or registry.json kept changing while ending the workflow; nothing was changed. Try again.' });
  assert.deepEqual(busy.writes, []);
});

test('endWorkflow on an unknown key or a missing status.json writes nothing', () => {
  const fs = fixture();
  assert.deepEqual(endWorkflow(fs, '/r', 'nope', 'CANCELLED'), { ok: false, message: "'nope' is not registered in registry.json" });
  const noStatus = memFs('/r', { '.workflow/registry.json': '{"k": "wd"}', 'wd/plan.md': '' });
  assert.deepEqual(endWorkflow(noStatus, '/r', 'k', 'CANCELLED'), { ok: false, message: '/r/wd/status.json could not be read' });
  assert.deepEqual(fs.writes, []);
  assert.deepEqual(noStatus.writes, []);
});
