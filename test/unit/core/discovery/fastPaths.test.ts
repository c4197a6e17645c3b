// The shortcuts of bulk validation (no folder listing when SKILL.md stats as a file, skill folders recognised by
// one lstat, strings detached from the file text) must give exactly what the listing-based path gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { childPath, skillMdIn } from '../../../../src/core/discovery/paths';
import { discover } from '../../../../src/core/discovery/discover';
import { loadSkill, type LoadedSkillEntry } from '../../../../src/core/discovery/load';
import { detach } from '../../../../src/core/base/text';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

// A load for validation only (listFiles: false) fills neither files nor the token estimate.
const strip = (e: LoadedSkillEntry | undefined) => (e ? { ...e, files: [], tokenEstimate: 0 } : e);

test('loadSkill without a file listing equals the listed load except for files, in every folder shape', () => {
  const dir = tempTree({
    'plain/SKILL.md': skillMd('plain', 'Plain skill. Use it in tests.', 'See [x](references/x.md) and scripts/run.py and references/missing.md — 😀 é.\n'),
    'plain/references/x.md': 'x',
    'plain/scripts/run.py': 'print(1)',
    'lower/skill.md': skillMd('lower'),
    'dir-named/SKILL.md/inner.txt': 'a directory named SKILL.md',
    'empty/README.md': 'no skill here',
    'Upper-Case/SKILL.md': skillMd('Upper-Case'),
  });
  try {
    fs.symlinkSync(path.join(dir, 'plain', 'SKILL.md'), path.join(dir, 'linked-file-SKILL'));
    fs.mkdirSync(path.join(dir, 'linked'));
    fs.symlinkSync(path.join(dir, 'linked-file-SKILL'), path.join(dir, 'linked', 'SKILL.md'));
    fs.mkdirSync(path.join(dir, 'dangling'));
    fs.symlinkSync(path.join(dir, 'nowhere.md'), path.join(dir, 'dangling', 'SKILL.md'));
    const root = { path: dir, scope: 'project' as const };
    const folders = ['plain', 'lower', 'dir-named', 'empty', 'Upper-Case', 'linked', 'dangling', 'no-such-folder'];
    const quick = folders.map((f) => loadSkill(nodeFileSystem, root, f, 'claude-code', { listFiles: false }));
    const listed = folders.map((f) => loadSkill(nodeFileSystem, root, f, 'claude-code'));
    assert.deepEqual(quick.map(strip), listed.map(strip));
    // What the listed path finds, spelled out (so that both paths being wrong in the same way fails too).
    assert.deepEqual(quick.map((e) => e && [e.name, e.skillMdPath.slice(dir.length + 1), e.problems.map((p) => p.code)]), [
      ['plain', 'plain/SKILL.md', ['reference-missing']],
      ['lower', 'lower/skill.md', ['skill-md-case']],
      ['dir-named', 'dir-named/SKILL.md', ['file-unreadable']], // a folder named SKILL.md is reported, not skipped
      undefined,
      ['Upper-Case', 'Upper-Case/SKILL.md', ['name-case']],
      ['plain', 'linked/SKILL.md', ['name-dir-mismatch', 'reference-missing', 'reference-missing', 'reference-missing']],
      ['dangling', 'dangling/SKILL.md', ['file-unreadable']],
      undefined,
    ]);
    assert.deepEqual(quick.map((e) => e?.files), [['SKILL.md'], ['skill.md'], ['SKILL.md'], undefined, ['SKILL.md'], ['SKILL.md'], ['SKILL.md'], undefined]);
    assert.deepEqual(listed[0]?.files, ['SKILL.md', 'scripts/run.py', 'references/x.md']);
    assert.deepEqual(quick.map((e) => e?.tokenEstimate), [0, 0, 0, undefined, 0, 0, 0, undefined]);
    assert.equal(listed[0]?.tokenEstimate, Math.ceil(fs.readFileSync(path.join(dir, 'plain', 'SKILL.md'), 'utf8').length / 4));
  } finally { removeTree(dir); }
});

test('an arbitrary folder: skill folders found by lstat are the ones the listing finds; nested roots still found', () => {
  const dir = tempTree({
    'a-skill/SKILL.md': skillMd('a-skill'),
    'b-lower/skill.md': skillMd('b-lower'),
    'c-not/notes.md': 'nothing',
    'c-not/deeper/d-skill/SKILL.md': skillMd('d-skill'),
    'e-dir/SKILL.md/x': 'a folder named SKILL.md',
    'e-dir/inner/f-skill/SKILL.md': skillMd('f-skill'),
  });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [dir], profile: 'claude-code', anyFolder: true, listFiles: false });
    // e-dir holds an entry SKILL.md (a folder): it is a skill, reported as unreadable, and not searched further.
    assert.deepEqual(d.roots.map((r) => path.relative(dir, r.path)), ['', 'c-not/deeper']);
    assert.deepEqual(d.skills.map((s) => [s.name, path.relative(dir, s.skillMdPath), s.problems.map((p) => p.code).join()]).sort(), [
      ['a-skill', 'a-skill/SKILL.md', ''], ['b-lower', 'b-lower/skill.md', 'skill-md-case'], ['d-skill', 'c-not/deeper/d-skill/SKILL.md', ''], ['e-dir', 'e-dir/SKILL.md', 'file-unreadable'],
    ]);
  } finally { removeTree(dir); }
});

test('detach keeps the value', () => {
  const long = 'x'.repeat(40) + 'references/some-file.md';
  const cut = long.slice(40);
  assert.equal(detach(cut), 'references/some-file.md');
  assert.equal(detach('short'), 'short');
  assert.equal(detach(''), '');
});

test('childPath and skillMdIn are path.join, also for folders and names that are not plain (and in any call order)', () => {
  const dirs = ['/', '/a', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/.', '/a/..', '/a/.hidden', '/a/b.c', 'rel', 'rel/dir', './rel', '', '.', '..', '//', '/a/b/'];
  const names = ['x', 'SKILL.md', '.x', '..x', 'x.', '', '.', '..', 'x/y', '/x', 'x/', 'x/../y'];
  // Every pair twice, in two orders: the remembered answer for the last folder must never leak to another one.
  const pairs = dirs.flatMap((d) => names.map((n) => [d, n] as const));
  for (const [d, n] of [...pairs, ...[...pairs].reverse(), ...pairs]) {
    assert.equal(childPath(d, n), path.join(d, n), `childPath(${JSON.stringify(d)}, ${JSON.stringify(n)})`);
    assert.equal(skillMdIn(d, n), path.join(d, n, 'SKILL.md'), `skillMdIn(${JSON.stringify(d)}, ${JSON.stringify(n)})`);
  }
});
