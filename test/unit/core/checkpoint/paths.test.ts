import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { OUTSIDE_WORKSPACE, resolveContextPath } from '../../../../src/core/checkpoint/paths';
import { loadCheckpoint } from '../../../../src/core/checkpoint/checkpoint';

let base: string;
let ws: string;
let outside: string;

before(() => {
  base = mkdtempSync(join(tmpdir(), 'skillflow-paths-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, '.agent/tmp'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, '.agent/tmp/a-context.md'), 'x');
  writeFileSync(join(outside, 'secret-context.md'), 'x');
  symlinkSync(join(outside, 'secret-context.md'), join(ws, '.agent/tmp/link-out-context.md'));
  symlinkSync(join(ws, '.agent/tmp/a-context.md'), join(ws, '.agent/tmp/link-in-context.md'));
  symlinkSync(outside, join(ws, 'dir-out'));
  symlinkSync(join(outside, 'missing.md'), join(ws, '.agent/tmp/dangling-context.md'));
  symlinkSync(join(outside, 'no-such-dir'), join(ws, 'dangling-dir'));
  mkdirSync(join(ws, 'inner/real'), { recursive: true });
  symlinkSync(join(ws, 'inner/real'), join(ws, 'link-in-dir'));
});
after(() => rmSync(base, { recursive: true, force: true }));

test('a workspace-relative path resolves inside, with a /-separated relative path', () => {
  const r = resolveContextPath(nodeFileSystem, ws, '.agent/tmp/a-context.md');
  assert.deepEqual(r, { ok: true, absPath: join(ws, '.agent/tmp/a-context.md'), realPath: join(ws, '.agent/tmp/a-context.md'), relPath: '.agent/tmp/a-context.md', exists: true });
});

test('an absolute path inside the workspace is accepted', () => {
  const r = resolveContextPath(nodeFileSystem, ws, join(ws, '.agent/tmp/a-context.md'));
  assert.equal(r.ok && r.relPath, '.agent/tmp/a-context.md');
});

test('a missing file inside is ok but does not exist', () => {
  const r = resolveContextPath(nodeFileSystem, ws, '.agent/tmp/nope-context.md');
  assert.equal(r.ok && r.exists, false);
});

test('../x, absolute paths elsewhere and the folder itself are refused', () => {
  for (const p of ['../outside/secret-context.md', '.agent/../../outside/secret-context.md', join(outside, 'secret-context.md'), '/etc/passwd', '..', '.', '']) {
    const r = resolveContextPath(nodeFileSystem, ws, p);
    assert.equal(r.ok, false, p);
    if (!r.ok && p !== '') assert.equal(r.message, OUTSIDE_WORKSPACE, p);
  }
  const r = resolveContextPath(nodeFileSystem, ws, 'a\0b');
  assert.deepEqual(r, { ok: false, message: 'CONTEXT_PATH is empty or invalid' });
});

test('a symlink out of the workspace is refused (by real path)', () => {
  assert.deepEqual(resolveContextPath(nodeFileSystem, ws, '.agent/tmp/link-out-context.md'), { ok: false, message: OUTSIDE_WORKSPACE });
  assert.deepEqual(resolveContextPath(nodeFileSystem, ws, 'dir-out/secret-context.md'), { ok: false, message: OUTSIDE_WORKSPACE });
  assert.deepEqual(resolveContextPath(nodeFileSystem, ws, 'dir-out/new-context.md'), { ok: false, message: OUTSIDE_WORKSPACE });
  assert.deepEqual(resolveContextPath(nodeFileSystem, ws, '.agent/tmp/dangling-context.md'), { ok: false, message: OUTSIDE_WORKSPACE });
});

test('a symlink that stays inside resolves to its target', () => {
  const r = resolveContextPath(nodeFileSystem, ws, '.agent/tmp/link-in-context.md');
  assert.equal(r.ok, true);
  assert.equal(r.ok && r.realPath, join(ws, '.agent/tmp/a-context.md'));
  assert.equal(r.ok && r.relPath, '.agent/tmp/link-in-context.md');
});

test('Windows paths: ..\\ and other drives are refused, relPath uses /', () => {
  const fakeFs = { ...nodeFileSystem, realPath: () => undefined, lstat: () => undefined };
  const win = nodePath.win32 as unknown as typeof nodePath.posix;
  assert.deepEqual(resolveContextPath(fakeFs, 'C:\\ws', '..\\x\\c.md', win), { ok: false, message: OUTSIDE_WORKSPACE });
  assert.deepEqual(resolveContextPath(fakeFs, 'C:\\ws', 'D:\\ws\\c.md', win), { ok: false, message: OUTSIDE_WORKSPACE });
  const r = resolveContextPath(fakeFs, 'C:\\ws', '.agent\\tmp\\c.md', win);
  assert.equal(r.ok && r.relPath, '.agent/tmp/c.md');
});

// Regression: a CONTEXT_PATH of a file that does not exist yet, under a folder that links outside, was accepted
// when a folder between the link and the file was missing too.
test('a missing file is refused when the deepest existing folder on its way leads out', () => {
  for (const p of ['dir-out/new/deeper/x-context.md', 'dir-out/new/x-context.md', 'dangling-dir/x-context.md', 'dangling-dir/a/b/x-context.md']) {
    assert.deepEqual(resolveContextPath(nodeFileSystem, ws, p), { ok: false, message: OUTSIDE_WORKSPACE }, p);
    const loaded = loadCheckpoint(nodeFileSystem, ws, p);
    assert.deepEqual(loaded, { ok: false, message: OUTSIDE_WORKSPACE }, p);
  }
  // Missing folders that stay inside (also through a link that stays inside) are fine.
  for (const p of ['.agent/new/deeper/x-context.md', 'link-in-dir/a/b/x-context.md', 'brand/new/x-context.md']) {
    const r = resolveContextPath(nodeFileSystem, ws, p);
    assert.equal(r.ok && r.exists, false, p);
  }
});

test('control characters in CONTEXT_PATH are refused with the same message everywhere', () => {
  const cases: Array<[string, string]> = [
    ['a\nb-context.md', 'U+000A (line feed)'], ['x\u0015touch PWNED #-context.md', 'U+0015 (Ctrl-U)'], ['x\u0001-context.md', 'U+0001 (Ctrl-A)'],
    ['x\u0017-context.md', 'U+0017 (Ctrl-W)'], ['x\u007f.md', 'U+007F (delete)'], ['x\u0085.md', 'U+0085 (control character)'], ['x\u2028.md', 'U+2028 (line separator)'],
    ['x\u2029.md', 'U+2029 (paragraph separator)'], ['x\tb.md', 'U+0009 (tab)'], ['x\u001b.md', 'U+001B (escape)'],
  ];
  for (const [p, named] of cases) {
    assert.deepEqual(resolveContextPath(nodeFileSystem, ws, `.agent/tmp/${p}`), { ok: false, message: `CONTEXT_PATH contains the control character ${named}; rename the file` }, JSON.stringify(p));
  }
  // Surrounding blanks are trimmed as before; a path that is only blank is empty.
  assert.equal(resolveContextPath(nodeFileSystem, ws, ' .agent/tmp/a-context.md\n').ok, true);
});
