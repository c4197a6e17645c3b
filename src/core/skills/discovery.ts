/**
 * Skill discovery (SPEC §1 "Where skills live", §3): finds skills roots, loads skills and agents,
 * and applies the rules that need more than one skill (duplicate-name, shadowed).
 *
 * Bounds: skills roots are found at most `maxDepth` directory levels below the searched folder
 * (DEFAULT_MAX_DEPTH; `packages/app/.claude/skills` is 4), skips `.git`, `node_modules` and hidden folders other than `.claude`,
 * `.agents`, `.github`, follows a symbolic link to a directory only once (by real path), reads no
 * SKILL.md over MAX_SKILL_MD_BYTES and lists at most MAX_SKILL_FILES files of a skill.
 */
import * as path from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../fs';
import type { Problem, Profile, Range, Scope } from '../types';
import type { AgentEntry, Discovery, SkillEntry, SkillsRoot } from './model';
import { detach, tokensForLength, validateSkillMdBytes } from '../validation/validateSkill';
import { nfkc } from '../validation/text';
import { validateAgentMd } from '../agents/agents';
import { withReadCache } from './readCache';

/** Skills roots deeper than this many levels below a searched folder are not found. */
export const DEFAULT_MAX_DEPTH = 6;
/** How deep `~/.claude/plugins/` is searched when it has no installed_plugins.json. */
export const PLUGINS_MAX_DEPTH = 6;
/** A SKILL.md larger than this is reported (`file-too-large`), not parsed. */
export const MAX_SKILL_MD_BYTES = 1024 * 1024;
/** At most this many files of `scripts/`, `references/`, `assets/` are listed per skill. */
export const MAX_SKILL_FILES = 500;

const SKIP_DIRS = new Set(['.git', 'node_modules']);
/** Hidden folders that hold a `skills/` root (`.claude/skills`, `.agents/skills`, `.github/skills`). */
const ROOT_PARENTS = new Set(['.claude', '.agents', '.github']);
const CONTENT_DIRS = ['scripts', 'references', 'assets'];
const LISTING_SKIP = new Set(['__pycache__', 'node_modules', '.DS_Store', '.git']);

export interface FindRootsOptions {
  maxDepth?: number;
  /**
   * Also treat any folder that holds a skill (a subfolder with SKILL.md) as a skills root, wherever
   * it is — what the CLI does with an arbitrary folder. Off for workspace folders: there only
   * `.claude/skills`, `.agents/skills`, `.github/skills` and plugin `skills/` folders count.
   */
  anyFolder?: boolean;
}

export interface DiscoverOptions {
  workspaceFolders: string[];
  /** Home directory: adds `~/.claude/skills` (personal) and the plugins installed under `~/.claude/plugins`. */
  home?: string;
  profile: Profile;
  maxDepth?: number;
  /** See FindRootsOptions.anyFolder (default false). */
  anyFolder?: boolean;
  /** Fill SkillEntry.files and SkillEntry.tokenEstimate (default true; the CLI's validate, which shows neither, skips them). */
  listFiles?: boolean;
  /** How the skills are loaded (default: one after another, see SkillLoader). */
  loader?: SkillLoader;
}

/** A SkillEntry as loadSkill builds it: also remembers where the `name` value is, for cross-skill problems. */
export interface LoadedSkillEntry extends SkillEntry {
  /** Range of the `name` value (or key) in SKILL.md; undefined when there is no name key. */
  nameRange?: Range;
}

interface ScanResult {
  roots: SkillsRoot[];
  /** Folders that hold a `.claude/agents` directory. */
  agentFolders: string[];
}

/**
 * True when the listing has an entry `name` of any kind: a SKILL.md that is a folder, a FIFO or a device still makes
 * its folder a skill (loadSkill then reports that it cannot be read, and never opens it).
 */
function hasFile(entries: DirEntry[], name: string): boolean {
  return entries.some((e) => e.name === name);
}

/**
 * On Linux (case-sensitive names), one lstat of `<dir>/SKILL.md` answers "is this a skill folder?" for the common
 * case without listing the folder (one system call instead of four, and no entry objects); a folder it does not
 * confirm is listed as before (skill.md, unreadable folders). Elsewhere a name may match in another letter case.
 */
const SKILL_MD_BY_LSTAT = process.platform === 'linux';

/** True when `<parent>/<name>` (a folder) holds an entry SKILL.md (of any kind, see hasFile); false also where that cannot tell. */
function hasSkillMdByLstat(fs: FileSystem, parent: string, name: string): boolean {
  if (!SKILL_MD_BY_LSTAT) return false;
  return fs.lstat(skillMdIn(parent, name)) !== undefined;
}

let lastDir: string | undefined;
let lastDirPlain = false;

/**
 * True when `${dir}/${name}` is exactly `path.join(dir, name)` for any plain name: a normalized absolute POSIX path
 * other than '/' (conservatively: no segment starts with '.'). Remembers its last answer: bulk discovery asks about
 * the same folder thousands of times in a row (once per entry of a skills root).
 */
function isPlainDir(dir: string): boolean {
  if (dir !== lastDir) {
    lastDir = dir;
    lastDirPlain = path.sep === '/' && dir.length > 1 && !dir.endsWith('/') && path.isAbsolute(dir) && !dir.includes('/.') && !dir.includes('//');
  }
  return lastDirPlain;
}

/** A name `path.join` keeps as one segment as it is (a directory entry's name): not empty, not '.' or '..', no '/'. */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/');
}

/** `path.join(dir, name)`: a plain concatenation where that is the same string (path.join normalizes the whole path each time). Exported for tests. */
export function childPath(dir: string, name: string): string {
  return isPlainName(name) && isPlainDir(dir) ? `${dir}/${name}` : path.join(dir, name);
}

/** `path.join(parent, name, 'SKILL.md')`, the same way. Exported for tests. */
export function skillMdIn(parent: string, name: string): string {
  return isPlainName(name) && isPlainDir(parent) ? `${parent}/${name}/SKILL.md` : path.join(parent, name, 'SKILL.md');
}

/** True when `<parent>/<name>` holds SKILL.md or skill.md (a file or a link). */
function isSkillFolder(fs: FileSystem, parent: string, name: string): boolean {
  if (hasSkillMdByLstat(fs, parent, name)) return true;
  const sub = fs.readDir(childPath(parent, name));
  return sub !== undefined && (hasFile(sub, 'SKILL.md') || hasFile(sub, 'skill.md'));
}

/** The plugin name when `dir` is a plugin folder (`.claude-plugin/plugin.json` or a top-level `plugin.json`). */
export function pluginNameOf(fs: FileSystem, dir: string): string | undefined {
  for (const manifest of [path.join(dir, '.claude-plugin', 'plugin.json'), path.join(dir, 'plugin.json')]) {
    if (!fs.stat(manifest)?.isFile) continue;
    try {
      const data: unknown = JSON.parse(fs.readFile(manifest).toString('utf8'));
      if (data && typeof data === 'object' && typeof (data as { name?: unknown }).name === 'string') {
        const name = ((data as { name: string }).name).trim();
        if (name) return name;
      }
    } catch {
      // An unreadable or invalid manifest still marks a plugin; the folder name stands in for its name.
    }
    return path.basename(dir);
  }
  return undefined;
}

/** Classifies a folder already known to hold skills: plugin root, or project root of `workspaceFolder`. */
export function rootFor(fs: FileSystem, dir: string, workspaceFolder: string | undefined, scope: Scope = 'project'): SkillsRoot {
  const plugin = path.basename(dir) === 'skills' ? pluginNameOf(fs, path.dirname(dir)) : undefined;
  if (plugin !== undefined) return { path: dir, scope: 'plugin', workspaceFolder, plugin };
  return { path: dir, scope, workspaceFolder };
}

function scanFolder(fs: FileSystem, folder: string, opts: FindRootsOptions & { scope?: Scope; workspaceFolder?: string; onlyPlugins?: boolean }): ScanResult {
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const roots: SkillsRoot[] = [];
  const agentFolders: string[] = [];
  const seenRoots = new Set<string>();
  const start = fs.realPath(folder);
  if (start === undefined) return { roots, agentFolders };
  const visited = new Set<string>([start]);

  const addRoot = (dir: string) => {
    if (seenRoots.has(dir)) return;
    seenRoots.add(dir);
    const root = rootFor(fs, dir, opts.workspaceFolder ?? folder, opts.scope);
    if (opts.onlyPlugins && root.scope !== 'plugin') return;
    if (opts.scope === 'personal' && root.scope !== 'plugin') root.workspaceFolder = undefined;
    roots.push(root);
  };

  // Returns true when `dir` is a skill by its listing (holds SKILL.md or a lone skill.md); the caller has tried
  // hasSkillMdByLstat first.
  const walk = (dir: string, real: string, depth: number): boolean => {
    const entries = fs.readDir(dir);
    if (!entries) return false;
    if (depth > 0 && (hasFile(entries, 'SKILL.md') || hasFile(entries, 'skill.md'))) return true;
    // Folders one level below the bound are read only to see whether they are skills.
    if (depth > maxDepth) return false;
    const name = path.basename(dir);
    const parentName = path.basename(path.dirname(dir));
    const isNamedRoot = name === 'skills' && (ROOT_PARENTS.has(parentName) || pluginNameOf(fs, path.dirname(dir)) !== undefined);
    if (isNamedRoot) addRoot(dir);
    const inRootParent = ROOT_PARENTS.has(name);
    let holdsSkill = false;
    // Name order, so that which path of a folder reached twice (through a link) is kept never depends on the disk.
    for (const e of [...entries].sort(byName)) {
      if (!e.isDirectory && !e.isSymbolicLink) continue;
      if (SKIP_DIRS.has(e.name)) continue;
      if (inRootParent) {
        // Inside .claude/.agents/.github only `skills` matters (and .claude/agents, noted for agents).
        if (name === '.claude' && e.name === 'agents') agentFolders.push(path.dirname(dir));
        if (e.name !== 'skills') continue;
      } else if (e.name.startsWith('.') && !ROOT_PARENTS.has(e.name)) {
        continue;
      }
      const sub = childPath(dir, e.name);
      let subReal: string | undefined;
      if (e.isSymbolicLink) {
        if (!fs.stat(sub)?.isDirectory) continue;
        subReal = fs.realPath(sub);
        // A link that leaves the searched (workspace) folder is not followed (one to `/` would crawl the machine).
        if (subReal !== undefined && (opts.scope ?? 'project') === 'project' && !isInside(start, subReal)) continue;
      } else {
        subReal = childPath(real, e.name);
      }
      if (subReal === undefined || visited.has(subReal)) continue;
      visited.add(subReal);
      if (hasSkillMdByLstat(fs, dir, e.name) || walk(sub, subReal, depth + 1)) holdsSkill = true;
    }
    if (holdsSkill && opts.anyFolder && !isNamedRoot) addRoot(dir);
    return false;
  };

  walk(folder, start, 0);
  roots.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { roots, agentFolders: agentFolders.sort() };
}

/** Finds every skills root in (and below) `folder`: `.claude|.agents|.github/skills`, plugin `skills/`, and with `anyFolder` any folder holding a skill. */
export function findSkillsRoots(fs: FileSystem, folder: string, opts?: FindRootsOptions): SkillsRoot[] {
  return scanFolder(fs, folder, opts ?? {}).roots;
}

function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** True when `p` is `base` or below it (both absolute and normalised). */
function isInside(base: string, p: string): boolean {
  return p === base || p.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
}

/**
 * True when `p` (a path below a project root) resolves, through links, to a place outside the root's workspace folder:
 * discovery does not follow such links (a skill folder linked to `/` would have it crawl the machine). Personal and
 * plugin roots have no workspace folder: their links are followed.
 */
function outsideWorkspace(fs: FileSystem, root: SkillsRoot, p: string): boolean {
  if (root.scope !== 'project' || root.workspaceFolder === undefined) return false;
  const realWs = fs.realPath(root.workspaceFolder);
  const real = fs.realPath(p);
  return realWs !== undefined && real !== undefined && !isInside(realWs, real);
}

function skillFolderEntries(fs: FileSystem, root: SkillsRoot): DirEntry[] {
  const entries = fs.readDir(root.path) ?? [];
  const found: DirEntry[] = [];
  for (const e of entries) {
    if (!e.isDirectory && !e.isSymbolicLink) continue;
    if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
    if (e.isSymbolicLink && outsideWorkspace(fs, root, childPath(root.path, e.name))) continue;
    if (isSkillFolder(fs, root.path, e.name)) found.push(e);
  }
  return found.sort(byName);
}

/** The folder names of the skills directly under a root (subfolders holding SKILL.md or skill.md), sorted. */
export function listSkillFolders(fs: FileSystem, root: SkillsRoot): string[] {
  return skillFolderEntries(fs, root).map((e) => e.name);
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

function fileProblem(code: string, message: string): Problem {
  return { code, severity: 'error', message, line: 1, column: 1, endLine: 1, endColumn: 1 };
}

/**
 * Reads and validates one skill `<root>/<folderName>`; undefined when the folder holds no SKILL.md (nor skill.md).
 * `listFiles: false` (a load for validation only) leaves `files` as just the SKILL.md and `tokenEstimate` 0.
 */
export function loadSkill(fs: FileSystem, root: SkillsRoot, folderName: string, profile: Profile, opts?: { listFiles?: boolean }): LoadedSkillEntry | undefined {
  const dir = childPath(root.path, folderName);
  const upperPath = skillMdIn(root.path, folderName);
  const listFiles = opts?.listFiles !== false;
  // Without a file listing, a SKILL.md that stats as a file (on Linux: exactly that name) settles what the folder
  // listing would: the folder is a skill with SKILL.md. Anything else is decided from the listing as before.
  let stat = !listFiles && SKILL_MD_BY_LSTAT ? fs.stat(upperPath) : undefined;
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
      return finishLoad(fs, root, folderName, profile, dir, hasUpper ? upperPath : childPath(dir, 'skill.md'), hasUpper, files, undefined, true);
    }
  }
  return finishLoad(fs, root, folderName, profile, dir, hasUpper ? upperPath : childPath(dir, 'skill.md'), hasUpper, [hasUpper ? 'SKILL.md' : 'skill.md'], stat, listFiles);
}

function finishLoad(fs: FileSystem, root: SkillsRoot, folderName: string, profile: Profile, dir: string, skillMdPath: string, hasUpper: boolean, files: string[], knownStat: FileStat | undefined, estimateTokens: boolean): LoadedSkillEntry {
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
  };

  if (!hasUpper) {
    entry.problems.push(fileProblem('skill-md-case', `the folder '${folderName}' has 'skill.md' but no 'SKILL.md'; rename it to SKILL.md (the name is case-sensitive)`));
  } else if (!stat || !stat.isFile) {
    entry.problems.push(fileProblem('file-unreadable', stat?.isDirectory
      ? "SKILL.md is a folder, not a file; the skill's instructions must be a file named SKILL.md"
      : stat ? 'SKILL.md is not a regular file (a FIFO, socket or device); it was not opened' : 'SKILL.md cannot be read (a broken link?)'));
  } else if (outsideWorkspace(fs, root, skillMdPath)) {
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
    if (bytes !== undefined) {
      const result = validateSkillMdBytes(bytes, { profile, folderName, skillDir: dir, rootDir: root.path }, fs);
      const data = result.parsed.data;
      const rawName = data?.name;
      if (typeof rawName === 'string' && rawName.trim() !== '') entry.name = detach(rawName.trim());
      const description = data?.description;
      if (typeof description === 'string') entry.description = detach(description);
      const nameKey = result.parsed.keys.find((k) => k.key === 'name');
      if (nameKey) entry.nameRange = nameKey.valueRange ?? nameKey.keyRange;
      // Counting the characters of a non-ASCII file costs a pass over its bytes: only when the estimate is shown.
      if (estimateTokens) entry.tokenEstimate = tokensForLength(result.textLength);
      entry.references = result.references;
      entry.problems = sortProblems(result.problems);
    }
  }

  entry.kind = entry.name.startsWith('workflow-') ? 'workflow' : 'command';
  entry.invocation = root.plugin !== undefined ? `/${root.plugin}:${entry.name}` : `/${entry.name}`;
  return entry;
}

/** Sorts problems by position, then code (stable, in place); returns the array. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

const CROSS_CODES = new Set(['duplicate-name', 'shadowed']);

/** Where two same-named skills clash: one project (the folder holding .claude/.agents/.github), personal, or one plugin. */
function clashGroup(s: SkillEntry): string {
  if (s.scope === 'personal') return 'personal';
  if (s.scope === 'plugin') return `plugin\0${s.root.plugin ?? ''}`;
  const parent = path.dirname(s.root.path);
  const project = path.basename(s.root.path) === 'skills' && ROOT_PARENTS.has(path.basename(parent)) ? path.dirname(parent) : s.root.path;
  return `project\0${project}`;
}


function crossRange(s: SkillEntry): Range {
  return (s as LoadedSkillEntry).nameRange ?? { line: 1, column: 1, endLine: 1, endColumn: 1 };
}

/** Applies duplicate-name and shadowed to the entries (mutates problems and shadowedBy; idempotent). */
export function applyCrossSkillRules(skills: SkillEntry[]): void {
  for (const s of skills) {
    if (s.problems.some((p) => CROSS_CODES.has(p.code))) s.problems = s.problems.filter((p) => !CROSS_CODES.has(p.code));
    s.shadowedBy = undefined;
  }
  const groups = new Map<string, SkillEntry[]>();
  const projectByName = new Map<string, SkillEntry>();
  // The clash group depends only on the root: computed once per root object.
  const groupOfRoot = new Map<SkillsRoot, string>();
  for (const s of skills) {
    const n = nfkc(s.name);
    let group = groupOfRoot.get(s.root);
    if (group === undefined || s.scope !== s.root.scope) {
      group = clashGroup(s);
      if (s.scope === s.root.scope) groupOfRoot.set(s.root, group);
    }
    const key = `${group}\0${n}`;
    const list = groups.get(key);
    if (list) list.push(s); else groups.set(key, [s]);
    if (s.scope === 'project') {
      const known = projectByName.get(n);
      if (!known || s.skillMdPath < known.skillMdPath) projectByName.set(n, s);
    }
  }
  const touched = new Set<SkillEntry>();
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    for (const s of list) {
      const others = list.filter((o) => o !== s).map((o) => o.skillMdPath).sort();
      s.problems.push({
        code: 'duplicate-name',
        severity: 'error',
        message: `another skill in the same scope is also named '${s.name}': ${others.join(', ')}`,
        ...crossRange(s),
      });
      touched.add(s);
    }
  }
  for (const s of skills) {
    if (s.scope !== 'personal') continue;
    const winner = projectByName.get(nfkc(s.name));
    if (!winner) continue;
    s.shadowedBy = winner.skillMdPath;
    s.problems.push({
      code: 'shadowed',
      severity: 'info',
      message: `hidden by the project skill '${winner.name}' (${winner.skillMdPath}); project skills override personal ones`,
      ...crossRange(s),
    });
    touched.add(s);
  }
  for (const s of touched) sortProblems(s.problems);
}

/** Reads `<workspaceFolder>/.claude/agents/*.md` (validateAgentMd each; `agent-skill-missing` against knownSkills). */
export function loadAgents(fs: FileSystem, workspaceFolder: string, knownSkills: ReadonlySet<string>): AgentEntry[] {
  const dir = path.join(workspaceFolder, '.claude', 'agents');
  const entries = fs.readDir(dir);
  if (!entries) return [];
  const agents: AgentEntry[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!(e.isFile || e.isSymbolicLink) || !e.name.endsWith('.md')) continue;
    const file = path.join(dir, e.name);
    const stat = fs.stat(file);
    if (!stat?.isFile) continue;
    let agent: AgentEntry;
    if (stat.size > MAX_SKILL_MD_BYTES) {
      agent = { name: e.name.slice(0, -3), path: file, skills: [], scope: 'project', problems: [fileProblem('file-too-large', `the agent file is ${stat.size} bytes, over the ${MAX_SKILL_MD_BYTES}-byte limit; it was not parsed`)] };
    } else {
      let text: string;
      try {
        text = fs.readFile(file).toString('utf8');
      } catch (err) {
        agents.push({ name: e.name.slice(0, -3), path: file, skills: [], scope: 'project', workspaceFolder, problems: [fileProblem('file-unreadable', `the agent file cannot be read: ${err instanceof Error ? err.message : String(err)}`)] });
        continue;
      }
      agent = validateAgentMd(text, file, knownSkills);
    }
    agent.workspaceFolder = workspaceFolder;
    agent.scope = 'project';
    sortProblems(agent.problems);
    agents.push(agent);
  }
  return agents;
}

/** Install paths of Claude Code's plugins from `~/.claude/plugins/installed_plugins.json` (v1 and v2 layouts); undefined when absent/invalid. */
function installedPluginPaths(fs: FileSystem, pluginsDir: string): string[] | undefined {
  const file = path.join(pluginsDir, 'installed_plugins.json');
  if (!fs.stat(file)?.isFile) return undefined;
  let data: unknown;
  try { data = JSON.parse(fs.readFile(file).toString('utf8')); } catch { return undefined; }
  const plugins = data && typeof data === 'object' ? (data as { plugins?: unknown }).plugins : undefined;
  if (!plugins || typeof plugins !== 'object') return undefined;
  const paths: string[] = [];
  for (const value of Object.values(plugins as Record<string, unknown>)) {
    for (const install of Array.isArray(value) ? value : [value]) {
      const p = install && typeof install === 'object' ? (install as { installPath?: unknown }).installPath : undefined;
      if (typeof p === 'string' && p) paths.push(p);
    }
  }
  return paths;
}

/** Roots of the plugins installed under `<home>/.claude/plugins` (from installed_plugins.json, else a bounded search). */
export function findInstalledPluginRoots(fs: FileSystem, home: string): SkillsRoot[] {
  const pluginsDir = path.join(home, '.claude', 'plugins');
  if (!fs.stat(pluginsDir)?.isDirectory) return [];
  const installed = installedPluginPaths(fs, pluginsDir);
  if (installed) {
    const roots: SkillsRoot[] = [];
    for (const p of installed) {
      const skills = path.join(p, 'skills');
      if (!fs.stat(skills)?.isDirectory) continue;
      const plugin = pluginNameOf(fs, p) ?? path.basename(p);
      roots.push({ path: skills, scope: 'plugin', plugin });
    }
    return roots;
  }
  return scanFolder(fs, pluginsDir, { maxDepth: PLUGINS_MAX_DEPTH, onlyPlugins: true, scope: 'personal' })
    .roots.map((r) => ({ path: r.path, scope: 'plugin' as const, plugin: r.plugin }));
}

/** One skill to load: the folder `folderName` of `root`. */
export interface SkillJob {
  root: SkillsRoot;
  folderName: string;
}

/**
 * Loads skills in bulk: must return, in job order, exactly what `loadSkill(fs, job.root, job.folderName, profile, opts)`
 * returns for each job. The default runs them one after another; the CLI passes one that spreads large sets over threads.
 */
export type SkillLoader = (fs: FileSystem, jobs: SkillJob[], profile: Profile, opts: { listFiles?: boolean }) => Array<LoadedSkillEntry | undefined>;

/** The default SkillLoader: loadSkill on each job in turn. */
export const loadSkillsInOrder: SkillLoader = (fs, jobs, profile, opts) => jobs.map((j) => loadSkill(fs, j.root, j.folderName, profile, opts));

/** Loads every skill of the given roots (a folder reached twice through links only once, by real path), then applies the cross-skill rules. */
export function loadRoots(fs: FileSystem, roots: SkillsRoot[], profile: Profile, opts?: { listFiles?: boolean; loader?: SkillLoader }): LoadedSkillEntry[] {
  const jobs: SkillJob[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const rootReal = fs.realPath(root.path) ?? root.path;
    for (const e of skillFolderEntries(fs, root)) {
      const real = e.isSymbolicLink ? fs.realPath(childPath(root.path, e.name)) : childPath(rootReal, e.name);
      if (real === undefined || seen.has(real)) continue;
      seen.add(real);
      jobs.push({ root, folderName: e.name });
    }
  }
  const skills: LoadedSkillEntry[] = [];
  for (const skill of (opts?.loader ?? loadSkillsInOrder)(fs, jobs, profile, { listFiles: opts?.listFiles })) if (skill) skills.push(skill);
  applyCrossSkillRules(skills);
  return skills;
}

/** Full discovery: project roots of every workspace folder, personal `~/.claude/skills`, installed plugins, agents. */
export function discover(fs: FileSystem, opts: DiscoverOptions): Discovery {
  const cached = withReadCache(fs);
  const roots: SkillsRoot[] = [];
  const agentFolders: string[] = [];
  const seen = new Set<string>();
  const personal = opts.home !== undefined ? path.join(opts.home, '.claude', 'skills') : undefined;
  const push = (r: SkillsRoot) => {
    if (seen.has(r.path)) return;
    seen.add(r.path);
    // A workspace folder that is the home folder finds ~/.claude/skills itself: it stays personal.
    roots.push(r.path === personal && r.scope === 'project' ? { path: r.path, scope: 'personal' } : r);
  };
  for (const folder of opts.workspaceFolders) {
    const scan = scanFolder(cached, folder, { maxDepth: opts.maxDepth, anyFolder: opts.anyFolder, workspaceFolder: folder });
    scan.roots.forEach(push);
    if (opts.anyFolder) agentFolders.push(...scan.agentFolders);
    else if (cached.stat(path.join(folder, '.claude', 'agents'))?.isDirectory) agentFolders.push(folder);
  }
  if (opts.home !== undefined && personal !== undefined) {
    if (cached.stat(personal)?.isDirectory) push({ path: personal, scope: 'personal' });
    findInstalledPluginRoots(cached, opts.home).forEach(push);
  }
  const skills = loadRoots(cached, roots, opts.profile, { listFiles: opts.listFiles, loader: opts.loader });
  const known = new Set<string>();
  for (const s of skills) {
    known.add(s.name);
    if (s.root.plugin !== undefined) known.add(`${s.root.plugin}:${s.name}`);
  }
  const agents = [...new Set(agentFolders)].flatMap((f) => loadAgents(cached, f, known));
  return { roots, skills, agents };
}

export type DiscoverPathResult = { ok: true; discovery: Discovery } | { ok: false; message: string };

/**
 * What the CLI validates or lists for one PATH: a SKILL.md (that skill), an agent file under
 * `.claude/agents/` (that agent), a skill folder (that skill), or any other folder (searched with
 * `anyFolder`: every folder holding skills is a root). Not ok when the path cannot be read or is some other file.
 */
export function discoverPath(fs: FileSystem, target: string, opts: { profile: Profile; maxDepth?: number; listFiles?: boolean; loader?: SkillLoader }): DiscoverPathResult {
  const cached = withReadCache(fs);
  const abs = path.resolve(target);
  const st = cached.stat(abs);
  if (!st) return { ok: false, message: `cannot read '${target}'` };
  const single = (skillDir: string): DiscoverPathResult => {
    const parent = path.dirname(skillDir);
    const root = rootFor(cached, parent, parent);
    const skill = loadSkill(cached, root, path.basename(skillDir), opts.profile, { listFiles: opts.listFiles });
    if (!skill) return { ok: false, message: `no SKILL.md in '${target}'` };
    return { ok: true, discovery: { roots: [root], skills: [skill], agents: [] } };
  };
  if (st.isFile) {
    const base = path.basename(abs);
    if (base === 'SKILL.md' || base === 'skill.md') return single(path.dirname(abs));
    const agentsDir = path.dirname(abs);
    if (base.endsWith('.md') && path.basename(agentsDir) === 'agents' && path.basename(path.dirname(agentsDir)) === '.claude') {
      const project = path.dirname(path.dirname(agentsDir));
      const all = discover(cached, { workspaceFolders: [project], profile: opts.profile, maxDepth: opts.maxDepth });
      const agent = all.agents.find((a) => a.path === abs);
      if (!agent) return { ok: false, message: `cannot read '${target}'` };
      return { ok: true, discovery: { roots: [], skills: [], agents: [agent] } };
    }
    return { ok: false, message: `'${target}' is not a SKILL.md, an agent file, a skill folder or a folder` };
  }
  if (!st.isDirectory) return { ok: false, message: `cannot read '${target}'` };
  const entries = cached.readDir(abs);
  if (!entries) return { ok: false, message: `cannot read '${target}'` };
  if (hasFile(entries, 'SKILL.md') || hasFile(entries, 'skill.md')) return single(abs);
  return { ok: true, discovery: discover(cached, { workspaceFolders: [abs], profile: opts.profile, maxDepth: opts.maxDepth, anyFolder: true, listFiles: opts.listFiles, loader: opts.loader }) };
}
