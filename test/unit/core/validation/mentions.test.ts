// mention-unknown: a body's mention of a skill or command that no level loads, when a loaded one has a close name.
// Look-alikes: the real superpowers and plugins skills (precision fixtures, test/fixtures/tools) mention many skills,
// their own and external ones, and stay quiet; true positives: the same phrasing with one letter off.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findSkillMentions } from '../../../../src/core/validation/mentions';
import { LineIndex } from '../../../../src/core/base/text';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

function mentions(body: string): string[] {
  const lines = new LineIndex(body);
  return findSkillMentions({ lines, first: 0, length: body.length, lastChar: body.charCodeAt(body.length - 1) }, 5).map((m) => `${m.slash ? '/' : ''}${m.name}@${m.range.line}:${m.range.column}-${m.range.endColumn}`);
}

test('findSkillMentions: skill phrases and commands after a verb; not "this skill", paths or bare inline code', () => {
  assert.deepEqual(mentions('Use the `db-reindex` skill first.\nThen invoke `/audit-workflows` and run /deploy.\n'), ['db-reindex@5:10-20', '/audit-workflows@6:15-30', '/deploy@6:41-47']);
  assert.deepEqual(mentions('REQUIRED: Use superpowers:test-driven-development skill.\n'), ['superpowers:test-driven-development@5:15-50']);
  assert.deepEqual(mentions('Use this skill when asked. Invoke the right skill. GET `/users` returns users; see `/tmp/x`; run /usr/bin/env.\n'), []);
  assert.deepEqual(mentions('No mention here at all.\n'), []);
  // mrgoonie/claudekit-skills, docs-seeker: "/docs" is a folder there (one line later, a command again).
  assert.deepEqual(mentions('- **Repomix fails** → Try /docs directory only → Manual exploration\nRun /deploy then; type `/docs` now; try `/docs` folder.\n'), ['/deploy@6:6-12', '/docs@6:26-30']);
});

async function run(dir: string): Promise<string[]> {
  let out = '';
  await main({ argv: ['validate', dir, '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  const json = JSON.parse(out) as { skills: { path: string; problems: { code: string; line: number; column: number; severity: string; message: string }[] }[] };
  return json.skills.flatMap((s) => s.problems.filter((p) => p.code === 'mention-unknown').map((p) => `${s.path.split('/').slice(-2).join('/')} ${p.line}:${p.column}:${p.severity} ${p.message}`));
}

test('mention-unknown: a typo of a loaded skill or command (info, with the name); external and exact mentions stay quiet', async () => {
  const dir = tempTree({
    '.claude/skills/db-reindex/SKILL.md': skillMd('db-reindex'),
    '.claude/commands/audit-workflows.md': 'Audit the workflows.\n',
    '.claude/skills/caller/SKILL.md': skillMd('caller', 'Calls others. Use it in tests.', '# caller\n\nUse the `db-reindx` skill, then invoke `/audit-workflow`.\nUse the `db-reindex` skill and run /audit-workflows.\nUse the `frontend-design` skill (another marketplace) and superpowers:brainstorming skill; type `/help`.\n'),
  });
  try {
    assert.deepEqual(await run(dir), [
      "caller/SKILL.md 8:10:info Did you mean 'db-reindex'? No skill or command 'db-reindx' is loaded at any level here (if it comes from outside this workspace, ignore this)",
      'caller/SKILL.md 8:42:info Did you mean /audit-workflows? No skill or command /audit-workflow is loaded at any level here (if it comes from outside this workspace, ignore this)',
    ]);
  } finally {
    removeTree(dir);
  }
});

test('real skills that mention other skills stay quiet', async () => {
  for (const dir of ['test/fixtures/precision/superpowers', 'test/fixtures/precision/wshobson-agents', 'test/fixtures/tools/claude-plugins-official', '/work/shared/corpus'].filter((d) => nodeFileSystem.stat(d))) {
    assert.deepEqual(await run(dir), [], dir);
  }
});
