import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { guardedEdit, holdsTail, MAX_EDIT_BYTES, nodeSyscalls, type WriteSyscalls } from '../../../../src/core/base/guardedWrite';
import { mergeJsonChanges } from '../../../../src/core/base/jsonMerge';
import { loadCheckpoint, saveAnswers } from '../../../../src/core/checkpoint/checkpoint';
import { writeSkillOverride } from '../../../../src/core/claude/settingsEdit';
import { endWorkflow } from '../../../../src/core/workflow/end';
import { failingAt } from '../../helpers/faults';
import { race, type RaceMode, type RaceSurface } from '../../helpers/race';
import { removeTree, tempTree } from '../../helpers/tempTree';

const HAS_EXCHANGE = process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch) && nodeFs.existsSync('/usr/bin/perl');
const EDITS = Number(process.env.RACE_EDITS ?? 40);

for (const surface of ['answers', 'end', 'settings'] as RaceSurface[]) {
  for (const mode of ['append', 'rename'] as RaceMode[]) {
    test(`race: ${surface} against a second process that ${mode === 'append' ? 'writes in place' : 'replaces the file by rename'}: no line lost`, () => {
      const r = race(surface, mode, EDITS);
      assert.ok(r.written > 10, `the other process wrote ${r.written} lines`);
      assert.ok(r.ok > 0, `no write landed: ${r.failed.slice(0, 3).join(' | ')}`);
      // What another process appends in place is read back from the replaced file; a file it renames in at the last
      // moment is taken off the path by the exchange and folded in (JSON files merge three ways).
      assert.deepEqual(r.lost, [], `${r.lost.length} of ${r.written} lines lost; ${r.ok} writes ok, failures: ${r.failed.slice(0, 3).join(' | ')}`);
      assert.deepEqual(r.left, [], 'nothing is left next to the file');
    });
  }
}

/** The file system of a guarded write, where another program renames its version over `file` at the commit. */
function renamedAtCommit(file: string, other: () => void, between = false): WriteSyscalls {
  let done = false;
  const once = () => { if (!done) { done = true; other(); } };
  return {
    ...nodeSyscalls,
    renameSync: (a, b) => { if (b === file) once(); nodeSyscalls.renameSync(a, b); },
    exchangeSync: (tmp, p, ino, size) => {
      const first = !done;
      once();
      // `between`: the other rename lands after the exchange's own check, just before the swap (microseconds).
      const now = between && first ? nodeFs.lstatSync(p) : undefined;
      return nodeSyscalls.exchangeSync!(tmp, p, now ? now.ino : ino, now ? now.size : size);
    },
  };
}

/** Another program's read, change and rename of `file`. */
function renameOver(file: string, change: (text: string) => string): void {
  const tmp = `${file}.other`;
  nodeFs.writeFileSync(tmp, change(nodeFs.readFileSync(file, 'utf8')));
  nodeFs.renameSync(tmp, file);
}

const withAnswer = (b: Buffer | undefined) => ({ ok: true as const, data: Buffer.from(b!.toString().replace('Answer:\n', 'Answer: main\n')) });

test('a version another program renames over the file at the instant of the commit is kept (the rename before the exchange)', () => {
  const root = tempTree({ 'c.md': 'Answer:\nL0\n' });
  const file = nodePath.join(root, 'c.md');
  try {
    const r = guardedEdit(file, withAnswer, { root, sys: renamedAtCommit(file, () => renameOver(file, (t) => `${t}L1\n`)) });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'Answer: main\nL0\nL1\n');
    assert.deepEqual(nodeFs.readdirSync(root), ['c.md']);
  } finally { removeTree(root); }
});

test('a version renamed in between the exchange\'s check and the swap is taken off the path and folded in (lines and JSON)', () => {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return; // no exchange: the documented residual
  const root = tempTree({ 'c.md': 'Answer:\nL0\n', 's.json': '{\n  "phase": "PLAN",\n  "events": [\n    "L0"\n  ]\n}\n' });
  try {
    const lines = nodePath.join(root, 'c.md');
    const r = guardedEdit(lines, withAnswer, { root, sys: renamedAtCommit(lines, () => renameOver(lines, (t) => `${t}L1\n`), true) });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(nodeFs.readFileSync(lines, 'utf8'), 'Answer: main\nL0\nL1\n');
    const json = nodePath.join(root, 's.json');
    const addEvent = (e: string) => (t: string) => { const o = JSON.parse(t) as { events: string[] }; o.events.push(e); return `${JSON.stringify(o, null, 2)}\n`; };
    const cancel = (b: Buffer | undefined) => ({ ok: true as const, data: Buffer.from(b!.toString().replace('"PLAN"', '"CANCELLED"')) });
    // The other program renames L1 in at the swap, then (having read ours) L2: both diverge from what was read.
    const sys = renamedAtCommit(json, () => renameOver(json, addEvent('L1')), true);
    const exchange = sys.exchangeSync!;
    sys.exchangeSync = (...a) => { const out = exchange(...a); renameOver(json, addEvent('L2')); sys.exchangeSync = exchange; return out; };
    const j = guardedEdit(json, cancel, { root, sys, merge: mergeJsonChanges });
    assert.equal(j.ok, true, JSON.stringify(j));
    assert.deepEqual(JSON.parse(nodeFs.readFileSync(json, 'utf8')), { phase: 'CANCELLED', events: ['L0', 'L1', 'L2'] });
    assert.deepEqual(nodeFs.readdirSync(root).sort(), ['c.md', 's.json']);
  } finally { removeTree(root); }
});

test('a link another program renames in at the commit is never followed: nothing from outside the workspace comes in', () => {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return;
  for (const between of [true, false]) {
    const base = tempTree({ 'secret.txt': 'SECRET\n', 'ws/c.md': 'Answer:\nL0\n' });
    const root = nodePath.join(base, 'ws');
    const file = nodePath.join(root, 'c.md');
    try {
      const linkIn = () => { nodeFs.symlinkSync(nodePath.join(base, 'secret.txt'), `${file}.other`); nodeFs.renameSync(`${file}.other`, file); };
      const r = guardedEdit(file, withAnswer, { root, sys: renamedAtCommit(file, linkIn, between) });
      // Before or after the exchange's own check: the exchange swaps only a regular file (checked again right before
      // the swap), so the link is refused and left as the other program put it, never read or followed.
      assert.equal(r.ok, false, `${between}: ${JSON.stringify(r)}`);
      assert.match(r.ok ? '' : r.message, /replaced by a link/);
      assert.ok(nodeFs.lstatSync(file).isSymbolicLink());
      assert.equal(nodeFs.readFileSync(nodePath.join(base, 'secret.txt'), 'utf8'), 'SECRET\n');
      assert.deepEqual(nodeFs.readdirSync(root), ['c.md']);
    } finally { removeTree(base); }
  }
});

/** A second process that opens `file` for appending, says so, waits `ms`, appends `line` and closes it. */
function holdOpen(file: string, ms: number, line: string): { ready: string; done: string } {
  const ready = `${file}.ready`;
  const done = `${file}.done`;
  const code = `const fs = require('fs'); const [f, ms, line, ready, done] = process.argv.slice(1);
    const fd = fs.openSync(f, 'a'); fs.writeFileSync(ready, '');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
    fs.writeSync(fd, line); fs.closeSync(fd); fs.writeFileSync(done, '');`;
  spawn(process.execPath, ['-e', code, file, String(ms), line, ready, done], { stdio: 'ignore' }).unref();
  waitForFile(ready, 10_000);
  return { ready, done };
}

function waitForFile(file: string, ms: number): void {
  const until = Date.now() + ms;
  while (!nodeFs.existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
}

test('a program that opened the file before the edit and writes a moment later: its line is kept (the exchange waits for it)', () => {
  if (!HAS_EXCHANGE) return; // no exchange: the documented residual
  const base = tempTree({ 'ws/c.md': 'Answer:\nL0\n' });
  const root = nodePath.join(base, 'ws');
  const file = nodePath.join(root, 'c.md');
  try {
    const { ready, done } = holdOpen(file, 300, 'LATE\n');
    nodeFs.rmSync(ready);
    const r = guardedEdit(file, withAnswer, { root });
    waitForFile(done, 10_000);
    assert.equal(r.ok, true, JSON.stringify(r));
    // Without the wait, LATE went to the file our replacement had taken off the path, and was gone with it.
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'Answer: main\nL0\nLATE\n');
  } finally { removeTree(base); }
});

test('a program that keeps the file open for writing: the edit is refused with a message, and its line is kept', () => {
  if (!HAS_EXCHANGE) return;
  const base = tempTree({ 'ws/c.md': 'Answer:\nL0\n' });
  const root = nodePath.join(base, 'ws');
  const file = nodePath.join(root, 'c.md');
  try {
    const { ready, done } = holdOpen(file, 3000, 'LATE\n');
    nodeFs.rmSync(ready);
    const r = guardedEdit(file, withAnswer, { root });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /kept .*c\.md open for writing.*nothing was written/);
    waitForFile(done, 10_000);
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'Answer:\nL0\nLATE\n');
  } finally { removeTree(base); }
});

test('bytes that cannot be written back (the file changes at every attempt) are saved next to the file, and the message says where', () => {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return;
  const root = tempTree({ 'c.md': 'Answer:\nL0\n' });
  const file = nodePath.join(root, 'c.md');
  try {
    const sys = renamedAtCommit(file, () => renameOver(file, (t) => `${t}L1\n`), true);
    const first = sys.exchangeSync!;
    // After the first exchange (which takes L1 off the path), every later one finds the file changed.
    sys.exchangeSync = (...a) => { sys.exchangeSync = () => 'changed'; return first(...a); };
    const r = guardedEdit(file, withAnswer, { root, sys, carryMs: 50 });
    assert.equal(r.ok, false);
    const kept = nodeFs.readdirSync(root).filter((n) => n.startsWith('c.md.skillflow-kept-'));
    assert.equal(kept.length, 1, nodeFs.readdirSync(root).join(', '));
    assert.equal(nodeFs.readFileSync(nodePath.join(root, kept[0]), 'utf8'), 'Answer:\nL0\nL1\n');
    assert.match(r.ok ? '' : r.message, new RegExp(`saved as .*${kept[0]}`));
  } finally { removeTree(root); }
});

test('without an exchange (another system, no Perl) the file is renamed over: the edit lands, mode kept, no temp file', () => {
  const root = tempTree({ 'c.md': 'Answer:\nL0\n' });
  const file = nodePath.join(root, 'c.md');
  try {
    nodeFs.chmodSync(file, 0o640);
    const r = guardedEdit(file, withAnswer, { root, sys: { ...nodeSyscalls, exchangeSync: () => 'unsupported' } });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'Answer: main\nL0\n');
    assert.equal(nodeFs.statSync(file).mode & 0o777, 0o640);
    assert.deepEqual(nodeFs.readdirSync(root), ['c.md']);
    const none = guardedEdit(file, (b) => ({ ok: true, data: Buffer.from(b!.toString().replace('main\n', 'develop\n')) }), { root, sys: { ...nodeSyscalls, exchangeSync: undefined } });
    assert.equal(none.ok, true, JSON.stringify(none));
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'Answer: develop\nL0\n');
  } finally { removeTree(root); }
});

const CONTEXT = `---\nskill: code-review\nstatus: AWAIT\n---\n# Checkpoint: code-review\n\n## Progress Summary\nPaused.\n\n## Questions\n\n### Q1: Which branch?\nType: single\nOptions:\n- main\n- develop\nAnswer:\n`;
const STATUS = '{\n  "phase": "PLAN",\n  "mode": "full",\n  "transitions": []\n}\n';

function workflowTree(status: string | Buffer = STATUS): string {
  return tempTree({ '.workflow/registry.json': '{\n  "k": "wd"\n}\n', 'wd/status.json': status });
}

test('a status.json that is a link inside the workspace is edited at its target; mode kept; hard links stay one file', () => {
  const root = workflowTree();
  try {
    nodeFs.renameSync(nodePath.join(root, 'wd/status.json'), nodePath.join(root, 'real-status.json'));
    nodeFs.symlinkSync('../real-status.json', nodePath.join(root, 'wd/status.json'));
    nodeFs.chmodSync(nodePath.join(root, 'real-status.json'), 0o664);
    nodeFs.linkSync(nodePath.join(root, '.workflow/registry.json'), nodePath.join(root, 'registry-link.json'));
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED', { now: new Date(0) });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.ok(nodeFs.lstatSync(nodePath.join(root, 'wd/status.json')).isSymbolicLink(), 'the link is still a link');
    assert.match(nodeFs.readFileSync(nodePath.join(root, 'real-status.json'), 'utf8'), /"phase": "CANCELLED"/);
    assert.equal(nodeFs.statSync(nodePath.join(root, 'real-status.json')).mode & 0o777, 0o664);
    assert.equal(nodeFs.readFileSync(nodePath.join(root, 'registry-link.json'), 'utf8').includes('"k"'), false, 'the hard link sees the edit');
  } finally { removeTree(root); }
});

test('a .claude that links out of the workspace is refused: nothing is created or written there', () => {
  const base = tempTree({ 'elsewhere/keep.txt': 'x' });
  try {
    const root = nodePath.join(base, 'ws');
    nodeFs.mkdirSync(root);
    nodeFs.symlinkSync('../elsewhere', nodePath.join(root, '.claude'));
    const r = writeSkillOverride(nodeFileSystem, root, nodePath.join(root, '.claude/settings.local.json'), 'review', 'off');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /outside/);
    assert.deepEqual(nodeFs.readdirSync(nodePath.join(base, 'elsewhere')), ['keep.txt']);
  } finally { removeTree(base); }
});

test('an 8 MB string in status.json is refused with a message, not a RangeError', () => {
  const big = `{\n  "phase": "PLAN",\n  "mode": "full",\n  "blob": "${'a'.repeat(8 * 1024 * 1024)}",\n  "transitions": []\n}\n`;
  const root = workflowTree(big);
  try {
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, new RegExp(`larger than ${MAX_EDIT_BYTES} bytes`));
  } finally { removeTree(root); }
});

test('Latin-1 bytes elsewhere in status.json or settings.local.json: refused, every byte kept', () => {
  const status = Buffer.from('{\n  "phase": "PLAN",\n  "mode": "full",\n  "title": "Caf\xe9",\n  "transitions": []\n}\n', 'latin1');
  const root = workflowTree(status);
  try {
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /not UTF-8/);
    assert.ok(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json')).equals(status));
    const settings = nodePath.join(root, '.claude/settings.local.json');
    nodeFs.mkdirSync(nodePath.dirname(settings));
    const bytes = Buffer.from('{ "note": "Caf\xe9" }\n', 'latin1');
    nodeFs.writeFileSync(settings, bytes);
    const s = writeSkillOverride(nodeFileSystem, root, settings, 'review', 'off');
    assert.equal(s.ok, false);
    assert.ok(nodeFs.readFileSync(settings).equals(bytes));
  } finally { removeTree(root); }
});

test('a NUL-prefixed heading line is never swallowed by an answer: the file is refused', () => {
  const text = CONTEXT.replace('Answer:\n', 'Answer:\n\0\0### Q2: Hidden?\nAnswer: keep me\n');
  const root = tempTree({ '.agent/tmp/n-context.md': text });
  try {
    const cp = loadCheckpoint(nodeFileSystem, root, '.agent/tmp/n-context.md');
    assert.ok(cp.ok);
    const r = saveAnswers(nodeFileSystem, cp.checkpoint, { Q1: 'main' });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /NUL/);
    assert.equal(nodeFs.readFileSync(nodePath.join(root, '.agent/tmp/n-context.md'), 'utf8'), text);
  } finally { removeTree(root); }
});

test('a failure or a kill at any step leaves the old or the new content, and the next write leaves no temp file', () => {
  for (const code of ['ENOSPC', 'EIO', 'KILL']) {
    for (let k = 1; k < 40; k++) {
      const root = tempTree({ 'f.txt': 'old\n' });
      const file = nodePath.join(root, 'f.txt');
      try {
        const edit = (b: Buffer | undefined) => ({ ok: true as const, data: Buffer.from(b!.toString().replace('old', 'new')) });
        const r = guardedEdit(file, edit, { root, sys: failingAt(k, code) });
        const now = nodeFs.readFileSync(file, 'utf8');
        assert.ok(now === 'old\n' || now === 'new\n', `${code} at ${k}: ${JSON.stringify(now)}`);
        if (r.ok) assert.equal(now, 'new\n');
        if (code !== 'KILL') assert.deepEqual(nodeFs.readdirSync(root), ['f.txt'], `${code} at ${k}`);
        const again = guardedEdit(file, edit, { root });
        assert.equal(again.ok, true);
        assert.equal(nodeFs.readFileSync(file, 'utf8'), 'new\n');
        assert.deepEqual(nodeFs.readdirSync(root), ['f.txt'], `${code} at ${k}: the retry cleans up`);
      } finally { removeTree(root); }
    }
  }
});

test('Cancel stopped between status.json and registry.json is finished by running it again', () => {
  const root = workflowTree();
  try {
    // registry.json's edit fails (a full disk): status.json is written, the message says so.
    const registry = nodePath.join(root, '.workflow/registry.json');
    nodeFs.chmodSync(nodePath.join(root, '.workflow'), 0o555);
    let r;
    try { r = endWorkflow(nodeFileSystem, root, 'k', 'FAILED', { now: new Date(0) }); } finally { nodeFs.chmodSync(nodePath.join(root, '.workflow'), 0o755); }
    if (process.getuid?.() === 0) return; // root ignores the folder's mode
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /^status\.json now says FAILED, but 'k' could not be removed from registry\.json: .*Run the same action again to finish\.$/);
    assert.match(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json'), 'utf8'), /"phase": "FAILED"/);
    const again = endWorkflow(nodeFileSystem, root, 'k', 'FAILED', { now: new Date(0) });
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(JSON.parse(nodeFs.readFileSync(registry, 'utf8')).k, undefined);
    assert.equal((JSON.parse(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json'), 'utf8')) as { transitions: unknown[] }).transitions.length, 1, 'no second transition');
  } finally { removeTree(root); }
});

test('bytes carried from a replaced file count as already there only where they stand after the same byte', () => {
  const read = Buffer.from('Answer:\nL1\n');
  const old = Buffer.from('Answer:\nL1\nL2\n');
  // "L2\n" inside "L12\n" is not the appended line L2 (it was taken for it, and L2 was dropped).
  assert.equal(holdsTail(Buffer.from('Answer: main\nL1\nL12\n'), old, read.length, 0), false);
  assert.equal(holdsTail(Buffer.from('Answer: main\nL1\nL12\nL2\n'), old, read.length, 0), true);
  assert.equal(holdsTail(Buffer.from('anything'), read, read.length, 0), true, 'nothing appended');
});
