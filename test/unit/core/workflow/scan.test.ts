import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import * as os from 'node:os';
import * as nodeFs from 'node:fs';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { scanWorkflows, type WorkflowInfo } from '../../../../src/core/workflow/scan';
import { memFs } from '../../helpers/memfs';

const FIXTURE = nodePath.resolve('test/fixtures/workflow/basic');
const T0 = Date.parse('2026-11-21T15:45:00Z');

function one(files: Record<string, string>, options: { now?: number; staleAfterMinutes?: number } = {}): WorkflowInfo {
  const scan = scanWorkflows(memFs('/r', files), '/r', { now: T0, ...options });
  assert.deepEqual(scan.problems, []);
  assert.equal(scan.workflows.length, 1);
  return scan.workflows[0];
}
const codes = (wf: { problems: Array<{ code: string }> }) => wf.problems.map((p) => p.code);
const REG = { '.workflow/registry.json': '{ "20261121-143000": ".workflow/20261121-143000/x/implement" }' };
const STATUS = '.workflow/20261121-143000/x/implement/status.json';

test('the fixture: phase, mode, agent, artifacts, transitions and problems of every entry', () => {
  const scan = scanWorkflows(nodeFileSystem, FIXTURE, { now: T0 });
  assert.deepEqual(scan.problems, []);
  assert.deepEqual(scan.workflows.map((w) => w.key), ['20261121-143000', '20261121-150000', '20261121-090000', '20261121-160000']);
  const [login, audit, roadmap, gone] = scan.workflows;

  assert.equal(login.workDir, '.workflow/20261121-143000/login/implement');
  assert.equal(login.workDirPath, nodePath.join(FIXTURE, '.workflow/20261121-143000/login/implement'));
  assert.equal(login.phase, 'WORK');
  assert.equal(login.mode, 'full');
  assert.equal(login.title, 'Add login form');
  assert.equal(login.command, 'implement');
  assert.equal(login.agent, 'worker');
  assert.equal(login.updatedAt, '2026-11-21T15:10:00Z');
  assert.equal(login.stale, false);
  assert.equal(login.displayPhase, 'WORK');
  assert.deepEqual(login.artifacts, ['.prompt/user_prompt.txt', 'plan.md', 'work/skill-map.md', 'work/W01-setup.md', 'work/W02-api.md', 'summary.txt']);
  assert.deepEqual(login.transitions.map((t) => `${t.from}>${t.to}:${t.legal}`), ['INIT>PLAN:true', 'PLAN>WORK:true']);
  assert.deepEqual(login.problems, []);

  // An object entry; noplan mode with a PLAN in its history.
  assert.equal(audit.workDir, '.workflow/20261121-150000/audit/review');
  assert.equal(audit.mode, 'noplan');
  assert.equal(audit.agent, 'reporter');
  assert.deepEqual(audit.artifacts, ['work/W01-scan.md']);
  assert.deepEqual(audit.transitions.map((t) => t.legal), [false, false, true]);
  assert.deepEqual(codes(audit), ['transition-illegal', 'transition-illegal']);
  assert.equal(audit.problems[0].message, 'Illegal transition INIT → PLAN in noplan mode (from INIT only WORK, STALE)');
  assert.equal(audit.problems[0].file, nodePath.join(audit.workDirPath!, 'status.json'));
  assert.deepEqual(audit.problems[0].range, { line: 8, column: 5, endLine: 8, endColumn: 67 });
  assert.equal(audit.problems[1].message, 'Illegal transition PLAN → WORK in noplan mode (PLAN is not a phase of this mode)');

  assert.equal(roadmap.phase, 'COMPLETED');
  assert.equal(roadmap.mode, 'strategy');
  assert.equal(roadmap.stale, false, 'a terminal phase is never stale');
  assert.deepEqual(roadmap.artifacts, ['roadmap.md', 'report.md']);
  assert.equal(roadmap.agent, undefined);

  assert.equal(gone.phase, undefined);
  assert.deepEqual(codes(gone), ['workdir-missing']);
  assert.equal(gone.problems[0].message, "workDir '.workflow/20261121-160000/gone/research' does not exist");
  assert.equal(gone.problems[0].file, nodePath.join(FIXTURE, '.workflow/registry.json'));
  assert.deepEqual(gone.problems[0].range, { line: 5, column: 22, endLine: 5, endColumn: 63 });
});

test('staleness: non-terminal and older than the threshold (default 120 minutes)', () => {
  const files = { ...REG, [STATUS]: '{"phase": "WORK", "updated_at": "2026-11-21T12:00:00Z"}' };
  const at = (iso: string, staleAfterMinutes?: number) => one(files, { now: Date.parse(iso), staleAfterMinutes });
  assert.equal(at('2026-11-21T14:00:00Z').stale, false, 'exactly 120 minutes is not yet stale');
  assert.equal(at('2026-11-21T14:00:01Z').stale, true);
  assert.equal(at('2026-11-21T14:00:01Z').displayPhase, 'STALE');
  assert.equal(at('2026-11-21T14:00:01Z').phase, 'WORK');
  assert.equal(at('2026-11-21T12:30:01Z', 30).stale, true);
  assert.equal(at('2026-11-21T12:29:59Z', 30).stale, false);
  for (const phase of ['COMPLETED', 'FAILED', 'CANCELLED', 'STALE']) {
    const wf = one({ ...REG, [STATUS]: `{"phase": "${phase}", "updated_at": "2020-01-01T00:00:00Z"}` });
    assert.equal(wf.stale, false, phase);
  }
});

test('staleness falls back to the last transition, then created_at; a bad updated_at is a warning', () => {
  const viaTransition = one({ ...REG, [STATUS]: '{"phase": "PLAN", "transitions": [{"from": "INIT", "to": "PLAN", "at": "2026-11-21T13:00:00Z"}]}' });
  assert.equal(viaTransition.lastUpdateMs, Date.parse('2026-11-21T13:00:00Z'));
  assert.equal(viaTransition.stale, true);
  const viaCreated = one({ ...REG, [STATUS]: '{"phase": "INIT", "created_at": "2026-11-21T15:00:00Z"}' });
  assert.equal(viaCreated.stale, false);
  const bad = one({ ...REG, [STATUS]: '{"phase": "INIT", "updated_at": "yesterday", "created_at": "2026-11-21T15:00:00Z"}' });
  assert.deepEqual(codes(bad), ['timestamp-invalid']);
  assert.equal(bad.problems[0].message, 'updated_at "yesterday" is not an ISO 8601 date-time');
});

test('a missing registry, a directory in its place, and registry.json that is not JSON or not an object', () => {
  const missing = scanWorkflows(memFs('/r', { 'x.txt': '' }), '/r');
  assert.deepEqual(missing.workflows, []);
  assert.deepEqual(missing.problems.map((p) => [p.code, p.severity, p.message]), [['registry-missing', 'warning', 'No workflow registry: /r/.workflow/registry.json not found']]);

  const half = scanWorkflows(memFs('/r', { '.workflow/registry.json': '{\n  "20261121-143000": ".workflow/2026' }), '/r');
  assert.deepEqual(half.workflows, []);
  assert.equal(half.problems[0].code, 'registry-invalid');
  assert.equal(half.problems[0].message, 'registry.json: Invalid JSON: unterminated string (is the file half-written?)');
  assert.deepEqual(half.problems[0].range, { line: 2, column: 22, endLine: 2, endColumn: 37 });

  const array = scanWorkflows(memFs('/r', { '.workflow/registry.json': '["a"]' }), '/r');
  assert.deepEqual(array.problems.map((p) => p.code), ['registry-not-object']);

  const dir = scanWorkflows(memFs('/r', { '.workflow/registry.json/x': '' }), '/r');
  assert.deepEqual(dir.problems.map((p) => [p.code, p.message]), [['registry-invalid', 'registry.json is not a file']]);
});

test('registry entries of the wrong type', () => {
  const scan = scanWorkflows(memFs('/r', { '.workflow/registry.json': '{"a": 42, "b": {"dir": "x"}, "c": "", "d": null}' }), '/r');
  assert.deepEqual(scan.workflows.map((w) => codes(w)), [['registry-entry-invalid'], ['registry-entry-invalid'], ['registry-entry-invalid'], ['registry-entry-invalid']]);
  assert.equal(scan.workflows[0].problems[0].message, `Registry entry 'a' must be a workDir string or an object with a "workDir" string`);
  assert.deepEqual(scan.workflows[0].problems[0].range, { line: 1, column: 7, endLine: 1, endColumn: 9 });
});

test('a workDir outside the root is refused, relative or absolute; an absolute one inside is fine', () => {
  const scan = scanWorkflows(memFs('/r', {
    '.workflow/registry.json': '{"up": "../elsewhere/wd", "abs": "/etc", "inside": "/r/wd"}',
    '../elsewhere/wd/status.json': '{"phase": "WORK"}',
    'wd/status.json': '{"phase": "INIT", "updated_at": "2026-11-21T15:44:00Z"}',
  }), '/r', { now: T0 });
  const [up, abs, inside] = scan.workflows;
  assert.deepEqual(codes(up), ['workdir-outside']);
  assert.match(up.problems[0].message, /^workDir '\.\.\/elsewhere\/wd' is outside \/r;/);
  assert.equal(up.phase, undefined, 'nothing outside the root is read');
  assert.deepEqual(codes(abs), ['workdir-outside']);
  assert.deepEqual(codes(inside), []);
  assert.equal(inside.phase, 'INIT');
});

test('a workDir that leads out through a symbolic link is refused (real file system)', () => {
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-wf-'));
  try {
    const root = nodePath.join(tmp, 'root');
    const outside = nodePath.join(tmp, 'outside');
    nodeFs.mkdirSync(nodePath.join(root, '.workflow'), { recursive: true });
    nodeFs.mkdirSync(outside);
    nodeFs.writeFileSync(nodePath.join(outside, 'status.json'), '{"phase": "WORK"}');
    nodeFs.symlinkSync(outside, nodePath.join(root, '.workflow', 'link'));
    nodeFs.writeFileSync(nodePath.join(root, '.workflow', 'registry.json'), '{"k": ".workflow/link"}');
    const wf = scanWorkflows(nodeFileSystem, root).workflows[0];
    assert.deepEqual(codes(wf), ['workdir-outside']);
    assert.match(wf.problems[0].message, /through a symbolic link/);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('status.json missing, half-written, empty, not an object', () => {
  const missing = one({ ...REG, '.workflow/20261121-143000/x/implement/plan.md': '# plan' });
  assert.deepEqual(codes(missing), ['status-missing']);
  assert.equal(missing.problems[0].message, "No status.json in workDir '.workflow/20261121-143000/x/implement'");
  assert.equal(missing.problems[0].file, '/r/.workflow/registry.json');
  assert.deepEqual(missing.problems[0].range, { line: 1, column: 22, endLine: 1, endColumn: 61 });
  assert.deepEqual(missing.registryRange, missing.problems[0].range);
  assert.deepEqual(missing.artifacts, ['plan.md']);

  const half = one({ ...REG, [STATUS]: '{\n  "phase": "WORK",\n  "transitions": [\n    {"from": "INIT"' });
  assert.deepEqual(codes(half), ['status-invalid']);
  assert.equal(half.problems[0].message, "status.json: Invalid JSON: expected ',' or '}' but found end of file (is the file half-written?)");
  assert.deepEqual(half.problems[0].range, { line: 4, column: 20, endLine: 4, endColumn: 20 });
  assert.equal(half.phase, undefined);
  assert.equal(half.stale, false);

  assert.deepEqual(codes(one({ ...REG, [STATUS]: '' })), ['status-invalid']);
  const arr = one({ ...REG, [STATUS]: '[1, 2]' });
  assert.deepEqual(arr.problems.map((p) => [p.code, p.message]), [['status-invalid', 'status.json must be a JSON object']]);
});

test('wrong field types are status-schema problems at the field; the rest is still read', () => {
  const wf = one({ ...REG, [STATUS]: '{\n  "phase": "WORK",\n  "title": 7,\n  "transitions": {},\n  "linked_sessions": ["a", 1],\n  "updated_at": "2026-11-21T15:00:00Z"\n}' });
  assert.deepEqual(wf.problems.map((p) => [p.code, p.message, p.range?.line]), [
    ['status-schema', 'status.json: title: Invalid input: expected string, received number', 3],
    ['status-schema', 'status.json: transitions: Invalid input: expected array, received object', 4],
    ['status-schema', 'status.json: linked_sessions[1]: Invalid input: expected string, received number', 5],
  ]);
  assert.equal(wf.phase, 'WORK');
  assert.equal(wf.title, undefined);
  assert.equal(wf.stale, false);
});

test('phase missing, not a string, unknown; mode unknown; phase not in the mode', () => {
  const noPhase = one({ ...REG, [STATUS]: '{"mode": "full"}' });
  assert.deepEqual(noPhase.problems.map((p) => [p.code, p.message]), [['phase-missing', 'status.json has no "phase"']]);
  const numeric = one({ ...REG, [STATUS]: '{"phase": 3}' });
  assert.deepEqual(numeric.problems.map((p) => [p.code, p.message]), [['status-schema', 'status.json: phase: must be a string']]);
  const unknown = one({ ...REG, [STATUS]: '{"phase": "DONE"}' });
  assert.deepEqual(unknown.problems.map((p) => [p.code, p.message, p.range]), [['phase-unknown', 'Unknown phase "DONE"', { line: 1, column: 11, endLine: 1, endColumn: 17 }]]);
  assert.equal(unknown.phase, 'DONE');
  assert.equal(unknown.stale, false);
  const badMode = one({ ...REG, [STATUS]: '{"phase": "WORK", "mode": "turbo", "updated_at": "2026-11-21T15:00:00Z"}' });
  assert.deepEqual(badMode.problems.map((p) => [p.code, p.message]), [['mode-unknown', 'Unknown mode "turbo": expected full, noplan or strategy']]);
  assert.equal(badMode.mode, 'turbo');
  const notInMode = one({ ...REG, [STATUS]: '{"phase": "STRATEGY", "updated_at": "2026-11-21T15:00:00Z"}' });
  assert.deepEqual(notInMode.problems.map((p) => [p.code, p.message]), [['phase-not-in-mode', 'Phase STRATEGY does not occur in full mode (INIT, PLAN, WORK, REPORT, COMPLETED, FAILED, CANCELLED, STALE)']]);
  assert.equal(notInMode.mode, 'full', 'mode defaults to full when absent');
});

test('the phase must agree with the last transition; gaps and unknown phases in the history are flagged', () => {
  const mismatch = one({ ...REG, [STATUS]: '{"phase": "REPORT", "updated_at": "2026-11-21T15:00:00Z", "transitions": [{"from": "INIT", "to": "PLAN", "at": "x"}, {"from": "PLAN", "to": "WORK", "at": "x"}]}' });
  assert.deepEqual(mismatch.problems.map((p) => [p.code, p.message]), [['phase-mismatch', 'phase is REPORT but the last transition went to WORK']]);
  const gap = one({ ...REG, [STATUS]: '{"phase": "REPORT", "updated_at": "2026-11-21T15:00:00Z", "transitions": [{"from": "INIT", "to": "PLAN", "at": "x"}, {"from": "WORK", "to": "REPORT", "at": "x"}]}' });
  assert.deepEqual(gap.problems.map((p) => [p.code, p.message]), [['transition-gap', 'Transition 2 starts from WORK but the previous one ended in PLAN']]);
  assert.deepEqual(gap.transitions.map((t) => t.legal), [true, false]);
  const unknown = one({ ...REG, [STATUS]: '{"phase": "PLAN", "updated_at": "2026-11-21T15:00:00Z", "transitions": [{"from": null, "to": "INIT", "at": "x"}, {"from": "INIT", "to": "PLANNING", "at": "x"}, {"from": "PLANNING", "to": "PLAN", "at": "x"}]}' });
  assert.deepEqual(unknown.problems.map((p) => p.message), ['Transition 2 (INIT → PLANNING) names an unknown phase', 'Transition 3 (PLANNING → PLAN) names an unknown phase']);
  assert.equal(unknown.transitions[0].legal, true, 'a first record {from: null, to: INIT} is the creation');
  const noFrom = one({ ...REG, [STATUS]: '{"phase": "PLAN", "updated_at": "2026-11-21T15:00:00Z", "transitions": [{"to": "PLAN", "at": "x"}]}' });
  assert.deepEqual(codes(noFrom), ['transition-illegal']);
});

test('.context.json: the agent, and a broken file is a warning', () => {
  const ok = one({ ...REG, [STATUS]: '{"phase": "INIT", "updated_at": "2026-11-21T15:00:00Z"}', '.workflow/20261121-143000/x/implement/.context.json': '{"agent": "init"}' });
  assert.equal(ok.agent, 'init');
  const broken = one({ ...REG, [STATUS]: '{"phase": "INIT", "updated_at": "2026-11-21T15:00:00Z"}', '.workflow/20261121-143000/x/implement/.context.json': '{"agent": ' });
  assert.deepEqual(codes(broken), ['context-invalid']);
  assert.equal(broken.agent, undefined);
});

test('a status.json over 1 MiB is reported, not parsed', () => {
  const wf = one({ ...REG, [STATUS]: `{"phase": "WORK", "pad": "${'x'.repeat(1024 * 1024)}"}` });
  assert.deepEqual(wf.problems.map((p) => [p.code, p.message]), [['status-invalid', 'status.json is larger than 1048576 bytes']]);
});
