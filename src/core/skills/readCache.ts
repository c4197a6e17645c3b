/**
 * A read-through cache over a FileSystem for one discovery pass: every directory listing, stat and
 * realpath is asked of the disk at most once. Discovery lists each skill folder while searching and
 * again while loading it, and reference checks stat the same sibling folders over and over; the
 * cache turns those repeats into map lookups. Writes pass through and empty the cache.
 * Create one per pass (it never notices outside changes), never share one across passes.
 */
import * as nodePath from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../fs';

/** Wraps `fs` so repeated stat/lstat/readDir/realPath calls are answered from memory. */
export function withReadCache(fs: FileSystem): FileSystem {
  if ((fs as CachedFileSystem).isReadCache) return fs;
  const stats = new Map<string, FileStat | undefined>();
  const lstats = new Map<string, FileStat | undefined>();
  const dirs = new Map<string, DirEntry[] | undefined>();
  const reals = new Map<string, string | undefined>();
  const lowerNames = new Map<string, Set<string>>();
  const clear = () => { stats.clear(); lstats.clear(); dirs.clear(); reals.clear(); lowerNames.clear(); };
  // A path whose folder was already listed without it does not exist: no syscall (a failed stat is
  // the slowest kind, it throws). Any name matching case-insensitively still goes to the disk.
  const absentByListing = (path: string): boolean => {
    const listing = dirs.get(nodePath.dirname(path));
    if (!listing) return false;
    let names = lowerNames.get(nodePath.dirname(path));
    if (!names) {
      names = new Set(listing.map((e) => e.name.toLowerCase()));
      lowerNames.set(nodePath.dirname(path), names);
    }
    return !names.has(nodePath.basename(path).toLowerCase());
  };
  const cached: CachedFileSystem = {
    isReadCache: true,
    stat(path) {
      if (stats.has(path)) return stats.get(path);
      // What lstat found is what stat finds, unless it is a link (or nothing: then stat finds nothing either).
      const known = lstats.has(path);
      const l = lstats.get(path);
      const s = known && (l === undefined || !l.isSymbolicLink) ? l : absentByListing(path) ? undefined : fs.stat(path);
      stats.set(path, s);
      return s;
    },
    lstat(path) {
      if (lstats.has(path)) return lstats.get(path);
      const s = absentByListing(path) ? undefined : fs.lstat(path);
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
    readFileTransient: fs.readFileTransient ? (path, size) => fs.readFileTransient!(path, size) : undefined,
    realPath(path) {
      if (reals.has(path)) return reals.get(path);
      const r = absentByListing(path) ? undefined : fs.realPath(path);
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
