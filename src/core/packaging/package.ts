/**
 * Packaging for upload: `<name>.skill`, a deflate zip whose root folder is `<name>/`.
 * `<name>` is the skill's folder name (as Anthropic's package_skill.py does), so unzipping into a
 * skills root recreates the same folder. Refuses, writing nothing, when the skill has errors under
 * the `upload` profile. Output is deterministic: sorted entries, fixed timestamps.
 */
import * as path from 'node:path';
import type * as Fflate from 'fflate';
import type { Zippable } from 'fflate';
import type { FileSystem } from '../base/fs';
import type { Problem } from '../base/types';
import { loadSkill } from '../discovery/load';
import { parseSkillMdDetailed } from '../skillmd/frontmatter';
import { keyInfo, keysForProfile } from '../skillmd/keys';
import { applyTextEdits, removeKeyEdit, type TextEdit } from '../fixes/skillFixes';

/**
 * fflate, loaded on first use: it builds its tables and loads node:worker_threads when loaded, which every CLI run
 * (all commands share one bundle) would otherwise pay at start-up for the one command that zips.
 */
let fflate: typeof Fflate | undefined;
function zipSync(...args: Parameters<typeof Fflate.zipSync>): ReturnType<typeof Fflate.zipSync> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fflate ??= require('fflate') as typeof Fflate;
  return fflate.zipSync(...args);
}

/** Folder names never packaged, at any depth. */
const EXCLUDED_DIRS = new Set(['__pycache__', 'node_modules']);
/** File names never packaged, at any depth. */
const EXCLUDED_FILES = new Set(['.DS_Store']);
/** Folders excluded only at the skill's root. */
const ROOT_EXCLUDED_DIRS = new Set(['evals']);
/** Bounds that keep a runaway folder from being zipped into memory. */
export const MAX_PACKAGE_FILES = 10_000;
export const MAX_PACKAGE_BYTES = 200 * 1024 * 1024;
/** Every entry gets this timestamp so the same input gives the same bytes. */
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);

export type PackageResult =
  | {
    ok: true;
    /** Absolute path of the written `<name>.skill`. */
    file: string;
    /** Zip entry names in archive order (`<name>/SKILL.md`, ...). */
    entries: string[];
    /** Paths (relative to the skill) left out because they are symlinks leaving the skill or symlinked folders. */
    skipped: string[];
    /** Warnings and infos under the upload profile (packaging went ahead). */
    problems: Problem[];
    /** The Claude Code keys left out of the packaged SKILL.md (`withoutClaudeCodeKeys`); the skill's own file is unchanged. */
    dropped: string[];
  }
  | PackageRefusal;

export interface PackageRefusal {
  ok: false;
  message: string;
  problems: Problem[];
  /**
   * The Claude Code keys the upload profile refuses in this SKILL.md, and whether packaging a copy without them
   * (`withoutClaudeCodeKeys`) would go ahead: the way forward the editor offers and the CLI names.
   */
  claudeCodeKeys?: { keys: string[]; packagesWithout: boolean };
}

export interface PackageOptions {
  /** Package a copy of SKILL.md without the keys only Claude Code reads (the skill's folder is not changed). */
  withoutClaudeCodeKeys?: boolean;
}

function isExcluded(name: string, isDir: boolean, atRoot: boolean): boolean {
  if (isDir) return EXCLUDED_DIRS.has(name) || (atRoot && ROOT_EXCLUDED_DIRS.has(name));
  return EXCLUDED_FILES.has(name) || name.endsWith('.pyc');
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The keys of a SKILL.md only Claude Code reads (known keys the upload profile does not accept), in file order. */
function claudeCodeOnlyKeys(text: string): { keys: string[]; edits: TextEdit[] | undefined } {
  const detail = parseSkillMdDetailed(text);
  const upload = new Set(keysForProfile('upload'));
  const found = detail.parsed.keys.filter((k) => !upload.has(k.key) && keyInfo(k.key) !== undefined);
  const edits = found.map((k) => removeKeyEdit(detail, k));
  return { keys: [...new Set(found.map((k) => k.key))], edits: edits.every((e) => e !== undefined) ? edits as TextEdit[] : undefined };
}

/** `fs` with one file's bytes replaced (the packaged copy of SKILL.md, validated and zipped without touching the skill). */
function withFile(fs: FileSystem, file: string, data: Buffer): FileSystem {
  const sized = <T extends { size: number } | undefined>(p: string, st: T): T => (p === file && st ? { ...st, size: data.length } : st);
  return {
    caseSensitive: fs.caseSensitive,
    stat: (p) => sized(p, fs.stat(p)),
    lstat: (p) => sized(p, fs.lstat(p)),
    readDir: (p) => fs.readDir(p),
    readFile: (p) => (p === file ? Buffer.from(data) : fs.readFile(p)),
    realPath: (p) => fs.realPath(p),
    writeFileAtomic: (p, d) => fs.writeFileAtomic(p, d),
    mkdirp: (p) => fs.mkdirp(p),
  };
}

/** What packaging reads: the skill as it is, or with a copy of SKILL.md that leaves out the Claude Code keys. */
interface Prepared {
  fs: FileSystem;
  skill: NonNullable<ReturnType<typeof loadSkill>>;
  folderName: string;
  dropped: string[];
}

function prepare(fs: FileSystem, skillDir: string, opts: PackageOptions | undefined): Prepared | PackageRefusal {
  const dir = path.resolve(skillDir);
  const folderName = path.basename(dir);
  const root = { path: path.dirname(dir), scope: 'project' as const };
  let skill = loadSkill(fs, root, folderName, 'upload');
  if (!skill) return { ok: false, message: `No SKILL.md in ${skillDir}.`, problems: [] };
  if (!opts?.withoutClaudeCodeKeys) return { fs, skill, folderName, dropped: [] };
  let text: string;
  try {
    text = fs.readFile(skill.skillMdPath).toString('utf8');
  } catch {
    return { fs, skill, folderName, dropped: [] };
  }
  const { keys, edits } = claudeCodeOnlyKeys(text);
  if (!keys.length) return { fs, skill, folderName, dropped: [] };
  if (!edits) return { ok: false, message: `Not packaged: the Claude Code keys of '${folderName}' (${keys.join(', ')}) cannot be left out (they share a line with other keys): remove them by hand.`, problems: skill.problems };
  const copy = withFile(fs, skill.skillMdPath, Buffer.from(applyTextEdits(text, edits), 'utf8'));
  skill = loadSkill(copy, root, folderName, 'upload');
  if (!skill) return { ok: false, message: `No SKILL.md in ${skillDir}.`, problems: [] };
  // The copy's problems at the lines of the skill's own SKILL.md (the one the author opens).
  const removed = edits.map((e) => ({ first: e.range.line, count: e.range.endLine - e.range.line })).sort((a, b) => a.first - b.first);
  const original = (line: number) => removed.reduce((l, r) => (l >= r.first ? l + r.count : l), line);
  const problems = skill.problems.map((p) => (p.file === undefined || p.file === skill?.skillMdPath ? { ...p, line: original(p.line), endLine: original(p.endLine) } : p));
  return { fs: copy, skill: { ...skill, problems }, folderName, dropped: keys };
}

/**
 * Why a skill folder cannot be packaged for upload (claude.ai, the API), or undefined when it can: its errors under the
 * upload profile, and, when Claude Code-only keys are among them, that the upload format does not take them, that a
 * copy without them can be packaged, and that Claude Code skills are shared as plugins.
 */
export function uploadRefusal(fs: FileSystem, skillDir: string, opts?: PackageOptions): PackageRefusal | undefined {
  const prepared = prepare(fs, skillDir, opts);
  if (!('skill' in prepared)) return prepared;
  return refusal(fs, prepared, skillDir);
}

function refusal(fs: FileSystem, prepared: Prepared, skillDir: string): PackageRefusal | undefined {
  const { skill, folderName, dropped } = prepared;
  const errors = skill.problems.filter((p) => p.severity === 'error');
  if (!errors.length) return undefined;
  const count = `'${folderName}' has ${errors.length} error${errors.length === 1 ? '' : 's'} under the upload profile`;
  if (dropped.length) return { ok: false, message: `Not packaged: without its Claude Code keys (${dropped.join(', ')}), ${count}.`, problems: skill.problems };
  const claudeKeys = errors.filter((p) => p.code === 'unknown-key' && /it is a Claude Code key/.test(p.message)).map((p) => /'([^']+)'/.exec(p.message)?.[1]).filter((k): k is string => k !== undefined);
  if (!claudeKeys.length) return { ok: false, message: `Not packaged: ${count}.`, problems: skill.problems };
  const packagesWithout = uploadRefusal(fs, skillDir, { withoutClaudeCodeKeys: true }) === undefined;
  const keys = [...new Set(claudeKeys)];
  const how = packagesWithout ? 'package a copy without them (your SKILL.md keeps them)' : 'remove them to upload';
  return {
    ok: false,
    message: `Not packaged: ${count}. The upload format takes only its own keys, not Claude Code's (${keys.join(', ')}): ${how}, or share the skill with Claude Code users as a plugin (docs/sharing-skills.md).`,
    problems: skill.problems,
    claudeCodeKeys: { keys, packagesWithout },
  };
}

/**
 * Validates `skillDir` under the upload profile and writes `<outDir>/<folder>.skill` atomically; nothing is written on
 * errors. With `withoutClaudeCodeKeys`, the archive's SKILL.md is a copy without the keys only Claude Code reads.
 */
export function packageSkill(baseFs: FileSystem, skillDir: string, outDir: string, opts?: PackageOptions): PackageResult {
  const dir = path.resolve(skillDir);
  const realDir = baseFs.realPath(dir);
  if (!realDir || !baseFs.stat(dir)?.isDirectory) {
    return { ok: false, message: `Not a folder: ${skillDir}.`, problems: [] };
  }
  const prepared = prepare(baseFs, skillDir, opts);
  if (!('skill' in prepared)) return prepared;
  const refused = refusal(baseFs, prepared, skillDir);
  if (refused) return refused;
  const { fs, skill, folderName, dropped } = prepared;

  const outFile = path.join(path.resolve(outDir), `${folderName}.skill`);
  const files: Zippable = {};
  const entries: string[] = [];
  const skipped: string[] = [];
  let totalBytes = 0;
  let failure: string | undefined;

  const walk = (rel: string) => {
    const listing = fs.readDir(rel ? path.join(dir, rel) : dir);
    if (!listing) { failure = `Cannot read folder ${rel || '.'}.`; return; }
    const sorted = [...listing].sort((a, b) => byteOrder(a.name, b.name));
    for (const e of sorted) {
      if (failure) return;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(dir, childRel);
      let isDir = e.isDirectory;
      let isFile = e.isFile;
      if (e.isSymbolicLink) {
        // Follow a link only to a file inside the skill; folders by link are skipped (no loops, no escapes).
        const target = fs.realPath(abs);
        const st = target ? fs.stat(abs) : undefined;
        if (!target || !st || !isInside(target, realDir) || st.isDirectory) {
          if (!(st?.isDirectory && isExcluded(e.name, true, rel === ''))) skipped.push(childRel);
          continue;
        }
        isDir = false;
        isFile = st.isFile;
      }
      if (isExcluded(e.name, isDir, rel === '')) continue;
      if (isDir) { walk(childRel); continue; }
      if (!isFile) continue;
      if (abs === outFile) continue;
      let data: Buffer;
      try {
        data = fs.readFile(abs);
      } catch (err) {
        failure = `Cannot read ${childRel}: ${err instanceof Error ? err.message : String(err)}.`;
        return;
      }
      totalBytes += data.length;
      if (entries.length >= MAX_PACKAGE_FILES || totalBytes > MAX_PACKAGE_BYTES) {
        failure = `The skill is too big to package (over ${MAX_PACKAGE_FILES} files or ${MAX_PACKAGE_BYTES / 1024 / 1024} MiB).`;
        return;
      }
      const name = `${folderName}/${childRel}`;
      files[name] = new Uint8Array(data.buffer, data.byteOffset, data.length);
      entries.push(name);
    }
  };
  walk('');
  if (failure) return { ok: false, message: `Not packaged: ${failure}`, problems: skill.problems };

  const zip = zipSync(files, { level: 6, mtime: FIXED_MTIME });
  try {
    fs.mkdirp(path.dirname(outFile));
    fs.writeFileAtomic(outFile, Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  } catch (err) {
    return { ok: false, message: `Cannot write ${outFile}: ${err instanceof Error ? err.message : String(err)}`, problems: skill.problems };
  }
  return { ok: true, file: outFile, entries, skipped, problems: skill.problems, dropped };
}
