/** The file-system surface the core needs; injected so the CLI, the extension and tests share one core. */
import * as nodeFs from 'node:fs';
import { guardedEdit, replaceFile } from './guardedWrite';

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  size: number;
  mtimeMs: number;
  /**
   * Set by the Node-backed file system (what a stat gives besides the above): with size and mtime, a file's
   * fingerprint (core/cache/answers.ts statFingerprinter), so a run that keeps one read cache asks the disk once for
   * both.
   */
  ctimeMs?: number;
  ino?: number;
  dev?: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** Synchronous on purpose: the core runs in the CLI and in a Node extension host, and sync reads are the fastest path there. */
export interface FileSystem {
  /**
   * Whether names differ by letter case (`a.md` and `A.md` are two files): then an lstat of a path answers what a
   * folder listing would (discovery and the reference checks take that faster path). The Node-backed file system
   * says true on Linux.
   */
  readonly caseSensitive: boolean;
  /**
   * True for a read cache of one pass (discovery/readCache.ts): its answers never change, so a caller may keep what it
   * derives from them for as long as it holds the same file system object.
   */
  readonly isReadCache?: boolean;
  /** Returns undefined when the path does not exist or cannot be read. */
  stat(path: string): FileStat | undefined;
  lstat(path: string): FileStat | undefined;
  /**
   * lstat for a caller that keeps what it asks itself (each path asked once per pass): a caching wrapper passes it
   * to the disk instead of storing the answer, which would only grow its maps. Optional; callers fall back to lstat.
   */
  lstatUncached?(path: string): FileStat | undefined;
  /** Returns undefined when the directory does not exist or cannot be read. */
  readDir(path: string): DirEntry[] | undefined;
  /** Throws on a missing or unreadable file (callers turn that into a problem). */
  readFile(path: string): Buffer;
  /**
   * Like readFile, into a buffer this file system reuses: the bytes are valid only until its next call (bulk reads
   * that are done with each file before the next one: no allocation per file). With `size` (from a stat just before
   * that found a regular file), reading stops after that many bytes, as readFile does with the size it stats, and the
   * file is not stat'ed again. Optional; callers fall back to readFile.
   */
  readFileTransient?(path: string, size?: number): Buffer;
  realPath(path: string): string | undefined;
  /** Writes via a fsync'ed temp file in the same folder and a rename, so readers never see half a file (guardedWrite.ts). */
  writeFileAtomic(path: string, data: Buffer | string): void;
  /**
   * A guarded read-edit-replace of a file other programs write too (guardedWrite.ts): nothing they wrote is lost, the
   * edit is read back. Optional: without it, callers edit through readFile and writeFileAtomic (editThrough).
   */
  editFile?: typeof guardedEdit;
  mkdirp(path: string): void;
}

function toStat(s: nodeFs.Stats): FileStat {
  return { isFile: s.isFile(), isDirectory: s.isDirectory(), isSymbolicLink: s.isSymbolicLink(), size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, dev: s.dev };
}

/** The buffer behind nodeFileSystem.readFileTransient (one per thread: module state is per worker). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Opens `path` for reading without blocking (a FIFO opened for reading waits for a writer). */
function openNonBlocking(path: string): number {
  return nodeFs.openSync(path, OPEN_FLAGS);
}

const OPEN_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0);

/**
 * Opens `path` for reading without blocking (a FIFO opened for reading waits for a writer) and refuses anything but a
 * regular file: reading a FIFO, a socket or a device would hang or never end.
 */
function openRegular(path: string): number {
  const fd = openNonBlocking(path);
  let regular = false;
  try {
    regular = nodeFs.fstatSync(fd).isFile();
  } finally {
    if (!regular) nodeFs.closeSync(fd);
  }
  if (!regular) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'EFTYPE' });
  return fd;
}

/** The real file system through `node:fs`. */
export const nodeFileSystem: FileSystem = {
  caseSensitive: process.platform === 'linux',
  stat(path) {
    // throwIfNoEntry: a missing path is the common case in reference checks; exceptions are slow.
    try { const s = nodeFs.statSync(path, { throwIfNoEntry: false }); return s && toStat(s); } catch { return undefined; }
  },
  lstat(path) {
    try { const s = nodeFs.lstatSync(path, { throwIfNoEntry: false }); return s && toStat(s); } catch { return undefined; }
  },
  readDir(path) {
    try {
      return nodeFs.readdirSync(path, { withFileTypes: true }).map((d) => ({
        name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory(), isSymbolicLink: d.isSymbolicLink(),
      }));
    } catch { return undefined; }
  },
  readFile(path) {
    const fd = openRegular(path);
    try {
      return nodeFs.readFileSync(fd);
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  readFileTransient(path, size) {
    // A size from a stat just made says the path is a regular file (the caller checked): no second stat of the
    // opened file. The read stops after that many bytes, and the non-blocking open never waits, so even a path
    // swapped for a FIFO or a device in between cannot hang it. Without a size, the opened file is checked.
    const fd = size !== undefined && size > 0 ? openNonBlocking(path) : openRegular(path);
    try {
      let length = 0;
      const expected = size !== undefined && size > 0 ? size : Infinity; // 0: unknown (as readFile takes it)
      while (length < expected) {
        if (length === scratch.length) {
          const bigger = Buffer.allocUnsafe(scratch.length * 2);
          scratch.copy(bigger, 0, 0, length);
          scratch = bigger;
        }
        const n = nodeFs.readSync(fd, scratch, length, scratch.length - length, null);
        if (n === 0) break;
        length += n;
      }
      return scratch.subarray(0, length);
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  realPath(path) {
    try { return nodeFs.realpathSync.native(path); } catch { return undefined; }
  },
  writeFileAtomic(path, data) {
    replaceFile(path, data);
  },
  editFile: guardedEdit,
  mkdirp(path) {
    nodeFs.mkdirSync(path, { recursive: true });
  },
};
