// The problems the editor keeps in the validate cache (core/cache/loadCache.ts keepProblems / shownProblems), on the
// real disk: shown at the next start only for files whose trace still holds; none when a `.json` configuration the
// load read changed; a load through the cache gives what a load without it gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { diskFingerprint } from '../../../../src/core/cache/answers';
import { LoadCache } from '../../../../src/core/cache/loadCache';
import { SkillIndex } from '../../../../src/core/catalog/skillIndex';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

function open(file: string): LoadCache {
  return new LoadCache({
    file, key: { test: 1 }, fingerprint: diskFingerprint, racyMs: 0,
    io: { read: (f) => { try { return fs.readFileSync(f); } catch { return undefined; } }, write: (f, data) => { fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, data); } },
  });
}

const shownCodes = (cache: LoadCache) => Object.fromEntries(cache.shownProblems(nodeFileSystem).map((s) => [path.basename(path.dirname(s.file)) + '/' + path.basename(s.file), s.problems.map((p) => p.code).sort()]));

test('start-up problems: kept after a load, shown while each file holds; not for a changed file; none after a read configuration changed', () => {
  const dir = tempTree({
    'ws/.claude/skills/broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n# x\n',
    'ws/.claude/skills/fine/SKILL.md': skillMd('fine'),
    'ws/.claude/skills/other/SKILL.md': skillMd('other-name'),
    'ws/.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills:\n  - ghost\n---\nBody\n',
    'ws/.claude/settings.json': '{}',
  });
  const ws = path.join(dir, 'ws');
  const file = path.join(dir, 'storage', 'cache.json');
  const options = { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code' as const };
  try {
    const first = open(file);
    const index = new SkillIndex(nodeFileSystem, options);
    index.ensureLoaded(first);
    first.keepProblems(nodeFileSystem, index.problemsByFile());
    first.save();
    const plain = new SkillIndex(nodeFileSystem, options);
    plain.ensureLoaded();
    assert.deepEqual([...index.problemsByFile()], [...plain.problemsByFile()], 'a load through the cache gives the same problems');

    assert.deepEqual(shownCodes(open(file)), { 'broken/SKILL.md': ['yaml-syntax'], 'other/SKILL.md': ['name-dir-mismatch'], 'agents/helper.md': ['agent-skill-missing'] });
    // A second load through the reopened cache reuses every skill and gives the same problems.
    const again = open(file);
    const reloaded = new SkillIndex(nodeFileSystem, options);
    reloaded.ensureLoaded(again);
    assert.equal(again.stats.hits, 3);
    assert.deepEqual([...reloaded.problemsByFile()], [...plain.problemsByFile()]);

    // The broken skill fixed and the agent edited: neither is shown from the cache; the other one still is.
    fs.writeFileSync(path.join(ws, '.claude/skills/broken/SKILL.md'), skillMd('broken'));
    fs.appendFileSync(path.join(ws, '.claude/agents/helper.md'), 'More.\n');
    assert.deepEqual(shownCodes(open(file)), { 'other/SKILL.md': ['name-dir-mismatch'] });
    // Claude Code's settings change (a `.json` file the load read): nothing from the cache is trusted.
    fs.writeFileSync(path.join(ws, '.claude/settings.json'), '{"permissions": {"deny": ["Skill(other-name)"]}}');
    assert.deepEqual(shownCodes(open(file)), {});
  } finally {
    removeTree(dir);
  }
});

test('start-up problems: a corrupt or foreign cache file shows nothing and loads as without it', () => {
  const dir = tempTree({ 'ws/.claude/skills/broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n# x\n' });
  const ws = path.join(dir, 'ws');
  const file = path.join(dir, 'cache.json');
  const options = { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code' as const };
  try {
    const first = open(file);
    const index = new SkillIndex(nodeFileSystem, options);
    index.ensureLoaded(first);
    first.keepProblems(nodeFileSystem, index.problemsByFile());
    first.save();
    const good = fs.readFileSync(file, 'utf8');
    for (const bad of [good.slice(0, -3), good.replace('yaml-syntax', 'yaml-syntaX'), 'nonsense', '']) {
      fs.writeFileSync(file, bad);
      const cache = open(file);
      assert.deepEqual(cache.shownProblems(nodeFileSystem), []);
      const loaded = new SkillIndex(nodeFileSystem, options);
      loaded.ensureLoaded(cache);
      assert.equal(cache.stats.hits, 0);
      assert.deepEqual([...loaded.problemsByFile()], [...index.problemsByFile()]);
    }
  } finally {
    removeTree(dir);
  }
});
