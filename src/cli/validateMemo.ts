/**
 * The warm path of `skillflow validate --cache` on the real disk (core/cache/runMemo.ts does the work): a run with the
 * cache records, beside the per-skill cache, what it printed and every question it asked (`validate-run-v1.json` in
 * the cache folder); `dist/cli.js` (src/cli/runtime/launcher.ts) replays that before it loads the rest of the tool,
 * and prints the recorded output when nothing changed. This module and what it imports are all the warm path loads:
 * keep it small (no discovery, no validation).
 */
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type FileSystem, nodeFileSystem } from '../core/base/fs';
import { diskFingerprint, nodeCrypto, RACY_MS, type RunClock } from '../core/cache/answers';
import { replayRunMemo, type Replayed, type ReplayDisk, RunRecorder } from '../core/cache/runMemo';
import type { LoadCacheOptions } from '../core/cache/loadCache';
import type { Problem } from '../core/base/types';
import type { SkillMention } from '../core/validation/mentions';
import type { CliContext } from './context';
import { cleanOutput, escapeControls } from './output/clean';

export const DEFAULT_CACHE_DIR = '.skillflow_cache';
const MEMO_FILE = 'validate-run-v1.json';

/** size:mtime:ctime:inode:device of `file`, and when it last changed; undefined when it cannot be stat'ed. */
export const fingerprint = diskFingerprint;

function stat(file: string): nodeFs.Stats | undefined {
  try { return nodeFs.statSync(file, { throwIfNoEntry: false }); } catch { return undefined; }
}

/** The disk as the replay asks it (node:fs, as nodeFileSystem asks it). */
const disk: ReplayDisk = {
  lstat(file) { try { return nodeFs.lstatSync(file, { throwIfNoEntry: false }); } catch { return undefined; } },
  stat,
  readDir: (dir) => nodeFileSystem.readDir(dir),
  realPath: (file) => nodeFileSystem.realPath(file),
  readFile: (file) => nodeFileSystem.readFile(file),
};

/**
 * Writes `data` (or its chunks, one after the other) to `file` through a temp file in its folder and a rename (the
 * folder gets a `.gitignore` of `*`); the temp file never stays behind.
 */
export function writeAtomic(file: string, data: Buffer | string | readonly Buffer[]): void {
  const dir = path.dirname(file);
  nodeFs.mkdirSync(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (!nodeFs.existsSync(ignore)) {
    try { nodeFs.writeFileSync(ignore, '# Made by skillflow validate: its cache, never committed.\n*\n', { flag: 'wx' }); } catch { /* another run made it */ }
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
  try {
    if (typeof data === 'string' || Buffer.isBuffer(data)) nodeFs.writeFileSync(tmp, data, { flag: 'wx' });
    else {
      const fd = nodeFs.openSync(tmp, 'wx');
      try {
        writeAll(fd, data);
      } finally {
        nodeFs.closeSync(fd);
      }
    }
    nodeFs.renameSync(tmp, file);
  } catch (e) {
    try { nodeFs.unlinkSync(tmp); } catch { /* not made */ }
    throw e;
  }
}

/** Writes every chunk to `fd` in order: up to 1,024 at a time (writev), the rest of a short write one by one. */
function writeAll(fd: number, chunks: readonly Buffer[]): void {
  for (let i = 0; i < chunks.length; i += 1024) {
    const batch = chunks.slice(i, i + 1024);
    let written = nodeFs.writevSync(fd, batch);
    for (const chunk of batch) {
      if (written >= chunk.length) { written -= chunk.length; continue; }
      for (let at = written; at < chunk.length;) at += nodeFs.writeSync(fd, chunk, at);
      written = 0;
    }
  }
}

/** The cache folder: `--cache-location DIR`, else `.skillflow_cache/` of the folder the command runs in. */
export function cacheDir(cwd: string, location: string | undefined): string {
  return path.resolve(cwd, location ?? DEFAULT_CACHE_DIR);
}

/**
 * The run memo that `validate`'s arguments (after `validate`) name, read from the raw arguments so the warm path needs
 * no parser: undefined when they do not turn the cache on, or turn it off. A full run writes a memo only where this
 * finds it (and the memo holds the exact arguments), so a misreading here only misses a memo, never uses a wrong one.
 */
export function memoFile(args: readonly string[], cwd: string): string | undefined {
  let on = false;
  let location: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    if (a === '--no-cache' || a === '--fix' || a === '--fix-dry-run' || a === '--changed') return undefined;
    if (a === '--cache') on = true;
    else if (a === '--cache-location') { location = args[++i]; on = true; }
    else if (a.startsWith('--cache-location=')) { location = a.slice('--cache-location='.length); on = true; }
  }
  return on && location !== '' ? path.join(cacheDir(cwd, location), MEMO_FILE) : undefined;
}

/** The running build: the launcher and the bundle next to it (any rebuild is another key). */
function build(dir: string): string {
  return ['cli.js', 'skillflow.js'].map((f) => fingerprint(path.join(dir, f))?.fingerprint ?? '-').join('|');
}

/** Everything but the file system and the environment a validate run's output depends on. */
function memoKey(ctx: Pick<CliContext, 'argv' | 'cwd' | 'home' | 'managedDir' | 'columns'>, dir: string): string {
  return JSON.stringify([build(dir), process.platform, process.version, ctx.argv, ctx.cwd, ctx.home ?? null, ctx.managedDir === undefined ? 'os' : ctx.managedDir, ctx.columns ?? null]);
}

/**
 * What a load gave that the rest of the run may only place or pass on (validateReportMemo.ts): `[its problems, the
 * ranges of its mentions]` as JSON, and, when it has mentions, what looking them up again needs: its SKILL.md, its
 * `mentionsDisable` (null: not searched), the names they name and which are `/commands` (1) — '' when it had neither.
 */
export function loadLine(problems: readonly Problem[], mentions: readonly SkillMention[], file: string, disable: boolean | undefined): string {
  if (!problems.length && !mentions.length) return '';
  const ranges = mentions.map((m) => m.range);
  return JSON.stringify(mentions.length ? [problems, ranges, file, disable ?? null, mentions.map((m) => m.name), mentions.map((m) => (m.slash ? 1 : 0))] : [problems, ranges]);
}

/** The line SKILLFLOW_CACHE_STATS asks for (tests). */
export function statsLine(reused: number, loaded: number): string {
  return `skillflow validate: cache: ${reused} reused, ${loaded} loaded\n`;
}

/** What recordRun gives validate: its context (output and environment recorded), the traced file system, and save(). */
export interface RunRecording {
  ctx: CliContext;
  /** `fs` (a read cache: withReadCache) traced; it says it is a read cache too. */
  trace(fs: FileSystem): FileSystem;
  noteTrusted: RunRecorder['noteTrusted'];
  seedJobs: RunRecorder['seedJobs'];
  keepQuestions: RunRecorder['keepQuestions'];
  readProof: RunRecorder['readProof'];
  /** Which load asks the questions (LoadCacheOptions.onJob). */
  job: NonNullable<LoadCacheOptions['onJob']>;
  /** What each load gave of its own (by the memo's load index), as validateReportMemo.ts keeps it (loadLine). */
  loadProblems: string[];
  /** How many chunks of output were printed so far. */
  printed(): number;
  /** Prints the cache-stats line (not recorded: a replay prints its own). */
  stats(reused: number, loaded: number): void;
  /**
   * Writes the memo (or removes a stale one when this run cannot be memoised) and returns its id (runMemo.ts memoId;
   * undefined when none was written). Never throws.
   */
  save(exit: number, loads: number): string | undefined;
}

/**
 * Starts recording a validate run that uses the cache in `dir` (undefined when its memo would not be where the warm
 * path looks). `args`: validate's arguments. `racyMs`: the per-skill cache's (RACY_MS unless a test sets it).
 * `clock`: the run's fingerprints and a time no later than any stat they give (the run's read cache: statFingerprinter);
 * else each fingerprint is a stat of its own, and the run starts now.
 */
export function recordRun(ctx: CliContext, args: readonly string[], dir: string, racyMs: number | undefined, clock?: RunClock): RunRecording | undefined {
  const file = memoFile(args, ctx.cwd);
  if (file === undefined || file !== path.join(dir, MEMO_FILE)) return undefined;
  const recorder = new RunRecorder({ fingerprint: clock?.fingerprint ?? fingerprint, racyMs: racyMs ?? RACY_MS, now: clock && (() => clock.startedAt) });
  const loadProblems: string[] = [];
  const recorded: CliContext = {
    ...ctx,
    env: recorder.env(ctx.env),
    // Recorded as main() prints them: through cleanOutput, workflow commands through escapeControls.
    out: (t) => { recorder.print('o', cleanOutput(t)); ctx.out(t); },
    err: (t) => { recorder.print('e', cleanOutput(t)); ctx.err(t); },
    outCommands: ctx.outCommands && ((t) => { recorder.print('o', escapeControls(t)); ctx.outCommands!(t); }),
  };
  return {
    ctx: recorded,
    trace: (fs) => recorder.trace(fs, true),
    noteTrusted: recorder.noteTrusted,
    seedJobs: (jobs) => recorder.seedJobs(jobs),
    keepQuestions: (dirty, taken) => recorder.keepQuestions(dirty, taken),
    readProof: recorder.readProof,
    job: {
      begin: recorder.beginJob,
      end: (digest, entry) => {
        const i = recorder.endJob(digest);
        // Taken now: the rest of the run adds to an entry's problems.
        if (i >= 0) loadProblems[i] = entry ? loadLine(entry.problems, entry.mentions ?? [], entry.skillMdPath, entry.mentionsDisable) : '';
      },
    },
    loadProblems,
    printed: () => recorder.printed,
    stats: (reused, loaded) => { recorder.print('s', ''); ctx.err(statsLine(reused, loaded)); },
    save: (exit, loads) => {
      try {
        const data = recorder.serialize(memoKey(ctx, __dirname), exit, loads);
        if (data) writeAtomic(file, data);
        else nodeFs.rmSync(file, { force: true });
        return data && recorder.id;
      } catch {
        // an unwritable memo only costs the next run its speed
        return undefined;
      }
    },
  };
}

/** The memoised output of this validate run, when it still holds (see core/cache/runMemo.ts); tests call it in-process. */
export function replayRun(ctx: Pick<CliContext, 'argv' | 'cwd' | 'home' | 'managedDir' | 'columns' | 'env'>, args: readonly string[], dir = __dirname): Replayed | undefined {
  const file = memoFile(args, ctx.cwd);
  if (file === undefined) return undefined;
  let data: Buffer;
  try { data = nodeFs.readFileSync(file); } catch { return undefined; }
  return replayRunMemo(data, memoKey(ctx, dir), ctx.env, disk);
}

/** Where dist/cli.js hands the bundle a memo that held but for some loads (validatePartial.ts goes on from it). */
export const PARTIAL_HANDOFF = Symbol.for('skillflow.validate.partial');

/** What dist/cli.js hands over (PARTIAL_HANDOFF): the run's arguments and folder, the replay, when the replay began. */
export interface HandedOver { argv: string[]; cwd: string; found: Replayed; startedAt: number }

/** The context of a validate run as dist/cli.js starts it. */
export function processContext(argv: string[], cwd: string): Pick<CliContext, 'argv' | 'cwd' | 'home' | 'managedDir' | 'columns' | 'env'> {
  return { argv, cwd, home: os.homedir(), managedDir: undefined, columns: process.stdout.isTTY ? process.stdout.columns : undefined, env: process.env };
}

/** Prints a replayed run as it reached the terminal and sets the exit code. `how`: what SKILLFLOW_CODE_CACHE=report says. */
export function printReplayed(found: Replayed, how: string): void {
  if (process.env.SKILLFLOW_CODE_CACHE === 'report') process.stderr.write(`skillflow: ${how}\n`);
  for (const [tag, bytes] of found.out) {
    if (tag === 'o') process.stdout.write(bytes);
    else if (tag === 'e') process.stderr.write(bytes);
    else if (process.env.SKILLFLOW_CACHE_STATS) process.stderr.write(statsLine(found.loads, 0));
  }
  process.exitCode = found.exit;
}

/**
 * The warm path of `dist/cli.js`: prints a memoised `skillflow validate` run and sets the exit code when it still
 * holds; false (nothing printed) otherwise. The memo holds the bytes main() printed (cleanOutput applied). A memo that
 * holds but for questions some loads asked is handed to the bundle (PARTIAL_HANDOFF), which makes those loads again.
 */
export function fastValidate(): boolean {
  const argv = process.argv.slice(2);
  if (argv[0] !== 'validate') return false;
  let cwd: string;
  try { cwd = process.cwd(); } catch { return false; }
  // Before the replay's first question: a full run that takes its answers (validate.ts) starts no later.
  const startedAt = Date.now();
  const found = replayRun(processContext(argv, cwd), argv.slice(1));
  if (!found) return false;
  if (found.dirty) {
    (globalThis as Record<symbol, unknown>)[PARTIAL_HANDOFF] = { argv, cwd, found, startedAt } satisfies HandedOver;
    return false;
  }
  printReplayed(found, 'run memo used');
  return true;
}
