// The answers a replay of the run memo took, handed to the full run that follows when its loads gave other entries
// (src/cli/validatePartial.ts leaveAnswers / takeAnswers / replayedFileSystem, core/cache/runMemo.ts Replayed.answers):
// a dirty replay keeps the lstat of every path it asked about after the first answer that changed (a replay that holds
// keeps none); the full run's file system answers those from them (each once, a missing path as missing for stat too)
// and everything else from the disk; they are taken once, and only by a validate of the same arguments in the same
// folder.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type FileSystem, nodeFileSystem } from '../../../src/core/base/fs';
import { diskFingerprint } from '../../../src/core/cache/answers';
import { replayRunMemo, type ReplayDisk, RunRecorder } from '../../../src/core/cache/runMemo';
import { leaveAnswers, replayedFileSystem, takeAnswers } from '../../../src/cli/validatePartial';
import { removeTree, tempTree } from '../helpers/tempTree';

const disk: ReplayDisk = {
  lstat: (p) => fs.lstatSync(p, { throwIfNoEntry: false }),
  stat: (p) => fs.statSync(p, { throwIfNoEntry: false }),
  readDir: (p) => nodeFileSystem.readDir(p),
  realPath: (p) => nodeFileSystem.realPath(p),
  readFile: (p) => nodeFileSystem.readFile(p),
};

/**
 * A memo of a run that lists `dir`, then load 'A' lstats and reads a.md and lstats c.md and gone.md (not there); the
 * replay asks about them in that order (paths sorted).
 */
function record(dir: string): Buffer {
  const r = new RunRecorder({ fingerprint: diskFingerprint, racyMs: 0 });
  const t = r.trace(nodeFileSystem);
  t.readDir(dir);
  r.beginJob('A');
  t.lstat(path.join(dir, 'a.md'));
  t.readFile(path.join(dir, 'a.md'));
  t.lstat(path.join(dir, 'c.md'));
  t.lstat(path.join(dir, 'gone.md'));
  r.endJob('digest-A');
  r.print('o', 'out\n');
  return r.serialize('k', 0, 1)!;
}

/** nodeFileSystem, counting what reaches the disk. */
function counted(asked: string[]): FileSystem {
  return {
    ...nodeFileSystem,
    stat: (p) => { asked.push(`stat ${path.basename(p)}`); return nodeFileSystem.stat(p); },
    lstat: (p) => { asked.push(`lstat ${path.basename(p)}`); return nodeFileSystem.lstat(p); },
  };
}

test('a dirty replay hands its lstats to the full run: answered once from them, the rest from the disk', () => {
  const dir = tempTree({ 'a.md': 'alpha\n', 'b.md': 'beta\n', 'c.md': 'gamma\n' });
  try {
    const memo = record(dir);
    const before = Date.now();
    assert.equal(replayRunMemo(memo, 'k', {}, disk)?.answers, undefined, 'a replay that holds hands nothing on');
    fs.appendFileSync(path.join(dir, 'a.md'), 'more\n');
    const found = replayRunMemo(memo, 'k', {}, disk);
    assert.deepEqual(found?.dirty?.jobs, [0]);
    const answers = found!.answers!;
    assert.ok(answers.at >= before && answers.at <= Date.now());
    // a.md's answer changed: what the replay asked after it is kept.
    assert.deepEqual(answers.paths, [path.join(dir, 'c.md'), path.join(dir, 'gone.md')]);

    const asked: string[] = [];
    const run = replayedFileSystem(counted(asked), answers);
    const c = run.lstat(path.join(dir, 'c.md'));
    // The replay's answer, with what a fingerprint needs.
    assert.equal(c?.size, 'gamma\n'.length);
    assert.equal(c?.ino, fs.statSync(path.join(dir, 'c.md')).ino);
    assert.equal(run.stat(path.join(dir, 'gone.md')), undefined);
    assert.equal(run.lstat(path.join(dir, 'gone.md')), undefined);
    assert.deepEqual(asked, [], 'nothing the replay answered reaches the disk');
    assert.equal(run.lstat(path.join(dir, 'a.md'))?.size, 'alpha\nmore\n'.length);
    run.lstat(path.join(dir, 'b.md'));
    run.lstat(path.join(dir, 'c.md'));
    assert.deepEqual(asked, ['lstat a.md', 'lstat b.md', 'lstat c.md'], 'a path the replay did not keep or ask, and a question asked again, go to the disk');
  } finally {
    removeTree(dir);
  }
});

test('the answers left by a replay are taken once, by a validate of the same arguments in the same folder', () => {
  const dir = tempTree({ 'a.md': 'alpha\n' });
  try {
    const memo = record(dir);
    fs.appendFileSync(path.join(dir, 'a.md'), 'more\n');
    const found = replayRunMemo(memo, 'k', {}, disk)!;
    leaveAnswers('/ws', ['skills', '--cache'], found);
    assert.equal(takeAnswers('/ws', ['skills', '--cache', '--format', 'json']), undefined);
    leaveAnswers('/ws', ['skills', '--cache'], found);
    assert.equal(takeAnswers('/other', ['skills', '--cache']), undefined);
    leaveAnswers('/ws', ['skills', '--cache'], found);
    assert.equal(takeAnswers('/ws', ['skills', '--cache']), found.answers);
    assert.equal(takeAnswers('/ws', ['skills', '--cache']), undefined);
  } finally {
    removeTree(dir);
  }
});
