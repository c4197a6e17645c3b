/**
 * The incremental cache of `skillflow validate`: what loading each skill gave (loadSkill: its SKILL.md's problems,
 * name, description, references...), kept with a trace of every question the load asked the file system and the
 * answer it got. A later run replays the trace: when every answer is the same (a folder listing, a stat, a real path;
 * a file read is the same when its size, mtime, ctime and inode are, and it was not changed within RACY_MS of the load,
 * else when its bytes hash the same) the load would do exactly what it did, and its result is taken from the cache.
 * Anything else is loaded again. Nothing that needs more than one skill is cached: duplicate names, shadowing, agents,
 * the listing, rule configuration are computed on every run from the loaded entries.
 *
 * On top of the traces, every `.json` file the run looks at (`.skillflow.json`, Claude Code settings, `.mcp.json`,
 * `plugin.json`, `marketplace.json`, `hooks.json`...) is fingerprinted: a fingerprint that changed drops every cached
 * load; a `.json` file the cache did not know of, seen in a run that used the cache, makes the caller run again without
 * it (`trusted()`).
 *
 * The cache file is a header line (magic, format, key, checksum of the rest), then one line per record: an entry
 * (`E`, tab-separated: its job, when it was loaded, its trace and the entry as JSON), a `.json` fingerprint (`C`), the
 * problems the editor showed of a file (`P`). A record reused as it was is written back as it was read (no JSON work
 * for what did not change). A file that is missing,
 * unreadable, corrupt, of another format, another key (tool build, platform; the profile is part of each load's key) or fails its checksum is ignored
 * and rewritten; a cache can never make a run fail. It is written to a temp file in its folder and renamed.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem } from '../base/types';
import type { Profile } from '../base/types';
import { type LoadedSkillEntry, loadSkillsInOrder, type SkillJob, type SkillLoader } from '../discovery/load';
import type { SkillMention } from '../validation/mentions';
import { checksum, checksumOf, dirAnswer, type Fingerprinter, hashOf, RACY_MS, statAnswer } from './answers';

export { type Fingerprinter, RACY_MS } from './answers';

const MAGIC = 'skillflow-validate-cache';
/** Bumped whenever what is stored, or how it is checked, changes. */
export const CACHE_FORMAT = 8;

/** One question a load asked and its answer. */
type Dep =
  | { op: 's' | 'l'; path: string; answer: string }
  | { op: 'd'; path: string; answer: string }
  | { op: 'r'; path: string; answer: string | null }
  | { op: 'f'; path: string; hash: string; fingerprint: string | null };

interface Stored {
  /** The job's own key (jobKey). */
  job: string;
  /** Start of the load (ms since the epoch). */
  at: number;
  /** entryDigest of the entry. */
  digest: string;
  /**
   * Its record, as read from the file (written back as it is while the entry is reused) or as made in this run. Its
   * trace and its entry stay bytes until they are replayed (decoded then, and not kept: ten thousand records held as
   * strings and parsed traces for the whole run were most of what the garbage collector copied).
   */
  line: Buffer;
  /** Where the trace's JSON starts in `line` (the entry's JSON, or `null` when the folder held no skill, follows a tab after it). */
  depsAt: number;
  entryAt: number;
}

/** The trace of a record (parsed now: not kept). */
const depsOf = (s: Stored): Dep[] => JSON.parse(s.line.toString('utf8', s.depsAt, s.entryAt - 1)) as Dep[];

/** The entry's JSON of a record; null when the folder held no skill. */
function entryOf(s: Stored): string | null {
  const text = s.line.toString('utf8', s.entryAt, s.line.length - 1);
  return text === 'null' ? null : text;
}

/**
 * One entry's record: `E<tab>job<tab>at<tab>digest<tab>deps JSON<tab>entry JSON or null<newline>` (JSON text holds no
 * raw tab or line feed).
 */
function entryRecord(job: string, at: number, digest: string, deps: Dep[], entry: string | null): Stored {
  const head = `E\t${job}\t${at}\t${digest}\t`;
  const depsText = JSON.stringify(deps);
  const line = Buffer.from(`${head}${depsText}\t${entry ?? 'null'}\n`, 'utf8');
  const depsAt = Buffer.byteLength(head, 'utf8');
  return { job, at, digest, line, depsAt, entryAt: depsAt + Buffer.byteLength(depsText, 'utf8') + 1 };
}

interface Body {
  entries: Stored[];
  /** Every `.json` file the run looked at: [path, fingerprint or null when missing]. */
  configs: Array<[string, string | null]>;
  /** The problems the editor showed, per file (keepProblems / shownProblems). */
  problems?: Kept[];
}

/**
 * One file's problems as the editor showed them, and what decides that they still hold: the load of the skill whose
 * SKILL.md it is (`job`, an entry of the same cache), else the file's own bytes (`deps`: one 'f' question, at `at`).
 */
interface Kept {
  file: string;
  job: string | null;
  deps: Dep[] | null;
  at: number;
  /** JSON of the Problem[]. */
  problems: string;
}

export interface LoadCacheOptions {
  /** The cache file (its folder is made when it is written). */
  file: string;
  /** Everything a load depends on besides the file system and its job and profile: tool build, platform... */
  key: Record<string, unknown>;
  fingerprint?: Fingerprinter;
  /** Reads and writes of the cache file itself (never through the traced file system). */
  io: { read(path: string): Buffer | undefined; write(path: string, data: Buffer): void; writeChunks?(path: string, chunks: readonly Buffer[]): void };
  now?: () => number;
  /**
   * Drop each entry's references before it is stored and given (as the CLI's parallel loader does: `validate` reports
   * none of them): neither the file nor the digests hold them.
   */
  omitReferences?: boolean;
  /** RACY_MS unless set (tests). */
  racyMs?: number;
  /**
   * Told of every file a replay trusted by its fingerprint without reading it (path, hash of its bytes, fingerprint,
   * when those bytes were read): the run memo (runMemo.ts) depends on it too.
   */
  onFileTrusted?: (path: string, hash: string, fingerprint: string, at: number) => void;
  /**
   * Told when each load begins (its job key: the questions asked until it ends are its own) and ends (the digest of the
   * entry it gave, entryDigest, and the entry, before anything else changes it): the run memo keeps which load asked
   * what (runMemo.ts).
   */
  onJob?: { begin(key: string): void; end(digest: string, entry: LoadedSkillEntry | undefined): void };
  /**
   * The hash of `bytes` and the fingerprint of `path` when the file system below already took them for this read (the
   * run memo's trace: RunRecorder.readProof; its fingerprint is taken before the read, which is as safe).
   */
  readProof?: (path: string, bytes: Buffer) => { hash: string; fingerprint: string | null } | undefined;
  /**
   * True when the load of job `key` is known to give an entry of `digest` without asking (the run memo's replay found
   * every question it asked answered the same: runMemo.ts vouchedLoads): the record of that digest is used without
   * replaying its trace. The caller keeps those questions in the run memo (RunRecorder.keepQuestions) and tells the
   * cache the `.json` files among them (observeConfigs).
   */
  vouched?: (key: string, digest: string) => boolean;
}


/** Keys every LoadedSkillEntry has, possibly undefined (JSON drops them: put back so entries keep one shape). */
const SHAPE_KEYS = ['description', 'nameRange', 'shadowedBy', 'displayName', 'notLoadedReason', 'shadowReason', 'mentionsDisable'] as const;

class Uncacheable extends Error {}

/** Throws Uncacheable for a value JSON would not give back as it is (checked before JSON.stringify: a replacer costs far more). */
function checkPlain(value: unknown): void {
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) throw new Uncacheable();
      return;
    case 'function': case 'bigint': case 'symbol':
      throw new Uncacheable();
    case 'object': {
      if (value === null) return;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto === Array.prototype) for (const v of value as unknown[]) checkPlain(v);
      else if (proto === Object.prototype) for (const k of Object.keys(value)) checkPlain((value as Record<string, unknown>)[k]);
      else throw new Uncacheable();
      return;
    }
    default:
  }
}

/**
 * Members of an entry that nothing after the loads of a validate run reads of it but its own problems (and the rule
 * configuration, which reads `mentionsDisable` only to know whether to look for disable comments in the file): left out
 * of an entry's *outward* digest. `references` too: validate reports no reference but through the load's own problems
 * (the CLI's parallel loader drops them, with the same output). `stamp` is left out of every digest (only the editor's
 * index reads it). The description (`description`, and `description` and `whenToUse` of `meta`) has a digest of its
 * own: the rest of the run reads it only for the skill listing's length when a settings file changes its limit
 * (claudeWiring.ts listingLengthFromSettings, for that entry alone) and for `description-overlap` (off unless turned
 * on). So do the ranges of its mentions of other skills: the rest of the run reads them only to place this entry's
 * own `mention-unknown` problems (checkMentions); their names are part of the outward digest.
 */
const INWARD_KEYS = new Set(['problems', 'mentionsDisable', 'references']);

/**
 * Members of an entry that carry its frontmatter `name` (with `meta.name`): the name itself, where it is, and the
 * command a load gives before Claude Code's model sets it (claudeWiring.ts applyEntry sets every entry's `invocation`
 * again). Left out of the fifth digest, so a load that gives another entry only in its name is seen as such
 * (validatePartial.ts: a renamed skill whose name nothing else reads).
 */
const NAME_KEYS = new Set(['name', 'nameRange', 'invocation']);

/**
 * JSON of `entry` without its root (exactly JSON.stringify's), and its digest (entryDigest: seven digests, space-
 * separated: of the same JSON without the `stamp` member; of what the rest of the run reads of it but the description
 * and where its mentions are (without INWARD_KEYS either); of the description; of its mentions' ranges; of the second
 * without its NAME_KEYS and `meta.name`; of the second without its mentions' names; of the second without both);
 * throws Uncacheable for anything JSON would not give back as it is.
 */
function serializeEntry(entry: LoadedSkillEntry): { json: string; digest: string } {
  const members: string[] = [];
  const outward: string[] = [];
  const unnamed: string[] = [];
  const unmentioned: string[] = [];
  const bare: string[] = [];
  let description = '';
  let mentionRanges = '';
  let stamp = -1;
  for (const k of Object.keys(entry)) {
    if (k === 'root') continue;
    const v = (entry as unknown as Record<string, unknown>)[k];
    checkPlain(v);
    if (v === undefined) continue;
    if (k === 'stamp') stamp = members.length;
    const member = `${JSON.stringify(k)}:${JSON.stringify(v)}`;
    members.push(member);
    if (k === 'stamp' || INWARD_KEYS.has(k)) continue;
    if (k === 'description') description += member;
    else if (k === 'mentions' && Array.isArray(v)) {
      const mentions = v as SkillMention[];
      const names = `"mentions":${JSON.stringify(mentions.map((m) => [m.name, m.slash]))}`;
      outward.push(names);
      unnamed.push(names);
      mentionRanges = JSON.stringify(mentions.map((m) => m.range));
    } else if (k === 'meta' && v !== null && typeof v === 'object') {
      const { description: d, whenToUse: w, ...rest } = v as Record<string, unknown>;
      description += JSON.stringify([d ?? null, w ?? null]);
      const meta = `"meta":${JSON.stringify(rest)}`;
      outward.push(meta);
      unmentioned.push(meta);
      const { name: _name, ...others } = rest;
      const unnamedMeta = `"meta":${JSON.stringify(others)}`;
      unnamed.push(unnamedMeta);
      bare.push(unnamedMeta);
    } else {
      outward.push(member);
      unmentioned.push(member);
      if (!NAME_KEYS.has(k)) { unnamed.push(member); bare.push(member); }
    }
  }
  const json = `{${members.join(',')}}`;
  if (stamp >= 0) members[stamp] = '';
  // Without mentions the last two parts are the same text as the second and the fifth: their hashes are taken once.
  const outwardHash = hashOf(`{${outward.join(',')}}`);
  const unnamedHash = hashOf(`{${unnamed.join(',')}}`);
  const noMentions = unmentioned.length === outward.length;
  return { json, digest: `${hashOf(`{${members.join(',')}}`)} ${outwardHash} ${hashOf(description)} ${hashOf(mentionRanges)} ${unnamedHash} ${noMentions ? outwardHash : hashOf(`{${unmentioned.join(',')}}`)} ${noMentions ? unnamedHash : hashOf(`{${bare.join(',')}}`)}` };
}

/**
 * What the rest of a validate run reads of an entry, from its digest: all of it but its own problems (see
 * INWARD_KEYS), its description and where its mentions are; the description; where its mentions are; the first
 * without its name (NAME_KEYS); the first without the names its mentions name; the first without either. Undefined
 * for '-' and '!'.
 */
export function outwardDigest(digest: string): { entry: string; description: string; mentions: string; unnamed: string; unmentioned: string; bare: string } | undefined {
  const parts = digest.split(' ');
  return parts.length === 7 ? { entry: parts[1], description: parts[2], mentions: parts[3], unnamed: parts[4], unmentioned: parts[5], bare: parts[6] } : undefined;
}

function deserializeEntry(text: string, root: LoadedSkillEntry['root']): LoadedSkillEntry {
  const entry = JSON.parse(text) as LoadedSkillEntry;
  entry.root = root;
  for (const k of SHAPE_KEYS) if (!(k in entry)) (entry as unknown as Record<string, unknown>)[k] = undefined;
  return entry;
}

function jobKey(job: SkillJob, profile: Profile, listFiles: boolean | undefined): string {
  return JSON.stringify([job.root, job.folderName, job.realDir ?? null, profile, listFiles !== false]);
}

/** The job, profile and listFiles option a job key names (jobKey's inverse); undefined when `key` is no job key. */
export function jobOfKey(key: string): { job: SkillJob; profile: Profile; listFiles: boolean } | undefined {
  try {
    const [root, folderName, realDir, profile, listFiles] = JSON.parse(key) as [SkillJob['root'], string, string | null, Profile, boolean];
    if (typeof root !== 'object' || root === null || typeof folderName !== 'string' || typeof profile !== 'string' || typeof listFiles !== 'boolean') return undefined;
    const job: SkillJob = { root, folderName };
    if (realDir !== null) job.realDir = realDir;
    return jobKey(job, profile, listFiles) === key ? { job, profile, listFiles } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A load's entry as a digest: of its JSON (as the cache stores it) without `stamp` (the SKILL.md's mtime and size,
 * which only the editor's index reads), then after a space those of what the rest of a validate run reads of it
 * (outwardDigest); '-' when the folder held no skill, '!' (never equal: `!` is no digest) when the entry cannot be
 * stored as JSON.
 */
export function entryDigest(entry: LoadedSkillEntry | undefined): string {
  if (!entry) return '-';
  try {
    return serializeEntry(entry).digest;
  } catch {
    return '!';
  }
}

/** Parses a cache file; undefined for anything but a whole, intact cache of this format and key. */
function parseCache(data: Buffer | undefined, key: string): Body | undefined {
  if (!data || !data.length) return undefined;
  try {
    const nl = data.indexOf(10);
    if (nl < 0) return undefined;
    const header = JSON.parse(data.subarray(0, nl).toString('utf8')) as { magic?: unknown; format?: unknown; key?: unknown; sum?: unknown };
    if (header.magic !== MAGIC || header.format !== CACHE_FORMAT || header.key !== key) return undefined;
    const rest = data.subarray(nl + 1);
    if (header.sum !== checksum(rest)) return undefined;
    const body: Body = { entries: [], configs: [], problems: [] };
    for (let i = 0; i < rest.length;) {
      const end = rest.indexOf(10, i);
      if (end < 0) return undefined;
      const tag = rest[i];
      if (tag === 0x45 /* E */) {
        const t1 = rest.indexOf(9, i + 2);
        const t2 = t1 < 0 || t1 > end ? -1 : rest.indexOf(9, t1 + 1);
        const t3 = t2 < 0 || t2 > end ? -1 : rest.indexOf(9, t2 + 1);
        const t4 = t3 < 0 || t3 > end ? -1 : rest.indexOf(9, t3 + 1);
        if (t4 < 0 || t4 > end) return undefined;
        body.entries.push({
          job: rest.toString('utf8', i + 2, t1), at: Number(rest.toString('latin1', t1 + 1, t2)), digest: rest.toString('latin1', t2 + 1, t3),
          line: rest.subarray(i, end + 1), depsAt: t3 + 1 - i, entryAt: t4 + 1 - i,
        });
      } else if (tag === 0x43 /* C */) {
        body.configs.push(JSON.parse(rest.toString('utf8', i + 2, end)) as [string, string | null]);
      } else if (tag === 0x50 /* P */) {
        body.problems!.push(JSON.parse(rest.toString('utf8', i + 2, end)) as Kept);
      } else {
        return undefined;
      }
      i = end + 1;
    }
    return body;
  } catch {
    return undefined;
  }
}

/** A FileSystem that records every question asked of `fs` (and its answer) in `deps`. */
function tracing(fs: FileSystem, deps: Dep[], fingerprint: Fingerprinter | undefined, readProof?: LoadCacheOptions['readProof']): FileSystem {
  const file = (path: string, bytes: Buffer): Buffer => {
    const proof = readProof?.(path, bytes);
    deps.push(proof ? { op: 'f', path, hash: proof.hash, fingerprint: proof.fingerprint } : { op: 'f', path, hash: hashOf(bytes), fingerprint: fingerprint?.(path)?.fingerprint ?? null });
    return bytes;
  };
  const guard = <T>(fn: () => T): T => {
    try { return fn(); } catch (e) { throw Object.assign(e instanceof Error ? e : new Error(String(e)), { [UNCACHEABLE]: true }); }
  };
  return {
    // (never a read cache: code that keeps what it derives per read cache would skip questions, untraced)
    caseSensitive: fs.caseSensitive,
    stat(path) { const s = fs.stat(path); deps.push({ op: 's', path, answer: statAnswer(s) }); return s; },
    lstat(path) { const s = fs.lstat(path); deps.push({ op: 'l', path, answer: statAnswer(s) }); return s; },
    lstatUncached(path) { const s = fs.lstatUncached ? fs.lstatUncached(path) : fs.lstat(path); deps.push({ op: 'l', path, answer: statAnswer(s) }); return s; },
    readDir(path) { const d = fs.readDir(path); deps.push({ op: 'd', path, answer: dirAnswer(d) }); return d; },
    realPath(path) { const r = fs.realPath(path); deps.push({ op: 'r', path, answer: r ?? null }); return r; },
    readFile(path) { return file(path, guard(() => fs.readFile(path))); },
    readFileTransient: fs.readFileTransient ? (path, size) => file(path, guard(() => fs.readFileTransient!(path, size))) : undefined,
    writeFileAtomic() { throw new Uncacheable('a load does not write'); },
    mkdirp() { throw new Uncacheable('a load does not write'); },
  };
}

const UNCACHEABLE = Symbol('uncacheable');

export class LoadCache {
  private readonly keyText: string;
  private readonly old: Map<string, Stored>;
  private readonly oldConfigs: Map<string, string | null>;
  /** The old cache's `.json` fingerprints all still hold (else no old entry is used). */
  private readonly configsHold: boolean;
  private readonly next = new Map<string, Stored>();
  private readonly seenConfigs = new Map<string, string | null>();
  /** The SKILL.md of each entry loaded or reused in this run → its job key. */
  private readonly jobOfFile = new Map<string, string>();
  private readonly oldProblems: Kept[];
  private kept: Kept[] | undefined;
  private hits = 0;
  private misses = 0;
  /** What save() would write differs from the file read (else it is not written again). */
  private changed: boolean;

  constructor(private readonly opts: LoadCacheOptions) {
    this.keyText = JSON.stringify({ ...opts.key, format: CACHE_FORMAT });
    let body: Body | undefined;
    try { body = parseCache(opts.io.read(opts.file), this.keyText); } catch { body = undefined; }
    this.oldConfigs = new Map(body?.configs ?? []);
    this.configsHold = body !== undefined && [...this.oldConfigs].every(([p, fp]) => this.configFingerprint(p) === fp);
    this.old = new Map(this.configsHold ? body!.entries.map((e) => [e.job, e]) : []);
    this.oldProblems = this.configsHold && Array.isArray(body!.problems) ? body!.problems : [];
    this.changed = this.old.size === 0;
  }

  /** How many loads came from the cache and how many were made. */
  get stats(): { hits: number; misses: number } {
    return { hits: this.hits, misses: this.misses };
  }

  private configFingerprint(path: string): string | null {
    const fp = this.opts.fingerprint?.(path);
    if (!fp) return null;
    // A config changed within RACY_MS of now could change again unseen: it never matches.
    return fp.changedMs >= this.now() - this.racyMs ? `racy:${this.now()}` : fp.fingerprint;
  }

  private get racyMs(): number {
    return this.opts.racyMs ?? RACY_MS;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** `.json` files asked about by loads taken without asking (LoadCacheOptions.vouched): as if asked now (observe). */
  observeConfigs(paths: readonly string[]): void {
    for (const path of paths) this.see(path);
  }

  /** A `.json` file (other than the cache's own) asked about: remembered, fingerprinted when first asked about. */
  private see(path: string): void {
    if (path.endsWith('.json') && !path.startsWith(this.ownDir) && !this.seenConfigs.has(path)) this.seenConfigs.set(path, this.configFingerprint(path));
  }

  private get ownDir(): string {
    return nodePath.dirname(this.opts.file) + nodePath.sep;
  }

  /** `fs` with every `.json` file it is asked about remembered, fingerprinted when first asked about. */
  observe(fs: FileSystem): FileSystem {
    const seen = (path: string) => this.see(path);
    return {
      ...(fs.isReadCache ? { isReadCache: true } : {}),
      caseSensitive: fs.caseSensitive,
      stat(path) { seen(path); return fs.stat(path); },
      lstat(path) { seen(path); return fs.lstat(path); },
      lstatUncached(path) { seen(path); return fs.lstatUncached ? fs.lstatUncached(path) : fs.lstat(path); },
      readDir(path) { return fs.readDir(path); },
      realPath(path) { seen(path); return fs.realPath(path); },
      readFile(path) { seen(path); return fs.readFile(path); },
      readFileTransient: fs.readFileTransient ? (path, size) => { seen(path); return fs.readFileTransient!(path, size); } : undefined,
      writeFileAtomic(path, data) { fs.writeFileAtomic(path, data); },
      mkdirp(path) { fs.mkdirp(path); },
    };
  }

  /**
   * False when the run looked at a `.json` file the cache knew nothing of (or one that changed since the cache was
   * opened) while old entries were used: the caller runs
   * again with `recordOnly()` (a new config could change what a load gives; the cache cannot tell).
   */
  trusted(): boolean {
    if (this.hits === 0) return true;
    for (const [p, fp] of this.seenConfigs) if (!this.oldConfigs.has(p) || this.oldConfigs.get(p) !== fp) return false;
    return true;
  }

  /** From now on no old entry is used (every load is made and recorded). */
  recordOnly(): void {
    this.changed = true;
    this.old.clear();
    this.hits = 0;
  }

  /** A replay of a trace (of a load at `at`) against `fs`: true when every answer is the same. */
  private holds(deps: readonly Dep[], at: number, fs: FileSystem): boolean {
    for (const d of deps) {
      switch (d.op) {
        case 's': if (statAnswer(fs.stat(d.path)) !== d.answer) return false; break;
        case 'l': if (statAnswer(fs.lstat(d.path)) !== d.answer) return false; break;
        case 'd': if (dirAnswer(fs.readDir(d.path)) !== d.answer) return false; break;
        case 'r': if ((fs.realPath(d.path) ?? null) !== d.answer) return false; break;
        case 'f': {
          const fp = this.opts.fingerprint?.(d.path);
          if (fp && d.fingerprint !== null && fp.fingerprint === d.fingerprint && fp.changedMs < at - this.racyMs) {
            this.opts.onFileTrusted?.(d.path, d.hash, d.fingerprint, at);
            break;
          }
          let bytes: Buffer;
          try { bytes = fs.readFile(d.path); } catch { return false; }
          if (hashOf(bytes) !== d.hash) return false;
          break;
        }
        default: return false;
      }
    }
    return true;
  }

  /** A SkillLoader that answers from the cache what still holds and loads (in order, traced) the rest. */
  readonly loader: SkillLoader = (fs, jobs, profile, opts) => jobs.map((job) => {
    const key = jobKey(job, profile, opts.listFiles);
    const onJob = this.opts.onJob;
    if (!onJob) return this.load(fs, job, key, profile, opts);
    onJob.begin(key);
    this.digest = '!';
    let entry: LoadedSkillEntry | undefined;
    try {
      entry = this.load(fs, job, key, profile, opts);
      return entry;
    } finally {
      onJob.end(this.digest, entry);
    }
  });

  /** The digest of the entry the last load() gave ('!' when it could not be stored). */
  private digest = '!';

  private load(fs: FileSystem, job: SkillJob, key: string, profile: Profile, opts: { listFiles?: boolean }): LoadedSkillEntry | undefined {
    const stored = this.old.get(key);
    if (stored && !this.next.has(key)) {
      let entry: LoadedSkillEntry | undefined;
      try {
        if ((stored.digest !== '!' && this.opts.vouched?.(key, stored.digest)) || this.holds(depsOf(stored), stored.at, fs)) {
          const json = entryOf(stored);
          entry = json === null ? undefined : deserializeEntry(json, job.root);
        } else entry = MISS;
      } catch {
        entry = MISS;
      }
      if (entry !== MISS) {
        this.hits++;
        this.digest = stored.digest;
        this.next.set(key, stored);
        if (entry) this.jobOfFile.set(entry.skillMdPath, key);
        return entry;
      }
    }
    this.misses++;
    const deps: Dep[] = [];
    const at = this.now();
    let loaded: LoadedSkillEntry | undefined;
    try {
      loaded = loadSkillsInOrder(tracing(fs, deps, this.opts.fingerprint, this.opts.readProof), [job], profile, opts)[0];
    } catch (e) {
      if (!(e instanceof Uncacheable || (e as Record<symbol, unknown>)?.[UNCACHEABLE])) throw e;
      loaded = loadSkillsInOrder(fs, [job], profile, opts)[0];
      if (loaded && this.opts.omitReferences) loaded.references = [];
      return loaded;
    }
    if (loaded && this.opts.omitReferences) loaded.references = [];
    try {
      const { json, digest } = loaded === undefined ? { json: null, digest: '-' } : serializeEntry(loaded);
      // Kept as its record only (bytes, off the heap): an entry of this run is never read back from `next`.
      this.next.set(key, entryRecord(key, at, digest, deps, json));
      this.digest = digest;
      if (loaded) this.jobOfFile.set(loaded.skillMdPath, key);
    } catch {
      // not storable as JSON: loaded again next time
    }
    return loaded;
  }

  /**
   * Keeps each file's problems (those with any) to be shown at the next start, before anything is loaded
   * (shownProblems). A SKILL.md loaded through this cache's loader holds while its load would give the same; any
   * other file while its bytes are the same (read now through `fs`; a file that cannot be read is not kept).
   */
  keepProblems(fs: FileSystem, byFile: ReadonlyMap<string, readonly Problem[]>): void {
    const kept: Kept[] = [];
    for (const [file, problems] of byFile) {
      if (!problems.length) continue;
      const job = this.jobOfFile.get(file);
      if (job !== undefined && this.next.has(job)) {
        kept.push({ file, job, deps: null, at: 0, problems: JSON.stringify(problems) });
        continue;
      }
      const at = this.now();
      const deps: Dep[] = [];
      try {
        tracing(fs, deps, this.opts.fingerprint, this.opts.readProof).readFile(file);
      } catch {
        continue;
      }
      kept.push({ file, job: null, deps, at, problems: JSON.stringify(problems) });
    }
    this.kept = kept;
    this.changed = true;
  }

  /**
   * The problems kept by the last keepProblems() whose files still hold (the same trace check as a cached load: a file
   * that changed, or whose skill would load differently, is left out), for the editor to show until it has loaded.
   * None when a `.json` configuration changed. Never throws. Problems between skills (a duplicate name) can be out of
   * date when another skill changed: the editor replaces them all once it has loaded.
   */
  shownProblems(fs: FileSystem): Array<{ file: string; problems: Problem[] }> {
    const shown: Array<{ file: string; problems: Problem[] }> = [];
    for (const k of this.oldProblems) {
      try {
        const stored = k.job !== null ? this.old.get(k.job) : undefined;
        const held = stored ? this.holds(depsOf(stored), stored.at, fs) : k.job === null && Array.isArray(k.deps) && this.holds(k.deps, k.at, fs);
        if (!held) continue;
        const problems = JSON.parse(k.problems) as Problem[];
        if (Array.isArray(problems)) shown.push({ file: k.file, problems });
      } catch {
        // not shown: the editor shows it once loaded
      }
    }
    return shown;
  }

  /** Writes the cache (entries used or made in this run), unless it would write what it read. Never throws. */
  save(): void {
    try {
      const same = !this.changed && this.misses === 0 && this.next.size === this.old.size
        && [...this.seenConfigs].every(([p, fp]) => this.oldConfigs.get(p) === fp) && this.oldConfigs.size >= this.seenConfigs.size;
      if (same) return;
      const configs = new Map(this.configsHold ? this.oldConfigs : []);
      for (const [p, fp] of this.seenConfigs) configs.set(p, fp);
      const rest = [
        ...[...this.next.values()].map((e) => e.line),
        Buffer.from([...configs].map((c) => `C\t${JSON.stringify(c)}\n`).join('') + (this.kept ?? []).map((k) => `P\t${JSON.stringify(k)}\n`).join(''), 'utf8'),
      ];
      const header = Buffer.from(`${JSON.stringify({ magic: MAGIC, format: CACHE_FORMAT, key: this.keyText, sum: checksumOf(rest) })}\n`, 'utf8');
      // Written as chunks where the writer can (the records as they are: no copy of the whole file in memory).
      if (this.opts.io.writeChunks) this.opts.io.writeChunks(this.opts.file, [header, ...rest]);
      else this.opts.io.write(this.opts.file, Buffer.concat([header, ...rest]));
    } catch {
      // an unwritable cache only costs the next run its speed
    }
  }
}

const MISS = {} as LoadedSkillEntry;
