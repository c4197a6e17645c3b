import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildClaudeModel } from '../../../../src/core/claude/load';
import { resolveCommand, resolveJson } from '../../../../src/core/claude/resolve';
import { md, treeFs } from './treeFs';

const skill = md({ description: 'Does things.' });
const fs = treeFs({
  'repo/.git/HEAD': '',
  'etc/claude-code/.claude/skills/deploy/SKILL.md': skill,
  'home/u/.claude/skills/deploy/SKILL.md': skill,
  'repo/.claude/skills/deploy/SKILL.md': skill,
  'repo/.claude/commands/deploy.md': skill,
  'repo/.claude/skills/help/SKILL.md': skill,
  'repo/.claude/skills/code-review/SKILL.md': skill,
  'repo/.claude/skills/review/SKILL.md': skill,
  'repo/.claude/skills/bg-only/SKILL.md': md({ description: 'x', 'user-invocable': false }),
  'repo/.claude/skills/hidden/SKILL.md': skill,
  'repo/.claude/settings.local.json': '{"skillOverrides": {"hidden": "off"}}',
  'repo/apps/web/.claude/skills/deploy/SKILL.md': skill,
  'repo/apps/web/.claude/skills/local-only/SKILL.md': skill,
  'home/u/.claude/plugins/installed_plugins.json': '{"plugins": {"kit@m": [{"installPath": "/plug/kit"}]}}',
  'plug/kit/skills/fancy-thing/SKILL.md': skill,
});
const model = buildClaudeModel(fs, { startDir: '/repo', home: '/home/u', managedDir: '/etc/claude-code' });

test('resolve: the managed skill answers; personal, project skill and project command are shadowed with reasons', () => {
  const r = resolveJson(resolveCommand(model, '/deploy'));
  assert.deepEqual(r.winner, { path: '/etc/claude-code/.claude/skills/deploy/SKILL.md', level: 'managed', source: 'skill' });
  assert.equal(r.builtin, false);
  assert.equal(r.command, '/deploy');
  assert.deepEqual(r.shadowed.map((s) => [s.path, s.level, s.source]), [
    ['/home/u/.claude/skills/deploy/SKILL.md', 'personal', 'skill'],
    ['/repo/.claude/skills/deploy/SKILL.md', 'project', 'skill'],
    ['/repo/.claude/commands/deploy.md', 'project', 'command'],
  ]);
  for (const s of r.shadowed) assert.match(s.reason, /\/etc\/claude-code\/\.claude\/skills\/deploy\/SKILL\.md wins/);
  assert.deepEqual(Object.keys(r), ['command', 'winner', 'shadowed', 'builtin']);
});

test('resolve: built-in commands and aliases answer themselves; a user skill replaces a bundled skill', () => {
  const help = resolveCommand(model, 'help');
  assert.equal(help.command, '/help');
  assert.equal(help.builtin, true);
  assert.equal(help.winner, null);
  assert.deepEqual(help.shadowed.map((s) => s.path), ['/repo/.claude/skills/help/SKILL.md']);
  const review = resolveCommand(model, '/review');
  assert.equal(review.builtin, true);
  assert.match(review.shadowed[0].reason, /alias of \/code-review/);
  const cr = resolveCommand(model, '/code-review');
  assert.equal(cr.builtin, false);
  assert.equal(cr.winner?.path, '/repo/.claude/skills/code-review/SKILL.md');
  assert.deepEqual(cr.shadowed.map((s) => [s.path, s.level]), [['bundled:/code-review', 'bundled']]);
  const compact = resolveCommand(model, '/compact');
  assert.deepEqual([compact.builtin, compact.winner, compact.shadowed], [true, null, []]);
  const batch = resolveCommand(model, '/batch');
  assert.equal(batch.builtin, true, 'the bundled skill answers when no user skill has its name');
});

test('resolve: nothing answers an unknown command; nested and plugin names; notes for skills that do not simply run', () => {
  const none = resolveCommand(model, '/no-such');
  assert.deepEqual([none.winner, none.builtin, none.shadowed], [null, false, []]);
  assert.equal(resolveCommand(model, '/apps/web:deploy').winner?.level, 'nested');
  const local = resolveCommand(model, '/local-only');
  assert.equal(local.winner?.level, 'nested');
  assert.match(local.note!, /apps\/web/);
  assert.equal(resolveCommand(model, '/kit:fancy-thing').winner?.level, 'plugin');
  assert.equal(resolveCommand(model, '/fancy-thing').winner?.path, '/plug/kit/skills/fancy-thing/SKILL.md', 'the bare name is free');
  assert.match(resolveCommand(model, '/bg-only').note!, /user-invocable: false/);
  assert.match(resolveCommand(model, '/hidden').note!, /"off"/);
});
