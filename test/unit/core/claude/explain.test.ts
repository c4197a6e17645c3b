import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { explainResolve } from '../../../../src/core/claude/explain';
import { buildClaudeModel } from '../../../../src/core/claude/load';
import { resolveCommand } from '../../../../src/core/claude/resolve';
import { md, treeFs } from './treeFs';

const fs = treeFs({
  'repo/.git/HEAD': '',
  'repo/.claude/skills/code-review/SKILL.md': md({ name: 'Code Review', description: 'Review.' }),
  'repo/.claude/commands/code-review.md': md({ description: 'Old review.' }),
  'home/u/.claude/skills/deploy/SKILL.md': md({ description: 'Personal deploy.' }),
  'repo/.claude/skills/deploy/SKILL.md': md({ description: 'Project deploy.' }),
  'repo/.claude/commands/help.md': md({ description: 'My help.' }),
});
const model = buildClaudeModel(fs, { startDir: '/repo', home: '/home/u', managedDir: null });
const explain = (cmd: string) => explainResolve(model, resolveCommand(model, cmd));

test('a skill over a command of its name (and the bundled skill it replaces): winner first, each loser with its reason', () => {
  const rows = explain('/code-review');
  assert.deepEqual(rows.map((r) => [r.kind, r.label, r.description, r.path]), [
    ['winner', '/code-review runs the project skill (shown as “Code Review”)', '.claude/skills/code-review/SKILL.md', '/repo/.claude/skills/code-review/SKILL.md'],
    ['shadowed', 'shadowed: project command file', '.claude/commands/code-review.md', '/repo/.claude/commands/code-review.md'],
    ['shadowed', "shadowed: Claude Code's bundled skill", undefined, undefined],
  ]);
  assert.match(rows[1].detail ?? '', /a skill wins over a command of the same name/);
  assert.equal(rows[1].detail, 'a skill wins over a command of the same name (winner: project skill /code-review at .claude/skills/code-review/SKILL.md)', 'why first; paths in the start folder shortened');
  assert.equal(rows[2].detail, 'project skill at .claude/skills/code-review/SKILL.md replaces it; its aliases stay with the bundled skill');
});

test('personal over project, with the reason; a built-in over a command file; nothing', () => {
  const deploy = explain('deploy');
  assert.equal(deploy[0].label, '/deploy runs the personal skill');
  assert.equal(deploy[0].description, '/home/u/.claude/skills/deploy/SKILL.md', 'outside the start folder: the full path');
  assert.equal(deploy[1].description, '.claude/skills/deploy/SKILL.md');
  assert.match(deploy[1].detail ?? '', /managed > personal > project/);

  const help = explain('/help');
  assert.equal(help[0].kind, 'builtin');
  assert.equal(help[0].label, "/help is Claude Code's own built-in command");
  assert.equal(help[0].path, undefined);
  assert.equal(help[1].kind, 'shadowed');
  assert.equal(help[1].path, '/repo/.claude/commands/help.md');

  const none = explain('/nope');
  assert.deepEqual(none.map((r) => [r.kind, r.label]), [['nothing', 'Nothing answers /nope']]);
});
