/** Resolves a CONTEXT_PATH against a workspace folder and refuses anything that leaves it, or that could not be typed safely. */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import { describeControlChar, findTerminalControlChar } from '../base/shell';

export const OUTSIDE_WORKSPACE = 'CONTEXT_PATH is outside the workspace folder';
export const CONTROL_CHAR_IN_PATH = 'CONTEXT_PATH contains the control character';

export type ResolvedPath =
  | {
      ok: true;
      /** Absolute path as given (lexically resolved). */
      absPath: string;
      /** The real path when the file exists (symlinks resolved, checked to stay inside); else absPath. */
      realPath: string;
      /** Workspace-relative with `/` separators, as used in the resume invocation. */
      relPath: string;
      exists: boolean;
    }
  | { ok: false; message: string };

function inside(root: string, target: string, path: typeof nodePath.posix): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Resolves `contextPath` against `workspaceFolder`: refuses `../x`, absolute paths elsewhere and
 * symlinks whose target is outside (compared by real path). `pathApi` defaults to the host's `node:path`.
 */
export function resolveContextPath(fs: FileSystem, workspaceFolder: string, contextPath: string, pathApi: typeof nodePath.posix = nodePath): ResolvedPath {
  if (typeof contextPath !== 'string' || contextPath.trim() === '' || contextPath.includes('\0')) {
    return { ok: false, message: 'CONTEXT_PATH is empty or invalid' };
  }
  // The path ends up in a command typed into a terminal, where control characters act as line-editing keys.
  const bad = findTerminalControlChar(contextPath.trim());
  if (bad) return { ok: false, message: `${CONTROL_CHAR_IN_PATH} ${describeControlChar(bad.code)}; rename the file` };
  const root = pathApi.resolve(workspaceFolder);
  const absPath = pathApi.resolve(root, contextPath.trim());
  if (!inside(root, absPath, pathApi) || absPath === root) return { ok: false, message: OUTSIDE_WORKSPACE };
  const relPath = pathApi.relative(root, absPath).split(pathApi.sep).join('/');

  const realRoot = fs.realPath(root) ?? root;
  const realFile = fs.realPath(absPath);
  if (realFile !== undefined) {
    if (!inside(realRoot, realFile, pathApi)) return { ok: false, message: OUTSIDE_WORKSPACE };
    return { ok: true, absPath, realPath: realFile, relPath, exists: true };
  }
  // Missing file: the deepest folder on its way that exists must not lead out, and no link on the way may dangle.
  for (let p = absPath; ; ) {
    if (fs.lstat(p)?.isSymbolicLink && fs.realPath(p) === undefined) return { ok: false, message: OUTSIDE_WORKSPACE };
    const parent = pathApi.dirname(p);
    if (parent === p || parent === root) break;
    p = parent;
    const real = fs.realPath(p);
    if (real !== undefined) {
      if (!inside(realRoot, real, pathApi)) return { ok: false, message: OUTSIDE_WORKSPACE };
      break;
    }
  }
  return { ok: true, absPath, realPath: absPath, relPath, exists: false };
}
