/**
 * Finding skills roots: `.claude|.agents|.github/skills`, plugin `skills/` folders, with `anyFolder` any folder
 * holding a skill; and the skill folders directly under a root. What Claude Code makes of them (levels, the folders it
 * never reads) is the model's (claudeWiring.ts).
 *
 * Bounds: skills roots are found at most `maxDepth` directory levels below the searched folder
 * (DEFAULT_MAX_DEPTH; `packages/app/.claude/skills` is 4), skips `.git`, `node_modules` and hidden folders other than `.claude`,
 * `.agents`, `.github`, and follows a symbolic link to a directory only once (by real path).
 */
import * as path from 'node:path';
import type { DirEntry, FileSystem } from '../base/fs';
import type { Scope } from '../base/types';
import type { SkillsRoot } from '../skillmd/model';
import { byName, hasFile, hasSkillMdByLstat, isInside, isSkillFolder, outsideWorkspace, PathJoiner, ROOT_PARENTS, SKIP_DIRS } from './paths';
import { pluginNameOf } from './plugins';

/** Skills roots deeper than this many levels below a searched folder are not found. */
export const DEFAULT_MAX_DEPTH = 6;

export interface FindRootsOptions {
  maxDepth?: number;
  /**
   * Also treat any folder that holds a skill (a subfolder with SKILL.md) as a skills root, wherever
   * it is — what the CLI does with an arbitrary folder. Off for workspace folders: there only
   * `.claude/skills`, `.agents/skills`, `.github/skills` and plugin `skills/` folders count.
   */
  anyFolder?: boolean;
}

export interface ScanResult {
  roots: SkillsRoot[];
  /** Folders that hold a `.claude/agents` directory. */
  agentFolders: string[];
  /** Plugins' `agents` folders (`<plugin>/agents`), with the plugin's name. */
  pluginAgentDirs: Array<{ dir: string; plugin: string }>;
  /** Plugins' `hooks/hooks.json` files, with the plugin's name and root. */
  pluginHookFiles: Array<{ file: string; plugin: string; root: string }>;
  /**
   * Plugin folders that hold a `commands` folder: Claude Code loads a plugin's commands whether or not it has skills
   * (one without a `skills/` has no skills root to be found by).
   */
  pluginCommandRoots: string[];
}

/** Classifies a folder already known to hold skills: plugin root, or project root of `workspaceFolder`. */
export function rootFor(fs: FileSystem, dir: string, workspaceFolder: string | undefined, scope: Scope = 'project'): SkillsRoot {
  const plugin = path.basename(dir) === 'skills' ? pluginNameOf(fs, path.dirname(dir)) : undefined;
  if (plugin !== undefined) return { path: dir, scope: 'plugin', workspaceFolder, plugin };
  return { path: dir, scope, workspaceFolder };
}

export function scanFolder(fs: FileSystem, folder: string, opts: FindRootsOptions & { scope?: Scope; workspaceFolder?: string; onlyPlugins?: boolean }): ScanResult {
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const roots: SkillsRoot[] = [];
  const agentFolders: string[] = [];
  const pluginAgentDirs: Array<{ dir: string; plugin: string }> = [];
  const pluginHookFiles: Array<{ file: string; plugin: string; root: string }> = [];
  const pluginCommandRoots: string[] = [];
  const seenRoots = new Set<string>();
  const start = fs.realPath(folder);
  if (start === undefined) return { roots, agentFolders, pluginAgentDirs, pluginHookFiles, pluginCommandRoots };
  const visited = new Set<string>([start]);
  const paths = new PathJoiner();
  // A folder's plugin name, read once however many of its `skills`, `agents`, `hooks` and `commands` ask.
  const pluginNames = new Map<string, string | undefined>();
  const pluginOf = (dir: string): string | undefined => {
    if (!pluginNames.has(dir)) pluginNames.set(dir, pluginNameOf(fs, dir));
    return pluginNames.get(dir);
  };

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
    const isNamedRoot = name === 'skills' && (ROOT_PARENTS.has(parentName) || pluginOf(path.dirname(dir)) !== undefined);
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
      } else if ((e.name === 'agents' || e.name === 'hooks' || e.name === 'commands') && e.isDirectory) {
        const plugin = pluginOf(dir);
        if (plugin !== undefined && e.name === 'agents') pluginAgentDirs.push({ dir: paths.child(dir, e.name), plugin });
        if (plugin !== undefined && e.name === 'commands') pluginCommandRoots.push(dir);
        const hooksFile = path.join(dir, 'hooks', 'hooks.json');
        if (plugin !== undefined && e.name === 'hooks' && fs.stat(hooksFile)?.isFile) pluginHookFiles.push({ file: hooksFile, plugin, root: dir });
      }
      const sub = paths.child(dir, e.name);
      let subReal: string | undefined;
      if (e.isSymbolicLink) {
        if (!fs.stat(sub)?.isDirectory) continue;
        subReal = fs.realPath(sub);
        // A link that leaves the searched (workspace) folder is not followed (one to `/` would crawl the machine).
        if (subReal !== undefined && (opts.scope ?? 'project') === 'project' && !isInside(start, subReal)) continue;
      } else {
        subReal = paths.child(real, e.name);
      }
      if (subReal === undefined || visited.has(subReal)) continue;
      visited.add(subReal);
      if (hasSkillMdByLstat(fs, paths, dir, e.name) || walk(sub, subReal, depth + 1)) holdsSkill = true;
    }
    if (holdsSkill && opts.anyFolder && !isNamedRoot) addRoot(dir);
    return false;
  };

  walk(folder, start, 0);
  roots.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  pluginAgentDirs.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  pluginHookFiles.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { roots, agentFolders: agentFolders.sort(), pluginAgentDirs, pluginHookFiles, pluginCommandRoots: pluginCommandRoots.sort() };
}

/** Finds every skills root in (and below) `folder`: `.claude|.agents|.github/skills`, plugin `skills/`, and with `anyFolder` any folder holding a skill. */
export function findSkillsRoots(fs: FileSystem, folder: string, opts?: FindRootsOptions): SkillsRoot[] {
  return scanFolder(fs, folder, opts ?? {}).roots;
}

/** The entries of a root that are skill folders (see listSkillFolders). */
export function skillFolderEntries(fs: FileSystem, root: SkillsRoot, paths = new PathJoiner()): DirEntry[] {
  const entries = fs.readDir(root.path) ?? [];
  const found: DirEntry[] = [];
  for (const e of entries) {
    if (!e.isDirectory && !e.isSymbolicLink) continue;
    if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
    if (e.isSymbolicLink && outsideWorkspace(fs, root, paths.child(root.path, e.name))) continue;
    if (isSkillFolder(fs, paths, root.path, e.name)) found.push(e);
  }
  return found.sort(byName);
}

/** The folder names of the skills directly under a root (subfolders holding SKILL.md or skill.md), sorted. */
export function listSkillFolders(fs: FileSystem, root: SkillsRoot): string[] {
  return skillFolderEntries(fs, root).map((e) => e.name);
}
