/**
 * A SkillLoader that spreads a large set of skills over worker threads (the CLI's `validate` on thousands of
 * skills). Synchronous like the rest of the core: the calling thread takes chunks of jobs itself and, when its
 * share is done, blocks on Atomics.wait until the workers have posted theirs, then reads their messages with
 * receiveMessageOnPort. Results are placed by job index, so the output is the same as loading in order.
 *
 * Safety: the workers read the real file system (use it only when the caller does); any chunk a worker does not
 * deliver (it failed to start, crashed, or stalls for STALL_MS) is loaded on the calling thread instead.
 * The workers can be started early (`prewarm`), so that loading their script overlaps the search for skills.
 */
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { FileSystem } from '../../core/base/fs';
import type { Profile } from '../../core/base/types';
import { PathJoiner } from '../../core/discovery/paths';
import { loadSkill, loadSkillsInOrder, type LoadedSkillEntry, type SkillJob, type SkillLoader } from '../../core/discovery/load';

/** Below this many skills, worker start-up costs more than it saves. */
export const PARALLEL_MIN_SKILLS = 200;
/** Jobs per chunk taken from the shared counter. */
const DEFAULT_CHUNK = 50;
/** Young generation of each worker, in MB (V8's default is a few MB: a bulk run then collects very often). */
const YOUNG_GENERATION_MB = 96;
/** A worker that posts nothing for this long is given up on; its chunks are loaded here. */
const STALL_MS = 60_000;

/** What the worker entry (validateWorker.ts) receives as workerData. */
export interface WorkerInput {
  skillflowValidateWorker: true;
  /** Where the batches come in (BatchMessage) and the chunks go out (ChunkResult). */
  port: MessagePort;
}

/** One batch of jobs for the workers (one SkillLoader call). */
export interface BatchMessage {
  jobs: SkillJob[];
  profile: Profile;
  listFiles?: boolean;
  omitReferences?: boolean;
  chunk: number;
  /** Number of this batch (results of an earlier one are ignored). */
  batch: number;
  /** [next chunk to take, messages posted]; a new buffer per batch. */
  control: SharedArrayBuffer;
}

/** What a worker posts for each chunk it took. */
export interface ChunkResult {
  batch: number;
  chunk: number;
  entries?: Array<LoadedSkillEntry | undefined>;
  error?: string;
}

/**
 * node:worker_threads, loaded when the first workers start: most runs start none (few skills, or a machine with two
 * hardware threads), and loading it costs each CLI run a few milliseconds.
 */
let threadsModule: typeof WorkerThreads | undefined;
function workerThreads(): typeof WorkerThreads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  threadsModule ??= require('node:worker_threads') as typeof WorkerThreads;
  return threadsModule;
}

/** The worker bundle next to the running CLI bundle (dist/validate-worker.js). */
export function defaultWorkerFile(): string {
  return nodePath.join(__dirname, 'validate-worker.js');
}

export interface ParallelOptions {
  /** The environment (the CLI's `ctx.env`): SKILLFLOW_WORKERS=N sets the number of worker threads. */
  env?: Record<string, string | undefined>;
  /** Path of the worker script (default: validate-worker.js next to this bundle). */
  workerFile?: string;
  /** Number of threads including this one (default: defaultThreads(os.availableParallelism())). */
  threads?: number;
  /** Minimum number of jobs for going parallel (default PARALLEL_MIN_SKILLS). */
  minJobs?: number;
  /** Jobs per chunk (default 50). */
  chunk?: number;
  /** False: this thread only waits for the workers (tests use it to make the workers do everything). Default true. */
  selfShare?: boolean;
  /**
   * Start the workers now, before the first call (when a large run is likely). Default false. A function is asked
   * only when workers can start at all (it may cost a folder listing; most machines with two threads start none).
   */
  prewarm?: boolean | (() => boolean);
  /** Leave `references` empty in every entry (the caller does not read them; saves copying them between threads). */
  omitReferences?: boolean;
  /** Called after a parallel run with how many chunks there were and how many the workers delivered. */
  onStats?: (stats: { chunks: number; byWorkers: number }) => void;
}

/** A SkillLoader with its worker threads; `dispose()` ends them (call it when done; idempotent). */
export interface ParallelLoader {
  loader: SkillLoader;
  dispose(): void;
}

interface Pool {
  workers: Worker[];
  ports: MessagePort[];
  batches: number;
}

/**
 * A SkillLoader that goes parallel for large sets of jobs; else loads in order. The workers read the real disk
 * through node:fs, so use it only when the caller's FileSystem is the node file system (or a read cache over it).
 */
export function createParallelLoader(opts: ParallelOptions = {}): ParallelLoader {
  const threads = Math.max(1, opts.threads ?? envThreads(opts.env) ?? defaultThreads(typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length));
  const workerFile = opts.workerFile ?? defaultWorkerFile();
  const usable = threads >= 2 && nodeFs.existsSync(workerFile);
  let pool: Pool | undefined;
  const start = (): Pool => {
    pool ??= startPool(workerFile, threads - 1);
    return pool;
  };
  if (usable && (typeof opts.prewarm === 'function' ? opts.prewarm() : opts.prewarm)) start();
  return {
    loader: (fs, jobs, profile, loadOpts) => {
      if (!usable || jobs.length < (opts.minJobs ?? PARALLEL_MIN_SKILLS)) {
        if (!opts.omitReferences) return loadSkillsInOrder(fs, jobs, profile, loadOpts);
        const out = new Array<LoadedSkillEntry | undefined>(jobs.length);
        const inThread = { listFiles: loadOpts.listFiles, paths: new PathJoiner() };
        for (const i of spreadOrder(jobs.length)) out[i] = loadJob(fs, jobs[i], profile, inThread, true);
        return out;
      }
      return loadParallel(fs, jobs, profile, loadOpts, start(), opts);
    },
    dispose: () => {
      if (!pool) return;
      for (const w of pool.workers) void w.terminate();
      for (const p of pool.ports) p.close();
      pool = undefined;
    },
  };
}

/**
 * Threads to use on a machine with `hardwareThreads`: all of them from 3 on; one (no workers) below. Measured on a
 * 2-vCPU VM: the second vCPU (often a hyper-thread of the same core) gave a worker ~10 % more throughput, less than
 * the worker's own start-up and JIT warm-up cost, so one thread was as fast or faster (see docs/architecture.md, Performance).
 */
export function defaultThreads(hardwareThreads: number): number {
  return hardwareThreads >= 3 ? hardwareThreads : 1;
}

/**
 * loadSkill for one job; with `omitReferences` its references are dropped right away (kept until the end of a run,
 * thousands of them would crowd the heap; in a worker they would be copied back for nothing).
 */
export function loadJob(fs: FileSystem, job: SkillJob, profile: Profile, loadOpts: { listFiles?: boolean; paths?: PathJoiner }, omitReferences?: boolean): LoadedSkillEntry | undefined {
  const e = loadSkill(fs, job.root, job.folderName, profile, { listFiles: loadOpts.listFiles, paths: loadOpts.paths, realDir: job.realDir });
  if (e && omitReferences) e.references = [];
  return e;
}

/** Stride between the jobs of one sweep (spreadOrder). */
const SPREAD_STRIDE = 64;

/**
 * The indices 0…n-1 in sweeps of stride SPREAD_STRIDE (0, 64, 128…, then 1, 65…). Skills come sorted by folder
 * name, so copies of one kind of skill sit together; taken in this order, every kind is met in the first sweep, so
 * the JIT has seen all of them when it optimizes, instead of meeting new shapes (deoptimizing, running slow until
 * it optimizes again) all through the run. Results go back by index: the output does not change.
 */
export function spreadOrder(n: number): Int32Array {
  const order = new Int32Array(n);
  let k = 0;
  for (let start = 0; start < SPREAD_STRIDE && start < n; start++) for (let i = start; i < n; i += SPREAD_STRIDE) order[k++] = i;
  return order;
}

/** SKILLFLOW_WORKERS=N in `env`: use N worker threads besides this one (0: none; for profiling and comparisons). */
function envThreads(env: Record<string, string | undefined> | undefined): number | undefined {
  const raw = env?.SKILLFLOW_WORKERS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n + 1 : undefined;
}

/** `createParallelLoader(opts).loader`, with the workers ended after each call. */
export function parallelLoader(opts: ParallelOptions = {}): SkillLoader {
  return (fs, jobs, profile, loadOpts) => {
    const p = createParallelLoader({ ...opts, prewarm: false });
    try {
      return p.loader(fs, jobs, profile, loadOpts);
    } finally {
      p.dispose();
    }
  };
}

function startPool(workerFile: string, count: number): Pool {
  const pool: Pool = { workers: [], ports: [], batches: 0 };
  const { MessageChannel, Worker } = workerThreads();
  for (let w = 0; w < count; w++) {
    try {
      const { port1, port2 } = new MessageChannel();
      const input: WorkerInput = { skillflowValidateWorker: true, port: port2 };
      // A larger young generation: each skill's text is garbage right after it is checked, so fewer scavenges.
      const worker = new Worker(workerFile, { workerData: input, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      worker.unref();
      // A worker that fails is noticed by its missing chunks; this only keeps the error from being unhandled.
      worker.on('error', () => undefined);
      pool.workers.push(worker);
      pool.ports.push(port1);
    } catch {
      break; // no (more) workers: this thread does the rest
    }
  }
  return pool;
}

/** loadSkill on every job over the pool, taken in spreadOrder (each thread then meets every kind of skill early). */
function loadParallel(fs: FileSystem, jobs: SkillJob[], profile: Profile, loadOpts: { listFiles?: boolean }, pool: Pool, opts: ParallelOptions): Array<LoadedSkillEntry | undefined> {
  const order = spreadOrder(jobs.length);
  const spread = loadChunked(fs, Array.from(order, (i) => jobs[i]), profile, loadOpts, pool, opts);
  const out = new Array<LoadedSkillEntry | undefined>(jobs.length);
  for (let k = 0; k < order.length; k++) out[order[k]] = spread[k];
  return out;
}

function loadChunked(fs: FileSystem, jobs: SkillJob[], profile: Profile, loadOpts: { listFiles?: boolean }, pool: Pool, opts: ParallelOptions): Array<LoadedSkillEntry | undefined> {
  const CHUNK = Math.max(1, opts.chunk ?? DEFAULT_CHUNK);
  const chunks = Math.ceil(jobs.length / CHUNK);
  const buffer = new SharedArrayBuffer(8);
  const control = new Int32Array(buffer);
  const results: Array<Array<LoadedSkillEntry | undefined> | undefined> = new Array(chunks);
  const { workers, ports } = pool;
  const id = ++pool.batches;
  const batch: BatchMessage = { jobs, profile, listFiles: loadOpts.listFiles, omitReferences: opts.omitReferences, chunk: CHUNK, batch: id, control: buffer };
  for (const port of ports) port.postMessage(batch);

  const inThread = { listFiles: loadOpts.listFiles, paths: new PathJoiner() };
  const loadChunk = (c: number) => {
    const out: Array<LoadedSkillEntry | undefined> = [];
    for (let i = c * CHUNK; i < Math.min(jobs.length, (c + 1) * CHUNK); i++) out.push(loadJob(fs, jobs[i], profile, inThread, opts.omitReferences));
    return out;
  };
  let received = 0; // chunks the workers settled (with entries or an error)
  const { receiveMessageOnPort } = workerThreads();
  const drain = () => {
    for (const port of ports) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const r = m.message as ChunkResult;
        if (r.batch !== id) continue; // not this batch
        // A chunk that failed in a worker counts as settled; it is loaded on this thread at the end.
        if (r.entries) results[r.chunk] = r.entries;
        received++;
      }
    }
  };

  // This thread's share: chunks from the same counter the workers take from.
  let mine = 0;
  if (opts.selfShare !== false || !workers.length) for (let c = Atomics.add(control, 0, 1); c < chunks; c = Atomics.add(control, 0, 1)) {
    results[c] = loadChunk(c);
    mine++;
  }
  // The workers' share: wait for their messages (Atomics.notify on control[1] after each post).
  let lastProgress = Date.now();
  drain();
  while (mine + received < chunks && workers.length) {
    const posted = Atomics.load(control, 1);
    drain();
    if (mine + received >= chunks) break;
    if (Atomics.wait(control, 1, posted, 1000) === 'timed-out') {
      if (Date.now() - lastProgress > STALL_MS) break;
    } else {
      lastProgress = Date.now();
    }
  }
  drain();
  // Chunks still unclaimed (no worker took them before a stall) are claimed here so no worker starts them late.
  Atomics.store(control, 0, chunks);

  let byWorkers = 0;
  const out: Array<LoadedSkillEntry | undefined> = [];
  for (let c = 0; c < chunks; c++) {
    let entries = results[c];
    if (entries) byWorkers++;
    else entries = loadChunk(c); // a chunk no worker delivered
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k];
      // Structured clone copied the root: point back at the caller's object, as loadSkill would.
      if (e) e.root = jobs[c * CHUNK + k].root;
      out.push(e);
    }
  }
  opts.onStats?.({ chunks, byWorkers: byWorkers - mine });
  return out;
}
