/**
 * `path.join` by plain concatenation where that gives the same string: `path.join` normalizes the whole path on every
 * call, and a bulk run joins tens of thousands of names below folders that are already normal.
 */
import * as path from 'node:path';

/** A name `path.join` keeps as one segment as it is (a directory entry's name): not empty, not '.' or '..', no '/'. */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/');
}

/**
 * True when `${dir}/${name}` is exactly `path.join(dir, name)` for any plain name: a normalized absolute POSIX path
 * other than '/' (conservatively: no segment starts with '.').
 */
export function isPlainDir(dir: string): boolean {
  return path.sep === '/' && dir.length > 1 && !dir.endsWith('/') && path.isAbsolute(dir) && !dir.includes('/.') && !dir.includes('//');
}

/** `path.join(dir, name)`, by concatenation where that is the same string. */
export function joinName(dir: string, name: string): string {
  return isPlainName(name) && isPlainDir(dir) ? `${dir}/${name}` : path.join(dir, name);
}
