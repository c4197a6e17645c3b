/**
 * Loading one skill: its SKILL.md read and validated (reads no SKILL.md over MAX_SKILL_MD_BYTES), its files listed
 * (at most MAX_SKILL_FILES), its name, description and invocation; and SkillLoader, how a run loads many.
 */
import * as path from 'node:path';
import { isUtf8 } from 'node:buffer';
import type { FileStat, FileSystem } from '../base/fs';
import type { Problem, Profile, Range } from '../base/types';
import { fileProblem, sortProblems } from '../base/problems';
import { detach, tokensForLength } from '../base/text';
import type { SkillEntry, SkillsRoot, ValidationContext } from '../skillmd/model';
import { validateSkillMdBytes } from '../validation/bytes';
import { validateSkillMd, type SkillMdValidation } from '../validation/validateSkill';
import type { SkillMention } from '../validation/mentions';
import type { ClaudeMeta } from '../claude/types';
import { frontmatterField, metaFromParsed } from '../claude/meta';
import { severityFor } from '../base/rules';
import { mayHoldDisableComment } from '../config/ruleConfig';
import { byName, hasFile, PathJoiner, projectOf, skillMdOutsideWorkspace } from './paths';
import { rootSkillPluginOf } from './plugins';


/** A SKILL.md larger than this is reported (`file-too-large`), not parsed. */
export const MAX_SKILL_MD_BYTES = 1024 * 1024;
/** At most this many files of `scripts/`, `references/`, `assets/` are listed per skill. */
export const MAX_SKILL_FILES = 500;

const CONTENT_DIRS = ['scripts', 'references', 'assets'];
const LISTING_SKIP = new Set(['__pycache__', 'node_modules', '.DS_Store', '.git']);

/** A SkillEntry as loadSkill builds it: also remembers where the `name` value is, for cross-skill problems. */
export interface LoadedSkillEntry extends SkillEntry {
  /** Range of the `name` value (or key) in SKILL.md; undefined when there is no name key. */
  nameRange?: Range;
  /** What Claude Code's model reads from the frontmatter (empty when the file could not be parsed). */
  meta: ClaudeMeta;
  /** Mentions of other skills and commands in the body (claudeWiring checks them: `mention-unknown`). */
  mentions?: SkillMention[];
}

/**
 * The fields of `meta` detached from the (possibly reused) buffer the file was read into. A description that is the
 * frontmatter's `description` itself shares `detached`, its copy already made for the entry (not a second copy).
 */
function detachedMeta(m: ClaudeMeta, description?: { raw: string; detached: string }): ClaudeMeta {
  const out: ClaudeMeta = {};
  if (m.name !== undefined) out.name = detach(m.name);
  if (m.description !== undefined) out.description = m.description === description?.raw ? description.detached : detach(m.description);
  if (m.whenToUse !== undefined) out.whenToUse = detach(m.whenToUse);
  if (m.disableModelInvocation !== undefined) out.disableModelInvocation = m.disableModelInvocation;
  if (m.userInvocable !== undefined) out.userInvocable = m.userInvocable;
  return out;
}

function listContentFiles(fs: FileSystem, dir: string, rel: string, depth: number, out: string[]): void {
  const entries = fs.readDir(path.join(dir, rel));
  if (!entries) return;
  const sorted = [...entries].sort(byName);
  for (const e of sorted) {
    if (out.length >= MAX_SKILL_FILES) return;
    if (LISTING_SKIP.has(e.name) || e.name.endsWith('.pyc') || e.name === '.gitkeep') continue;
    const childRel = `${rel}/${e.name}`;
    if (e.isDirectory) {
      if (depth < 3) listContentFiles(fs, dir, childRel, depth + 1, out);
    } else if (e.isFile || e.isSymbolicLink) {
      out.push(childRel);
    }
  }
}

/**
 * Reads and validates one skill `<root>/<folderName>`; undefined when the folder holds no SKILL.md (nor skill.md).
 * `listFiles: false` (a load for validation only) leaves `files` as just the SKILL.md and `tokenEstimate` 0.
 */
export function loadSkill(fs: FileSystem, root: SkillsRoot, folderName: string, profile: Profile, opts?: { listFiles?: boolean; paths?: PathJoiner; realDir?: string }): LoadedSkillEntry | undefined {
  const paths = opts?.paths ?? new PathJoiner();
  const dir = paths.child(root.path, folderName);
  const upperPath = paths.skillMd(root.path, folderName);
  const listFiles = opts?.listFiles !== false;
  // Without a file listing, a SKILL.md that stats as a file (where names are case-sensitive: exactly that name)
  // settles what the folder listing would: the folder is a skill with SKILL.md. Anything else is decided from the listing.
  let stat = !listFiles && fs.caseSensitive ? fs.stat(upperPath) : undefined;
  let hasUpper = stat !== undefined && stat.isFile;
  if (!hasUpper) {
    stat = undefined;
    const entries = fs.readDir(dir);
    if (!entries) return undefined;
    hasUpper = hasFile(entries, 'SKILL.md');
    if (!hasUpper && !hasFile(entries, 'skill.md')) return undefined;
    if (listFiles) {
      const files = [hasUpper ? 'SKILL.md' : 'skill.md'];
      for (const sub of CONTENT_DIRS) {
        if (entries.some((e) => e.name === sub && (e.isDirectory || e.isSymbolicLink))) listContentFiles(fs, dir, sub, 1, files);
      }
      return finishLoad({ fs, root, folderName, profile, dir, skillMdPath: hasUpper ? upperPath : paths.child(dir, 'skill.md'), hasUpper, files, knownStat: undefined, estimateTokens: true, realDir: opts?.realDir });
    }
  }
  return finishLoad({ fs, root, folderName, profile, dir, skillMdPath: hasUpper ? upperPath : paths.child(dir, 'skill.md'), hasUpper, files: [hasUpper ? 'SKILL.md' : 'skill.md'], knownStat: stat, estimateTokens: listFiles, realDir: opts?.realDir });
}

/** One skill being loaded: where it is, what loadSkill found out about its SKILL.md, and what to fill in. */
interface SkillLoad {
  fs: FileSystem;
  root: SkillsRoot;
  folderName: string;
  profile: Profile;
  /** The skill folder. */
  dir: string;
  /** Its SKILL.md (or skill.md when that is all there is: `hasUpper` false). */
  skillMdPath: string;
  hasUpper: boolean;
  /** SkillEntry.files. */
  files: string[];
  /** A stat of skillMdPath already made, if any. */
  knownStat: FileStat | undefined;
  /** Fill SkillEntry.tokenEstimate. */
  estimateTokens: boolean;
  /** A command file: the `name-*` rules do not apply; `name` and `paths` are reported as ignored. */
  command?: boolean;
  /** The real path of `dir`, when known. */
  realDir?: string;
  /** A command's project folder (a project skill's is found from its folder). */
  project?: string;
}

/**
 * A command file's problems: none of the rules that only the Agent Skills spec and uploads impose (`name-*`,
 * COMMAND_EXEMPT: frontmatter is optional in a command, whose description defaults to its first line, and a command
 * is never packaged or uploaded); `name` / `paths` keys reported as ignored by Claude Code.
 */
function commandProblems(keys: ReadonlyArray<{ key: string; keyRange: Range }>, problems: Problem[], profile: Profile): Problem[] {
  const out = problems.filter((p) => !p.code.startsWith('name-') && !COMMAND_EXEMPT.has(p.code));
  const severity = severityFor('unknown-key', profile);
  for (const k of keys) {
    if (!COMMAND_IGNORED_KEYS.has(k.key) || severity === undefined) continue;
    const at = out.findIndex((p) => p.code === 'unknown-key' && p.line === k.keyRange.line);
    if (at >= 0) out.splice(at, 1);
    out.push({ code: 'unknown-key', severity, message: `Claude Code ignores \`${k.key}\` in a command file${k.key === 'name' ? ' (the command is the file name)' : ''}`, ...k.keyRange });
  }
  return out;
}

function finishLoad(load: SkillLoad): LoadedSkillEntry {
  const { fs, root, folderName, profile, dir, skillMdPath, hasUpper, files, knownStat, estimateTokens } = load;
  const stat = knownStat ?? fs.stat(skillMdPath);
  const entry: LoadedSkillEntry = {
    name: folderName,
    folderName,
    dir,
    skillMdPath,
    root,
    scope: root.scope,
    kind: 'command',
    invocation: '',
    // What Claude Code makes of it is decided over the whole discovery (discovery/claudeWiring.ts); a skill loaded on
    // its own keeps these.
    level: root.scope === 'personal' ? 'personal' : root.scope === 'plugin' ? 'plugin' : 'project',
    source: 'skill',
    loaded: true,
    displayName: undefined,
    notLoadedReason: undefined,
    shadowReason: undefined,
    tokenEstimate: 0,
    files,
    references: [],
    problems: [],
    stamp: stat ? `${stat.mtimeMs}:${stat.size}` : 'missing',
    // Set later where there is one; present from the start so that every entry has one shape (entries that gained
    // them one by one came in several, and every loop over thousands of them was slowed by the mix).
    description: undefined,
    nameRange: undefined,
    shadowedBy: undefined,
    meta: {},
    mentionsDisable: undefined,
    mentions: undefined,
  };

  if (!hasUpper) {
    entry.problems.push(fileProblem('skill-md-case', `the folder '${folderName}' has 'skill.md' but no 'SKILL.md'; rename it to SKILL.md (the name is case-sensitive)`));
  } else if (!stat || !stat.isFile) {
    entry.problems.push(fileProblem('file-unreadable', stat?.isDirectory
      ? "SKILL.md is a folder, not a file; the skill's instructions must be a file named SKILL.md"
      : stat ? 'SKILL.md is not a regular file (a FIFO, socket or device); it was not opened' : 'SKILL.md cannot be read (a broken link?)'));
  } else if (skillMdOutsideWorkspace(fs, root, skillMdPath, load.realDir)) {
    entry.problems.push(fileProblem('file-unreadable', 'SKILL.md links outside the workspace folder; it was not read'));
  } else if (stat.size > MAX_SKILL_MD_BYTES) {
    entry.problems.push(fileProblem('file-too-large', `SKILL.md is ${stat.size} bytes, over the ${MAX_SKILL_MD_BYTES}-byte limit; it was not parsed`));
    if (estimateTokens) entry.tokenEstimate = tokensForLength(stat.size);
  } else {
    let bytes: Buffer | undefined;
    try {
      // Nothing made from the bytes outlives this function (parsed.body is never read here): a reused buffer is fine.
      bytes = fs.readFileTransient ? fs.readFileTransient(skillMdPath, stat.size) : fs.readFile(skillMdPath);
    } catch (e) {
      entry.problems.push(fileProblem('file-unreadable', `SKILL.md cannot be read: ${e instanceof Error ? e.message : String(e)}`));
    }
    const notText = bytes === undefined ? undefined : notTextReason(bytes);
    if (notText !== undefined) {
      entry.problems.push(fileProblem('file-not-text', `${load.command ? 'the command file' : 'SKILL.md'} is not text (${notText}); Claude Code reads it as UTF-8 and misreads it: save it as UTF-8 text`));
      if (estimateTokens) entry.tokenEstimate = 0;
    } else if (bytes !== undefined) {
      const project = load.command ? load.project : root.scope === 'project' ? projectOf(dir) : undefined;
      // A plugin whose root SKILL.md is its one skill: Claude Code names it by its frontmatter, not its folder.
      const rootPlugin = !load.command && profile === 'claude-code' && root.plugin === undefined && path.basename(root.path) !== 'skills' ? rootSkillPluginOf(fs, dir) : undefined;
      const result = validateSkillMdBytes(bytes, { profile, folderName: rootPlugin === undefined ? folderName : '', skillDir: dir, rootDir: root.path, plugin: root.plugin ?? rootPlugin, project, workspaceFolder: root.workspaceFolder, command: load.command, personal: root.scope === 'personal' || undefined }, fs);
      takeValidation(entry, result, bytes, load.command === true, profile, estimateTokens);
    }
  }

  entry.kind = entry.name.startsWith('workflow-') ? 'workflow' : 'command';
  entry.invocation = root.plugin !== undefined ? `/${root.plugin}:${entry.name}` : `/${entry.name}`;
  return entry;
}

/**
 * Fills `entry` from its SKILL.md's validation (finishLoad's last step). A function of its own: the frontmatter's
 * `data` objects come in many shapes, and a new one met late in a bulk run makes the optimized code that reads them
 * bail out; then only this small function is compiled again, not all of finishLoad.
 */
function takeValidation(entry: LoadedSkillEntry, result: ReturnType<typeof validateSkillMdBytes>, bytes: Buffer, command: boolean, profile: Profile, estimateTokens: boolean): void {
  const data = result.parsed.data;
  const rawName = data == null ? undefined : frontmatterField(data, 'name');
  if (typeof rawName === 'string' && rawName.trim() !== '') entry.name = detach(rawName.trim());
  const description = data == null ? undefined : frontmatterField(data, 'description');
  if (typeof description === 'string') entry.description = detach(description);
  entry.meta = detachedMeta(metaFromParsed(result.parsed), typeof description === 'string' ? { raw: description, detached: entry.description! } : undefined);
  const nameKey = result.parsed.keys.find((k) => k.key === 'name');
  if (nameKey) entry.nameRange = nameKey.valueRange ?? nameKey.keyRange;
  // Counting the characters of a non-ASCII file costs a pass over its bytes: only when the estimate is shown.
  if (estimateTokens) entry.tokenEstimate = tokensForLength(result.textLength);
  entry.references = result.references;
  if (result.mentions.length) entry.mentions = result.mentions;
  entry.problems = sortProblems(command ? commandProblems(result.parsed.keys, result.problems, profile) : result.problems);
  // Rule configuration reads the file of a skill with problems again for its disable comments, unless it is
  // known here to have none (a search of bytes in memory). Files without problems or mentions are not searched (a
  // mention may get a problem later in the run: mention-unknown).
  if (entry.problems.length || entry.mentions) entry.mentionsDisable = mayHoldDisableComment(bytes);
}

/** Why bytes are not a text file (NUL bytes, or not UTF-8), or undefined when they are text. */
export function notTextReason(bytes: Buffer): string | undefined {
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    return utf16 ? 'saved as UTF-16' : `a NUL byte at offset ${nul}: a binary file?`;
  }
  if (!isUtf8(bytes)) return 'not valid UTF-8: another encoding, or a binary file?';
  return undefined;
}

/** SKILL.md rules of the spec and uploads that a command file is not held to (besides the `name-*` rules). */
const COMMAND_EXEMPT = new Set(['frontmatter-missing', 'description-missing', 'description-length', 'description-angle-brackets']);

/** Frontmatter keys Claude Code ignores in a command file (the command is the file name). */
const COMMAND_IGNORED_KEYS = new Set(['name', 'paths']);

/**
 * Reads and validates one command file (`.claude/commands/<name>.md`) with the SKILL.md rules, except that `name` and
 * `paths`, which Claude Code ignores in a command, are reported as ignored (`unknown-key`), the `name-*` rules do not
 * apply and frontmatter is optional. `dir` and `skillMdPath` are the file itself; `folderName` is its name without `.md`.
 */
export function loadCommand(fs: FileSystem, file: string, profile: Profile): LoadedSkillEntry {
  const { folderName, parent, project } = commandPlace(file);
  const root: SkillsRoot = { path: parent, scope: 'project' };
  const entry = finishLoad({ fs, root, folderName, profile, dir: parent, skillMdPath: file, hasUpper: true, files: [], knownStat: undefined, estimateTokens: true, command: true, project });
  entry.dir = file;
  entry.name = folderName;
  entry.source = 'command';
  entry.files = [];
  // Frontmatter is optional in a command: Claude Code describes it by its first paragraph.
  entry.description ??= entry.meta.description;
  return entry;
}

/** Where a command file is: its name without `.md`, its folder and its project folder. */
function commandPlace(file: string): { folderName: string; parent: string; project: string | undefined } {
  const parent = path.dirname(file);
  // Claude Code runs a command in its project: paths are read from the project folder (a plugin's, for a plugin command).
  const project = projectOf(parent, '.claude') ?? (path.basename(parent) === 'commands' ? path.dirname(parent) : undefined);
  return { folderName: path.basename(file).replace(/\.md$/, ''), parent, project };
}

/** The validation context of a command file, as loadCommand has it. */
export function commandContextOf(file: string, profile: Profile): ValidationContext {
  const { folderName, parent, project } = commandPlace(file);
  return { profile, folderName, skillDir: parent, rootDir: parent, project, command: true };
}

/** A command file validated from its text (an open editor), with the problems loadCommand gives it from disk. */
export function validateCommandText(text: string, file: string, profile: Profile, fs: FileSystem): SkillMdValidation {
  const result = validateSkillMd(text, commandContextOf(file, profile), fs);
  return { ...result, problems: sortProblems(commandProblems(result.parsed.keys, result.problems, profile)) };
}

/** One skill to load: the folder `folderName` of `root`. */
export interface SkillJob {
  root: SkillsRoot;
  folderName: string;
  /** The folder's real path, when discovery knows it (saves a realpath of its SKILL.md). */
  realDir?: string;
}

/**
 * Loads skills in bulk: must return, in job order, exactly what `loadSkill(fs, job.root, job.folderName, profile, opts)`
 * returns for each job. The default runs them one after another; the CLI passes one that spreads large sets over threads.
 */
export type SkillLoader = (fs: FileSystem, jobs: SkillJob[], profile: Profile, opts: { listFiles?: boolean }) => Array<LoadedSkillEntry | undefined>;

/** The default SkillLoader: loadSkill on each job in turn. */
export const loadSkillsInOrder: SkillLoader = (fs, jobs, profile, opts) => {
  const paths = new PathJoiner();
  return jobs.map((j) => loadSkill(fs, j.root, j.folderName, profile, { listFiles: opts.listFiles, paths, realDir: j.realDir }));
};
