// subskill-not-loaded: a skill that tells Claude to invoke a SKILL.md Claude Code never loads
// (under references/, or any folder that is not a direct child of a skills folder). Look-alikes: a line that says to
// read it, a link to a sibling skill's SKILL.md, and the real plugin skills that link `skills/<x>/SKILL.md`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function problems(dir: string, target = dir): Promise<string[]> {
  let out = '';
  await main({ argv: ['validate', target, '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  const json = JSON.parse(out) as { skills: { path: string; problems: { code: string; line: number; column: number; severity: string }[] }[] };
  return json.skills.flatMap((s) => s.problems.filter((p) => p.code === 'skill-not-loaded' || p.code === 'subskill-not-loaded').map((p) => `${s.path.slice(s.path.indexOf('.claude'))} ${p.code}@${p.line}:${p.column}:${p.severity}`)).sort();
}

test('invoking a SKILL.md under references/: a warning on the parent\'s line', async () => {
  const body = '# Parent\n\nInvoke the sub-skill in [references/sub/SKILL.md](references/sub/SKILL.md) to plan.\nRead references/sub/SKILL.md for the background.\nUse the [sibling](../sibling/SKILL.md) skill for reviews.\n';
  const dir = tempTree({
    '.claude/skills/parent/SKILL.md': skillMd('parent', 'Plans work. Use it in tests.', body),
    '.claude/skills/parent/references/sub/SKILL.md': skillMd('sub'),
    '.claude/skills/sibling/SKILL.md': skillMd('sibling'),
  });
  try {
    // Claude Code's model does not look inside a skill's folders, so the file itself is not reported: only the parent's line.
    assert.deepEqual(await problems(dir), ['.claude/skills/parent/SKILL.md subskill-not-loaded@8:51:warning']);
    // Validating the parent alone (the file under references/ not discovered from a skills root): still reported.
    assert.deepEqual(await problems(dir, `${dir}/.claude/skills/parent`), ['.claude/skills/parent/SKILL.md subskill-not-loaded@8:51:warning']);
  } finally {
    removeTree(dir);
  }
});

test('real plugin skills that link skills/<x>/SKILL.md stay quiet', async () => {
  let out = '';
  await main({ argv: ['validate', 'test/fixtures/precision/alirezarezvani-claude-skills', '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  assert.doesNotMatch(out, /skill-not-loaded/);
});
