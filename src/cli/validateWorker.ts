/**
 * Entry of dist/validate-worker.js: a worker thread of parallelLoader (parallel.ts). Takes chunks of jobs from the
 * shared counter, loads each skill with loadSkill over the real file system (its own read cache) and posts each
 * chunk's entries, then bumps the "posted" counter and wakes the waiting thread.
 */
import { workerData } from 'node:worker_threads';
import { nodeFileSystem } from '../core/fs';
import { loadSkill, type LoadedSkillEntry } from '../core/skills/discovery';
import { withReadCache } from '../core/skills/readCache';
import type { ChunkResult, WorkerInput } from './parallel';

function run(input: WorkerInput): void {
  const { jobs, profile, listFiles, chunk, port } = input;
  const control = new Int32Array(input.control);
  const fs = withReadCache(nodeFileSystem);
  const chunks = Math.ceil(jobs.length / chunk);
  try {
    for (let c = Atomics.add(control, 0, 1); c < chunks; c = Atomics.add(control, 0, 1)) {
      let result: ChunkResult;
      try {
        const entries: Array<LoadedSkillEntry | undefined> = [];
        for (let i = c * chunk; i < Math.min(jobs.length, (c + 1) * chunk); i++) entries.push(loadSkill(fs, jobs[i].root, jobs[i].folderName, profile, { listFiles }));
        result = { chunk: c, entries };
      } catch (e) {
        // The calling thread loads a chunk without entries itself.
        result = { chunk: c, error: e instanceof Error ? e.message : String(e) };
      }
      port.postMessage(result);
      Atomics.add(control, 1, 1);
      Atomics.notify(control, 1);
    }
  } finally {
    port.close();
  }
}

const input = workerData as WorkerInput | undefined;
if (input && input.skillflowValidateWorker) run(input);
