/**
 * An in-memory FileSystem with folders, files and symbolic links, for the Claude Code model tests.
 * Paths are POSIX absolute. `tree({ 'a/b.md': 'text', 'a/link': { link: '/x/y' }, 'empty/': '' })`.
 */
import * as path from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../../../../src/core/base/fs';

export type Node = string | { link: string };

export interface TreeFs extends FileSystem {
  reads: string[];
}

const p = path.posix;

export function treeFs(files: Record<string, Node>, root = '/'): TreeFs {
  const fileMap = new Map<string, string>();
  const links = new Map<string, string>();
  const dirs = new Set<string>(['/']);
  const addDirs = (d: string) => {
    for (let x = d; !dirs.has(x); x = p.dirname(x)) dirs.add(x);
  };
  for (const [rel, node] of Object.entries(files)) {
    const abs = p.join(root, rel);
    if (rel.endsWith('/')) { addDirs(p.normalize(abs).replace(/\/$/, '') || '/'); continue; }
    addDirs(p.dirname(abs));
    if (typeof node === 'string') fileMap.set(abs, node);
    else links.set(abs, p.isAbsolute(node.link) ? node.link : p.join(p.dirname(abs), node.link));
  }
  /** Follows links in every component; undefined for a loop or a dangling link. */
  const resolve = (abs: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined;
    const parts = p.normalize(abs).split('/').filter(Boolean);
    let cur = '/';
    for (let i = 0; i < parts.length; i++) {
      const next = p.join(cur, parts[i]);
      const target = links.get(next);
      if (target !== undefined) {
        const r = resolve(target, hops + 1);
        if (r === undefined) return undefined;
        cur = r;
      } else cur = next;
      if (!dirs.has(cur) && !fileMap.has(cur) && i < parts.length - 1) return undefined;
    }
    return cur;
  };
  const statReal = (real: string | undefined): FileStat | undefined => {
    if (real === undefined) return undefined;
    if (fileMap.has(real)) return { isFile: true, isDirectory: false, isSymbolicLink: false, size: Buffer.byteLength(fileMap.get(real)!), mtimeMs: 0 };
    if (dirs.has(real)) return { isFile: false, isDirectory: true, isSymbolicLink: false, size: 0, mtimeMs: 0 };
    return undefined;
  };
  const parentReal = (abs: string) => {
    const n = p.normalize(abs);
    const parent = resolve(p.dirname(n));
    return parent === undefined ? undefined : p.join(parent, p.basename(n));
  };
  const fs: TreeFs = {
    caseSensitive: true,
    reads: [],
    stat: (abs) => statReal(resolve(abs)),
    lstat(abs) {
      const own = parentReal(abs);
      if (own !== undefined && links.has(own)) return { isFile: false, isDirectory: false, isSymbolicLink: true, size: 0, mtimeMs: 0 };
      return statReal(own);
    },
    readDir(abs) {
      const real = resolve(abs);
      if (real === undefined || !dirs.has(real)) return undefined;
      const prefix = real === '/' ? '/' : `${real}/`;
      const out = new Map<string, DirEntry>();
      const add = (k: string, e: Omit<DirEntry, 'name'>) => {
        if (!k.startsWith(prefix) || k === real) return;
        const rest = k.slice(prefix.length);
        if (!rest || rest.includes('/')) return;
        out.set(rest, { name: rest, ...e });
      };
      for (const d of dirs) add(d, { isFile: false, isDirectory: true, isSymbolicLink: false });
      for (const f of fileMap.keys()) add(f, { isFile: true, isDirectory: false, isSymbolicLink: false });
      for (const l of links.keys()) add(l, { isFile: false, isDirectory: false, isSymbolicLink: true });
      return [...out.values()];
    },
    readFile(abs) {
      const real = resolve(abs);
      fs.reads.push(abs);
      if (real === undefined || !fileMap.has(real)) throw new Error(`ENOENT: ${abs}`);
      return Buffer.from(fileMap.get(real)!, 'utf8');
    },
    realPath: (abs) => {
      const r = resolve(abs);
      return statReal(r) ? r : undefined;
    },
    writeFileAtomic(abs, data) {
      addDirs(p.dirname(abs));
      fileMap.set(p.normalize(abs), typeof data === 'string' ? data : data.toString('utf8'));
    },
    mkdirp: (abs) => addDirs(p.normalize(abs)),
  };
  return fs;
}

/** A SKILL.md with the given frontmatter lines. */
export function md(front: Record<string, string | boolean>, body = 'Body.\n'): string {
  const lines = Object.entries(front).map(([k, v]) => `${k}: ${v}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}
