/**
 * The run memo when only some loads' questions got other answers (a SKILL.md's body was edited): dist/cli.js replayed
 * the memo (validateMemo.ts) and every question the run asked outside loads held; the loads that asked the others are
 * made again here, traced. When each gives an entry of the digest it gave before (core/cache/loadCache.ts entryDigest:
 * what the rest of the run sees of it), the rest of the run, a function of the entries and of its own answers, would
 * print what it printed: the memo's output is printed, and the memo is patched with those loads' new answers
 * (core/cache/runMemo.ts patchMemo). Otherwise (another entry: a name, a description, a problem changed) the full run
 * runs. This is the "early cutoff" of build systems: a step made again whose result is the same does not make what
 * depends on it again.
 */
import { nodeFileSystem } from '../core/base/fs';
import { entryDigest, jobOfKey } from '../core/cache/loadCache';
import { memoJobs, patchMemo, type Replayed, RunRecorder } from '../core/cache/runMemo';
import { loadSkillsInOrder } from '../core/discovery/load';
import { withReadCache } from '../core/discovery/readCache';
import type { CliContext } from './context';
import { fingerprint, memoFile, PARTIAL_HANDOFF, printReplayed, processContext, writeAtomic } from './validateMemo';

/**
 * The output of the memoised run `found` (a replay with `dirty` set) when the loads it names give the same entries
 * again; the memo is then patched. Undefined (nothing written) otherwise. Never throws.
 */
export function finishPartial(ctx: Pick<CliContext, 'cwd'>, args: readonly string[], found: Replayed): Replayed | undefined {
  const dirty = found.dirty;
  const file = memoFile(args, ctx.cwd);
  if (!dirty || file === undefined) return undefined;
  try {
    // racyMs only decides what the recorder trusts, which a patch's questions never are: each is checked again.
    const recorder = new RunRecorder({ fingerprint, racyMs: 0 });
    const fs = recorder.trace(withReadCache(nodeFileSystem));
    const jobs = memoJobs(dirty);
    for (let i = 0; i < jobs.length; i++) {
      const [key, digest] = jobs[i] ?? [];
      const job = key === undefined ? undefined : jobOfKey(key);
      if (!job || digest === undefined) return undefined;
      recorder.beginJobAt(dirty.jobs[i]);
      let now: string;
      try {
        now = entryDigest(loadSkillsInOrder(fs, [job.job], job.profile, { listFiles: job.listFiles })[0]);
      } finally {
        recorder.endJob(digest);
      }
      if (now !== digest || now === '!') return undefined;
    }
    const lines = recorder.questionLines();
    if (lines === undefined) return undefined;
    try {
      writeAtomic(file, patchMemo(dirty, lines));
    } catch {
      // an unwritable memo only costs the next run its speed
    }
    return { out: found.out, exit: found.exit, loads: found.loads };
  } catch {
    return undefined;
  }
}

/**
 * In the bundle, before main(): finishes the run dist/cli.js handed over (PARTIAL_HANDOFF) when its loads give the same
 * entries, and prints it; false when there was none or it did not hold (main() then runs in full).
 */
export function finishHandedOver(): boolean {
  const handoff = (globalThis as Record<symbol, unknown>)[PARTIAL_HANDOFF] as { argv: string[]; cwd: string; found: Replayed } | undefined;
  if (!handoff) return false;
  delete (globalThis as Record<symbol, unknown>)[PARTIAL_HANDOFF];
  const argv = process.argv.slice(2);
  if (argv.join('\0') !== handoff.argv.join('\0')) return false;
  const done = finishPartial(processContext(argv, handoff.cwd), argv.slice(1), handoff.found);
  if (!done) return false;
  printReplayed(done, `run memo held after ${handoff.found.dirty!.jobs.length} loads made again`);
  return true;
}
