import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import type { DirEntry, FileSystem } from '../../../../src/core/base/fs';
import { withReadCache } from '../../../../src/core/discovery/readCache';

/** An in-memory file system that counts calls. */
function fakeFs(files: Record<string, string>) {
  const calls: string[] = [];
  const dirsOf = (p: string) => Object.keys(files).filter((f) => f.startsWith(`${p}/`));
  const fs: FileSystem = {
    caseSensitive: true,
    stat(p) { calls.push(`stat ${p}`); return p in files ? { isFile: true, isDirectory: false, isSymbolicLink: false, size: files[p].length, mtimeMs: 1 } : dirsOf(p).length ? { isFile: false, isDirectory: true, isSymbolicLink: false, size: 0, mtimeMs: 1 } : undefined; },
    lstat(p) { calls.push(`lstat ${p}`); return this.stat(p); },
    readDir(p) {
      calls.push(`readDir ${p}`);
      const names = new Set(dirsOf(p).map((f) => f.slice(p.length + 1).split('/')[0]));
      if (!names.size) return undefined;
      return [...names].map((name): DirEntry => ({ name, isFile: `${p}/${name}` in files, isDirectory: !(`${p}/${name}` in files), isSymbolicLink: false }));
    },
    readFile(p) { calls.push(`readFile ${p}`); if (!(p in files)) throw new Error('ENOENT'); return Buffer.from(files[p]); },
    realPath(p) { calls.push(`realPath ${p}`); return p in files || dirsOf(p).length ? p : undefined; },
    writeFileAtomic(p, d) { calls.push(`write ${p}`); files[p] = String(d); },
    mkdirp(p) { calls.push(`mkdirp ${p}`); },
  };
  return { fs, calls };
}

test('repeated reads hit the disk once; a name absent from a listed folder is answered without a syscall', () => {
  const { fs, calls } = fakeFs({ '/r/a/SKILL.md': 'x', '/r/a/Notes.md': 'y', '/r/some/long/folder/name/a/SKILL.md': 'z' });
  const c = withReadCache(fs);
  assert.deepEqual(c.readDir('/r/a')?.map((e) => e.name).sort(), ['Notes.md', 'SKILL.md']);
  c.readDir('/r/a');
  assert.equal(c.stat('/r/a/SKILL.md')?.isFile, true);
  assert.equal(c.stat('/r/a/SKILL.md')?.size, 1);
  assert.equal(c.stat(path.posix.join('/r/a', 'missing.md')), undefined);
  assert.equal(c.realPath('/r/a/missing.md'), undefined);
  // A case-insensitive match still asks the disk (case-insensitive file systems).
  assert.equal(c.stat('/r/a/notes.md'), undefined);
  assert.deepEqual(calls, ['readDir /r/a', 'stat /r/a/SKILL.md', 'stat /r/a/notes.md']);
  // A folder of the same length that was not listed, and one of a long path sharing the listed one's end: the disk.
  assert.equal(c.stat('/r/b/missing.md'), undefined);
  c.readDir('/r/some/long/folder/name/a');
  assert.equal(c.stat('/r/other/long/folder/name/a/x.md'), undefined);
  assert.equal(c.stat('/r/some/long/folder/name/a/x.md'), undefined);
  assert.deepEqual(calls.slice(3), ['stat /r/b/missing.md', 'readDir /r/some/long/folder/name/a', 'stat /r/other/long/folder/name/a/x.md']);
  assert.equal(withReadCache(c), c, 'wrapping twice returns the same cache');
});

test('a path the disk did not find is remembered too: asked again, no call', () => {
  const { fs, calls } = fakeFs({ '/r/a/SKILL.md': 'x' });
  const c = withReadCache(fs);
  for (let i = 0; i < 2; i++) {
    assert.equal(c.lstat('/r/b/x.md'), undefined);
    assert.equal(c.stat('/r/c/x.md'), undefined);
    assert.equal(c.readDir('/r/d'), undefined);
    assert.equal(c.realPath('/r/e'), undefined);
    assert.equal(c.stat('/r/b/x.md'), undefined, 'a stat after an lstat that found nothing');
  }
  assert.deepEqual(calls, ['lstat /r/b/x.md', 'stat /r/b/x.md', 'stat /r/c/x.md', 'readDir /r/d', 'realPath /r/e']);
});

test('writes pass through and empty the cache', () => {
  const { fs, calls } = fakeFs({ '/r/a/SKILL.md': 'x' });
  const c = withReadCache(fs);
  c.readDir('/r/a');
  assert.equal(c.stat('/r/a/new.md'), undefined);
  c.writeFileAtomic('/r/a/new.md', 'z');
  assert.equal(c.stat('/r/a/new.md')?.isFile, true);
  assert.deepEqual(calls, ['readDir /r/a', 'write /r/a/new.md', 'stat /r/a/new.md']);
});

test('a stat after an lstat of a file or of nothing is answered from the lstat; a link still asks the disk', () => {
  const { fs } = fakeFs({});
  const calls: string[] = [];
  const file = { isFile: true, isDirectory: false, isSymbolicLink: false, size: 1, mtimeMs: 1 };
  const link = { isFile: false, isDirectory: false, isSymbolicLink: true, size: 0, mtimeMs: 1 };
  const kinds: Record<string, typeof file> = { '/r/file': file, '/r/link': link };
  const disk: FileSystem = {
    ...fs,
    lstat(p) { calls.push(`lstat ${p}`); return kinds[p]; },
    stat(p) { calls.push(`stat ${p}`); return p === '/r/link' ? file : kinds[p]; },
  };
  const c = withReadCache(disk);
  assert.equal(c.lstat('/r/file'), file);
  assert.equal(c.stat('/r/file'), file);
  assert.equal(c.lstat('/r/none'), undefined);
  assert.equal(c.stat('/r/none'), undefined);
  assert.equal(c.lstat('/r/link'), link);
  assert.equal(c.stat('/r/link'), file, 'a link is followed by stat');
  assert.deepEqual(calls, ['lstat /r/file', 'lstat /r/none', 'lstat /r/link', 'stat /r/link']);
});

test('nodeFileSystem.readFileTransient: the whole file, any size, in a buffer reused by the next call', () => {
  const dir = nodeFs.mkdtempSync(path.join(nodeOs.tmpdir(), 'skillflow-transient-'));
  try {
    const small = path.join(dir, 'small.md');
    const big = path.join(dir, 'big.md');
    const empty = path.join(dir, 'empty.md');
    nodeFs.writeFileSync(small, 'é😀 small\n');
    // Larger than the initial buffer (64 KiB): it grows, and the bytes copied so far are kept.
    const bigBytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => 'abcdefghij—'[i % 11]).join(''));
    nodeFs.writeFileSync(big, bigBytes);
    nodeFs.writeFileSync(empty, '');
    const read = nodeFileSystem.readFileTransient!;
    assert.equal(read(small).toString('utf8'), 'é😀 small\n');
    assert.ok(read(big).equals(bigBytes));
    assert.equal(read(empty).length, 0);
    // With the size from a stat: the same bytes (and a size of 0 means unknown, as for readFile).
    assert.ok(read(big, bigBytes.length).equals(bigBytes));
    assert.equal(read(small, 0).toString('utf8'), 'é😀 small\n');
    // No allocation per file: two reads return views of the same memory.
    assert.equal(read(small).buffer, read(empty).buffer);
    assert.throws(() => read(path.join(dir, 'missing.md')), /ENOENT/);
    // Through a read cache too.
    assert.equal(withReadCache(nodeFileSystem).readFileTransient!(small).toString('utf8'), 'é😀 small\n');
  } finally {
    nodeFs.rmSync(dir, { recursive: true, force: true });
  }
});

test('nodeFileSystem.readFileTransient: a path that is no regular file never hangs the read, with or without a size', () => {
  const dir = nodeFs.mkdtempSync(path.join(nodeOs.tmpdir(), 'skillflow-transient-'));
  try {
    const fifo = path.join(dir, 'SKILL.md');
    execFileSync('mkfifo', [fifo]);
    const read = nodeFileSystem.readFileTransient!;
    // Without a size the opened file is checked: not a regular file.
    assert.throws(() => read(fifo), /not a regular file/);
    // With a size (a stat that found a file of that size, and the path was swapped since): the open does not wait for
    // a writer and the read ends at once (no writer: end of file), whatever the size.
    assert.equal(read(fifo, 100).length, 0);
    assert.throws(() => read(dir, 100), /EISDIR/);
  } finally {
    nodeFs.rmSync(dir, { recursive: true, force: true });
  }
});
