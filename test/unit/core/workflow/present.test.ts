import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { escapeMarkdown, formatAge, isStatusBarWorthy, phasePathMarkdown, statusBarView, treeDescription, workflowTooltipMarkdown } from '../../../../src/core/workflow/present';
import type { WorkflowInfo } from '../../../../src/core/workflow/scan';

const NOW = Date.parse('2026-11-21T16:00:00Z');

function wf(over: Partial<WorkflowInfo>): WorkflowInfo {
  return {
    key: '20261121-143000', workDir: '.workflow/20261121-143000/login/implement', mode: 'full', phase: 'WORK', displayPhase: 'WORK', stale: false,
    command: 'implement', title: 'Add login', agent: 'worker', artifacts: [], problems: [], lastUpdateMs: Date.parse('2026-11-21T15:10:00Z'),
    transitions: [{ index: 0, from: 'INIT', to: 'PLAN', at: '2026-11-21T14:31:00Z', legal: true }, { index: 1, from: 'PLAN', to: 'WORK', at: '2026-11-21T15:10:00Z', legal: true }],
    ...over,
  };
}

test('status bar: one workflow shows its phase codicon, phase and command', () => {
  const view = statusBarView([wf({})], NOW);
  assert.equal(view.visible, true);
  assert.equal(view.text, '$(sync~spin) WORK · implement');
  assert.equal(view.warning, false);
  const icons: Record<string, string> = { INIT: 'circle-outline', PLAN: 'list-ordered', STRATEGY: 'lightbulb', REPORT: 'output', FAILED: 'error' };
  for (const [phase, icon] of Object.entries(icons)) {
    assert.equal(statusBarView([wf({ phase, displayPhase: phase, mode: phase === 'STRATEGY' ? 'strategy' : 'full' })], NOW).text, `$(${icon}) ${phase} · implement`);
  }
});

test('status bar: the tooltip has title, key, mode, the marked phase path, last transition and agent', () => {
  const tooltip = statusBarView([wf({})], NOW).tooltip;
  assert.equal(tooltip, [
    '$(sync~spin) **Add login**',
    '',
    'Registry key `20261121-143000` · mode `full` · command `implement`',
    '',
    'INIT → PLAN → **▶ WORK** → REPORT → COMPLETED',
    '',
    'Last transition: PLAN → WORK at 2026\\-11\\-21T15:10:00Z \\(50 min ago\\)',
    '',
    'Agent: `worker`',
    '',
    '---',
    '',
    'Click for actions',
  ].join('\n'));
});

test('status bar: STALE and FAILED get the warning background; COMPLETED and CANCELLED are hidden unless just finished', () => {
  const stale = statusBarView([wf({ stale: true, displayPhase: 'STALE', lastUpdateMs: Date.parse('2026-11-21T12:00:00Z') })], NOW);
  assert.equal(stale.text, '$(warning) STALE · implement');
  assert.equal(stale.warning, true);
  assert.match(stale.tooltip, /INIT → PLAN → \*\*▶ WORK\*\* → REPORT → COMPLETED \*\(stale\)\*/);
  assert.match(stale.tooltip, /\$\(warning\) Stale: no update for 4 h/);
  const failed = statusBarView([wf({ phase: 'FAILED', displayPhase: 'FAILED' })], NOW);
  assert.equal(failed.text, '$(error) FAILED · implement');
  assert.equal(failed.warning, true);
  assert.match(failed.tooltip, /INIT → PLAN → WORK → REPORT → COMPLETED → \*\*▶ FAILED\*\*/);
  for (const phase of ['COMPLETED', 'CANCELLED']) {
    assert.deepEqual(statusBarView([wf({ phase, displayPhase: phase })], NOW), { visible: false, text: '', tooltip: '', warning: false });
  }
  const done = wf({ phase: 'COMPLETED', displayPhase: 'COMPLETED' });
  const flash = statusBarView([], NOW, done);
  assert.equal(flash.text, '$(check) COMPLETED · implement');
  assert.equal(flash.warning, false);
  assert.equal(statusBarView([wf({})], NOW, done).text, '$(sync~spin) WORK · implement', 'a running workflow wins over a finished one');
  assert.equal(statusBarView([], NOW).visible, false);
});

test('status bar: several active workflows collapse to a count, with one tooltip block each', () => {
  const view = statusBarView([wf({}), wf({ key: 'b', title: 'Other', phase: 'PLAN', displayPhase: 'PLAN' }), wf({ key: 'c', phase: 'COMPLETED', displayPhase: 'COMPLETED' })], NOW);
  assert.equal(view.text, '$(layers) 2 workflows');
  assert.equal(view.tooltip.split('\n---\n').length, 3);
  assert.match(view.tooltip, /\*\*Other\*\*/);
  assert.doesNotMatch(view.tooltip, /`c`/);
});

test('workflows with an unknown or missing phase are not status-bar material', () => {
  assert.equal(isStatusBarWorthy(wf({ phase: undefined, displayPhase: undefined })), false);
  assert.equal(isStatusBarWorthy(wf({ phase: 'DONE', displayPhase: 'DONE' })), false);
  assert.equal(isStatusBarWorthy(wf({ phase: 'INIT', displayPhase: 'INIT' })), true);
});

test('phase path per mode; markdown is escaped; ages read naturally', () => {
  assert.equal(phasePathMarkdown(wf({ mode: 'noplan', phase: 'REPORT' })), 'INIT → WORK → **▶ REPORT** → COMPLETED');
  assert.equal(phasePathMarkdown(wf({ mode: 'strategy', phase: 'INIT' })), '**▶ INIT** → STRATEGY → COMPLETED');
  assert.equal(phasePathMarkdown(wf({ mode: 'turbo', phase: 'PLAN' })), 'INIT → **▶ PLAN** → WORK → REPORT → COMPLETED');
  assert.equal(escapeMarkdown('a *b* [c](d) `e` <f>'), 'a \\*b\\* \\[c\\]\\(d\\) \\`e\\` \\<f\\>');
  assert.match(workflowTooltipMarkdown(wf({ title: '**bold** <img>' }), NOW), /\\\*\\\*bold\\\*\\\* \\<img\\>/);
  assert.deepEqual([0, 59_000, 60_000, 3_599_000, 3_600_000, 5_400_000, 86_400_000, 90_000_000].map(formatAge), ['just now', 'just now', '1 min', '59 min', '1 h', '1 h 30 min', '1 d', '1 d 1 h']);
  assert.equal(treeDescription(wf({}), NOW), 'WORK · full · 50 min ago · worker');
  assert.match(workflowTooltipMarkdown(wf({ transitions: [{ index: 0, from: 'INIT', to: 'PLAN', at: new Date(NOW - 5_000).toISOString(), legal: true }] }), NOW), /Z \\\(just now\\\)\n/);
  assert.equal(treeDescription(wf({ lastUpdateMs: NOW, agent: undefined, displayPhase: undefined }), NOW), 'unknown phase · full · just now');
});

test('problems are listed in the tooltip', () => {
  const tooltip = workflowTooltipMarkdown(wf({ problems: [{ code: 'transition-illegal', severity: 'warning', message: 'Illegal transition INIT → WORK in full mode' }] }), NOW);
  assert.match(tooltip, /\n\$\(warning\) Illegal transition INIT → WORK in full mode$/);
});
