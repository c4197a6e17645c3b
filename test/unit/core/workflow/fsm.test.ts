import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MODES, PHASES, PHASE_PATHS, isLegalTransition, isTerminal, nextPhases, phasesOfMode, type Mode } from '../../../../src/core/workflow/fsm';
import { scanWorkflows } from '../../../../src/core/workflow/scan';
import { memFs } from '../../helpers/memfs';

// Written out by hand from the workflow phase diagrams, independent of how fsm.ts builds its tables.
const LEGAL: Record<Mode, string[]> = {
  full: ['INIT>PLAN', 'PLAN>WORK', 'WORK>REPORT', 'REPORT>COMPLETED', 'PLAN>CANCELLED', 'WORK>FAILED', 'REPORT>FAILED', 'INIT>STALE', 'PLAN>STALE', 'WORK>STALE', 'REPORT>STALE'],
  noplan: ['INIT>WORK', 'WORK>REPORT', 'REPORT>COMPLETED', 'WORK>FAILED', 'REPORT>FAILED', 'INIT>STALE', 'WORK>STALE', 'REPORT>STALE'],
  strategy: ['INIT>STRATEGY', 'STRATEGY>COMPLETED', 'STRATEGY>FAILED', 'INIT>STALE', 'STRATEGY>STALE'],
};

test('there are 9 phases and 3 modes; terminal are COMPLETED, FAILED, CANCELLED, STALE', () => {
  assert.deepEqual([...PHASES], ['INIT', 'PLAN', 'WORK', 'STRATEGY', 'REPORT', 'COMPLETED', 'FAILED', 'CANCELLED', 'STALE']);
  assert.deepEqual([...MODES], ['full', 'noplan', 'strategy']);
  assert.deepEqual(PHASES.filter(isTerminal), ['COMPLETED', 'FAILED', 'CANCELLED', 'STALE']);
});

test('phase paths per mode', () => {
  assert.deepEqual(PHASE_PATHS.full, ['INIT', 'PLAN', 'WORK', 'REPORT', 'COMPLETED']);
  assert.deepEqual(PHASE_PATHS.noplan, ['INIT', 'WORK', 'REPORT', 'COMPLETED']);
  assert.deepEqual(PHASE_PATHS.strategy, ['INIT', 'STRATEGY', 'COMPLETED']);
  assert.deepEqual(phasesOfMode('noplan'), ['INIT', 'WORK', 'REPORT', 'COMPLETED', 'FAILED', 'STALE']);
  assert.deepEqual(phasesOfMode('strategy'), ['INIT', 'STRATEGY', 'COMPLETED', 'FAILED', 'STALE']);
});

for (const mode of MODES) {
  test(`${mode}: every one of the 81 phase pairs is legal exactly when the phase diagram says so`, () => {
    const legal = new Set(LEGAL[mode]);
    let count = 0;
    for (const from of PHASES) {
      for (const to of PHASES) {
        const expected = legal.has(`${from}>${to}`);
        assert.equal(isLegalTransition(mode, from, to), expected, `${mode}: ${from} → ${to} should be ${expected ? 'legal' : 'illegal'}`);
        if (expected) count++;
      }
    }
    assert.equal(count, LEGAL[mode].length);
  });

  test(`${mode}: the status.json check flags exactly the illegal pairs in transitions`, () => {
    const legal = new Set(LEGAL[mode]);
    for (const from of PHASES) {
      for (const to of PHASES) {
        const status = { phase: to, mode, updated_at: '2026-11-21T10:00:00Z', transitions: [{ from, to, at: '2026-11-21T10:00:00Z' }] };
        const text = JSON.stringify(status);
        const fs = memFs('/r', { '.workflow/registry.json': '{"k": "wd"}', 'wd/status.json': text });
        const wf = scanWorkflows(fs, '/r', { now: Date.parse('2026-11-21T10:01:00Z') }).workflows[0];
        const flagged = wf.problems.filter((p) => p.code === 'transition-illegal');
        if (legal.has(`${from}>${to}`)) {
          assert.equal(flagged.length, 0, `${mode}: ${from} → ${to} flagged: ${flagged.map((p) => p.message).join()}`);
          assert.equal(wf.transitions[0].legal, true);
        } else {
          assert.equal(flagged.length, 1, `${mode}: ${from} → ${to} not flagged`);
          assert.match(flagged[0].message, new RegExp(`^Illegal transition ${from} → ${to} in ${mode} mode`));
          assert.equal(wf.transitions[0].legal, false);
          // The range covers the transition object: from just after '[' to its closing '}'.
          const column = text.indexOf('[{') + 2;
          assert.deepEqual(flagged[0].range, { line: 1, column, endLine: 1, endColumn: column + JSON.stringify(status.transitions[0]).length });
        }
      }
    }
  });
}

test('nextPhases lists the one-step targets, none for terminal phases', () => {
  assert.deepEqual(nextPhases('full', 'PLAN'), ['WORK', 'CANCELLED', 'STALE']);
  assert.deepEqual(nextPhases('noplan', 'WORK'), ['REPORT', 'FAILED', 'STALE']);
  assert.deepEqual(nextPhases('strategy', 'STRATEGY'), ['COMPLETED', 'FAILED', 'STALE']);
  for (const mode of MODES) for (const t of ['COMPLETED', 'FAILED', 'CANCELLED', 'STALE'] as const) assert.deepEqual(nextPhases(mode, t), []);
});
