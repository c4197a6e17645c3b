/**
 * Skill discovery: finds the skills roots of workspace folders, `~/.claude/skills` and installed plugins (roots.ts),
 * loads their skills (load.ts) and agents (agents.ts), and applies the rules that need more than one skill
 * (crossSkill.ts). discoverPath and discoverPaths are what the CLI validates or lists for its PATH arguments.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Profile } from '../base/types';
import type { AgentEntry, Discovery, SkillEntry, SkillsRoot } from '../skillmd/model';
import { loadAgents } from './agents';
import { applyCrossSkillRules } from './crossSkill';
import { type LoadedSkillEntry, loadSkill, loadSkillsInOrder, type SkillJob, type SkillLoader } from './load';
import { hasFile, PathJoiner } from './paths';
import { findInstalledPluginRoots, rootFor, scanFolder, skillFolderEntries } from './roots';
import { withReadCache } from './readCache';

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

/** Loads every skill of the given roots (a folder reached twice through links only once, by real path), then applies the cross-skill rules. */
export function loadRoots(fs: FileSystem, roots: SkillsRoot[], profile: Profile, opts?: { listFiles?: boolean; loader?: SkillLoader }): LoadedSkillEntry[] {
  const jobs: SkillJob[] = [];
  const seen = new Set<string>();
  const paths = new PathJoiner();
  for (const root of roots) {
    const rootReal = fs.realPath(root.path) ?? root.path;
    for (const e of skillFolderEntries(fs, root, paths)) {
      const real = e.isSymbolicLink ? fs.realPath(paths.child(root.path, e.name)) : paths.child(rootReal, e.name);
      if (real === undefined || seen.has(real)) continue;
      seen.add(real);
      jobs.push({ root, folderName: e.name });
    }
  }
  const skills: LoadedSkillEntry[] = [];
  for (const skill of (opts?.loader ?? loadSkillsInOrder)(fs, jobs, profile, { listFiles: opts?.listFiles })) if (skill) skills.push(skill);
  applyCrossSkillRules(skills, profile);
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

export type DiscoverPathsResult = { ok: true; skills: SkillEntry[]; agents: AgentEntry[] } | { ok: false; message: string };

/**
 * discoverPath for several paths (`targets`, relative to `cwd`): everything found, deduplicated, with the cross-skill
 * rules applied over all of it, skills sorted by SKILL.md path and agents by path. Not ok at the first path that
 * cannot be read (its message names the path as written). `onEmpty` hears of each path that holds no skill or agent.
 */
export function discoverPaths(fs: FileSystem, cwd: string, targets: string[], opts: { profile: Profile; listFiles?: boolean; loader?: SkillLoader; onEmpty?: (target: string) => void }): DiscoverPathsResult {
  const skills = new Map<string, SkillEntry>();
  const agents = new Map<string, AgentEntry>();
  for (const target of targets) {
    const result = discoverPath(fs, path.resolve(cwd, target), { profile: opts.profile, listFiles: opts.listFiles, loader: opts.loader });
    if (!result.ok) return { ok: false, message: result.message.replace(path.resolve(cwd, target), target) };
    if (!result.discovery.skills.length && !result.discovery.agents.length) opts.onEmpty?.(target);
    for (const s of result.discovery.skills) if (!skills.has(s.skillMdPath)) skills.set(s.skillMdPath, s);
    for (const a of result.discovery.agents) if (!agents.has(a.path)) agents.set(a.path, a);
  }
  const skillList = [...skills.values()];
  // One target's discovery has applied them to exactly this set already.
  if (targets.length > 1) applyCrossSkillRules(skillList, opts.profile);
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  skillList.sort((a, b) => byPath(a.skillMdPath, b.skillMdPath));
  return { ok: true, skills: skillList, agents: [...agents.values()].sort((a, b) => byPath(a.path, b.path)) };
}
