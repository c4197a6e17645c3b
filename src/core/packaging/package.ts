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
  }
  | { ok: false; message: string; problems: Problem[] };

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

/**
 * Why a skill folder cannot be packaged for upload (claude.ai, the API), or undefined when it can: its errors under the
 * upload profile, and, when Claude Code-only keys are among them, that the upload format does not take them and Claude
 * Code skills are shared as plugins.
 */
export function uploadRefusal(fs: FileSystem, skillDir: string): { ok: false; message: string; problems: Problem[] } | undefined {
  const dir = path.resolve(skillDir);
  const folderName = path.basename(dir);
  const skill = loadSkill(fs, { path: path.dirname(dir), scope: 'project' }, folderName, 'upload');
  return skill ? refusal(folderName, skill.problems) : { ok: false, message: `No SKILL.md in ${skillDir}`, problems: [] };
}

function refusal(folderName: string, problems: Problem[]): { ok: false; message: string; problems: Problem[] } | undefined {
  const errors = problems.filter((p) => p.severity === 'error');
  if (!errors.length) return undefined;
  const claudeKeys = errors.filter((p) => p.code === 'unknown-key' && /it is a Claude Code key/.test(p.message)).map((p) => /'([^']+)'/.exec(p.message)?.[1]).filter((k): k is string => k !== undefined);
  const why = claudeKeys.length
    ? ` The upload format takes only its own keys, not Claude Code's (${claudeKeys.join(', ')}): remove them to upload, or share the skill with Claude Code users as a plugin (docs/sharing-skills.md).`
    : '';
  return { ok: false, message: `Not packaged: '${folderName}' has ${errors.length} error${errors.length === 1 ? '' : 's'} under the upload profile.${why}`, problems };
}

/** Validates `skillDir` under the upload profile and writes `<outDir>/<folder>.skill` atomically; nothing is written on errors. */
export function packageSkill(fs: FileSystem, skillDir: string, outDir: string): PackageResult {
  const dir = path.resolve(skillDir);
  const folderName = path.basename(dir);
  const realDir = fs.realPath(dir);
  if (!realDir || !fs.stat(dir)?.isDirectory) {
    return { ok: false, message: `Not a folder: ${skillDir}`, problems: [] };
  }
  const skill = loadSkill(fs, { path: path.dirname(dir), scope: 'project' }, folderName, 'upload');
  if (!skill) return { ok: false, message: `No SKILL.md in ${skillDir}`, problems: [] };
  const refused = refusal(folderName, skill.problems);
  if (refused) return refused;

  const outFile = path.join(path.resolve(outDir), `${folderName}.skill`);
  const files: Zippable = {};
  const entries: string[] = [];
  const skipped: string[] = [];
  let totalBytes = 0;
  let failure: string | undefined;

  const walk = (rel: string) => {
    const listing = fs.readDir(rel ? path.join(dir, rel) : dir);
    if (!listing) { failure = `Cannot read folder ${rel || '.'}`; return; }
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
        failure = `Cannot read ${childRel}: ${err instanceof Error ? err.message : String(err)}`;
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
  return { ok: true, file: outFile, entries, skipped, problems: skill.problems };
}
