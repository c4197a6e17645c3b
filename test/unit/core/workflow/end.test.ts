import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { MODES, PHASES, isTerminal, type Mode } from '../../../../src/core/workflow/fsm';
import { endActions, endWorkflow, planEnd, whyCannotEnd } from '../../../../src/core/workflow/end';
import { scanWorkflows } from '../../../../src/core/workflow/scan';
import { memFs } from '../../helpers/memfs';
import { rng } from '../../helpers/random';

const NOW = new Date('2026-11-21T16:00:00.000Z');
const REGISTRY = '{\n  "20261121-143000": ".workflow/20261121-143000/login/implement",\n  "20261121-150000": { "workDir": "wd2", "owner": "ci" }\n}\n';
const STATUS_PATH = '/r/.workflow/20261121-143000/login/implement/status.json';
const STATUS = '{\n    "phase": "PLAN",\n    "title": "Login",\n    "transitions": [\n        { "from": "INIT", "to": "PLAN", "at": "2026-11-21T14:31:00Z" }\n    ],\n    "x_custom": [1, 2]\n}\n';

function fixture(status = STATUS) {
  return memFs('/r', { '.workflow/registry.json': REGISTRY, '.workflow/20261121-143000/login/implement/status.json': status });
}

test('end actions per mode and phase: cancel only from PLAN in full; fail from WORK/REPORT/STRATEGY', () => {
  const expected: Record<Mode, { cancel: string[]; fail: string[] }> = {
    // A registered run already at the target: ending it again finishes an end stopped before registry.json.
    full: { cancel: ['PLAN', 'CANCELLED'], fail: ['WORK', 'REPORT', 'FAILED'] },
    noplan: { cancel: ['CANCELLED'], fail: ['WORK', 'REPORT', 'FAILED'] },
    strategy: { cancel: ['CANCELLED'], fail: ['STRATEGY', 'FAILED'] },
  };
  for (const mode of MODES) {
    for (const phase of PHASES) {
      const actions = endActions({ phase, mode, statusPath: '/s', problems: [] });
      assert.equal(actions.cancel, expected[mode].cancel.includes(phase), `${mode} ${phase} cancel`);
      assert.equal(actions.markFailed, expected[mode].fail.includes(phase), `${mode} ${phase} fail`);
      if (isTerminal(phase)) assert.equal(whyCannotEnd({ phase, mode, statusPath: '/s', problems: [] }, 'CANCELLED', false), `It is already ${phase}.`);
      if (isTerminal(phase) && phase !== 'CANCELLED') assert.equal(whyCannotEnd({ phase, mode, statusPath: '/s', problems: [] }, 'CANCELLED'), `It is already ${phase}.`);
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

test('planEnd appends the transition, sets phase and updated_at, and keeps every other byte', () => {
  const plan = planEnd(STATUS, REGISTRY, '20261121-143000', 'CANCELLED', NOW);
  assert.ok(plan.ok);
  if (!plan.ok) return;
  assert.equal(plan.from, 'PLAN');
  assert.equal(plan.status, [
    '{',
    '    "phase": "CANCELLED",',
    '    "title": "Login",',
    '    "transitions": [',
    '        { "from": "INIT", "to": "PLAN", "at": "2026-11-21T14:31:00Z" },',
    '        {',
    '            "from": "PLAN",',
    '            "to": "CANCELLED",',
    '            "at": "2026-11-21T16:00:00.000Z"',
    '        }',
    '    ],',
    '    "x_custom": [1, 2],',
    '    "updated_at": "2026-11-21T16:00:00.000Z"',
    '}',
    '',
  ].join('\n'));
  assert.equal(plan.registry, '{\n  "20261121-150000": { "workDir": "wd2", "owner": "ci" }\n}\n');
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

test('endWorkflow plans again on the content a concurrent write left', () => {
  // One concurrent write: the plan is redone on the new content (the new transition is kept).
  const once = fixture();
  let reads = 0;
  once.onRead = (p) => {
    if (p === STATUS_PATH && ++reads === 2) once.files.set(STATUS_PATH, STATUS.replace('"title": "Login"', '"title": "Login v2"'));
  };
  const ok = endWorkflow(once, '/r', '20261121-143000', 'CANCELLED', { now: NOW });
  assert.equal(ok.ok, true);
  assert.equal(JSON.parse(once.files.get(STATUS_PATH)!).title, 'Login v2');

  // A writer that keeps changing the file on disk: guardedWrite.test.ts and the race tests (a real second process).
});

test('endWorkflow on an unknown key or a missing status.json writes nothing', () => {
  const fs = fixture();
  assert.deepEqual(endWorkflow(fs, '/r', 'nope', 'CANCELLED'), { ok: false, message: "'nope' is not registered in registry.json" });
  const noStatus = memFs('/r', { '.workflow/registry.json': '{"k": "wd"}', 'wd/plan.md': '' });
  assert.deepEqual(endWorkflow(noStatus, '/r', 'k', 'CANCELLED'), { ok: false, message: '/r/wd/status.json could not be read' });
  assert.deepEqual(fs.writes, []);
  assert.deepEqual(noStatus.writes, []);
});

test('regression (numbers in fields we do not own): 12345678901234567890, 1e400 and -0 are written back byte for byte', () => {
  const status = '{"phase":"PLAN","big":12345678901234567890,"huge":1e400,"neg":-0,"f":1.50,"t":[{"n":-0.0E+00}]}';
  const registry = '{"k":"wd","other":{"workDir":"x","n":1e400}}';
  const plan = planEnd(status, registry, 'k', 'CANCELLED', NOW);
  assert.ok(plan.ok);
  if (!plan.ok) return;
  assert.equal(plan.status, '{"phase":"CANCELLED","big":12345678901234567890,"huge":1e400,"neg":-0,"f":1.50,"t":[{"n":-0.0E+00}],"updated_at":"2026-11-21T16:00:00.000Z","transitions":[{"from":"PLAN","to":"CANCELLED","at":"2026-11-21T16:00:00.000Z"}]}');
  assert.equal(plan.registry, '{"other":{"workDir":"x","n":1e400}}');
});

test('property: ending a workflow changes only phase, updated_at, the appended transition and the registry key (300 seeded files)', () => {
  const random = rng(14);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const numbers = ['0', '-0', '1e400', '-1E-400', '12345678901234567890', '0.1000', '3.0e+2', '-12.5'];
  const ws = ['', ' ', '\n', '\n  ', '\r\n\t', '  \n    '];
  const value = (depth: number): string => {
    const r = random();
    if (depth > 2 || r < 0.4) return pick(numbers);
    if (r < 0.55) return JSON.stringify(pick(['x', 'é', '\u2028', 'a"b', '']));
    if (r < 0.7) return `[${pick(ws)}${Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1)).join(`,${pick(ws)}`)}${pick(ws)}]`;
    return `{${pick(ws)}${Array.from({ length: Math.floor(random() * 3) }, (_, i) => `"k${i}"${pick(ws)}:${pick(ws)}${value(depth + 1)}`).join(`,${pick(ws)}`)}${pick(ws)}}`;
  };
  for (let n = 0; n < 300; n++) {
    const fields: Array<[string, string]> = [['phase', '"PLAN"']];
    for (let f = 0; f < 1 + Math.floor(random() * 5); f++) fields.push([`f${f}`, value(0)]);
    if (random() < 0.5) fields.push(['transitions', `[${pick(ws)}{"from":"INIT","to":"PLAN"}${pick(ws)}]`]);
    if (random() < 0.5) fields.push(['updated_at', '"2026-01-01T00:00:00Z"']);
    fields.sort(() => random() - 0.5);
    const sep = pick(ws);
    const status = `${random() < 0.2 ? '\ufeff' : ''}{${sep}${fields.map(([k, v]) => `"${k}":${pick(ws)}${v}`).join(`,${sep}`)}${pick(ws)}}${pick(['', '\n', '\r\n'])}`;
    const registry = `{${sep}"a":${pick(numbers)},${sep}"k":"wd",${sep}"z":${value(0)}${sep}}`;
    const plan = planEnd(status, registry, 'k', 'CANCELLED', NOW);
    assert.ok(plan.ok, `${JSON.stringify(status)}: ${plan.ok ? '' : plan.message}`);
    if (!plan.ok) continue;
    // Every field we do not own keeps its exact bytes, and the text before the first edit is untouched.
    for (const [k, v] of fields) if (k.startsWith('f')) assert.ok(plan.status.includes(`"${k}":`) && plan.status.includes(v), `${k} kept in ${JSON.stringify(plan.status)}`);
    const firstEdit = Math.min(...['"PLAN"', '"2026-01-01', '{"from":"INIT"'].map((s) => status.indexOf(s)).filter((i) => i >= 0));
    assert.equal(plan.status.slice(0, firstEdit), status.slice(0, firstEdit));
    const parsed = JSON.parse(plan.status.replace(/^\ufeff/, ''));
    assert.equal(parsed.phase, 'CANCELLED');
    assert.deepEqual(parsed.transitions.at(-1), { from: 'PLAN', to: 'CANCELLED', at: NOW.toISOString() });
    // The registry loses exactly `,<sep>"k":"wd"`.
    assert.equal(plan.registry, registry.replace(`,${sep}"k":"wd"`, ''));
  }
});

test('regression (quadratic writer): a status.json of 100,000 newlines and one of 1 MB of other fields are edited correctly', () => {
  const lines = `{"phase":"PLAN"${'\n'.repeat(100_000)},"x":1}`;
  const plan = planEnd(lines, '{"k":"wd"}', 'k', 'CANCELLED', NOW);
  assert.ok(plan.ok);
  if (plan.ok) assert.ok(plan.status.startsWith(`{"phase":"CANCELLED"${'\n'.repeat(100_000)},"x":1,`));
  const big = `{\n  "phase": "PLAN",\n  "log": [${'\n    12345678901234567890,'.repeat(40_000)}\n    0\n  ]\n}\n${' \n'.repeat(10_000)}`;
  const planBig = planEnd(big, '{"k":"wd"}', 'k', 'FAILED', NOW);
  assert.equal(planBig.ok, false, 'PLAN cannot fail in full mode');
  const work = big.replace('"PLAN"', '"WORK"');
  const failed = planEnd(work, '{"k":"wd"}', 'k', 'FAILED', NOW);
  assert.ok(failed.ok);
  if (failed.ok) assert.ok(failed.status.includes(`"log": [${'\n    12345678901234567890,'.repeat(40_000)}\n    0\n  ]`));
});

test('regression (symlink out of the workspace): a .workflow folder linked elsewhere is never written', () => {
  const base = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-end-'));
  try {
    const outside = nodePath.join(base, 'outside');
    const root = nodePath.join(base, 'ws');
    nodeFs.mkdirSync(nodePath.join(outside, 'wd'), { recursive: true });
    nodeFs.mkdirSync(root);
    nodeFs.writeFileSync(nodePath.join(outside, 'registry.json'), '{"k": "wd"}');
    nodeFs.mkdirSync(nodePath.join(root, 'wd'));
    nodeFs.writeFileSync(nodePath.join(root, 'wd', 'status.json'), '{"phase": "PLAN"}');
    nodeFs.symlinkSync(outside, nodePath.join(root, '.workflow'));
    const result = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED', { now: NOW });
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.message, /^Refusing to write: .*registry\.json leads outside .* through a symbolic link \(to .*outside.registry\.json\); Skillflow only writes inside the workspace folder, so nothing was changed\.$/);
    assert.equal(nodeFs.readFileSync(nodePath.join(outside, 'registry.json'), 'utf8'), '{"k": "wd"}');
    assert.equal(nodeFs.readFileSync(nodePath.join(root, 'wd', 'status.json'), 'utf8'), '{"phase": "PLAN"}');
    assert.deepEqual(nodeFs.readdirSync(outside).sort(), ['registry.json', 'wd']);

    // A status.json that is itself a link out: refused too. With both inside, the same end succeeds.
    nodeFs.rmSync(nodePath.join(root, '.workflow'));
    nodeFs.mkdirSync(nodePath.join(root, '.workflow'));
    nodeFs.writeFileSync(nodePath.join(root, '.workflow', 'registry.json'), '{"k": "wd"}');
    nodeFs.rmSync(nodePath.join(root, 'wd', 'status.json'));
    nodeFs.writeFileSync(nodePath.join(outside, 'status.json'), '{"phase": "PLAN"}');
    nodeFs.symlinkSync(nodePath.join(outside, 'status.json'), nodePath.join(root, 'wd', 'status.json'));
    const linked = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED', { now: NOW });
    assert.equal(linked.ok, false);
    assert.equal(nodeFs.readFileSync(nodePath.join(outside, 'status.json'), 'utf8'), '{"phase": "PLAN"}');
    nodeFs.rmSync(nodePath.join(root, 'wd', 'status.json'));
    nodeFs.writeFileSync(nodePath.join(root, 'wd', 'status.json'), '{"phase": "PLAN"}');
    assert.equal(endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED', { now: NOW }).ok, true);
    assert.equal(nodeFs.readFileSync(nodePath.join(root, '.workflow', 'registry.json'), 'utf8'), '{}');
  } finally {
    nodeFs.rmSync(base, { recursive: true, force: true });
  }
});
