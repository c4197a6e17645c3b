/**
 * The cache of `skillflow validate` on the real disk (core/cache/loadCache.ts does the work): on by default, as Ruff's
 * `.ruff_cache` is, in `.skillflow_cache/` of the folder the command runs in (with a `.gitignore` of `*`, so it is never
 * committed); `--cache-location DIR` puts it elsewhere, `--no-cache` neither reads nor writes it.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LoadCache } from '../core/cache/loadCache';

export const DEFAULT_CACHE_DIR = '.skillflow_cache';
const CACHE_FILE = 'validate-v1.json';

/** size:mtime:ctime:inode of `file`, and when it last changed; undefined when it cannot be stat'ed. */
function fingerprint(file: string): { fingerprint: string; changedMs: number } | undefined {
  try {
    const s = nodeFs.statSync(file, { throwIfNoEntry: false });
    if (!s) return undefined;
    return { fingerprint: `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}:${s.dev}`, changedMs: Math.max(s.mtimeMs, s.ctimeMs) };
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` through a temp file in its folder and a rename; the temp file never stays behind. */
export function writeAtomic(file: string, data: Buffer | string): void {
  const dir = path.dirname(file);
  nodeFs.mkdirSync(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (!nodeFs.existsSync(ignore)) {
    try { nodeFs.writeFileSync(ignore, '# Made by skillflow validate: its cache, never committed.\n*\n', { flag: 'wx' }); } catch { /* another run made it */ }
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    nodeFs.writeFileSync(tmp, data, { flag: 'wx' });
    nodeFs.renameSync(tmp, file);
  } catch (e) {
    try { nodeFs.unlinkSync(tmp); } catch { /* not made */ }
    throw e;
  }
}

/** The running build: any rebuild of the tool is another key. */
function toolBuild(): string {
  const file = require.main?.filename ?? __filename;
  return `${file}:${fingerprint(file)?.fingerprint ?? 'unknown'}:${__filename}`;
}

/** `racyMs`: see RACY_MS (the fuzz suite sets 0, so that files it has just written are judged by their fingerprints). */
export function openValidateCache(opts: { cwd: string; location?: string; extra: Record<string, unknown>; racyMs?: number }): LoadCache {
  const dir = path.resolve(opts.cwd, opts.location ?? DEFAULT_CACHE_DIR);
  return new LoadCache({
    file: path.join(dir, CACHE_FILE),
    key: { build: toolBuild(), platform: process.platform, node: process.version, ...opts.extra },
    fingerprint,
    // References are kept: a cached entry is what an uncached sequential load gives, whatever later code reads of it.
    omitReferences: false,
    racyMs: opts.racyMs,
    io: {
      read: (file) => { try { return nodeFs.readFileSync(file); } catch { return undefined; } },
      write: writeAtomic,
    },
  });
}
