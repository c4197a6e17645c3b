/**
 * Path building and folder tests of discovery: `path.join` without its normalising pass where that gives the same
 * string (a bulk run joins thousands of paths below the same folders), and "is this a skill folder?".
 */
import * as path from 'node:path';
import type { DirEntry, FileSystem } from '../base/fs';
import type { SkillsRoot } from '../skillmd/model';
import { isPlainDir, isPlainName, joinName } from '../base/pathJoin';

/** Folders discovery never enters. */
export const SKIP_DIRS = new Set(['.git', 'node_modules']);
/** Hidden folders that hold a `skills/` root (`.claude/skills`, `.agents/skills`, `.github/skills`). */
export const ROOT_PARENTS = new Set(['.claude', '.agents', '.github']);

/**
 * True when the listing has an entry `name` of any kind: a SKILL.md that is a folder, a FIFO or a device still makes
 * its folder a skill (loading it then reports that it cannot be read, and never opens it).
 */
export function hasFile(entries: DirEntry[], name: string): boolean {
  return entries.some((e) => e.name === name);
}

/** True when `p` is `base` or below it (both absolute and normalised). */
export function isInside(base: string, p: string): boolean {
  return p === base || p.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
}

/**
 * True when `p` (a path below a project root) resolves, through links, to a place outside the root's workspace folder:
 * discovery does not follow such links (a skill folder linked to `/` would have it crawl the machine). Personal and
 * plugin roots have no workspace folder: their links are followed.
 */
export function outsideWorkspace(fs: FileSystem, root: SkillsRoot, p: string): boolean {
  if (root.scope !== 'project' || root.workspaceFolder === undefined) return false;
  const realWs = fs.realPath(root.workspaceFolder);
  const real = fs.realPath(p);
  return realWs !== undefined && real !== undefined && !isInside(realWs, real);
}

/**
 * outsideWorkspace for the SKILL.md `skillMdPath` of a folder whose real path `realDir` discovery already knows: when
 * SKILL.md is no link its real path is `realDir/SKILL.md` (one lstat, usually cached, instead of a realpath).
 */
export function skillMdOutsideWorkspace(fs: FileSystem, root: SkillsRoot, skillMdPath: string, realDir: string | undefined): boolean {
  if (root.scope !== 'project' || root.workspaceFolder === undefined) return false;
  if (realDir === undefined || fs.lstat(skillMdPath)?.isSymbolicLink !== false) return outsideWorkspace(fs, root, skillMdPath);
  const realWs = fs.realPath(root.workspaceFolder);
  return realWs !== undefined && !isInside(realWs, joinName(realDir, path.basename(skillMdPath)));
}

/**
 * The project folder of a path below a `.claude`, `.agents` or `.github` folder (ROOT_PARENTS): the folder holding the
 * nearest one above `dir` (or `dir`'s own, when it is one); undefined when there is none below the file system root.
 * `only` limits the search to one of them (`.claude` for commands).
 */
export function projectOf(dir: string, only?: string): string | undefined {
  const padded = `${dir}${path.sep}`;
  let at = -1;
  for (const parent of only === undefined ? ROOT_PARENTS : [only]) at = Math.max(at, padded.lastIndexOf(`${path.sep}${parent}${path.sep}`));
  return at > 0 ? dir.slice(0, at) : undefined;
}

export function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * `path.join` for one discovery run. Remembers whether the last folder it was asked about is plain (see isPlainDir):
 * bulk discovery asks about the same folder thousands of times in a row (once per entry of a skills root). One per
 * run (scan, load): no state outlives it.
 */
export class PathJoiner {
  private lastDir: string | undefined = undefined;
  private lastDirPlain = false;

  /** isPlainDir (base/pathJoin.ts), remembered for the last folder. */
  private isPlainDir(dir: string): boolean {
    if (dir !== this.lastDir) {
      this.lastDir = dir;
      this.lastDirPlain = isPlainDir(dir);
    }
    return this.lastDirPlain;
  }

  /** `path.join(dir, name)`: a plain concatenation where that is the same string (path.join normalizes the whole path each time). */
  child(dir: string, name: string): string {
    return isPlainName(name) && this.isPlainDir(dir) ? `${dir}/${name}` : path.join(dir, name);
  }

  /** `path.join(parent, name, 'SKILL.md')`, the same way. */
  skillMd(parent: string, name: string): string {
    return isPlainName(name) && this.isPlainDir(parent) ? `${parent}/${name}/SKILL.md` : path.join(parent, name, 'SKILL.md');
  }
}

/** PathJoiner.child without a joiner (for one-off calls and tests). */
export function childPath(dir: string, name: string): string {
  return joinName(dir, name);
}

/** PathJoiner.skillMd with a joiner of its own (for one-off calls and tests). */
export function skillMdIn(parent: string, name: string): string {
  return new PathJoiner().skillMd(parent, name);
}

/**
 * True when `<parent>/<name>` (a folder) holds a SKILL.md that lstats as a file or a link; false also where that
 * cannot tell. Where names are case-sensitive (`fs.caseSensitive`), one lstat of `<dir>/SKILL.md` answers "is this a
 * skill folder?" for the common case without listing the folder (one system call instead of four, and no entry
 * objects); a folder it does not confirm is listed as before (skill.md, unreadable folders). Elsewhere a name may
 * match in another letter case.
 */
export function hasSkillMdByLstat(fs: FileSystem, paths: PathJoiner, parent: string, name: string): boolean {
  if (!fs.caseSensitive) return false;
  return fs.lstat(paths.skillMd(parent, name)) !== undefined; // an entry of any kind (see hasFile)
}

/** True when `<parent>/<name>` holds an entry SKILL.md or skill.md (see hasFile). */
export function isSkillFolder(fs: FileSystem, paths: PathJoiner, parent: string, name: string): boolean {
  if (hasSkillMdByLstat(fs, paths, parent, name)) return true;
  const sub = fs.readDir(paths.child(parent, name));
  return sub !== undefined && (hasFile(sub, 'SKILL.md') || hasFile(sub, 'skill.md'));
}
