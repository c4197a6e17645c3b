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
import type { FileSystem } from '../base/fs';
import { checksum, dirAnswer, type Fingerprinter, fingerprintOf, type FullStat, fullStatAnswer, hashOf, statAnswer } from './answers';

const MAGIC = 'skillflow-validate-run';
/** Bumped whenever what is stored, or how it is checked, changes. */
export const RUN_MEMO_FORMAT = 1;

/**
 * What a run printed, in order, as it reached the terminal: 'o' stdout, 'e' stderr, 's' where the cache-stats line
 * went (its text is the replay's own).
 */
export type Chunk = ['o' | 'e' | 's', string];

/**
 * The memo file: a header line (magic, format, checksum of the rest), a line of JSON (Meta), `qBytes` bytes of
 * questions, then the output's bytes. Questions are grouped by path, paths sorted and each stored as the length of the
 * prefix it shares with the one before and the rest: `<n> <rest>\n`, then one line per question about it,
 * `\t<op><answer>\n` (ops: s stat, l lstat, r real path, d listing, f file bytes). A run that asked about a path
 * holding a tab or a line feed is not memoised.
 */
interface Meta {
  key: string;
  /** Every environment variable the run read, with its value (null: not set). */
  env: Array<[string, string | null]>;
  /** When the run started (ms since the epoch). */
  at: number;
  racyMs: number;
  exit: number;
  /** How many skill loads the run answered (the replay's stats line says them). */
  loads: number;
  out: Array<[Chunk[0], number]>;
  qBytes: number;
}

export interface RecorderOptions {
  fingerprint: Fingerprinter;
  racyMs: number;
  now?: () => number;
}

interface FileAnswer { hash: string; fp: string; at: number }

const UNSAFE = /[\t\n]/;

export class RunRecorder {
  /** path → op → answer ('' for a real path that does not resolve). */
  private readonly q = new Map<string, Map<string, string>>();
  private readonly files = new Map<string, FileAnswer>();
  private readonly envRead = new Map<string, string | null>();
  private spoiled = false;
  private readonly out: Chunk[] = [];
  /** When the run started: a file or folder changed after `at - racyMs` is never trusted by its fingerprint. */
  readonly at: number;

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

  private put(op: string, path: string, answer: string): void {
    if (UNSAFE.test(path) || UNSAFE.test(answer)) { this.spoiled = true; return; }
    let ops = this.q.get(path);
    if (!ops) this.q.set(path, ops = new Map());
    const old = ops.get(op);
    if (old === undefined) ops.set(op, answer);
    else if (old !== answer) this.spoiled = true;
  }

  private file(path: string, answer: FileAnswer): void {
    if (UNSAFE.test(path)) { this.spoiled = true; return; }
    const old = this.files.get(path);
    if (old && old.hash !== answer.hash) this.spoiled = true;
    // The later proof of the same bytes is kept (a fingerprint read later is trusted sooner).
    if (!old || (answer.fp !== '' && (old.fp !== answer.fp || answer.at > old.at))) this.files.set(path, answer);
  }

  /** A file a cached load trusted by its fingerprint (LoadCacheOptions.onFileTrusted). */
  readonly noteTrusted = (path: string, hash: string, fingerprint: string, at: number): void => {
    this.file(path, { hash, fp: fingerprint, at });
  };

  /** `fs` with every question asked of it, and its answer, remembered. */
  trace(fs: FileSystem): FileSystem {
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
      this.file(path, { hash: hashOf(bytes), fp, at: this.at });
      return bytes;
    };
    const spoil = <T>(v: T): T => { this.spoiled = true; return v; };
    return {
      caseSensitive: fs.caseSensitive,
      stat: (path) => { const s = fs.stat(path); this.put('s', path, statAnswer(s)); return s; },
      lstat: (path) => { const s = fs.lstat(path); this.put('l', path, statAnswer(s)); return s; },
      lstatUncached: (path) => { const s = fs.lstatUncached ? fs.lstatUncached(path) : fs.lstat(path); this.put('l', path, statAnswer(s)); return s; },
      readDir: (path) => {
        const fp = fingerprint(path)?.fingerprint ?? '';
        const d = fs.readDir(path);
        this.put('d', path, `${hashOf(dirAnswer(d))}|${fp}`);
        return d;
      },
      realPath: (path) => { const r = fs.realPath(path); this.put('r', path, r ?? ''); return r; },
      readFile: (path) => read(path, () => fs.readFile(path)),
      readFileTransient: fs.readFileTransient ? (path, size) => read(path, () => fs.readFileTransient!(path, size)) : undefined,
      writeFileAtomic: (path, data) => spoil(fs.writeFileAtomic(path, data)),
      mkdirp: (path) => spoil(fs.mkdirp(path)),
    };
  }

  /** The memo file's bytes, or undefined when this run cannot be memoised. */
  serialize(key: string, exit: number, loads: number): Buffer | undefined {
    if (this.spoiled) return undefined;
    for (const [path, f] of this.files) this.put('f', path, `${f.hash}|${f.fp}|${f.at}`);
    if (this.spoiled) return undefined;
    const lines: string[] = [];
    let prev = '';
    for (const path of [...this.q.keys()].sort()) {
      let n = 0;
      const max = Math.min(prev.length, path.length);
      while (n < max && prev.charCodeAt(n) === path.charCodeAt(n)) n++;
      lines.push(`${n} ${path.slice(n)}\n`);
      for (const [op, answer] of this.q.get(path)!) lines.push(`\t${op}${answer}\n`);
      prev = path;
    }
    const questions = Buffer.from(lines.join(''), 'utf8');
    const output = this.out.map(([, text]) => Buffer.from(text, 'utf8'));
    const meta: Meta = { key, env: [...this.envRead], at: this.at, racyMs: this.opts.racyMs, exit, loads, out: this.out.map(([tag], i) => [tag, output[i].length]), qBytes: questions.length };
    const rest = Buffer.concat([Buffer.from(`${JSON.stringify(meta)}\n`, 'utf8'), questions, ...output]);
    return Buffer.concat([Buffer.from(`${JSON.stringify({ magic: MAGIC, format: RUN_MEMO_FORMAT, sum: checksum(rest) })}\n`, 'utf8'), rest]);
  }
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
}

/**
 * The output of the memoised run when `data` is an intact memo of this format and `key`, every variable of `env` it
 * read has the same value, and every question it asked gets the same answer from `disk` now; else undefined. Never
 * throws. One lstat answers every question about a path that is not a symbolic link (its stat, its fingerprint).
 */
export function replayRunMemo(data: Buffer | undefined, key: string, env: Record<string, string | undefined>, disk: ReplayDisk): Replayed | undefined {
  try {
    if (!data || !data.length) return undefined;
    const nl = data.indexOf(10);
    if (nl < 0) return undefined;
    const header = JSON.parse(data.toString('utf8', 0, nl)) as { magic?: unknown; format?: unknown; sum?: unknown };
    if (header.magic !== MAGIC || header.format !== RUN_MEMO_FORMAT) return undefined;
    const rest = data.subarray(nl + 1);
    if (header.sum !== checksum(rest)) return undefined;
    const metaEnd = rest.indexOf(10);
    const meta = JSON.parse(rest.toString('utf8', 0, metaEnd)) as Meta;
    if (meta.key !== key || !Array.isArray(meta.env) || !Array.isArray(meta.out)) return undefined;
    for (const [k, v] of meta.env) if ((env[k] ?? null) !== v) return undefined;
    const qStart = metaEnd + 1;
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
      const answer = text.slice(i + 2, end);
      i = end + 1;
      switch (op) {
        case 's': if (fullStatAnswer(stat()) !== answer) return undefined; break;
        case 'l': if (fullStatAnswer(lstat()) !== answer) return undefined; break;
        case 'r': if ((disk.realPath(path) ?? '') !== answer) return undefined; break;
        case 'd': {
          const bar = answer.indexOf('|');
          if (trusted(answer.slice(bar + 1), meta.at)) break;
          if (hashOf(dirAnswer(disk.readDir(path))) !== answer.slice(0, bar)) return undefined;
          break;
        }
        case 'f': {
          const [hash, fp, at] = answer.split('|');
          if (trusted(fp, Number(at))) break;
          let now: string;
          try { now = hashOf(disk.readFile(path)); } catch { now = '!'; }
          if (now !== hash) return undefined;
          break;
        }
        default: return undefined;
      }
    }
    const out: Replayed['out'] = [];
    let at = qStart + meta.qBytes;
    for (const [tag, length] of meta.out) {
      out.push([tag, rest.subarray(at, at + length)]);
      at += length;
    }
    if (at !== rest.length) return undefined;
    return { out, exit: meta.exit, loads: meta.loads };
  } catch {
    return undefined;
  }
}
