import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mdCode as codeSpan, mdText as escapeMarkdown } from '../../../../src/core/base/markdown';
import { absoluteTime, isStatusBarWorthy, phasePathMarkdown, relativeTime, statusBarView, treeDescription, treeLabel, treeLabelFull, TREE_LABEL_MAX, withoutIcons, workflowTooltipMarkdown } from '../../../../src/core/workflow/present';
import type { WorkflowInfo } from '../../../../src/core/workflow/scan';

const NOW = Date.parse('2026-11-21T16:00:00Z');
const EN = { locale: 'en', timeZone: 'UTC' };

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

test('status bar: the tooltip leads with phase and title, then one relative time (the same as the row), key, path, transition, agent, workDir', () => {
  const tooltip = statusBarView([wf({})], NOW, undefined, EN).tooltip;
  assert.equal(tooltip, [
    '$(sync~spin) **WORK · Add login**',
    '',
    'Last update 50 minutes ago (Nov 21, 2026, 3:10 PM)',
    '',
    'Registry key `20261121-143000` · mode `full` · command `implement`',
    '',
    'INIT → PLAN → **▶ WORK** → REPORT → COMPLETED',
    '',
    'Last transition: PLAN → WORK on Nov 21, 2026, 3:10 PM',
    '',
    'Agent: `worker`',
    '',
    'workDir: `.workflow/20261121-143000/login/implement`',
    '',
    '---',
    '',
    "Click for this workflow's actions",
  ].join('\n'));
  // Regression: the path was escaped inside a code span, which shows the backslashes.
  assert.doesNotMatch(tooltip, /`[^`]*\\[^`]*`/);
});

test('times: relative and localised everywhere, from one source', () => {
  const ago = (ms: number, style?: 'long' | 'short') => relativeTime(NOW - ms, NOW, EN, style);
  assert.deepEqual([0, 40_000, 60_000, 11 * 60_000, 3_600_000, 5_400_000, 86_400_000, 2 * 86_400_000 + 19 * 3_600_000].map((ms) => ago(ms)),
    ['now', 'now', '1 minute ago', '11 minutes ago', '1 hour ago', '1 hour ago', 'yesterday', '2 days ago']);
  assert.equal(ago(11 * 60_000, 'short'), '11 min. ago');
  assert.equal(relativeTime(NOW - 11 * 60_000, NOW, { locale: 'de' }), 'vor 11 Minuten');
  assert.equal(relativeTime(NOW - 11 * 60_000, NOW, { locale: 'not a locale!' }), '11 minutes ago');
  assert.equal(absoluteTime(NOW, { locale: 'de', timeZone: 'UTC' }), '21.11.2026, 16:00');
  // The row and the tooltip say the same age.
  const item = wf({ lastUpdateMs: NOW - 11 * 60_000 });
  assert.equal(treeDescription(item, NOW, EN), 'full · 11 min. ago · worker');
  assert.match(workflowTooltipMarkdown(item, NOW, EN), /Last update 11 minutes ago/);
});

test('tree row: the phase leads the label so it survives a narrow sidebar', () => {
  assert.equal(treeLabel(wf({ phase: 'PLAN', displayPhase: 'PLAN', title: 'Refactor the auth module' })), 'PLAN · Refactor the auth module');
  assert.equal(treeLabel(wf({ displayPhase: 'STALE' })), 'STALE · Add login');
  assert.equal(treeLabel(wf({ displayPhase: undefined, title: undefined, workName: undefined })), '? · 20261121-143000');
  // A long title is cut so the row's label fits a 300 px side bar; the full text stays in treeLabelFull.
  const long = wf({ displayPhase: 'COMPLETED', title: 'Refactor the auth middleware into a token service' });
  assert.equal(treeLabel(long), 'COMPLETED · Refactor the auth mid…');
  assert.equal(treeLabel(long).length, TREE_LABEL_MAX);
  assert.equal(treeLabelFull(long), 'COMPLETED · Refactor the auth middleware into a token service');
});

test('code spans show text verbatim; icons are stripped in linear time', () => {
  assert.equal(codeSpan('.workflow/20261121-093000/a_b'), '`.workflow/20261121-093000/a_b`');
  assert.equal(codeSpan('a`b'), '``a`b``');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.equal(codeSpan('a\nb'), '`a b`');
  assert.equal(withoutIcons('$(sync~spin) WORK · implement'), 'WORK · implement');
  assert.equal(withoutIcons('$(a) '.repeat(100_000)), '');
  assert.equal(withoutIcons('$(a'.repeat(100_000)).length, 300_000);
  assert.equal(withoutIcons(`$(${'a'.repeat(100_000)} x`), `$(${'a'.repeat(100_000)} x`);
});

test('status bar: STALE and FAILED get the warning background; COMPLETED and CANCELLED are hidden unless just finished', () => {
  const stale = statusBarView([wf({ stale: true, displayPhase: 'STALE', lastUpdateMs: Date.parse('2026-11-21T12:00:00Z') })], NOW);
  assert.equal(stale.text, '$(warning) STALE · implement');
  assert.equal(stale.warning, true);
  assert.match(stale.tooltip, /INIT → PLAN → \*\*▶ WORK\*\* → REPORT → COMPLETED \*\(stale\)\*/);
  assert.match(stale.tooltip, /\$\(warning\) Stale: last update 4 hours ago/);
  const failed = statusBarView([wf({ phase: 'FAILED', displayPhase: 'FAILED' })], NOW);
  assert.equal(failed.text, '$(error) FAILED · implement');
  assert.equal(failed.warning, true);
  assert.match(failed.tooltip, /INIT → PLAN → WORK → REPORT → COMPLETED → \*\*▶ FAILED\*\*/);
  for (const phase of ['COMPLETED', 'CANCELLED']) {
    assert.deepEqual(statusBarView([wf({ phase, displayPhase: phase })], NOW), { visible: false, text: '', tooltip: '', warning: false, shown: [] });
  }
  const done = wf({ key: 'done', phase: 'COMPLETED', displayPhase: 'COMPLETED' });
  const flash = statusBarView([], NOW, done);
  assert.equal(flash.text, '$(check) COMPLETED · implement');
  assert.equal(flash.warning, false);
  assert.equal(statusBarView([wf({})], NOW, done).text, '$(layers) 2 workflows', 'a just-finished workflow stays visible beside a running one');
  assert.equal(statusBarView([], NOW).visible, false);
});

test('status bar: several active workflows collapse to a count, with one tooltip block each', () => {
  const view = statusBarView([wf({}), wf({ key: 'b', title: 'Other', phase: 'PLAN', displayPhase: 'PLAN' }), wf({ key: 'c', phase: 'COMPLETED', displayPhase: 'COMPLETED' })], NOW);
  assert.equal(view.text, '$(layers) 2 workflows');
  assert.equal(view.tooltip.split('\n---\n').length, 3);
  assert.match(view.tooltip, /\*\*PLAN · Other\*\*/);
  assert.doesNotMatch(view.tooltip, /`c`/);
});

test('workflows with an unknown or missing phase are not status-bar material', () => {
  assert.equal(isStatusBarWorthy(wf({ phase: undefined, displayPhase: undefined })), false);
  assert.equal(isStatusBarWorthy(wf({ phase: 'DONE', displayPhase: 'DONE' })), false);
  assert.equal(isStatusBarWorthy(wf({ phase: 'INIT', displayPhase: 'INIT' })), true);
});

test('phase path per mode; markdown is escaped', () => {
  assert.equal(phasePathMarkdown(wf({ mode: 'noplan', phase: 'REPORT' })), 'INIT → WORK → **▶ REPORT** → COMPLETED');
  assert.equal(phasePathMarkdown(wf({ mode: 'strategy', phase: 'INIT' })), '**▶ INIT** → STRATEGY → COMPLETED');
  assert.equal(phasePathMarkdown(wf({ mode: 'turbo', phase: 'PLAN' })), 'INIT → **▶ PLAN** → WORK → REPORT → COMPLETED');
  assert.equal(escapeMarkdown('a *b* [c](d) `e` <f>'), 'a \\*b\\* \\[c\\]\\(d\\) \\`e\\` \\<f\\>');
  assert.match(workflowTooltipMarkdown(wf({ title: '**bold** <img>' }), NOW), /\\\*\\\*bold\\\*\\\* \\<img\\>/);
});

test('problems are listed in the tooltip', () => {
  const tooltip = workflowTooltipMarkdown(wf({ problems: [{ code: 'transition-illegal', severity: 'warning', message: 'Illegal transition INIT → WORK in full mode' }] }), NOW);
  assert.match(tooltip, /\n\$\(warning\) Illegal transition INIT → WORK in full mode$/);
});
