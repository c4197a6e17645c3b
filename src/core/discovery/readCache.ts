/**
 * A read-through cache over a FileSystem for one discovery pass: every directory listing, stat and
 * realpath is asked of the disk at most once. Discovery lists each skill folder while searching and
 * again while loading it, and reference checks stat the same sibling folders over and over; the
 * cache turns those repeats into map lookups. Writes pass through and empty the cache.
 * Create one per pass (it never notices outside changes), never share one across passes.
 */
import * as nodePath from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../base/fs';

/**
 * What the maps hold for a path the disk did not find: one `get` then answers both "asked before?" and "what?"
 * (a has-then-get pair hashes each fresh path string twice; tens of thousands of them in a bulk run).
 */
const MISSING = null;

/** The answer `map` holds for `path`, else `ask()`'s, stored (MISSING for undefined). */
function remember<T>(map: Map<string, T | typeof MISSING>, path: string, ask: () => T | undefined): T | undefined {
  const known = map.get(path);
  if (known !== undefined) return known ?? undefined;
  const value = ask();
  map.set(path, value ?? MISSING);
  return value;
}

/**
 * A number for the folder `path.slice(0, end)`: its length and its last characters (the end of a path is what tells
 * paths below one root apart). Equal folders have equal keys; a differing key rules a folder out.
 */
function folderKey(path: string, end: number): number {
  let key = end;
  for (let k = Math.max(0, end - 16); k < end; k++) key = (Math.imul(key, 31) + path.charCodeAt(k)) | 0;
  return key;
}

/** Wraps `fs` so repeated stat/lstat/readDir/realPath calls are answered from memory. */
export function withReadCache(fs: FileSystem): FileSystem {
  if (fs.isReadCache) return fs;
  const stats = new Map<string, FileStat | typeof MISSING>();
  const lstats = new Map<string, FileStat | typeof MISSING>();
  const dirs = new Map<string, DirEntry[] | typeof MISSING>();
  const reals = new Map<string, string | typeof MISSING>();
  const lowerNames = new Map<string, Set<string>>();
  /**
   * folderKey of each listed folder's path: a path whose folder part has another key is in none of them (most paths
   * asked about), found without cutting out its folder and hashing that string.
   */
  const listedKeys = new Set<number>();
  const clear = () => { stats.clear(); lstats.clear(); dirs.clear(); reals.clear(); lowerNames.clear(); listedKeys.clear(); };
  // A path whose folder was already listed without it does not exist: no syscall (a failed stat is
  // the slowest kind, it throws). Any name matching case-insensitively still goes to the disk.
  const absentByListing = (path: string): boolean => {
    // Without a listing of that key there is nothing to look up (false is always safe: the disk answers).
    const slash = path.lastIndexOf('/');
    if (slash > 0 && slash < path.length - 1 && !listedKeys.has(folderKey(path, slash))) return false;
    const dir = nodePath.dirname(path);
    // A file-system root is its own folder and is in no listing (its listing, of its entries, does not hold it).
    if (dir === path || nodePath.basename(path) === '') return false;
    const listing = dirs.get(dir);
    if (!listing) return false;
    let names = lowerNames.get(dir);
    if (!names) {
      names = new Set(listing.map((e) => e.name.toLowerCase()));
      lowerNames.set(dir, names);
    }
    return !names.has(nodePath.basename(path).toLowerCase());
  };
  const cached: CachedFileSystem = {
    isReadCache: true,
    caseSensitive: fs.caseSensitive,
    stat(path) {
      // What lstat found is what stat finds, unless it is a link (or nothing: then stat finds nothing either);
      // then it is not stored twice.
      const l = lstats.get(path);
      if (l !== undefined && (l === MISSING || !l.isSymbolicLink)) return l ?? undefined;
      return remember(stats, path, () => (absentByListing(path) ? undefined : fs.stat(path)));
    },
    lstat(path) {
      return remember(lstats, path, () => (absentByListing(path) ? undefined : fs.lstat(path)));
    },
    lstatUncached(path) {
      // (A listing of its folder still answers "absent" without the disk; it is known for few folders.)
      return absentByListing(path) ? undefined : fs.lstatUncached ? fs.lstatUncached(path) : fs.lstat(path);
    },
    readDir(path) {
      return remember(dirs, path, () => {
        const d = fs.readDir(path);
        if (d) listedKeys.add(folderKey(path, path.length));
        return d;
      });
    },
    readFile(path) {
      return fs.readFile(path);
    },
    readFileTransient: fs.readFileTransient ? (path, size) => fs.readFileTransient!(path, size) : undefined,
    realPath(path) {
      return remember(reals, path, () => (absentByListing(path) ? undefined : fs.realPath(path)));
    },
    writeFileAtomic(path, data) {
      clear();
      fs.writeFileAtomic(path, data);
    },
    editFile: fs.editFile && ((path, edit, options) => { clear(); return fs.editFile!(path, edit, options); }),
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
