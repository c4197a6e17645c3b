/**
 * The cache of `skillflow validate` on the real disk (core/cache/loadCache.ts does the work): on by default, as Ruff's
 * `.ruff_cache` is, in `.skillflow_cache/` of the folder the command runs in (with a `.gitignore` of `*`, so it is never
 * committed); `--cache-location DIR` puts it elsewhere, `--no-cache` neither reads nor writes it.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import type { RunClock } from '../core/cache/answers';
import { LoadCache, type LoadCacheOptions } from '../core/cache/loadCache';
import { cacheDir, fingerprint, writeAtomic } from './validateMemo';

export { DEFAULT_CACHE_DIR } from './validateMemo';
const CACHE_FILE = 'validate-v1.json';

/** The running build: any rebuild of the tool is another key. */
function toolBuild(): string {
  const file = require.main?.filename ?? __filename;
  return `${file}:${fingerprint(file)?.fingerprint ?? 'unknown'}:${__filename}`;
}

/**
 * The validate cache stores its entries without `references`, and its loads give them without: validate reports no
 * reference but through the load's own problems, and without the cache the CLI's loader drops them too (parallel.ts
 * loadJob), with the same output. Kept, they were 9.5 MB of the cache's 33.6 MB on the 10,000 bench skills, serialized,
 * hashed, written and read back at every full run. The cache is the CLI's own (the editor keeps its own file, with
 * them) and bound to its build (toolBuild): no other code reads it. A load made again to be compared with a stored
 * digest drops them first (validatePartial.ts).
 */
export const VALIDATE_OMITS_REFERENCES = true;

/**
 * `racyMs`: see RACY_MS (the fuzz suite sets 0, so that files it has just written are judged by their fingerprints).
 * `clock`: as recordRun's (the run's read cache gives the fingerprints; the run's loads are stamped with its start and
 * `.json` files judged racy against it, so a stat remembered from earlier in the run is as safe as a fresh one).
 */
export function openValidateCache(opts: { cwd: string; location?: string; extra: Record<string, unknown>; racyMs?: number; onFileTrusted?: LoadCacheOptions['onFileTrusted']; onJob?: LoadCacheOptions['onJob']; readProof?: LoadCacheOptions['readProof']; clock?: RunClock; vouched?: LoadCacheOptions['vouched'] }): LoadCache {
  const dir = cacheDir(opts.cwd, opts.location);
  return new LoadCache({
    file: path.join(dir, CACHE_FILE),
    key: { build: toolBuild(), platform: process.platform, node: process.version, ...opts.extra },
    fingerprint: opts.clock?.fingerprint ?? fingerprint,
    now: opts.clock && (() => opts.clock!.startedAt),
    omitReferences: VALIDATE_OMITS_REFERENCES,
    racyMs: opts.racyMs,
    onFileTrusted: opts.onFileTrusted,
    onJob: opts.onJob,
    readProof: opts.readProof,
    vouched: opts.vouched,
    io: {
      read: (file) => { try { return nodeFs.readFileSync(file); } catch { return undefined; } },
      write: writeAtomic,
      writeChunks: writeAtomic,
    },
  });
}
