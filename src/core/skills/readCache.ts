/**
 * A read-through cache over a FileSystem for one discovery pass: every directory listing, stat and
 * realpath is asked of the disk at most once. Discovery lists each skill folder while searching and
 * again while loading it, and reference checks stat the same sibling folders over and over; the
 * cache turns those repeats into map lookups. Writes pass through and empty the cache.
 * Create one per pass (it never notices outside changes), never share one across passes.
 */
import type { DirEntry, FileStat, FileSystem } from '../fs';

/** Wraps `fs` so repeated stat/lstat/readDir/realPath calls are answered from memory. */
export function withReadCache(fs: FileSystem): FileSystem {
  if ((fs as CachedFileSystem).isReadCache) return fs;
  const stats = new Map<string, FileStat | undefined>();
  const lstats = new Map<string, FileStat | undefined>();
  const dirs = new Map<string, DirEntry[] | undefined>();
  const reals = new Map<string, string | undefined>();
  const clear = () => { stats.clear(); lstats.clear(); dirs.clear(); reals.clear(); };
  const cached: CachedFileSystem = {
    isReadCache: true,
    stat(path) {
      if (stats.has(path)) return stats.get(path);
      const s = fs.stat(path);
      stats.set(path, s);
      return s;
    },
    lstat(path) {
      if (lstats.has(path)) return lstats.get(path);
      const s = fs.lstat(path);
      lstats.set(path, s);
      return s;
    },
    readDir(path) {
      if (dirs.has(path)) return dirs.get(path);
      const d = fs.readDir(path);
      dirs.set(path, d);
      return d;
    },
    readFile(path) {
      return fs.readFile(path);
    },
    realPath(path) {
      if (reals.has(path)) return reals.get(path);
      const r = fs.realPath(path);
      reals.set(path, r);
      return r;
    },
    writeFileAtomic(path, data) {
      clear();
      fs.writeFileAtomic(path, data);
    },
    mkdirp(path) {
      clear();
      fs.mkdirp(path);
    },
  };
  return cached;
}

interface CachedFileSystem extends FileSystem {
  readonly isReadCache: true;
}
