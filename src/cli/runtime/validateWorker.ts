/**
 * Entry of dist/validate-worker.js: a worker thread of the parallel loader (parallel.ts). For each batch that comes
 * in on its port, takes chunks of jobs from the batch's shared counter, loads each skill with loadSkill over the real
 * file system (a read cache per batch) and posts each chunk's entries, then bumps the batch's "posted" counter and
 * wakes the waiting thread. Runs until the calling thread closes the port or ends the worker.
 */
import { workerData } from 'node:worker_threads';
import { nodeFileSystem } from '../../core/base/fs';
import type { LoadedSkillEntry } from '../../core/discovery/load';
import { PathJoiner } from '../../core/discovery/paths';
import { withReadCache } from '../../core/discovery/readCache';
import { loadJob, type BatchMessage, type ChunkResult, type WorkerInput } from './parallel';

function runBatch(input: WorkerInput, batch: BatchMessage): void {
  const { jobs, profile, listFiles, omitReferences, chunk } = batch;
  const control = new Int32Array(batch.control);
  const fs = withReadCache(nodeFileSystem);
  const loadOpts = { listFiles, paths: new PathJoiner() };
  const chunks = Math.ceil(jobs.length / chunk);
  for (let c = Atomics.add(control, 0, 1); c < chunks; c = Atomics.add(control, 0, 1)) {
    let result: ChunkResult;
    try {
      const entries: Array<LoadedSkillEntry | undefined> = [];
      for (let i = c * chunk; i < Math.min(jobs.length, (c + 1) * chunk); i++) entries.push(loadJob(fs, jobs[i], profile, loadOpts, omitReferences));
      result = { batch: batch.batch, chunk: c, entries };
    } catch (e) {
      // The calling thread loads a chunk without entries itself.
      result = { batch: batch.batch, chunk: c, error: e instanceof Error ? e.message : String(e) };
    }
    input.port.postMessage(result);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

const input = workerData as WorkerInput | undefined;
if (input && input.skillflowValidateWorker) input.port.on('message', (batch: BatchMessage) => runBatch(input, batch));
