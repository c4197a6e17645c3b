/**
 * Skill discovery: finds the skills roots of workspace folders (roots.ts), loads their skills (load.ts), applies Claude
 * Code's model of loading (claudeWiring.ts: the personal, managed, parent and additional levels, commands, installed
 * plugins, command names, precedence and the problems that need more than one file) and loads the agents (agents.ts).
 * discoverPath and discoverPaths are what the CLI validates or lists for its PATH arguments.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Profile } from '../base/types';
import { fileProblem } from '../base/problems';
import { validatePluginHooksJson } from '../validation/hookRules';
import type { ClaudeModel } from '../claude/load';
import type { AgentEntry, Discovery, SkillEntry, SkillsRoot } from '../skillmd/model';
import { type AgentDir, agentDirOf, loadAgentDir } from './agents';
import { applyClaudeModel, type MentionPool, modelBlockedSkills } from './claudeWiring';
import { type LoadedSkillEntry, loadSkill, loadSkillsInOrder, type SkillJob, type SkillLoader } from './load';
import { pluginNameOf, rootSkillPluginOf } from './plugins';
import { hasFile, PathJoiner } from './paths';
import { rootFor, scanFolder, skillFolderEntries } from './roots';
import { withReadCache } from './readCache';

/** What Claude Code is started with, besides its start folder (see ClaudeWiringOptions). */
export interface ClaudeStartOptions {
  /** Home directory: personal skills and commands (`~/.claude`), user settings, installed plugins. */
  home?: string;
  /** The managed-settings folder; the OS default when undefined, none when null. */
  managedDir?: string | null;
  /** `--add-dir` folders. */
  additionalDirs?: readonly string[];
  /** The shell environment (`CLAUDE_CONFIG_DIR`, `SLASH_COMMAND_TOOL_CHAR_BUDGET`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** See ClaudeWiringOptions.onMentionPool. */
  onMentionPool?: (pool: MentionPool) => void;
}

export interface DiscoverOptions extends ClaudeStartOptions {
  workspaceFolders: string[];
  profile: Profile;
  maxDepth?: number;
  /** See FindRootsOptions.anyFolder (default false). */
  anyFolder?: boolean;
  /** Fill SkillEntry.files and SkillEntry.tokenEstimate (default true; the CLI's validate, which shows neither, skips them). */
  listFiles?: boolean;
  /** How the skills are loaded (default: one after another, see SkillLoader). */
  loader?: SkillLoader;
}

/** A discovery with Claude Code's model of each workspace folder. */
export interface ModelDiscovery extends Discovery {
  skills: LoadedSkillEntry[];
  /** One per workspace folder, in order. */
  models: ClaudeModel[];
  /** The agent folders the agents were read from (SkillIndex re-reads them). */
  agentDirs?: AgentDir[];
  /** Plugins' `hooks/hooks.json` files with their problems. */
  hookFiles?: HookFileResult[];
}

/** A plugin's hooks.json and its problems. */
export interface HookFileResult {
  file: string;
  problems: Problem[];
}

/** Reads and checks a plugin's hooks.json (validatePluginHooksJson); an unreadable file is one problem. */
function loadHookFile(fs: FileSystem, at: { file: string; plugin: string; root: string }): HookFileResult {
  let text: string;
  try {
    text = fs.readFile(at.file).toString('utf8');
  } catch (err) {
    return { file: at.file, problems: [fileProblem('file-unreadable', `hooks.json cannot be read: ${err instanceof Error ? err.message : String(err)}`)] };
  }
  return { file: at.file, problems: validatePluginHooksJson(text, at.root, at.plugin, fs) };
}

/** Loads every skill of the given roots (a folder reached twice through links only once, by real path). */
export function loadRoots(fs: FileSystem, roots: SkillsRoot[], profile: Profile, opts?: { listFiles?: boolean; loader?: SkillLoader }): LoadedSkillEntry[] {
  const jobs: SkillJob[] = [];
  const seen = new Set<string>();
  const paths = new PathJoiner();
  for (const root of roots) {
    const resolved = fs.realPath(root.path);
    const rootReal = resolved ?? root.path;
    for (const e of skillFolderEntries(fs, root, paths)) {
      const real = e.isSymbolicLink ? fs.realPath(paths.child(root.path, e.name)) : paths.child(rootReal, e.name);
      if (real === undefined || seen.has(real)) continue;
      seen.add(real);
      jobs.push(resolved === undefined ? { root, folderName: e.name } : { root, folderName: e.name, realDir: real });
    }
  }
  const skills: LoadedSkillEntry[] = [];
  for (const skill of (opts?.loader ?? loadSkillsInOrder)(fs, jobs, profile, { listFiles: opts?.listFiles })) if (skill) skills.push(skill);
  return skills;
}

/** `<folder>/.claude/skills` → `<folder>`; undefined for any other root (the only roots whose skills Claude Code loads). */
export function claudeFolderOf(root: SkillsRoot): string | undefined {
  const parent = path.dirname(root.path);
  return path.basename(root.path) === 'skills' && path.basename(parent) === '.claude' ? path.dirname(parent) : undefined;
}

/** The names an agent's `skills:` may use: command names, frontmatter names, and `plugin:name` for plugin skills. */
export function knownSkillNames(skills: readonly SkillEntry[]): Set<string> {
  const known = new Set<string>();
  for (const s of skills) {
    if (s.source === 'command') continue;
    known.add(s.name);
    if (s.invocation) known.add(s.invocation.slice(1));
    if (s.root.plugin !== undefined) known.add(`${s.root.plugin}:${s.name}`);
  }
  return known;
}

/**
 * Applies Claude Code's model to loaded entries and adds the skills roots of the files only the model found (so a
 * watcher sees them). Shared by discover and SkillIndex (which re-applies it after a change).
 */
export function wireClaudeModel(fs: FileSystem, roots: readonly SkillsRoot[], skills: readonly LoadedSkillEntry[], workspaceFolders: readonly string[], opts: ClaudeStartOptions & { profile: Profile; listFiles?: boolean; pluginCommandRoots?: readonly string[] }): { roots: SkillsRoot[]; skills: LoadedSkillEntry[]; models: ClaudeModel[] } {
  const skillPlugins = [
    ...roots.filter((r) => r.scope === 'plugin').map((r) => path.dirname(r.path)),
    // A plugin that is only a root SKILL.md (no `skills/`): the skill folder is the plugin.
    ...skills.filter((s) => s.source === 'skill' && path.basename(s.root.path) !== 'skills' && rootSkillPluginOf(fs, s.dir) !== undefined).map((s) => s.dir),
  ];
  const withSkills = new Set(skillPlugins);
  const wired = applyClaudeModel(fs, skills, {
    ...opts,
    startDirs: workspaceFolders,
    pluginDirs: [
      ...skillPlugins,
      // A plugin without skills: its commands (Claude Code loads them as any plugin's).
      ...(opts.pluginCommandRoots ?? []).filter((d) => !withSkills.has(d)),
    ],
    claudeFolders: roots.map(claudeFolderOf).filter((d): d is string => d !== undefined),
  });
  // The roots as the model classified their skills (a workspace folder that is the home folder: its skills are personal).
  const classified = new Map<string, SkillsRoot>();
  for (const s of wired.skills) if (s.source === 'skill' && !classified.has(s.root.path)) classified.set(s.root.path, s.root);
  const allRoots = roots.map((r) => classified.get(r.path) ?? r);
  const known = new Set(roots.map((r) => r.path));
  for (const [p, r] of classified) {
    if (known.has(p)) continue;
    known.add(p);
    allRoots.push(r);
  }
  return { roots: allRoots, skills: wired.skills, models: wired.models };
}

/** Full discovery: the skills roots of every workspace folder, then Claude Code's model of each (every level), then agents. */
export function discover(fs: FileSystem, opts: DiscoverOptions): ModelDiscovery {
  const cached = withReadCache(fs);
  const roots: SkillsRoot[] = [];
  const agentFolders: string[] = [];
  const pluginAgentDirs: AgentDir[] = [];
  const hookFiles: HookFileResult[] = [];
  const pluginCommandRoots: string[] = [];
  const seen = new Set<string>();
  for (const folder of opts.workspaceFolders) {
    const scan = scanFolder(cached, folder, { maxDepth: opts.maxDepth, anyFolder: opts.anyFolder, workspaceFolder: folder });
    for (const r of scan.roots) {
      if (seen.has(r.path)) continue;
      seen.add(r.path);
      roots.push(r);
    }
    for (const d of scan.pluginAgentDirs) pluginAgentDirs.push({ ...d, workspaceFolder: folder });
    for (const d of scan.pluginCommandRoots) if (!pluginCommandRoots.includes(d)) pluginCommandRoots.push(d);
    for (const h of scan.pluginHookFiles) if (!hookFiles.some((x) => x.file === h.file)) hookFiles.push(loadHookFile(cached, h));
    if (opts.anyFolder) agentFolders.push(...scan.agentFolders);
    else if (cached.stat(path.join(folder, '.claude', 'agents'))?.isDirectory) agentFolders.push(folder);
  }
  const loaded = loadRoots(cached, roots, opts.profile, { listFiles: opts.listFiles, loader: opts.loader });
  const wired = wireClaudeModel(cached, roots, loaded, opts.workspaceFolders, { ...opts, pluginCommandRoots });
  // The names agents may use are gathered only when there are agents (a set of every skill's names otherwise).
  const agentDirs: AgentDir[] = [...new Set(agentFolders)].map((f) => ({ dir: path.join(f, '.claude', 'agents'), workspaceFolder: f }));
  const seenDirs = new Set(agentDirs.map((d) => d.dir));
  for (const d of pluginAgentDirs) if (!seenDirs.has(d.dir)) { seenDirs.add(d.dir); agentDirs.push(d); }
  const known = agentDirs.length ? knownSkillNames(wired.skills) : new Set<string>();
  const blocked = agentDirs.length ? modelBlockedSkills(wired.models) : new Map<string, string>();
  const agents = agentDirs.flatMap((d) => loadAgentDir(cached, d, known, blocked));
  return { roots: wired.roots, skills: wired.skills, agents, models: wired.models, agentDirs, hookFiles };
}

export type DiscoverPathResult = { ok: true; discovery: ModelDiscovery } | { ok: false; message: string };

type PathOptions = ClaudeStartOptions & {
  profile: Profile; maxDepth?: number; listFiles?: boolean; loader?: SkillLoader;
  /** Also keep what the model found outside PATH (the other levels), as `list` shows them. */
  everything?: boolean;
  /** discoverPaths: called with each target that holds no skill, command or agent. */
  onEmpty?: (target: string) => void;
};

/** `<p>/.claude/<sub>/...` → `<p>` for the nearest `.claude` ancestor of `file` whose child is `sub`; else undefined. */
function projectOf(file: string, sub: string): string | undefined {
  let d = path.dirname(file);
  for (;;) {
    const parent = path.dirname(d);
    if (parent === d) return undefined;
    if (path.basename(d) === sub && path.basename(parent) === '.claude') return path.dirname(parent);
    d = parent;
  }
}

/** The plugin folder whose `commands` folder holds `file` (at any depth), if any. */
function pluginOfCommand(fs: FileSystem, file: string): string | undefined {
  for (let d = path.dirname(file); path.dirname(d) !== d; d = path.dirname(d)) {
    if (path.basename(d) === 'commands' && pluginNameOf(fs, path.dirname(d)) !== undefined) return path.dirname(d);
  }
  return undefined;
}

/** What discover is run on for one PATH: the start folder, whether any folder holding skills counts, and what is kept. */
function discoveryFor(fs: FileSystem, abs: string, isFile: boolean, entries: ReturnType<FileSystem['readDir']>): { start: string; anyFolder: boolean; single: boolean; alone?: string; keep: (file: string) => boolean } | undefined {
  const base = path.basename(abs);
  const skillFile = isFile && (base === 'SKILL.md' || base === 'skill.md');
  const skillDir = skillFile ? path.dirname(abs) : !isFile && entries && (hasFile(entries, 'SKILL.md') || hasFile(entries, 'skill.md')) ? abs : undefined;
  if (skillDir !== undefined) {
    const parent = path.dirname(skillDir);
    const keep = (file: string) => path.dirname(file) === skillDir;
    // A direct child of `.claude/skills`: that project is the start folder (the other levels decide its shadowing).
    if (path.basename(parent) === 'skills' && path.basename(path.dirname(parent)) === '.claude') return { start: path.dirname(path.dirname(parent)), anyFolder: false, single: true, keep };
    const claudeProject = projectOf(skillDir, 'skills');
    if (claudeProject !== undefined) return { start: claudeProject, anyFolder: false, single: true, keep };
    if (path.basename(parent) === 'skills' && pluginNameOf(fs, path.dirname(parent)) !== undefined) return { start: path.dirname(parent), anyFolder: true, single: true, keep };
    // Outside every folder Claude Code reads: that skill alone.
    return { start: parent, anyFolder: true, single: true, alone: path.basename(skillDir), keep };
  }
  const keepUnder = (file: string) => file.startsWith(abs.endsWith(path.sep) ? abs : abs + path.sep);
  if (!isFile) {
    // `.claude` itself, or an agents folder or one of its subfolders: the project (or plugin) it belongs to is the
    // start folder, so that its agents are found; what is under PATH is kept.
    if (base === '.claude') return { start: path.dirname(abs), anyFolder: false, single: false, keep: keepUnder };
    const at = agentDirOf(fs, path.join(abs, 'agent.md'), undefined);
    if (at) return { start: at.plugin === undefined ? path.dirname(path.dirname(at.dir)) : path.dirname(at.dir), anyFolder: at.plugin !== undefined, single: false, keep: keepUnder };
    // A commands folder or one of its subfolders: its project (or plugin) is the start folder, as for agents.
    const project = projectOf(path.join(abs, 'command.md'), 'commands');
    if (project !== undefined) return { start: project, anyFolder: false, single: false, keep: keepUnder };
    const plugin = pluginOfCommand(fs, path.join(abs, 'command.md'));
    if (plugin !== undefined) return { start: plugin, anyFolder: true, single: false, keep: keepUnder };
  }
  if (isFile) {
    if (!base.endsWith('.md')) return undefined;
    const commands = projectOf(abs, 'commands');
    if (commands !== undefined) return { start: commands, anyFolder: false, single: true, keep: (file) => file === abs };
    const plugin = pluginOfCommand(fs, abs);
    if (plugin !== undefined) return { start: plugin, anyFolder: true, single: true, keep: (file) => file === abs };
    return undefined;
  }
  return { start: abs, anyFolder: true, single: false, keep: (file) => file === abs || keepUnder(file) };
}

/**
 * What the CLI validates or lists for one PATH: a SKILL.md or skill folder (that skill), a command file under
 * `.claude/commands/` (that command), an agent file under `.claude/agents/` (that agent), or any other folder (searched
 * with `anyFolder`: every folder holding skills is a root) — each with Claude Code's model of its start folder (a
 * folder PATH itself; for a skill or command, its project), so that shadowing counts every level while only what is
 * under PATH is reported. Not ok when the path cannot be read or is some other file.
 */
export function discoverPath(fs: FileSystem, target: string, opts: PathOptions): DiscoverPathResult {
  const cached = withReadCache(fs);
  const abs = path.resolve(target);
  const st = cached.stat(abs);
  if (!st) return { ok: false, message: `'${target}' does not exist` };
  if (st.isFile) {
    const at = abs.endsWith('.md') ? agentDirOf(cached, abs, undefined) : undefined;
    if (at && at.plugin === undefined) {
      const project = path.dirname(path.dirname(at.dir));
      const all = discover(cached, { ...opts, workspaceFolders: [project] });
      const agent = all.agents.find((a) => a.path === abs);
      if (!agent) return { ok: false, message: `cannot read '${target}'` };
      return { ok: true, discovery: { roots: [], skills: [], agents: [agent], models: all.models } };
    }
    if (at) {
      const all = discover(cached, { ...opts, workspaceFolders: [path.dirname(at.dir)], anyFolder: true });
      const agent = all.agents.find((a) => a.path === abs);
      if (agent) return { ok: true, discovery: { roots: [], skills: [], agents: [agent], models: all.models } };
    }
  } else if (!st.isDirectory) {
    return { ok: false, message: `cannot read '${target}'` };
  }
  const entries = st.isDirectory ? cached.readDir(abs) : undefined;
  if (st.isDirectory && !entries) return { ok: false, message: `cannot read '${target}'` };
  const how = discoveryFor(cached, abs, st.isFile, entries);
  if (!how) return { ok: false, message: `'${target}' is not a SKILL.md, a command or agent file, a skill folder or a folder` };
  if (how.alone !== undefined) {
    const skill = loadSkill(cached, rootFor(cached, how.start, how.start), how.alone, opts.profile, { listFiles: opts.listFiles });
    if (!skill) return { ok: false, message: `no SKILL.md in '${target}'` };
    const wired = applyClaudeModel(cached, [skill], { ...opts, startDirs: [] });
    return { ok: true, discovery: { roots: [skill.root], skills: wired.skills, agents: [], models: [] } };
  }
  const all = discover(cached, { ...opts, workspaceFolders: [how.start], anyFolder: how.anyFolder });
  // An entry found through a link (`.agents/skills` → `../skills`) keeps the path it was found at: it is under PATH
  // when its real path is.
  const real = (file: string) => path.join(cached.realPath(path.dirname(file)) ?? path.dirname(file), path.basename(file));
  const under = (file: string) => how.keep(file) || how.keep(real(file));
  const skills = opts.everything ? all.skills : all.skills.filter((s) => under(s.skillMdPath));
  if (!skills.length && how.single) return { ok: false, message: st.isFile ? `cannot read '${target}'` : `no SKILL.md in '${target}'` };
  const agents = how.single ? [] : all.agents.filter((a) => how.keep(a.path));
  const hookFiles = how.single ? [] : (all.hookFiles ?? []).filter((h) => how.keep(h.file));
  return { ok: true, discovery: { roots: all.roots, skills, agents, models: all.models, hookFiles } };
}

export type DiscoverPathsResult = { ok: true; skills: LoadedSkillEntry[]; agents: AgentEntry[]; models: ClaudeModel[]; hookFiles: HookFileResult[] } | { ok: false; message: string };

/**
 * discoverPath for several paths (`targets`, relative to `cwd`): everything found under them, deduplicated, skills
 * sorted by SKILL.md path and agents by path, with the model of each start folder. Not ok at the first path that
 * cannot be read (its message names the path as written). `onEmpty` hears of each path that holds no skill or agent.
 */
export function discoverPaths(fs: FileSystem, cwd: string, targets: string[], opts: PathOptions): DiscoverPathsResult {
  const skills = new Map<string, LoadedSkillEntry>();
  const agents = new Map<string, AgentEntry>();
  const hookFiles = new Map<string, HookFileResult>();
  const models: ClaudeModel[] = [];
  for (const target of targets) {
    const result = discoverPath(fs, path.resolve(cwd, target), opts);
    if (!result.ok) return { ok: false, message: result.message.replace(path.resolve(cwd, target), target) };
    const hooks = (result.discovery as ModelDiscovery).hookFiles ?? [];
    if (!result.discovery.skills.length && !result.discovery.agents.length && !hooks.length) opts.onEmpty?.(target);
    for (const h of hooks) if (!hookFiles.has(h.file)) hookFiles.set(h.file, h);
    for (const s of result.discovery.skills) if (!skills.has(s.skillMdPath)) skills.set(s.skillMdPath, s);
    for (const a of result.discovery.agents) if (!agents.has(a.path)) agents.set(a.path, a);
    models.push(...result.discovery.models);
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const skillList = [...skills.values()].sort((a, b) => byPath(a.skillMdPath, b.skillMdPath));
  return { ok: true, skills: skillList, agents: [...agents.values()].sort((a, b) => byPath(a.path, b.path)), models, hookFiles: [...hookFiles.values()].sort((a, b) => byPath(a.file, b.file)) };
}
