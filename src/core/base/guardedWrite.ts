/**
 * The one write path for files that other programs write too (checkpoint context files, a workflow's status.json
 * and registry.json, `.claude/settings.local.json`). Promises:
 * - containment: the real path of the file (a link is followed to its target) stays inside `root`, else nothing is
 *   written;
 * - no lost bytes: the file is read through a descriptor that stays open across the replacement. The replacement is
 *   an exchange (renameat2 RENAME_EXCHANGE, renameExchange.ts) made under a read lease: no other program has the file
 *   open for writing (one that opens it waits), the bytes are compared with those edited, the path must still name the
 *   file, and the file taken off the path keeps a name: one another program renamed in at that instant is swapped
 *   straight back; lines an appender wrote to the old file (it had opened it just before) are appended to the new one
 *   in place; other bytes found there are folded into the next attempt (a JSON file rewritten on both sides through
 *   the caller's three-way `merge`) and the edit is applied again; the read-back checks they are still there. Bytes
 *   that cannot be written back within CARRY_MS are saved next to the file and the caller is told where. A program that
 *   keeps the file open for writing gets the edit refused. Without an exchange (not Linux x64/arm64, no
 *   /usr/bin/perl, a file system without it) the path is checked and renamed over: the residual in
 *   docs/architecture.md (Write guarantees);
 * - our edit lands: the file is read back and `landed` must hold, else the caller is told it did not;
 * - crash safety: the temp file is written, fsync'ed, exchanged (or renamed), and the folder fsync'ed; the path always
 *   names a whole file (readers never find it missing); a failure at any step removes the temp file (one left by a
 *   killed process is removed on the next write to that folder); the file holds its old or its new content;
 * - metadata: the mode and (where permitted) the owner are kept; a file with hard links is rewritten in place so the
 *   links stay one file;
 * - size: files over MAX_EDIT_BYTES are refused (the same limit every reader of these files uses).
 */
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { exchangeIfSame, type ExchangeOptions, type ExchangeOutcome } from './renameExchange';

/** The largest file any reader or writer of workflow, checkpoint or settings files handles. */
export const MAX_EDIT_BYTES = 1024 * 1024;

/** The system calls a guarded write makes; tests replace them to inject failures at any step. */
export interface WriteSyscalls {
  openSync: typeof nodeFs.openSync;
  closeSync: typeof nodeFs.closeSync;
  readSync: (fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => number;
  writeSync: (fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => number;
  fstatSync: (fd: number) => nodeFs.Stats;
  statSync: (path: string) => nodeFs.Stats;
  lstatSync: (path: string) => nodeFs.Stats;
  fsyncSync: typeof nodeFs.fsyncSync;
  ftruncateSync: (fd: number, len: number) => void;
  fchmodSync: typeof nodeFs.fchmodSync;
  fchownSync: typeof nodeFs.fchownSync;
  renameSync: typeof nodeFs.renameSync;
  unlinkSync: typeof nodeFs.unlinkSync;
  readdirSync: (path: string) => string[];
  realpathSync: (path: string) => string;
  /** Swaps `tmp` and `path` when `path` still names inode `ino` of `size` bytes (absent: no exchange, rename). */
  exchangeSync?: (tmp: string, path: string, ino: number, size: number, options?: ExchangeOptions) => ExchangeOutcome;
}

export const nodeSyscalls: WriteSyscalls = {
  openSync: nodeFs.openSync,
  closeSync: nodeFs.closeSync,
  readSync: (fd, b, o, l, p) => nodeFs.readSync(fd, b, o, l, p),
  writeSync: (fd, b, o, l, p) => nodeFs.writeSync(fd, b, o, l, p),
  fstatSync: (fd) => nodeFs.fstatSync(fd),
  statSync: (p) => nodeFs.statSync(p),
  lstatSync: (p) => nodeFs.lstatSync(p),
  fsyncSync: nodeFs.fsyncSync,
  ftruncateSync: (fd, len) => nodeFs.ftruncateSync(fd, len),
  fchmodSync: nodeFs.fchmodSync,
  fchownSync: nodeFs.fchownSync,
  renameSync: nodeFs.renameSync,
  unlinkSync: nodeFs.unlinkSync,
  readdirSync: (p) => nodeFs.readdirSync(p),
  realpathSync: (p) => nodeFs.realpathSync.native(p),
  exchangeSync: exchangeIfSame,
};

export type EditOutcome = { ok: true; data: Buffer } | { ok: false; message: string };

export interface GuardedEditOptions {
  /** The workspace folder: the file's real path must stay inside it. */
  root: string;
  /** Allow creating the file when it does not exist (the edit then gets `undefined`). */
  create?: boolean;
  /** Whether the bytes read back hold the edit; default: applying the edit again changes nothing. */
  landed?: (readBack: Buffer) => boolean;
  /**
   * Folds `theirs` (what another program made of `ancestor`, the bytes we had read) into `current` (what the file
   * holds now, made from our edit); undefined when it cannot. Used when another program rewrote the file on both
   * sides of our replacement (a JSON file rewritten whole); a line file needs none (appended bytes are put back).
   */
  merge?: (ancestor: Buffer, theirs: Buffer, current: Buffer) => Buffer | undefined;
  /** Attempts before giving up (default 16). */
  attempts?: number;
  /** How long bytes carried from a replaced file keep being written back (default CARRY_MS). */
  carryMs?: number;
  sys?: WriteSyscalls;
}

export type GuardedEditResult =
  | { ok: true; path: string; data: Buffer; changed: boolean }
  /** `written` false: nothing of ours is in the file; true: the new content was written but could not be checked. */
  | { ok: false; message: string; written: boolean };

const TEMP_MARK = '.skillflow-';
/** How long the old file is watched after the rename for a write already under way. */
const SETTLE_MS = 3;
/** How long bytes carried from a replaced file keep being written back before they are saved next to the file. */
const CARRY_MS = 5000;
const TEMP_END = '.tmp';

function isInsideDir(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The path to write for `path`: its real path (a link is edited at its target), refused when that leaves `root`.
 * A missing file resolves through its folder.
 */
export function resolveWriteTarget(path: string, root: string, sys: WriteSyscalls = nodeSyscalls): { ok: true; path: string; exists: boolean } | { ok: false; message: string } {
  const absRoot = nodePath.resolve(root);
  let realRoot: string;
  try { realRoot = sys.realpathSync(absRoot); } catch { return { ok: false, message: `the workspace folder ${absRoot} could not be resolved` }; }
  const abs = nodePath.resolve(path);
  let real: string;
  let exists = true;
  try { real = sys.realpathSync(abs); } catch (e) {
    if (errCode(e) !== 'ENOENT') return { ok: false, message: `${abs} could not be resolved: ${message(e)}` };
    exists = false;
    try { real = nodePath.join(sys.realpathSync(nodePath.dirname(abs)), nodePath.basename(abs)); } catch (e2) {
      return { ok: false, message: `${nodePath.dirname(abs)} could not be resolved: ${message(e2)}` };
    }
  }
  if (!isInsideDir(realRoot, real)) {
    return { ok: false, message: `${abs} leads outside ${absRoot} (to ${real}) through a symbolic link; Skillflow only writes inside the workspace folder, so nothing was written` };
  }
  return { ok: true, path: real, exists };
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // a synchronous writer has no temp file of its own in flight between calls
  try { process.kill(pid, 0); return true; } catch (e) { return errCode(e) === 'EPERM'; }
}

/** Removes the temp files a killed Skillflow process left next to `file` (ours are named `.<name>.skillflow-<pid>-…`). */
export function removeStaleTemps(file: string, sys: WriteSyscalls = nodeSyscalls): void {
  const dir = nodePath.dirname(file);
  const prefix = `.${nodePath.basename(file)}${TEMP_MARK}`;
  let names: string[];
  try { names = sys.readdirSync(dir); } catch { return; }
  for (const n of names) {
    if (!n.startsWith(prefix) || !n.endsWith(TEMP_END)) continue;
    const pid = Number(/^(\d+)-/.exec(n.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || isAlive(pid)) continue;
    try { sys.unlinkSync(nodePath.join(dir, n)); } catch { /* gone, or not ours to remove */ }
  }
}

let counter = 0;

function readAll(sys: WriteSyscalls, fd: number, limit: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  let pos = 0;
  for (;;) {
    const b = Buffer.allocUnsafe(64 * 1024);
    const n = sys.readSync(fd, b, 0, b.length, pos);
    if (n === 0) break;
    chunks.push(b.subarray(0, n));
    total += n;
    pos += n;
    if (total > limit) return undefined;
  }
  return Buffer.concat(chunks, total);
}

/**
 * How the file is opened: a FIFO put there cannot block us, and a link put there after the containment check is not
 * followed (the path is the file's real path: a link there now was put by another program).
 */
const READ_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0) | (nodeFs.constants.O_NOFOLLOW ?? 0);

/** The bytes of the file named `file` (undefined past `limit`). */
function readNamed(sys: WriteSyscalls, file: string, limit: number): Buffer | undefined {
  const fd = sys.openSync(file, READ_FLAGS);
  try { return readAll(sys, fd, limit); } finally { sys.closeSync(fd); }
}

/**
 * What the replaced file (open as `fd`) holds once another program's write to it has finished: `read` when it is
 * unchanged, else the first of two reads a settle apart that agree (a file caught between an in-place writer's
 * truncation and its write is never carried as the other program's version); undefined when there is none.
 */
function settledRead(sys: WriteSyscalls, fd: number, read: Buffer): Buffer | undefined {
  let now = readAll(sys, fd, MAX_EDIT_BYTES * 2);
  for (let i = 0; i < 20 && now && !now.equals(read); i++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
    const again = readAll(sys, fd, MAX_EDIT_BYTES * 2);
    if (again && again.equals(now)) break;
    now = again;
  }
  // Still empty: a writer stopped between truncating the file and writing it; there is nothing of its to carry.
  return now && !now.length && read.length ? undefined : now;
}

/** Appends `tail` to `file` in place when it is still the file `ours` (our replacement); false when it is not. */
function appendInPlace(sys: WriteSyscalls, file: string, ours: nodeFs.Stats, tail: Buffer): boolean {
  let fd: number | undefined;
  try {
    fd = sys.openSync(file, nodeFs.constants.O_WRONLY | nodeFs.constants.O_APPEND | (nodeFs.constants.O_NOFOLLOW ?? 0));
    if (!sameFile(sys.fstatSync(fd), ours)) return false;
    let off = 0;
    while (off < tail.length) off += sys.writeSync(fd, tail, off, tail.length - off, null);
    sys.fsyncSync(fd);
    return true;
  } catch { return false; } finally {
    if (fd !== undefined) try { sys.closeSync(fd); } catch { /* closed */ }
  }
}

function writeAll(sys: WriteSyscalls, fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += sys.writeSync(fd, data, off, data.length - off, off);
}

function fsyncDir(sys: WriteSyscalls, dir: string): void {
  let fd: number | undefined;
  try {
    fd = sys.openSync(dir, nodeFs.constants.O_RDONLY);
    sys.fsyncSync(fd);
  } catch { /* some file systems cannot open or sync a folder: the rename itself is still atomic */ } finally {
    if (fd !== undefined) try { sys.closeSync(fd); } catch { /* closed */ }
  }
}

/** Writes `data` to a new temp file next to `target` with `mode`/owner of `like`, fsync'ed; returns its path. */
function writeTemp(sys: WriteSyscalls, target: string, data: Buffer, like: nodeFs.Stats | undefined): string {
  const tmp = nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}${TEMP_MARK}${process.pid}-${Date.now()}-${counter++}${TEMP_END}`);
  const fd = sys.openSync(tmp, nodeFs.constants.O_WRONLY | nodeFs.constants.O_CREAT | nodeFs.constants.O_EXCL, 0o600);
  try {
    try {
      writeAll(sys, fd, data);
      if (like) {
        try { sys.fchownSync(fd, like.uid, like.gid); } catch { /* not permitted: the file becomes the writer's, as any editor's save does */ }
        sys.fchmodSync(fd, like.mode & 0o7777);
      } else {
        sys.fchmodSync(fd, 0o666 & ~process.umask());
      }
      sys.fsyncSync(fd);
    } finally {
      sys.closeSync(fd);
    }
  } catch (e) {
    try { sys.unlinkSync(tmp); } catch { /* the next write removes it */ }
    throw e;
  }
  return tmp;
}

/** Bytes another program wrote to a file our replacement took off the path: what we had read, theirs, what we wrote. */
interface Carried { read: Buffer; old: Buffer; wrote: Buffer }

/**
 * Whether `current` holds `old`'s bytes after `at` from `from` on, preceded by the byte that precedes them in `old`
 * (a line appended after a line end is found only at a line start: "L2\n" is not in "L12\n").
 */
export function holdsTail(current: Buffer, old: Buffer, at: number, from: number): boolean {
  const tail = old.subarray(at);
  if (!tail.length) return true;
  for (let p = current.indexOf(tail, from); p >= 0; p = current.indexOf(tail, p + 1)) {
    if (at === 0 || (p > 0 && current[p - 1] === old[at - 1])) return true;
  }
  return false;
}

/**
 * `current` with the carried bytes put back, or undefined when that cannot be done now. Appended bytes go after
 * what came from ours (nothing when `current` holds them already); a file rewritten on both sides goes through the
 * caller's three-way merge.
 */
function foldIn(carried: Carried, current: Buffer, merge: GuardedEditOptions['merge']): Buffer | undefined {
  const appended = carried.old.subarray(0, carried.read.length).equals(carried.read);
  // Already folded in: the appended bytes stand where an earlier fold put them (after what we had read, give or take
  // what the edit changed), not merely somewhere earlier in the file.
  const from = Math.max(0, Math.min(carried.read.length, carried.wrote.length) - Math.abs(carried.read.length - carried.wrote.length));
  if (appended && holdsTail(current, carried.old, carried.read.length, from)) return current;
  // Our file, maybe with more appended: the old file's full content, then what came after ours.
  if (current.subarray(0, carried.wrote.length).equals(carried.wrote)) return Buffer.concat([carried.old, current.subarray(carried.wrote.length)]);
  if (appended) return Buffer.concat([current, carried.old.subarray(carried.read.length)]);
  return merge?.(carried.read, carried.old, current);
}

function sameFile(a: nodeFs.Stats, b: nodeFs.Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}

/** Whether the file read through `fd` (stat'ed as `st`) changed or `file` names another file now. */
function changedSince(sys: WriteSyscalls, fd: number, file: string, st: nodeFs.Stats): boolean {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS); // let an in-place write finish
  try {
    const now = sys.fstatSync(fd);
    const onPath = sys.statSync(file);
    return now.size !== st.size || now.mtimeMs !== st.mtimeMs || !sameFile(onPath, st);
  } catch { return true; }
}

/**
 * Reads `path` (within `root`), applies `edit`, and replaces the file with the result under the guarantees above.
 * `edit` must be a pure function of the bytes it is given (it may run more than once).
 */
export function guardedEdit(path: string, edit: (current: Buffer | undefined) => EditOutcome, options: GuardedEditOptions): GuardedEditResult {
  const sys = options.sys ?? nodeSyscalls;
  const attempts = options.attempts ?? 16;
  const target = resolveWriteTarget(path, options.root, sys);
  if (!target.ok) return { ok: false, message: target.message, written: false };
  const file = target.path;
  removeStaleTemps(file, sys);
  /** Bytes another program appended to a file our rename replaced: folded into the next attempt. */
  let carried: Carried | undefined;
  let lastWhy = 'the file kept changing';
  /** Set when the edit was refused while carried bytes were pending: only they are written back. */
  let refused: string | undefined;
  /** Whether a rename (or an in-place write) of ours has happened: a later failure must not say "nothing was written". */
  let wroteOnce = false;
  const fail = (why: string): GuardedEditResult => (wroteOnce
    ? { ok: false, message: `${path}: new content was written, but then ${why}`, written: true }
    : { ok: false, message: why, written: false });
  // Carried bytes get extra attempts: they are another program's, never dropped while the file can be written.
  // (for up to CARRY_MS: a program that rewrites the file every few milliseconds leaves only short gaps to land in).
  const carryUntil = Date.now() + (options.carryMs ?? CARRY_MS);
  for (let attempt = 0; attempt < attempts || (carried && (attempt < attempts * 4 || Date.now() < carryUntil)); attempt++) {
    let fd: number | undefined;
    let tmp: string | undefined;
    let committed = false;
    try {
      let st: nodeFs.Stats | undefined;
      let current: Buffer | undefined;
      try {
        fd = sys.openSync(file, READ_FLAGS);
      } catch (e) {
        if (errCode(e) === 'ELOOP') return fail(`${path} was replaced by a link while it was being edited; Skillflow does not follow it, nothing was written`);
        if (errCode(e) !== 'ENOENT') return fail(`cannot read ${path}: ${message(e)}; nothing was written`);
        if (!options.create) return fail(`${path} does not exist; nothing was written`);
      }
      if (fd !== undefined) {
        st = sys.fstatSync(fd);
        if (!st.isFile()) return fail(`${path} is not a regular file; nothing was written`);
        if (st.size > MAX_EDIT_BYTES) return fail(`${path} is larger than ${MAX_EDIT_BYTES} bytes; Skillflow does not edit it, nothing was written`);
        current = readAll(sys, fd, MAX_EDIT_BYTES);
        if (!current) return fail(`${path} is larger than ${MAX_EDIT_BYTES} bytes; Skillflow does not edit it, nothing was written`);
      }
      // Bytes another program wrote to the file our last replacement took off the path: folded into what is there now.
      let base = current;
      /** What this attempt folds in: checked again in the read-back (a writer that had read our earlier file may undo it). */
      const folding = carried;
      if (carried && current) {
        const merged = foldIn(carried, current, options.merge);
        if (!merged) {
          // Half-written now (or no merge for this file): read again a moment later; the bytes stay carried.
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
          lastWhy = 'another program rewrote the file while it was replaced, and its version could not be merged';
          continue;
        }
        base = merged;
      }
      const out: EditOutcome = refused !== undefined && base ? { ok: true, data: base } : edit(base);
      if (!out.ok) {
        // A refusal of bytes that were still being written (a torn read of an in-place write) is tried again.
        if (fd !== undefined && attempt + 1 < attempts && changedSince(sys, fd, file, st!)) { lastWhy = out.message; continue; }
        // Bytes taken from a file our rename replaced are put back even when the edit cannot be made now.
        if (carried) { refused = out.message; continue; }
        return fail(out.message);
      }
      if (base && current && out.data.equals(current)) {
        if (fd !== undefined) { sys.closeSync(fd); fd = undefined; }
        return { ok: true, path: file, data: current, changed: false };
      }
      if (st && st.nlink > 1) {
        // Hard links: the file must stay the one inode they share; rewritten in place under the same checks.
        sys.closeSync(fd!);
        fd = sys.openSync(file, nodeFs.constants.O_RDWR | (nodeFs.constants.O_NOFOLLOW ?? 0));
        const again = sys.fstatSync(fd);
        const now = readAll(sys, fd, MAX_EDIT_BYTES);
        if (!sameFile(again, st) || !now || !now.equals(current!)) { lastWhy = 'the file changed while it was being edited'; continue; }
        committed = true;
        wroteOnce = true;
        writeAll(sys, fd, out.data);
        sys.ftruncateSync(fd, out.data.length);
        sys.fsyncSync(fd);
      } else {
        tmp = writeTemp(sys, file, out.data, st);
        const ours = sys.exchangeSync && fd !== undefined ? sys.lstatSync(tmp) : undefined;
        // The last check, a constant number of system calls whatever the size: the file we read still holds the
        // bytes we edited, and the path still names it (checked again by the exchange, a few microseconds before it).
        if (fd !== undefined && sys.fstatSync(fd).size !== current!.length) { lastWhy = 'another program changed the file'; continue; }
        // While the exchange holds the file (no program has it open for writing; one that opens it waits), the bytes
        // are compared again: an in-place rewrite of the same size is seen too.
        const held = (): boolean => { const now = readAll(sys, fd!, MAX_EDIT_BYTES); return now !== undefined && now.equals(current!); };
        const swap = fd !== undefined && sys.exchangeSync
          ? sys.exchangeSync(tmp, file, st!.ino, current!.length, { unchanged: held, writers: options.merge ? 'rewrite' : 'append' })
          : 'unsupported';
        if (swap === 'busy') {
          // A program holds the file open for writing: replacing it now would leave its next bytes in a file that is
          // no longer on the path. Nothing was changed; bytes already carried keep being tried until CARRY_MS.
          lastWhy = `another program kept ${path} open for writing`;
          if (!carried) return fail(`${lastWhy}, so Skillflow did not replace it (what that program writes would be lost); nothing was written. Try again when it is done`);
          continue;
        }
        if (swap === 'changed') {
          lastWhy = 'another program changed the file';
          // Out of step with a writer on a fixed beat: the next attempt starts after a short random pause.
          if (carried) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * SETTLE_MS);
          continue;
        }
        if (swap === 'exchanged') {
          committed = true;
          wroteOnce = true;
          fsyncDir(sys, nodePath.dirname(file));
          // Our temp name now holds the file our exchange took off the path: the one we read (removed in `finally`),
          // or one another program renamed in just before: its bytes are kept and folded into the next attempt.
          const replaced = sys.lstatSync(tmp);
          if (!sameFile(replaced, st!)) {
            // Only a regular file is read (a link put there is never followed out of the workspace).
            const theirs = replaced.isFile() ? readNamed(sys, tmp, MAX_EDIT_BYTES * 2) : undefined;
            if (theirs) {
              carried = { read: current!, old: theirs, wrote: out.data };
              // Theirs goes straight back on the path (ours was there for one round trip): a program reading the
              // file now does not build on a version without its own bytes. Still carried: the read-back checks them.
              if (ours) sys.exchangeSync!(tmp, file, ours.ino, out.data.length);
            }
            lastWhy = 'another program replaced the file at the same moment';
            continue;
          }
        } else {
          // No exchange on this system: the path is checked, then renamed over (the residual in docs/architecture.md).
          if (fd !== undefined) {
            let onPath: nodeFs.Stats;
            try { onPath = sys.statSync(file); } catch { lastWhy = 'the file was removed while it was being edited'; continue; }
            if (!sameFile(onPath, st!) || onPath.mtimeMs !== st!.mtimeMs) { lastWhy = 'another program changed the file'; continue; }
          } else {
            try { sys.statSync(file); lastWhy = 'another program created the file'; continue; } catch { /* still absent */ }
          }
          sys.renameSync(tmp, file);
          tmp = undefined;
          committed = true;
          wroteOnce = true;
          fsyncDir(sys, nodePath.dirname(file));
        }
        if (fd !== undefined) {
          // Anything written to the old file between the check and the rename is still readable through fd (an
          // appender that opened it just before the rename writes a moment later: a short settle first).
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
          const old = settledRead(sys, fd, current!);
          // Lines a program appended to the old file after the swap (it had opened it just before): appended to the
          // file in place, as that program itself does; anything else is carried into the next attempt.
          if (old && !old.equals(current!) && !options.merge && ours && old.subarray(0, current!.length).equals(current!)
            && appendInPlace(sys, file, ours, old.subarray(current!.length))) { /* carried over in place */ }
          else if (!old || !old.equals(current!)) {
            carried = { read: current!, old: old ?? current!, wrote: out.data };
            lastWhy = 'another program wrote to the file while it was replaced';
            continue;
          }
        }
      }
      carried = undefined;
      // Read back: the edit must be there (another program may have replaced the file right after us).
      let back: Buffer | undefined;
      try { back = readNamed(sys, file, MAX_EDIT_BYTES * 2); } catch { back = undefined; }
      if (folding && back && !foldIn(folding, back, options.merge)?.equals(back)) {
        // Another program replaced our file with one made from the file that lacked its bytes: fold them in again.
        carried = folding;
        lastWhy = 'another program rewrote the file while it was replaced';
        continue;
      }
      if (refused !== undefined) return { ok: false, message: `${refused} (what another program wrote meanwhile was kept)`, written: false };
      const landed = back !== undefined && (options.landed ? options.landed(back) : (() => { const re = edit(back); return re.ok && re.data.equals(back); })());
      if (landed && fd !== undefined && !(st && st.nlink > 1)) {
        // A last look at the replaced file, later: an appender that opened it before the rename may write only now.
        const late = settledRead(sys, fd, current!);
        if (!late || !late.equals(current!)) {
          carried = { read: current!, old: late ?? current!, wrote: out.data };
          lastWhy = 'another program wrote to the file while it was replaced';
          continue;
        }
      }
      if (landed) return { ok: true, path: file, data: back!, changed: true };
      lastWhy = 'another program replaced the file right after the edit';
    } catch (e) {
      if (committed || wroteOnce) return { ok: false, message: `${path}: new content was written, but checking it afterwards failed: ${message(e)}`, written: true };
      return { ok: false, message: `could not write ${path}: ${message(e)}; the file was left as it was`, written: false };
    } finally {
      // Our temp file, or after an exchange the file it took off the path; a failed removal is tried once more.
      if (tmp !== undefined) try { sys.unlinkSync(tmp); } catch { try { sys.unlinkSync(tmp); } catch { /* the next write removes it */ } }
      if (fd !== undefined) try { sys.closeSync(fd); } catch { /* closed */ }
    }
  }
  if (carried) {
    // Bytes another program wrote that are no longer in the file: never dropped silently; kept next to it.
    const kept = `${file}.skillflow-kept-${Date.now()}`;
    try { replaceFile(kept, carried.old, sys); } catch (e) { return fail(`${path}: ${lastWhy}; what another program wrote meanwhile could not be saved either (${message(e)}): compare the file with your last change`); }
    return fail(`${path}: ${lastWhy}; the version another program wrote meanwhile is saved as ${kept}: compare it with the file and keep what you need`);
  }
  return fail(`${path}: ${lastWhy}; the edit did not land after ${attempts} attempts. Try again.`);
}

/**
 * Replaces `path` with `data` (no other writer expected: new files, packages): a fsync'ed temp file renamed over it,
 * the folder fsync'ed, mode and owner kept, the temp file removed on any failure.
 */
export function replaceFile(path: string, data: Buffer | string, sys: WriteSyscalls = nodeSyscalls): void {
  removeStaleTemps(path, sys);
  let like: nodeFs.Stats | undefined;
  try { like = sys.statSync(path); } catch { /* a new file */ }
  const tmp = writeTemp(sys, path, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, like);
  try {
    sys.renameSync(tmp, path);
  } catch (e) {
    try { sys.unlinkSync(tmp); } catch { /* the next write removes it */ }
    throw e;
  }
  fsyncDir(sys, nodePath.dirname(path));
}

/**
 * A guarded edit through an injected file system: its own `editFile` when it has one (the Node file system), else a
 * read, edit, compare and write on its surface (in-memory test file systems, which no other process writes).
 */
export function editThrough(
  fs: { editFile?: typeof guardedEdit; readFile(p: string): Buffer; writeFileAtomic(p: string, d: Buffer | string): void; realPath(p: string): string | undefined },
  path: string, edit: (current: Buffer | undefined) => EditOutcome, options: GuardedEditOptions,
): GuardedEditResult {
  if (fs.editFile) return fs.editFile(path, edit, options);
  const realRoot = fs.realPath(options.root) ?? nodePath.resolve(options.root);
  const real = fs.realPath(path) ?? nodePath.join(fs.realPath(nodePath.dirname(path)) ?? nodePath.dirname(path), nodePath.basename(path));
  if (!isInsideDir(realRoot, real)) return { ok: false, message: `${path} leads outside ${options.root} (to ${real}) through a symbolic link; Skillflow only writes inside the workspace folder, so nothing was written`, written: false };
  let current: Buffer | undefined;
  try { current = fs.readFile(real); } catch { if (!options.create) return { ok: false, message: `${path} does not exist; nothing was written`, written: false }; }
  if (current && current.length > MAX_EDIT_BYTES) return { ok: false, message: `${path} is larger than ${MAX_EDIT_BYTES} bytes; Skillflow does not edit it, nothing was written`, written: false };
  const out = edit(current);
  if (!out.ok) return { ok: false, message: out.message, written: false };
  if (current && out.data.equals(current)) return { ok: true, path: real, data: current, changed: false };
  try { fs.writeFileAtomic(real, out.data); } catch (e) { return { ok: false, message: `could not write ${path}: ${message(e)}; the file was left as it was`, written: false }; }
  return { ok: true, path: real, data: out.data, changed: true };
}
