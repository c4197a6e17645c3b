/** An in-memory FileSystem for fast core tests: paths are POSIX absolute, directories are implied by files. */
import * as nodePath from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../../../src/core/base/fs';

export interface MemFs extends FileSystem {
  files: Map<string, string>;
  writes: string[];
  /** Called before each readFile; lets a test simulate a concurrent writer. */
  onRead?: (path: string) => void;
}

/** Builds a MemFs from `{ 'relative/path': content }` under `root`. */
export function memFs(root: string, files: Record<string, string>): MemFs {
  const map = new Map<string, string>();
  for (const [rel, content] of Object.entries(files)) map.set(nodePath.posix.join(root, rel), content);
  const isDir = (p: string) => {
    const prefix = p.endsWith('/') ? p : `${p}/`;
    for (const k of map.keys()) if (k.startsWith(prefix)) return true;
    return p === '/';
  };
  const stat = (p: string): FileStat | undefined => {
    p = nodePath.posix.normalize(p);
    if (map.has(p)) return { isFile: true, isDirectory: false, isSymbolicLink: false, size: Buffer.byteLength(map.get(p)!), mtimeMs: 0 };
    if (isDir(p)) return { isFile: false, isDirectory: true, isSymbolicLink: false, size: 0, mtimeMs: 0 };
    return undefined;
  };
  const fs: MemFs = {
    caseSensitive: true,
    files: map,
    writes: [],
    stat,
    lstat: stat,
    readDir(p) {
      p = nodePath.posix.normalize(p);
      if (!isDir(p)) return undefined;
      const prefix = p.endsWith('/') ? p : `${p}/`;
      const seen = new Map<string, DirEntry>();
      for (const k of map.keys()) {
        if (!k.startsWith(prefix)) continue;
        const [name, ...more] = k.slice(prefix.length).split('/');
        seen.set(name, { name, isFile: more.length === 0, isDirectory: more.length > 0, isSymbolicLink: false });
      }
      return [...seen.values()];
    },
    readFile(p) {
      fs.onRead?.(p);
      const v = map.get(nodePath.posix.normalize(p));
      if (v === undefined) throw new Error(`ENOENT: ${p}`);
      return Buffer.from(v, 'utf8');
    },
    realPath(p) { return stat(p) ? nodePath.posix.normalize(p) : undefined; },
    writeFileAtomic(p, data) {
      map.set(nodePath.posix.normalize(p), typeof data === 'string' ? data : data.toString('utf8'));
      fs.writes.push(p);
    },
    mkdirp() { /* implied */ },
  };
  return fs;
}
