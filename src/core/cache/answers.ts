/**
 * The answers a cache compares (core/cache/loadCache.ts per skill, core/cache/runMemo.ts per run): a stat, a folder
 * listing, a file's bytes, and the checksum of a cache file. Small on purpose: the CLI's warm path (dist/cli.js) loads
 * this and runMemo.ts without the rest of the tool.
 */
import type * as Crypto from 'node:crypto';
import * as nodeFs from 'node:fs';
import type * as Zlib from 'node:zlib';
import type { DirEntry, FileStat, FileSystem } from '../base/fs';

/**
 * node:crypto and node:zlib, loaded at their first use: a run without the cache never uses them, and loading them
 * (crypto brings the stream modules along) costs every CLI start ~4 ms.
 */
let cryptoModule: typeof Crypto | undefined;
let zlibModule: typeof Zlib | undefined;
export function nodeCrypto(): typeof Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (cryptoModule ??= require('node:crypto') as typeof Crypto);
}
function nodeZlib(): typeof Zlib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (zlibModule ??= require('node:zlib') as typeof Zlib);
}

/**
 * A file whose ctime or mtime is this close to (or after) the start of the load that read it may have been written
 * again within one timestamp tick (coarse file-system clocks, network file systems): its bytes are hashed.
 */
export const RACY_MS = 2000;

/** size, mtime, ctime and inode of a file ("size:mtimeMs:ctimeMs:ino:dev"); undefined when it cannot be stat'ed. */
export type Fingerprinter = (path: string) => Fingerprint | undefined;

export interface Fingerprint {
  fingerprint: string;
  /** When the file last changed (the later of its mtime and ctime). */
  changedMs: number;
}

/** What a stat gives (node:fs Stats has all of it). */
export interface FullStat {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
}

/** The fingerprint of a stat: size, mtime, ctime, inode and device. */
export function fingerprintOf(s: Pick<FullStat, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino' | 'dev'>): Fingerprint {
  return { fingerprint: `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}:${s.dev}`, changedMs: Math.max(s.mtimeMs, s.ctimeMs) };
}

/** statAnswer of a full stat. */
export const fullStatAnswer = (s: FullStat | undefined): string => (s ? `${+s.isFile()}${+s.isDirectory()}${+s.isSymbolicLink()}:${s.size}:${s.mtimeMs}` : '-');

export const statAnswer = (s: FileStat | undefined): string => (s ? `${+s.isFile}${+s.isDirectory}${+s.isSymbolicLink}:${s.size}:${s.mtimeMs}` : '-');
export const dirAnswer = (d: DirEntry[] | undefined): string => (d ? JSON.stringify(d.map((e) => [e.name, +e.isFile, +e.isDirectory, +e.isSymbolicLink])) : '-');
/**
 * The SHA-1 of `b`, base64. Through node:crypto's one-shot `hash()` where Node has it (20.12 and later): the same
 * digest without a Hash object per call (tens of thousands of small inputs in a run with the cache: a third less time).
 */
export function hashOf(b: Buffer | string): string {
  return (hashImpl ??= pickHash())(b);
}
let hashImpl: ((b: Buffer | string) => string) | undefined;
function pickHash(): (b: Buffer | string) => string {
  const crypto = nodeCrypto();
  return typeof crypto.hash === 'function' ? (b) => crypto.hash('sha1', b, 'base64') : (b) => crypto.createHash('sha1').update(b).digest('base64');
}

/** The checksum of a cache body: CRC-32 where Node has it (native, fast), else SHA-1; named, so either one only matches itself. */
export function checksum(body: Buffer): string {
  return checksumOf([body]);
}

/** checksum() of the chunks' concatenation, without making it. */
export function checksumOf(chunks: readonly Buffer[]): string {
  const zlib = nodeZlib();
  if (typeof zlib.crc32 === 'function') {
    let crc = 0;
    let length = 0;
    for (const c of chunks) { crc = zlib.crc32(c, crc); length += c.length; }
    return `crc32:${crc.toString(16)}:${length}`;
  }
  const h = nodeCrypto().createHash('sha1');
  for (const c of chunks) h.update(c);
  return `sha1:${h.digest('hex')}`;
}

/** The fingerprint of `file` on the real disk (following links); undefined when it cannot be stat'ed. */
export function diskFingerprint(file: string): Fingerprint | undefined {
  try {
    const s = nodeFs.statSync(file, { throwIfNoEntry: false });
    return s && fingerprintOf(s);
  } catch {
    return undefined;
  }
}

/** A run's fingerprints (statFingerprinter of its read cache) and a time no later than any stat they answer from. */
export interface RunClock {
  fingerprint: Fingerprinter;
  startedAt: number;
}

/**
 * The fingerprint of `file` from `fs.stat` (following links) when that stat carries ctime, inode and device (the
 * Node-backed file system's do), else from the disk. Over a run's one read cache (withReadCache) this asks the disk
 * nothing that the run does not ask anyway: the fingerprints of the per-skill cache (its trace replay, the `.json`
 * fingerprints) and of the run memo come from the stat the run took of the same path.
 *
 * Why an answer remembered from earlier in the run is as safe as a fresh one: a fingerprint is trusted only when the
 * file last changed more than the racy window before the time it is judged against, and whoever judges with this one
 * judges against a time no later than the read cache's first question (the run's start: validate.ts), so any change
 * after the stat would have a later ctime than the one it shows.
 */
export function statFingerprinter(fs: FileSystem): Fingerprinter {
  return (file) => {
    const s = fs.stat(file);
    if (!s) return undefined;
    return s.ctimeMs !== undefined && s.ino !== undefined && s.dev !== undefined ? fingerprintOf(s as Pick<FullStat, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino' | 'dev'>) : diskFingerprint(file);
  };
}
