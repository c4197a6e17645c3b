import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { messagePaths } from '../../../../src/core/base/messagePaths';

test('messagePaths: paths in the working folder relative, in the home under ~, others and look-alikes kept', () => {
  const short = messagePaths(['/home/u/work/repo'], '/home/u');
  assert.equal(short('project skill /x at /home/u/work/repo/.claude/skills/x/SKILL.md wins: a skill wins'), 'project skill /x at .claude/skills/x/SKILL.md wins: a skill wins');
  assert.equal(short('personal skill at /home/u/.claude/skills/x/SKILL.md'), 'personal skill at ~/.claude/skills/x/SKILL.md');
  assert.equal(short('only direct children of /home/u/work/repo/.claude/skills are skills; (/home/u/other/a.md)'), 'only direct children of .claude/skills are skills; (~/other/a.md)');
  assert.equal(short('in /opt/tools/SKILL.md'), 'in /opt/tools/SKILL.md');
  assert.equal(short('x/home/u/work/repo/a'), 'x/home/u/work/repo/a', 'not in the middle of a word');
  assert.equal(short('/home/u/work/repo-two/a'), '~/work/repo-two/a', 'a sibling that shares the prefix is not the folder');
  assert.equal(short('no paths here'), 'no paths here');
  assert.equal(messagePaths(['/'], '/')('at /etc/x'), 'at /etc/x', 'the file-system root is never cut');
});
