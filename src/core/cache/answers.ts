/**
 * The answers a cache compares (core/cache/loadCache.ts per skill, core/cache/runMemo.ts per run): a stat, a folder
 * listing, a file's bytes, and the checksum of a cache file. Small on purpose: the CLI's warm path (dist/cli.js) loads
 * this and runMemo.ts without the rest of the tool.
 */
import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as zlib from 'node:zlib';
import type { DirEntry, FileStat } from '../base/fs';

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
export function fingerprintOf(s: FullStat): Fingerprint {
  return { fingerprint: `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}:${s.dev}`, changedMs: Math.max(s.mtimeMs, s.ctimeMs) };
}

/** statAnswer of a full stat. */
export const fullStatAnswer = (s: FullStat | undefined): string => (s ? `${+s.isFile()}${+s.isDirectory()}${+s.isSymbolicLink()}:${s.size}:${s.mtimeMs}` : '-');

export const statAnswer = (s: FileStat | undefined): string => (s ? `${+s.isFile}${+s.isDirectory}${+s.isSymbolicLink}:${s.size}:${s.mtimeMs}` : '-');
export const dirAnswer = (d: DirEntry[] | undefined): string => (d ? JSON.stringify(d.map((e) => [e.name, +e.isFile, +e.isDirectory, +e.isSymbolicLink])) : '-');
export const hashOf = (b: Buffer | string): string => createHash('sha1').update(b).digest('base64');

/** The checksum of a cache body: CRC-32 where Node has it (native, fast), else SHA-1; named, so either one only matches itself. */
export function checksum(body: Buffer): string {
  return checksumOf([body]);
}

/** checksum() of the chunks' concatenation, without making it. */
export function checksumOf(chunks: readonly Buffer[]): string {
  if (typeof zlib.crc32 === 'function') {
    let crc = 0;
    let length = 0;
    for (const c of chunks) { crc = zlib.crc32(c, crc); length += c.length; }
    return `crc32:${crc.toString(16)}:${length}`;
  }
  const h = createHash('sha1');
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
