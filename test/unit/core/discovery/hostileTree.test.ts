// Regression inputs for hostile trees: the file-system root, a FIFO or a folder named SKILL.md, a skill folder linked
// to `/` or out of the workspace, and a missing reference through a link that leaves the skill.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discover, discoverPath } from '../../../../src/core/discovery/discover';
import { loadSkill } from '../../../../src/core/discovery/load';
import { withReadCache } from '../../../../src/core/discovery/readCache';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

test('the read cache answers the file-system root as present after listing it', () => {
  const cached = withReadCache(nodeFileSystem);
  assert.ok(cached.readDir('/'));
  assert.equal(cached.realPath('/'), '/');
  assert.equal(cached.stat('/')?.isDirectory, true);
  assert.equal(cached.lstat('/')?.isDirectory, true);
});

test('a FIFO named SKILL.md is reported as a problem and never opened; so is a folder named SKILL.md', () => {
  const dir = tempTree({ 'skills/folder/SKILL.md/x.txt': 'x', 'skills/ok/SKILL.md': skillMd('ok') });
  try {
    fs.mkdirSync(path.join(dir, 'skills', 'fifo'));
    execFileSync('mkfifo', [path.join(dir, 'skills', 'fifo', 'SKILL.md')]);
    fs.mkdirSync(path.join(dir, 'skills', 'fifo-link'));
    fs.symlinkSync(path.join(dir, 'skills', 'fifo', 'SKILL.md'), path.join(dir, 'skills', 'fifo-link', 'SKILL.md'));
    const root = { path: path.join(dir, 'skills'), scope: 'project' as const, workspaceFolder: dir };
    for (const listFiles of [true, false]) {
      const fifo = loadSkill(nodeFileSystem, root, 'fifo', 'claude-code', { listFiles });
      assert.deepEqual(fifo?.problems.map((p) => [p.code, p.message]), [['file-unreadable', 'SKILL.md is not a regular file (a FIFO, socket or device); it was not opened']]);
      assert.deepEqual(loadSkill(nodeFileSystem, root, 'fifo-link', 'claude-code', { listFiles })?.problems.map((p) => p.code), ['file-unreadable']);
      const folder = loadSkill(nodeFileSystem, root, 'folder', 'claude-code', { listFiles });
      assert.match(folder?.problems[0].message ?? '', /SKILL\.md is a folder, not a file/);
    }
    // The CLI's path: every one of them is a skill with a problem (never silently skipped).
    const res = discoverPath(nodeFileSystem, dir, { profile: 'claude-code' });
    assert.ok(res.ok);
    assert.deepEqual(res.discovery.skills.map((s) => [s.folderName, s.problems.map((p) => p.code).join()]).sort(),
      [['fifo', 'file-unreadable'], ['fifo-link', 'file-unreadable'], ['folder', 'file-unreadable'], ['ok', '']]);
    // Reading it as a file refuses at once instead of waiting for a writer.
    assert.throws(() => nodeFileSystem.readFile(path.join(dir, 'skills', 'fifo', 'SKILL.md')), /not a regular file/);
  } finally { removeTree(dir); }
});

test('a skill folder linked to / or out of the workspace is not followed (no crawl of the machine)', () => {
  const dir = tempTree({ 'ws/.claude/skills/ok/SKILL.md': skillMd('ok'), 'outside/far/SKILL.md': skillMd('far') });
  try {
    const skills = path.join(dir, 'ws', '.claude', 'skills');
    fs.symlinkSync('/', path.join(skills, 'root'));
    fs.symlinkSync(path.join(dir, 'outside', 'far'), path.join(skills, 'far'));
    fs.symlinkSync('/', path.join(dir, 'ws', 'machine'));
    fs.mkdirSync(path.join(dir, 'ws', 'pkg'));
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'ws', 'pkg', 'out'));
    const d = discover(nodeFileSystem, { workspaceFolders: [path.join(dir, 'ws')], profile: 'claude-code', maxDepth: 20, anyFolder: true });
    // The search follows no link out of the workspace; Claude Code itself loads the linked skill folder `far` (its
    // SKILL.md only: a link to `/` is not searched for misplaced skills).
    assert.deepEqual(d.skills.map((s) => s.name), ['ok', 'far']);
    assert.deepEqual(d.roots.map((r) => path.relative(dir, r.path)), ['ws/.claude/skills']);
    const cli = discoverPath(nodeFileSystem, path.join(dir, 'ws'), { profile: 'claude-code' });
    assert.ok(cli.ok);
    assert.deepEqual(cli.discovery.skills.map((s) => s.name).sort(), ['far', 'ok']);
  } finally { removeTree(dir); }
});

test('a SKILL.md linked out of the workspace is not read, whether or not discovery knows its folder\'s real path', () => {
  const dir = tempTree({ 'ws/.claude/skills/plain/SKILL.md': skillMd('plain'), 'ws/.claude/skills/linked/.keep': '', 'outside/SKILL.md': skillMd('linked') });
  try {
    const ws = path.join(dir, 'ws');
    fs.symlinkSync(path.join(dir, 'outside', 'SKILL.md'), path.join(ws, '.claude', 'skills', 'linked', 'SKILL.md'));
    const codes = (skills: Array<{ folderName: string; problems: Array<{ code: string; message: string }> }>) =>
      skills.map((s) => [s.folderName, s.problems.map((p) => `${p.code}: ${p.message}`).join()]).sort();
    const expected = [['linked', 'file-unreadable: SKILL.md links outside the workspace folder; it was not read'], ['plain', '']];
    // Discovery passes each folder's real path to the load (no realpath of a SKILL.md that is no link).
    const d = discover(withReadCache(nodeFileSystem), { workspaceFolders: [ws], profile: 'claude-code' });
    assert.deepEqual(codes(d.skills), expected);
    // Loaded on its own (no real path known), the same answer.
    const root = { path: path.join(ws, '.claude', 'skills'), scope: 'project' as const, workspaceFolder: ws };
    assert.deepEqual(codes(['linked', 'plain'].map((n) => loadSkill(nodeFileSystem, root, n, 'claude-code')!)), expected);
    // A real path that says the folder is outside wins even for a plain SKILL.md.
    const far = loadSkill(nodeFileSystem, root, 'plain', 'claude-code', { realDir: path.join(dir, 'outside') })!;
    assert.deepEqual(far.problems.map((p) => p.code), ['file-unreadable']);
  } finally { removeTree(dir); }
});

test('a missing reference through a link that leaves the skill and the workspace is reference-outside; one that stays in the workspace, reference-missing', () => {
  const dir = tempTree({
    'skills/s/SKILL.md': skillMd('s', 'The s skill. Use it in tests.', 'See [a](out/missing.md), [b](out/deep/missing.md) and [c](in/missing.md).\n'),
    'skills/s/real/x.md': 'x',
    'elsewhere/y.md': 'y',
  });
  try {
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'skills', 's', 'out'));
    fs.symlinkSync(path.join(dir, 'skills', 's', 'real'), path.join(dir, 'skills', 's', 'in'));
    const problems = (workspaceFolder: string) => loadSkill(nodeFileSystem, { path: path.join(dir, 'skills'), scope: 'project', workspaceFolder }, 's', 'claude-code')?.problems.map((p) => [p.code, p.message.split(' ')[0]]);
    assert.deepEqual(problems(path.join(dir, 'skills')), [
      ['reference-outside', "'out/missing.md'"], ['reference-outside', "'out/deep/missing.md'"], ['reference-missing', "'in/missing.md'"],
    ]);
    assert.deepEqual(problems(dir), [
      ['reference-missing', "'out/missing.md'"], ['reference-missing', "'out/deep/missing.md'"], ['reference-missing', "'in/missing.md'"],
    ]);
  } finally { removeTree(dir); }
});
