/**
 * The run memo of `skillflow validate --cache`: what a whole run printed (its stdout and stderr in order, its exit
 * code), kept with every question the run asked the file system and the answer it got, and the environment variables
 * it read. A later run with the same arguments, folder, home, tool build and Node replays the questions; when every
 * answer is the same, the run would print exactly what it printed, and the memo's output is printed without loading
 * the rest of the tool (src/cli/validateMemo.ts, from dist/cli.js). Anything else falls through to the full run, whose
 * per-skill cache (loadCache.ts) then does its own, finer check.
 *
 * Why the questions are enough: validate's output is a function of its arguments, its folder, the home and managed
 * folders, the environment variables it reads, the tool and Node, and the answers the file system gives it. Every
 * question goes through one traced FileSystem; a skill whose cached load was reused asked its trace again through it,
 * except files trusted by their fingerprint (loadCache.ts tells the recorder: `noteTrusted`). A run that enumerated the
 * whole environment, wrote anything, or got two answers to one question is not memoised.
 *
 * The answers compared: a stat or lstat (kind, size, mtime) and a real path exactly; a folder listing by its folder's
 * fingerprint (size, mtime, ctime, inode, device: adding, removing or renaming an entry changes its mtime and ctime),
 * else listed again and hashed; a file's bytes by its fingerprint, else read again and hashed. A fingerprint is only
 * trusted when the folder or file last changed more than `racyMs` before the bytes were read (the racy window,
 * loadCache.ts).
 */
import type { FileStat, FileSystem } from '../base/fs';
import { checksum, checksumOf, dirAnswer, type Fingerprinter, fingerprintOf, type FullStat, fullStatAnswer, hashOf, nodeCrypto, statAnswer } from './answers';

const MAGIC = 'skillflow-validate-run';
/** Bumped whenever what is stored, or how it is checked, changes. */
export const RUN_MEMO_FORMAT = 5;

/**
 * What a run printed, in order, as it reached the terminal: 'o' stdout, 'e' stderr, 's' where the cache-stats line
 * went (its text is the replay's own).
 */
export type Chunk = ['o' | 'e' | 's', string];

/**
 * The memo file: a header line (magic, format, checksum of the rest), a line of JSON (Meta), `qBytes` bytes of
 * questions, `jBytes` bytes of jobs, then the output's bytes. Questions are grouped by path, paths sorted and each
 * stored as the length of the prefix it shares with the one before and the rest: `<n> <rest>\n`, then one line per
 * question about it, `\t<op><answer>\t<who>\n` (ops: s stat, l lstat, r real path, d listing, f file bytes; who: `g`
 * when the run asked it outside any skill's load, `k` when it did but only read the kind of the stat's answer (file,
 * folder, link; not its size or mtime), `-` when only loads asked it, then the indexes (base 36, comma-separated) of the
 * loads that asked it). A job line is `<digest>\t<job key>\n`: the skill's load (LoadCache's job key) and the digest
 * of the entry it gave (entryDigest). A run that asked about a path holding a tab or a line feed is not memoised.
 *
 * Why a question's askers are kept: when only questions that loads asked get other answers (a SKILL.md's body was
 * edited), the loads that asked them are made again (validatePartial.ts); when each gives an entry of the same digest,
 * the rest of the run, which only sees the entries and its own answers, would print what it printed.
 */
interface Meta {
  key: string;
  /** Every environment variable the run read, with its value (null: not set). */
  env: Array<[string, string | null]>;
  /** When the run started (ms since the epoch); a folder listing is trusted by its fingerprint against it. */
  at: number;
  /**
   * The recorded run's own name (random), kept by every patch: a file kept beside the memo is bound to it (a patch
   * changes only what loads gave: what such a file holds of the rest of the run holds for every memo of this name).
   */
  id: string;
  racyMs: number;
  exit: number;
  /** How many skill loads the run answered (the replay's stats line says them). */
  loads: number;
  out: Array<[Chunk[0], number]>;
  qBytes: number;
  jBytes: number;
}

export interface RecorderOptions {
  fingerprint: Fingerprinter;
  racyMs: number;
  now?: () => number;
}

interface FileAnswer { hash: string; fp: string; at: number }

/** One question and its answer; `g`: asked outside loads (0 no, 1 only the stat's kind read, 2 yes); `jobs`: the loads that asked it. */
interface Question { answer: string; file?: FileAnswer; g: 0 | 1 | 2; jobs?: number[]; stat?: FileStat }

const UNSAFE = /[\t\n]/;

/** A question's path line: `path` as the length of the prefix it shares with `prev` (the path line before) and the rest. */
function pathLine(prev: string, path: string): string {
  let n = 0;
  const max = Math.min(prev.length, path.length);
  while (n < max && prev.charCodeAt(n) === path.charCodeAt(n)) n++;
  return `${n} ${path.slice(n)}\n`;
}

/**
 * The loads that asked a question, `text[from, to)` (base 36, comma-separated: empty when only the run asked it), read
 * in place into `out` (every line of a memo is read so: most have one asker). Returns `out`.
 */
function readAskers(text: string, from: number, to: number, out: number[]): number[] {
  out.length = 0;
  if (from >= to) return out;
  for (let k = from, j = 0; k <= to; k++) {
    const c = k < to ? text.charCodeAt(k) : 44;
    if (c !== 44 /* , */) { j = j * 36 + (c <= 57 ? c - 48 : c - 87); continue; }
    out.push(j);
    j = 0;
  }
  return out;
}

/** The memo's job lines, [job key, entry digest] by load index. */
function jobLines(memo: { meta: Meta; rest: Buffer; qStart: number }): Array<[string, string]> {
  const start = memo.qStart + memo.meta.qBytes;
  const lines = memo.rest.toString('utf8', start, start + memo.meta.jBytes).split('\n');
  lines.pop(); // after the last line feed
  return lines.map((line) => {
    const tab = line.indexOf('\t');
    if (tab < 0) throw new Error('not a job line');
    return [line.slice(tab + 1), line.slice(0, tab)];
  });
}

/** The kind part of a stat answer ('-' when missing): what a caller that reads no size or mtime depends on. */
const kindOf = (answer: string): string => { const c = answer.indexOf(':'); return c < 0 ? answer : answer.slice(0, c); };

export class RunRecorder {
  /** path → op → question. */
  private readonly q = new Map<string, Map<string, Question>>();
  private readonly envRead = new Map<string, string | null>();
  private spoiled = false;
  private readonly out: Chunk[] = [];
  /** The loads of the run: [job key, entry digest]. */
  private readonly jobs: Array<[string, string]> = [];
  private readonly jobIndex = new Map<string, number>();
  /** The load whose questions are being asked (-1: none). */
  private current = -1;
  /** Listings already hashed this run (the same array from the read cache below is not hashed again). */
  private readonly listed = new Map<string, unknown>();
  /** When the run started: a file or folder changed after `at - racyMs` is never trusted by its fingerprint. */
  readonly at: number;
  /** The memo's Meta.id (what a file kept beside it is bound to). */
  readonly id = nodeCrypto().randomBytes(9).toString('base64');

  constructor(private readonly opts: RecorderOptions) {
    this.at = (opts.now ?? Date.now)();
  }

  /** `env` with every variable read remembered (enumerating or changing it spoils the memo: the run then depends on all of it). */
  env(env: Record<string, string | undefined>): Record<string, string | undefined> {
    const read = (k: string | symbol) => { if (typeof k === 'string' && !this.envRead.has(k)) this.envRead.set(k, env[k] ?? null); };
    return new Proxy(env, {
      get: (t, k) => { read(k); return Reflect.get(t, k); },
      has: (t, k) => { read(k); return Reflect.has(t, k); },
      getOwnPropertyDescriptor: (t, k) => { read(k); return Reflect.getOwnPropertyDescriptor(t, k); },
      ownKeys: (t) => { this.spoiled = true; return Reflect.ownKeys(t); },
      set: (t, k, v) => { this.spoiled = true; return Reflect.set(t, k, v); },
      deleteProperty: (t, k) => { this.spoiled = true; return Reflect.deleteProperty(t, k); },
    });
  }

  /** Remembers output, as it reaches the terminal (call in the order it is printed). */
  print(tag: Chunk[0], text: string): void {
    this.out.push([tag, text]);
  }

  /** The file the trace read last: its bytes as returned, their hash and its fingerprint (taken before the read). */
  private lastRead: { path: string; bytes: Buffer; hash: string; fp: string } | undefined;

  /**
   * The hash and fingerprint of `bytes` when they are what the trace just returned for `path` (the same Buffer, no
   * other read since), so that a layer above need not hash and stat again (LoadCacheOptions.lastRead).
   */
  readonly readProof = (path: string, bytes: Buffer): { hash: string; fingerprint: string | null } | undefined => {
    const r = this.lastRead;
    return r && r.bytes === bytes && r.path === path ? { hash: r.hash, fingerprint: r.fp || null } : undefined;
  };

  /** The questions asked from now until endJob() are the load `key`'s (LoadCacheOptions.onJob). */
  readonly beginJob = (key: string): void => {
    let i = this.jobIndex.get(key);
    if (i === undefined) {
      i = this.jobs.length;
      this.jobs.push([key, '']);
      this.jobIndex.set(key, i);
    }
    this.current = i;
  };

  /**
   * The load begun last gave an entry of this digest (entryDigest); a load made twice in a run with two digests spoils
   * the memo. Returns that load's index (-1: none was begun).
   */
  readonly endJob = (digest: string): number => {
    const i = this.current;
    const job = this.jobs[i];
    if (job) {
      if (job[1] !== '' && job[1] !== digest) this.spoiled = true;
      job[1] = digest;
    }
    this.current = -1;
    return job ? i : -1;
  };

  /** How many chunks of output were printed so far. */
  get printed(): number {
    return this.out.length;
  }

  private owner(q: Question, g: 0 | 1 | 2): void {
    if (this.current < 0) { if (g > q.g) q.g = g; return; }
    const jobs = q.jobs ??= [];
    // Loads come in the order of their indexes (a run that loads again reuses them): the last index is the largest.
    const last = jobs.length ? jobs[jobs.length - 1] : -1;
    if (last < this.current || (last > this.current && !jobs.includes(this.current))) jobs.push(this.current);
  }

  private put(op: string, path: string, answer: string, g: 0 | 1 | 2 = 2): Question | undefined {
    let ops = this.q.get(path);
    if (!ops) {
      if (UNSAFE.test(path)) { this.spoiled = true; return undefined; }
      this.q.set(path, ops = new Map());
    }
    let q = ops.get(op);
    if (q === undefined) {
      if (UNSAFE.test(answer)) { this.spoiled = true; return undefined; }
      ops.set(op, q = { answer, g: 0 });
    } else if (q.answer !== answer) this.spoiled = true;
    this.owner(q, g);
    return q;
  }

  /** put() of a stat answer; the same object as the last answer to that question (the read cache below) is not made into text again. */
  private putStat(op: 's' | 'l', path: string, s: FileStat | undefined): Question | undefined {
    const q = s === undefined ? undefined : this.q.get(path)?.get(op);
    if (q !== undefined && q.stat === s) { this.owner(q, 1); return q; }
    const put = this.put(op, path, statAnswer(s), 1);
    if (put) put.stat = s;
    return put;
  }

  private file(path: string, answer: FileAnswer): void {
    if (UNSAFE.test(path)) { this.spoiled = true; return; }
    let ops = this.q.get(path);
    if (!ops) this.q.set(path, ops = new Map());
    let q = ops.get('f');
    if (q === undefined) ops.set('f', q = { answer: '', file: answer, g: 0 });
    else {
      const old = q.file!;
      if (old.hash !== answer.hash) this.spoiled = true;
      // The later proof of the same bytes is kept (a fingerprint read later is trusted sooner).
      if (answer.fp !== '' && (old.fp !== answer.fp || answer.at > old.at)) q.file = answer;
    }
    this.owner(q, 2);
  }

  /** A file a cached load trusted by its fingerprint (LoadCacheOptions.onFileTrusted). */
  readonly noteTrusted = (path: string, hash: string, fingerprint: string, at: number): void => {
    this.file(path, { hash, fp: fingerprint, at });
  };

  /** A stat answer for the caller: outside a load, one whose size or mtime, once read, makes the question wholly the run's. */
  private statFor(q: Question | undefined, s: FileStat | undefined): FileStat | undefined {
    if (!s || !q || this.current >= 0 || q.g === 2) return s;
    return {
      isFile: s.isFile,
      isDirectory: s.isDirectory,
      isSymbolicLink: s.isSymbolicLink,
      get size() { q.g = 2; return s.size; },
      get mtimeMs() { q.g = 2; return s.mtimeMs; },
    };
  }

  /**
   * `fs` with every question asked of it, and its answer, remembered. `readCache`: `fs` is a read cache (withReadCache)
   * and the traced one says so too (discovery then adds none above it: every question reaches the trace).
   */
  trace(fs: FileSystem, readCache = false): FileSystem {
    const fingerprint = this.opts.fingerprint;
    const read = (path: string, get: () => Buffer): Buffer => {
      // The fingerprint first: a change after it leaves a fingerprint that no longer matches.
      const fp = fingerprint(path)?.fingerprint ?? '';
      let bytes: Buffer;
      try {
        bytes = get();
      } catch (e) {
        this.file(path, { hash: '!', fp, at: this.at });
        throw e;
      }
      const hash = hashOf(bytes);
      this.file(path, { hash, fp, at: this.at });
      this.lastRead = { path, bytes, hash, fp };
      return bytes;
    };
    const spoil = <T>(v: T): T => { this.spoiled = true; return v; };
    const lstat = (path: string, s: FileStat | undefined) => this.statFor(this.putStat('l', path, s), s);
    return {
      ...(readCache ? { isReadCache: true } : {}),
      caseSensitive: fs.caseSensitive,
      stat: (path) => { const s = fs.stat(path); return this.statFor(this.putStat('s', path, s), s); },
      lstat: (path) => lstat(path, fs.lstat(path)),
      lstatUncached: (path) => lstat(path, fs.lstatUncached ? fs.lstatUncached(path) : fs.lstat(path)),
      readDir: (path) => {
        const d = fs.readDir(path);
        const ops = this.q.get(path);
        const q = ops?.get('d');
        if (q !== undefined && this.listed.get(path) === d) this.owner(q, 2);
        else {
          this.listed.set(path, d);
          const fp = fingerprint(path)?.fingerprint ?? '';
          this.put('d', path, `${hashOf(dirAnswer(d))}|${fp}`);
        }
        return d;
      },
      realPath: (path) => { const r = fs.realPath(path); this.put('r', path, r ?? ''); return r; },
      readFile: (path) => read(path, () => fs.readFile(path)),
      readFileTransient: fs.readFileTransient ? (path, size) => read(path, () => fs.readFileTransient!(path, size)) : undefined,
      writeFileAtomic: (path, data) => spoil(fs.writeFileAtomic(path, data)),
      mkdirp: (path) => spoil(fs.mkdirp(path)),
    };
  }

  /** Question lines of an earlier memo kept before this run's (keepQuestions). */
  private kept = '';

  /**
   * Keeps the questions of the memo that `dirty` came from that the loads `taken` asked (vouchedLoads: this run took
   * their entries without asking; seedJobs gave them their old indexes): each line as the memo has it, its askers cut
   * to those loads (a line none of them asked, or that got another answer in the replay, is left out: the run asked
   * again what it still asks), marked as asked by loads only (the run's own questions are the run's to ask again). A
   * path this run asked about too gets them among its own questions (one path, one group of questions: the replay
   * takes one lstat per group). Returns the `.json` files among them (the per-skill cache fingerprints those).
   */
  keepQuestions(dirty: DirtyLoads, taken: ReadonlySet<number>): string[] {
    const { text, edits } = dirty;
    const out: string[] = [];
    const json: string[] = [];
    let path = '';
    let written = '';
    let pathDone = false; // the current path's line is written
    let ops: Map<string, Question> | undefined; // this run's questions about the current path
    const askers: number[] = [];
    let e = 0;
    for (let i = 0; i < text.length;) {
      const end = text.indexOf('\n', i) + 1;
      if (end === 0) throw new Error('truncated');
      if (text.charCodeAt(i) !== 9) {
        const space = text.indexOf(' ', i);
        path = path.slice(0, Number(text.slice(i, space))) + text.slice(space + 1, end - 1);
        pathDone = false;
        ops = this.q.get(path);
        i = end;
        continue;
      }
      const line = i;
      i = end;
      if (e < edits.length && edits[e][0] === line) { e++; continue; }
      const tab = text.lastIndexOf('\t', end - 2);
      readAskers(text, tab + 2, end - 1, askers);
      const all = askers.length > 0 && askers.every((j) => taken.has(j));
      if (!all) {
        let kept = 0;
        for (const j of askers) if (taken.has(j)) askers[kept++] = j;
        askers.length = kept;
      }
      if (!askers.length) continue;
      if (!pathDone) {
        pathDone = true;
        if (path.endsWith('.json')) json.push(path);
      }
      if (ops) {
        this.merge(ops, text[line + 1], text.slice(line + 2, tab), askers);
        continue;
      }
      if (out.length === 0 || written !== path) {
        out.push(pathLine(written, path));
        written = path;
      }
      out.push(all && text.charCodeAt(tab + 1) === 0x2d /* - */ ? text.slice(line, end) : `${text.slice(line, tab)}\t-${askers.map((j) => j.toString(36)).join(',')}\n`);
    }
    this.kept = out.join('');
    return json;
  }

  /** An earlier memo's question (op, answer as the memo holds it), asked by the loads `askers`, among this run's. */
  private merge(ops: Map<string, Question>, op: string, answer: string, askers: readonly number[]): void {
    let q = ops.get(op);
    if (op === 'f') {
      const [hash, fp, at] = answer.split('|');
      if (q === undefined) ops.set(op, q = { answer: '', file: { hash, fp, at: Number(at) }, g: 0 });
      else if (q.file?.hash !== hash) this.spoiled = true;
    } else if (q === undefined) ops.set(op, q = { answer, g: 0 });
    else if (q.answer !== answer) this.spoiled = true;
    const jobs = q.jobs ??= [];
    if (!jobs.length) { jobs.push(...askers); return; }
    // (A question every load asked, the real path of a skills folder: ten thousand askers.)
    const have = new Set(jobs);
    for (const j of askers) if (!have.has(j)) jobs.push(j);
  }

  /** Digests of the loads of an earlier memo (seedJobs) this run did not make: kept as they were. */
  private seeded: string[] = [];

  /**
   * The loads of an earlier memo (its jobs, [key, digest]), in its order, before any is begun: a load of the same key
   * keeps its index (the lines keepQuestions keeps name them), one this run does not make keeps its digest.
   */
  seedJobs(jobs: ReadonlyArray<[string, string]>): void {
    if (this.jobs.length) throw new Error('seedJobs after a load was begun');
    this.seeded = jobs.map(([, digest]) => digest);
    for (const [key] of jobs) {
      if (!this.jobIndex.has(key)) this.jobIndex.set(key, this.jobs.length);
      this.jobs.push([key, '']);
    }
  }

  /** The questions asked from now until endJob() are those of the memo's load `index` (a patch: patchMemo). */
  beginJobAt(index: number): void {
    while (this.jobs.length <= index) this.jobs.push(['', '']);
    this.current = index;
  }

  /** The question lines of this run (RunMemo format: the first path stored whole), or undefined when it spoiled. */
  questionLines(): string | undefined {
    if (this.spoiled) return undefined;
    const lines: string[] = [];
    let prev = '';
    for (const path of [...this.q.keys()].sort()) {
      lines.push(pathLine(prev, path));
      for (const [op, q] of this.q.get(path)!) {
        const answer = q.file ? `${q.file.hash}|${q.file.fp}|${q.file.at}` : q.answer;
        lines.push(`\t${op}${answer}\t${q.g === 2 ? 'g' : q.g === 1 ? 'k' : '-'}${q.jobs ? q.jobs.map((j) => j.toString(36)).join(',') : ''}\n`);
      }
      prev = path;
    }
    return lines.join('');
  }

  /** The memo file's bytes (questions kept from an earlier memo first: keepQuestions), or undefined when this run cannot be memoised. */
  serialize(key: string, exit: number, loads: number): Buffer | undefined {
    const text = this.questionLines();
    if (text === undefined || this.jobs.some(([k, d]) => UNSAFE.test(k) || UNSAFE.test(d))) return undefined;
    const questions = [Buffer.from(this.kept, 'utf8'), Buffer.from(text, 'utf8')];
    const jobs = Buffer.from(this.jobs.map(([k, d], i) => `${d || (this.seeded[i] ?? '')}\t${k}\n`).join(''), 'utf8');
    const output = this.out.map(([, t]) => Buffer.from(t, 'utf8'));
    const meta: Meta = { key, env: [...this.envRead], at: this.at, id: this.id, racyMs: this.opts.racyMs, exit, loads, out: this.out.map(([tag], i) => [tag, output[i].length]), qBytes: questions[0].length + questions[1].length, jBytes: jobs.length };
    return memoBytes(meta, [...questions, jobs, ...output]);
  }
}

function memoBytes(meta: Meta, parts: Buffer[]): Buffer {
  return Buffer.concat(memoChunks(meta, parts));
}

/** The memo file as chunks to write one after the other (memoBytes without copying `parts`). */
function memoChunks(meta: Meta, parts: readonly Buffer[]): Buffer[] {
  const rest = [Buffer.from(`${JSON.stringify(meta)}\n`, 'utf8'), ...parts];
  return [Buffer.from(`${JSON.stringify({ magic: MAGIC, format: RUN_MEMO_FORMAT, sum: checksumOf(rest) })}\n`, 'utf8'), ...rest];
}

/** The name of the recorded run (Meta.id) of the intact memo `data`; undefined for anything else. */
export function memoId(data: Buffer): string | undefined {
  try {
    const id = openMemo(data)?.meta.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** What a patch of a memo needs of its replay (Replayed.dirty). */
export interface DirtyLoads {
  /** The loads to make again (indexes). */
  jobs: number[];
  /** The memo. */
  data: Buffer;
  /** Its question text, and the lines in it that got other answers: [start, end, replacement] (char offsets). */
  text: string;
  edits: Array<[number, number, string]>;
}

/**
 * The job key and entry digest of each of the memo's loads `jobs` (DirtyLoads: from an intact memo); undefined for an
 * index it does not have.
 */
export function memoJobs(dirty: DirtyLoads): Array<[string, string] | undefined> {
  const jobs = jobLines(openMemo(dirty.data)!);
  return dirty.jobs.map((j) => jobs[j]);
}

/**
 * The memo `dirty.data` with the lines that got other answers dropped (or, for a stat only the run's kind was read of,
 * given its new answer), the lines only the loads made again asked dropped too, and `lines` (a RunRecorder's
 * questionLines() of those loads, in their old indexes) added after its questions (so that a skill edited again and
 * again does not make the memo grow); everything else as it was (the jobs, their digests, the output, `at`).
 */
export function patchMemo(dirty: DirtyLoads, lines: string, changed?: ChangedRun): Buffer[] {
  const memo = openMemo(dirty.data)!;
  const { meta, rest, qStart } = memo;
  const { text, edits } = dirty;
  const again = new Set(dirty.jobs);
  const askers: number[] = [];
  const onlyAgain = (from: number, to: number): boolean => readAskers(text, from, to, askers).every((j) => again.has(j));
  // Stretches of unchanged lines are copied as they are (as [start, end) of `text`, made into bytes at the end). A path
  // whose every question was dropped loses its line too; the next path line is then written against the last path
  // kept (each path line is the length of the prefix it shares with the path line before it).
  const pieces: Array<string | [number, number]> = [];
  let runStart = 0;
  let path = '';
  let written = '';
  let hStart = -1;
  let hEnd = -1;
  let hKept = false;
  /** The piece that ends with the current path line (its first question dropped before any was kept), else -1. */
  let hPiece = -1;
  let hOwnPiece = false;
  const closePath = (): boolean => {
    if (hStart < 0) return false;
    if (hKept) { written = path; return false; }
    if (hPiece >= 0) {
      const piece = pieces[hPiece];
      pieces[hPiece] = hOwnPiece ? '' : typeof piece === 'string' ? piece.slice(0, piece.length - (hEnd - hStart)) : [piece[0], piece[1] - (hEnd - hStart)];
    }
    return true;
  };
  const drop = (i: number, end: number, replacement: string) => {
    pieces.push([runStart, i]);
    if (!hKept && hPiece < 0) hPiece = pieces.length - 1;
    if (replacement) { pieces.push(replacement); hKept = true; }
    runStart = end;
  };
  let e = 0;
  for (let i = 0; i < text.length;) {
    const end = text.indexOf('\n', i) + 1;
    if (end === 0) throw new Error('truncated');
    if (text.charCodeAt(i) !== 9) {
      const orphan = closePath();
      const space = text.indexOf(' ', i);
      path = path.slice(0, Number(text.slice(i, space))) + text.slice(space + 1, end - 1);
      hStart = i;
      hEnd = end;
      hKept = false;
      hPiece = -1;
      hOwnPiece = orphan;
      if (orphan) {
        pieces.push([runStart, i], pathLine(written, path));
        hPiece = pieces.length - 1;
        runStart = end;
      }
    } else if (e < edits.length && edits[e][0] === i) {
      drop(i, end, edits[e][2]);
      e++;
    } else {
      const tab = text.lastIndexOf('\t', end - 2);
      if (text.charCodeAt(tab + 1) === 0x2d /* - */ && tab + 2 < end - 1 && onlyAgain(tab + 2, end - 1)) drop(i, end, '');
      else hKept = true;
    }
    i = end;
  }
  closePath();
  pieces.push([runStart, text.length], lines);
  // Where the questions are ASCII (every character one byte), a stretch of them is a slice of the memo's own bytes.
  const qBytes = rest.subarray(qStart, qStart + meta.qBytes);
  const ascii = qBytes.length === text.length;
  const questions = ascii
    ? pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : qBytes.subarray(p[0], p[1])))
    : [Buffer.from(pieces.map((p) => (typeof p === 'string' ? p : text.slice(p[0], p[1]))).join(''), 'utf8')];
  const qLength = questions.reduce((n, b) => n + b.length, 0);
  if (!changed) return memoChunks({ ...meta, qBytes: qLength }, [...questions, rest.subarray(qStart + meta.qBytes)]);
  // The job lines as bytes, each changed load's digest (before its line's tab) replaced: no copy of the rest.
  const jobBytes = rest.subarray(qStart + meta.qBytes, qStart + meta.qBytes + meta.jBytes);
  const jobs: Buffer[] = [];
  let from = 0;
  let line = 0;
  let lineStart = 0;
  for (const [i, digest] of [...changed.digests].sort((a, b) => a[0] - b[0])) {
    if (UNSAFE.test(digest) || i < line) throw new Error('no such load');
    for (; line < i; line++) {
      lineStart = jobBytes.indexOf(10, lineStart) + 1;
      if (lineStart === 0) throw new Error('no such load');
    }
    const tab = jobBytes.indexOf(9, lineStart);
    const eol = jobBytes.indexOf(10, lineStart);
    if (tab < 0 || eol < tab) throw new Error('no such load');
    jobs.push(jobBytes.subarray(from, lineStart), Buffer.from(digest, 'utf8'));
    from = tab;
  }
  jobs.push(jobBytes.subarray(from));
  const jLength = jobs.reduce((n, b) => n + b.length, 0);
  return memoChunks({ ...meta, qBytes: qLength, jBytes: jLength, exit: changed.exit, out: changed.out.map(([tag, b]) => [tag, b.length]) }, [...questions, ...jobs, ...changed.out.map(([, b]) => b)]);
}

/**
 * The loads of the memo that `dirty` came from (a replay where only some loads' questions got other answers) whose
 * every question got the same answer, by job key: their index in the memo and the digest of the entry each gave. A
 * load that asked them again would give an entry of that digest, so a full run that follows (validate.ts: one of the
 * loads made again gave another entry) may take a per-skill cache record of that digest without replaying its trace,
 * and keep those loads' questions as the memo has them (RunRecorder.keepQuestions). `jobs`: every load of the memo, [key, digest].
 */
export function vouchedLoads(dirty: DirtyLoads): { byKey: Map<string, { index: number; digest: string }>; jobs: Array<[string, string]> } {
  const jobs = jobLines(openMemo(dirty.data)!);
  const again = new Set(dirty.jobs);
  const byKey = new Map<string, { index: number; digest: string }>();
  jobs.forEach(([key, digest], index) => {
    if (!again.has(index) && key !== '' && digest !== '' && digest !== '!') byKey.set(key, { index, digest });
  });
  return { byKey, jobs };
}

/** What a patch changes besides the questions when some loads gave other entries (validatePartial.ts): their digests, the output. */
export interface ChangedRun {
  /** Load index → the digest of the entry it gives now. */
  digests: ReadonlyMap<number, string>;
  out: Replayed['out'];
  exit: number;
}

/** openMemo's answers by memo (a replay and its patch open the same one several times: its checksum is made once). */
const opened = new WeakMap<Buffer, { meta: Meta; rest: Buffer; qStart: number }>();

/** The parts of an intact memo of this format (its checksum holds); undefined otherwise. */
function openMemo(data: Buffer | undefined): { meta: Meta; rest: Buffer; qStart: number } | undefined {
  if (!data || !data.length) return undefined;
  const known = opened.get(data);
  if (known) return known;
  const memo = checkMemo(data);
  if (memo) opened.set(data, memo);
  return memo;
}

function checkMemo(data: Buffer): { meta: Meta; rest: Buffer; qStart: number } | undefined {
  const nl = data.indexOf(10);
  if (nl < 0) return undefined;
  const header = JSON.parse(data.toString('utf8', 0, nl)) as { magic?: unknown; format?: unknown; sum?: unknown };
  if (header.magic !== MAGIC || header.format !== RUN_MEMO_FORMAT) return undefined;
  const rest = data.subarray(nl + 1);
  if (header.sum !== checksum(rest)) return undefined;
  const metaEnd = rest.indexOf(10);
  const meta = JSON.parse(rest.toString('utf8', 0, metaEnd)) as Meta;
  if (!Array.isArray(meta.env) || !Array.isArray(meta.out) || typeof meta.qBytes !== 'number' || typeof meta.jBytes !== 'number') return undefined;
  return { meta, rest, qStart: metaEnd + 1 };
}

/** What the replay asks the disk: lstat and stat with inode and ctime (node:fs's, never throwing), the rest as FileSystem's. */
export interface ReplayDisk {
  lstat(path: string): FullStat | undefined;
  stat(path: string): FullStat | undefined;
  readDir: FileSystem['readDir'];
  realPath: FileSystem['realPath'];
  /** Throws when the file cannot be read. */
  readFile: FileSystem['readFile'];
}

export interface Replayed {
  /** What the run printed, as it reached the terminal: [tag, bytes]. */
  out: Array<[Chunk[0], Buffer]>;
  exit: number;
  loads: number;
  /**
   * Set when the memo holds but for questions only loads asked (or stats whose kind only the run read): the loads to
   * make again (validatePartial.ts: the output holds when each gives an entry of the same digest), and the lines to
   * change in the memo (patchMemo).
   */
  dirty?: DirtyLoads;
}

/**
 * The output of the memoised run when `data` is an intact memo of this format and `key`, every variable of `env` it
 * read has the same value, and every question it asked gets the same answer from `disk` now (or, with `dirty` set,
 * every question but some only loads asked); else undefined. Never throws. One lstat answers every question about a
 * path that is not a symbolic link (its stat, its fingerprint).
 */
export function replayRunMemo(data: Buffer | undefined, key: string, env: Record<string, string | undefined>, disk: ReplayDisk): Replayed | undefined {
  try {
    const memo = openMemo(data);
    if (!memo) return undefined;
    const { meta, rest, qStart } = memo;
    if (meta.key !== key) return undefined;
    for (const [k, v] of meta.env) if ((env[k] ?? null) !== v) return undefined;
    const text = rest.toString('utf8', qStart, qStart + meta.qBytes);
    const { racyMs } = meta;
    let path = '';
    let l: FullStat | undefined | null = null;
    let st: FullStat | undefined | null = null;
    const lstat = () => (l === null ? (l = disk.lstat(path)) : l);
    const stat = () => {
      if (st === null) { const s = lstat(); st = s && !s.isSymbolicLink() ? s : s ? disk.stat(path) : undefined; }
      return st;
    };
    const trusted = (fp: string, at: number): boolean => {
      if (!fp) return false;
      const s = stat();
      if (!s) return false;
      const now = fingerprintOf(s);
      return now.fingerprint === fp && now.changedMs < at - racyMs;
    };
    const dirty = new Set<number>();
    const edits: DirtyLoads['edits'] = [];
    let i = 0;
    while (i < text.length) {
      const end = text.indexOf('\n', i);
      if (end < 0) return undefined;
      if (text.charCodeAt(i) !== 9) {
        const space = text.indexOf(' ', i);
        path = path.slice(0, Number(text.slice(i, space))) + text.slice(space + 1, end);
        l = null;
        st = null;
        i = end + 1;
        continue;
      }
      const op = text[i + 1];
      const tab = text.lastIndexOf('\t', end);
      if (tab <= i + 1) return undefined;
      const answer = text.slice(i + 2, tab);
      const who = text.charCodeAt(tab + 1);
      const line = i;
      i = end + 1;
      let now: string | undefined;
      switch (op) {
        case 's': now = fullStatAnswer(stat()); break;
        case 'l': now = fullStatAnswer(lstat()); break;
        case 'r': now = disk.realPath(path) ?? ''; break;
        case 'd': {
          const bar = answer.indexOf('|');
          if (trusted(answer.slice(bar + 1), meta.at) || hashOf(dirAnswer(disk.readDir(path))) === answer.slice(0, bar)) now = answer;
          break;
        }
        case 'f': {
          const [hash, fp, at] = answer.split('|');
          if (trusted(fp, Number(at))) { now = answer; break; }
          let h: string;
          try { h = hashOf(disk.readFile(path)); } catch { h = '!'; }
          if (h === hash) now = answer;
          break;
        }
        default: return undefined;
      }
      if (now === answer) continue;
      // Another answer: the run's own question (`g`) fails the memo; one whose kind only the run read (`k`) fails it
      // when that changed; the loads that asked it are made again.
      // The line is dropped (the loads made again ask again what they still ask) or keeps only the run's kind question.
      if (who === 0x67 /* g */) return undefined;
      if (who === 0x6b /* k */) {
        if (now === undefined || kindOf(now) !== kindOf(answer)) return undefined;
        edits.push([line, i, `\t${op}${now}\tk\n`]);
      } else if (who === 0x2d /* - */) {
        edits.push([line, i, '']);
      } else {
        return undefined;
      }
      for (const j of text.slice(tab + 2, end).split(',')) {
        const n = parseInt(j, 36);
        if (j !== '' && !(n >= 0)) return undefined;
        if (j !== '') dirty.add(n);
      }
    }
    const out: Replayed['out'] = [];
    let at = qStart + meta.qBytes + meta.jBytes;
    for (const [tag, length] of meta.out) {
      out.push([tag, rest.subarray(at, at + length)]);
      at += length;
    }
    if (at !== rest.length) return undefined;
    const replayed: Replayed = { out, exit: meta.exit, loads: meta.loads };
    if (edits.length) replayed.dirty = { jobs: [...dirty].sort((a, b) => a - b), data: data!, text, edits };
    return replayed;
  } catch {
    return undefined;
  }
}
