// displayPaths (validate's output: one relative path worked out per folder) must print exactly what displayPath does.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { displayPath, displayPaths } from '../../../../src/cli/output/paths';

test('displayPaths gives displayPath, wherever the current directory is and whatever the paths look like', () => {
  const cwds = ['/', '/w', '/w/', '/w/skills', '/w/skills/a', '/w/skills/a/deep', '/w/skills/ab', '/w/skills/a.b', '/w/other', '/x', '/w/skills/..', '/a', '/a/x', 'rel', '.'];
  const files = [
    '/w/skills/a/SKILL.md', '/w/skills/ab/SKILL.md', '/w/skills/b/SKILL.md', '/w/skills/a.b/SKILL.md', '/w/skills/a/x/SKILL.md',
    '/w/SKILL.md', '/w/skills/SKILL.md', '/SKILL.md', '/a/SKILL.md', '/w//skills/a/SKILL.md', '/w/skills//a/SKILL.md', '/w/skills/a//SKILL.md',
    '/w/skills/./SKILL.md', '/w/skills/../a/SKILL.md', '/w/skills/a/..', '/w/skills/a/.', '/w/skills/a/', '/w/./skills/a/SKILL.md',
    '/w/x/../skills/a/SKILL.md', '/w/../a/SKILL.md', '//a/SKILL.md', '/./a/SKILL.md', 'rel/a/SKILL.md', 'a/SKILL.md', 'SKILL.md', '', '/w/skills/a', '/w/.claude/agents/x.md',
  ];
  for (const cwd of cwds) {
    const shown = displayPaths(cwd);
    // Twice over, in two orders: what is remembered for one folder must never answer for another.
    for (const file of [...files, ...[...files].reverse(), ...files]) {
      assert.equal(shown(file), displayPath(cwd, file), `cwd ${JSON.stringify(cwd)}, file ${JSON.stringify(file)}`);
    }
  }
});
