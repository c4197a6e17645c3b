/** Paths as the CLI prints them: relative to the current directory, with forward slashes. */
import * as path from 'node:path';

/** A path as the CLI prints it: relative to the current directory, with forward slashes. */
export function displayPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file) || '.';
  return rel.split(path.sep).join('/');
}

/** A path segment that path.resolve keeps as it is: not empty, not '.' or '..'. */
function isPlainSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..';
}

/**
 * displayPath(cwd, file) for many files, most of them two levels below the same folder (`<root>/<skill>/SKILL.md`):
 * path.relative resolves and compares both whole paths on every call; here that folder's relative path is worked out
 * once and the last two segments appended. That is the same string on POSIX unless the current directory is that
 * file's `<root>/<skill>` folder or inside it (then, and for anything else, displayPath itself answers).
 */
export function displayPaths(cwd: string): (file: string) => string {
  const from = path.resolve(cwd);
  let base: string | undefined;
  /** displayPath of `base`; undefined when it cannot be used. */
  let baseRel: string | undefined;
  /** When the current directory is inside `base`: the first segment of it below `base` ('' when it is `base`). */
  let cwdBelow: string | undefined;
  return (file) => {
    const last = path.sep === '/' ? file.lastIndexOf('/') : -1;
    const mid = last > 0 ? file.lastIndexOf('/', last - 1) : -1;
    if (mid <= 0) return displayPath(cwd, file);
    const folder = file.slice(mid + 1, last);
    if (!isPlainSegment(folder) || !isPlainSegment(file.slice(last + 1))) return displayPath(cwd, file);
    const b = file.slice(0, mid);
    if (b !== base) {
      base = b;
      const to = path.resolve(b);
      baseRel = to === '/' ? undefined : path.relative(from, to);
      cwdBelow = from === to ? '' : from.startsWith(`${to}/`) ? from.slice(to.length + 1).split('/')[0] : undefined;
    }
    if (baseRel === undefined || (cwdBelow !== undefined && cwdBelow === folder)) return displayPath(cwd, file);
    return baseRel === '' ? file.slice(mid + 1) : `${baseRel}/${file.slice(mid + 1)}`;
  };
}
