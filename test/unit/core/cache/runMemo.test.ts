// The run memo's record of who asked each question (core/cache/runMemo.ts), on the real disk: a question asked inside a
// load belongs to that load; one the run asked outside loads belongs to the run, with only the kind of a stat when the
// run never read its size or mtime. A replay whose changed answers belong only to loads names those loads (dirty);
// a changed answer the run itself depends on fails it. patchMemo gives a memo that holds as it is, and keeps its size
// when the same load is patched again and again.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type FileSystem, nodeFileSystem } from '../../../../src/core/base/fs';
import { diskFingerprint } from '../../../../src/core/cache/answers';
import { patchMemo, replayRunMemo, type ReplayDisk, RunRecorder } from '../../../../src/core/cache/runMemo';
import { removeTree, tempTree } from '../../helpers/tempTree';

/** The question lines of load `job` made again (for patchMemo), asking the disk what `ask` asks, its entry of `digest`. */
function madeAgain(job: number, digest: string, ask: (fs: FileSystem) => void): string {
  const rec = new RunRecorder({ fingerprint: diskFingerprint, racyMs: 0 });
  const traced = rec.trace(nodeFileSystem);
  rec.beginJobAt(job);
  ask(traced);
  rec.endJob(digest);
  return rec.questionLines()!;
}

const disk: ReplayDisk = {
  lstat: (p) => fs.lstatSync(p, { throwIfNoEntry: false }),
  stat: (p) => fs.statSync(p, { throwIfNoEntry: false }),
  readDir: (p) => nodeFileSystem.readDir(p),
  realPath: (p) => nodeFileSystem.realPath(p),
  readFile: (p) => nodeFileSystem.readFile(p),
};

/** A run: the run lists `dir` and lstats a.md (reading its size when `size`), then load 'A' reads a.md and load 'B' b.md. */
function record(dir: string, opts: { size?: boolean } = {}): Buffer {
  const r = new RunRecorder({ fingerprint: diskFingerprint, racyMs: 0 });
  const fsT = r.trace(nodeFileSystem);
  fsT.readDir(dir);
  const a = fsT.lstat(path.join(dir, 'a.md'));
  assert.equal(a?.isFile, true);
  if (opts.size) assert.ok((a?.size ?? 0) > 0);
  for (const [key, file] of [['A', 'a.md'], ['B', 'b.md']]) {
    r.beginJob(key);
    fsT.lstat(path.join(dir, file));
    fsT.readFile(path.join(dir, file));
    r.endJob(`digest-${key}`);
  }
  r.print('o', 'the output\n');
  return r.serialize('k', 0, 2)!;
}

test('run memo: the loads that asked a changed answer are named; a changed answer the run read fails the replay', () => {
  const dir = tempTree({ 'a.md': 'alpha\n', 'b.md': 'beta\n' });
  const memoFile = `${dir}.memo`;
  try {
    const memo = record(dir);
    const held = replayRunMemo(memo, 'k', {}, disk);
    assert.ok(held && !held.dirty);
    assert.equal(held.out.map(([, b]) => b.toString()).join(''), 'the output\n');
    // a.md grows: the run only read its kind (a file), so only load 0 ('A') is to be made again.
    fs.appendFileSync(path.join(dir, 'a.md'), 'more\n');
    const dirty = replayRunMemo(memo, 'k', {}, disk);
    assert.deepEqual(dirty?.dirty?.jobs, [0]);
    // The patched memo (load A asked again, with its new answers) holds as it is.
    let size = 0;
    for (let round = 0; round < 4; round++) {
      const found = replayRunMemo(round === 0 ? memo : fs.readFileSync(memoFile), 'k', {}, disk);
      assert.deepEqual(found?.dirty?.jobs, [0], `round ${round}`);
      const lines = madeAgain(0, 'digest-A', (t) => { t.lstat(path.join(dir, 'a.md')); t.readFile(path.join(dir, 'a.md')); });
      const patched = Buffer.concat(patchMemo(found!.dirty!, lines));
      fs.writeFileSync(memoFile, patched);
      const now = replayRunMemo(patched, 'k', {}, disk);
      assert.ok(now && !now.dirty, `round ${round}: the patched memo holds`);
      assert.equal(now.out.map(([, b]) => b.toString()).join(''), 'the output\n');
      if (round === 1) size = patched.length;
      // (the answers' mtimes and sizes take a few more or fewer digits from round to round)
      if (round > 1) assert.ok(Math.abs(patched.length - size) < 24, `patched again, the memo keeps its size: ${patched.length} against ${size}`);
      fs.appendFileSync(path.join(dir, 'a.md'), `round ${round}\n`);
    }
    // b.md's bytes change: load 1 ('B') too (a.md changed again after the last patch: load 0).
    fs.writeFileSync(path.join(dir, 'b.md'), 'BETA\n');
    assert.deepEqual(replayRunMemo(fs.readFileSync(memoFile), 'k', {}, disk)?.dirty?.jobs, [0, 1]);
    // A new file in the listed folder: the run's own question.
    fs.writeFileSync(path.join(dir, 'c.md'), 'gamma\n');
    assert.equal(replayRunMemo(fs.readFileSync(memoFile), 'k', {}, disk), undefined);
  } finally {
    removeTree(dir);
    fs.rmSync(memoFile, { force: true });
  }
});

test('run memo: a stat whose size the run read is the run\'s; a kind that changed fails the replay; another key or a broken memo never holds', () => {
  const dir = tempTree({ 'a.md': 'alpha\n', 'b.md': 'beta\n' });
  try {
    const sized = record(dir, { size: true });
    const kind = record(dir);
    fs.appendFileSync(path.join(dir, 'a.md'), 'more\n');
    assert.equal(replayRunMemo(sized, 'k', {}, disk), undefined);
    assert.deepEqual(replayRunMemo(kind, 'k', {}, disk)?.dirty?.jobs, [0]);
    // a.md becomes a folder: its kind changed.
    fs.rmSync(path.join(dir, 'a.md'));
    fs.mkdirSync(path.join(dir, 'a.md'));
    assert.equal(replayRunMemo(kind, 'k', {}, disk), undefined);
    assert.equal(replayRunMemo(kind, 'other key', {}, disk), undefined);
    for (const bad of [kind.subarray(0, kind.length - 3), Buffer.from(kind.toString('latin1').replace('digest-A', 'digest-X'), 'latin1'), Buffer.alloc(0)]) {
      assert.equal(replayRunMemo(bad, 'k', {}, disk), undefined);
    }
  } finally {
    removeTree(dir);
  }
});

test('run memo: a patch drops only the lines that the loads made again alone asked, whatever their indexes (base 36)', () => {
  // 40 loads (indexes 0 to 13 in base 36), each asking about its own two files and the shared one.
  const files: Record<string, string> = { 'shared.md': 'shared\n' };
  for (let i = 0; i < 40; i++) { files[`f${i}.md`] = `file ${i}\n`; files[`g${i}.md`] = `more ${i}\n`; }
  const dir = tempTree(files);
  try {
    const r = new RunRecorder({ fingerprint: diskFingerprint, racyMs: 0 });
    const t = r.trace(nodeFileSystem);
    for (let i = 0; i < 40; i++) {
      r.beginJob(`J${i}`);
      t.lstat(path.join(dir, `f${i}.md`));
      t.lstat(path.join(dir, `g${i}.md`));
      t.lstat(path.join(dir, 'shared.md'));
      r.endJob(`digest-${i}`);
    }
    r.print('o', 'out\n');
    const memo = r.serialize('k', 0, 40)!;
    // Load 1's file changes; load 1 is made again (its g1.md, unchanged, was asked by it alone: dropped, asked again).
    fs.appendFileSync(path.join(dir, 'f1.md'), 'more\n');
    const found = replayRunMemo(memo, 'k', {}, disk);
    assert.deepEqual(found?.dirty?.jobs, [1]);
    const lines = madeAgain(1, 'digest-1', (t) => { t.lstat(path.join(dir, 'f1.md')); t.lstat(path.join(dir, 'g1.md')); });
    const patched = Buffer.concat(patchMemo(found!.dirty!, lines));
    const held = replayRunMemo(patched, 'k', {}, disk);
    assert.ok(held && !held.dirty, 'the patched memo holds');
    // g1.md once: its old line (load 1's alone) was dropped, the new one added.
    assert.equal(patched.toString('latin1').split('g1.md').length - 1, 1);
    // Every other load's own lines are kept, "11" (37), "b" (11) and "10" (36) included: none is taken for "1".
    for (const i of [11, 36, 37]) fs.appendFileSync(path.join(dir, `g${i}.md`), 'more\n');
    assert.deepEqual(replayRunMemo(patched, 'k', {}, disk)?.dirty?.jobs, [11, 36, 37]);
    fs.appendFileSync(path.join(dir, 'shared.md'), 'more\n');
    assert.deepEqual(replayRunMemo(patched, 'k', {}, disk)?.dirty?.jobs, Array.from({ length: 40 }, (_, i) => i));
  } finally {
    removeTree(dir);
  }
});
