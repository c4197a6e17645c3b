/**
 * The shape of the Skills tree as plain data (vscode-free, so the bench measures it too). It shows Claude Code's view
 * (docs/claude-code-model.md): one group per level, in precedence order — Managed, Personal, Project (one per
 * workspace folder, then parent folders up to the repository root), Additional folders, Nested, one per plugin,
 * Synced — each listing its skills and `.claude/commands` commands side by side, sorted by the command they answer
 * to (a command and the skill that shadows it sit next to each other); then entries under their files (`SKILL.md`,
 * `scripts/`, `references/`, `assets/`); and an Agents group whose agents list their bound skills.
 */
import * as path from 'node:path';
import type { ClaudeLevel } from '../claude/types';
import type { AgentEntry, SkillEntry } from '../skillmd/model';

export type SkillsNode =
  | { kind: 'level'; id: string; label: string; level: ClaudeLevel; folder?: string; plugin?: string; parentFolder?: boolean }
  | { kind: 'skill'; id: string; dir: string }
  | { kind: 'folder'; id: string; dir: string; relPath: string }
  | { kind: 'file'; id: string; dir: string; relPath: string; isScript: boolean }
  | { kind: 'agents'; id: string }
  | { kind: 'agent'; id: string; path: string }
  | { kind: 'boundSkill'; id: string; agentPath: string; name: string; dir?: string };

export type LevelNode = Extract<SkillsNode, { kind: 'level' }>;

/** What the tree model reads (a SkillIndex; tests may hand in plain data). */
export interface TreeSource {
  readonly skills: readonly SkillEntry[];
  readonly agents: readonly AgentEntry[];
  readonly options: { readonly workspaceFolders: readonly string[]; readonly home?: string };
  skillByDir(dir: string): SkillEntry | undefined;
}

/** Level groups in precedence order (docs/claude-code-model.md, "Who wins a shared name"). */
const LEVEL_ORDER: Record<ClaudeLevel, number> = { managed: 0, personal: 1, project: 2, additional: 3, nested: 4, plugin: 5, synced: 6 };
const LEVEL_LABEL: Record<ClaudeLevel, string> = {
  managed: 'Managed', personal: 'Personal', project: 'Project', additional: 'Additional folders', nested: 'Nested', plugin: 'Plugin', synced: 'Synced from claude.ai',
};

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The deepest workspace folder holding `file`. */
function workspaceFolderOf(file: string, folders: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const f of folders) if (isInside(file, f) && (!best || f.length > best.length)) best = f;
  return best;
}

/** The folder holding the `.claude` folder an entry sits in (the project or package folder); undefined outside one. */
function claudeOwnerOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('.claude');
  return at > 0 ? parts.slice(0, at).join(path.sep) || path.sep : undefined;
}

/** Where a nested entry's package is, relative to its workspace folder (`apps/web`), `/`-separated. */
export function nestedFolderOf(skill: SkillEntry, workspaceFolders: readonly string[]): string | undefined {
  if (skill.level !== 'nested') return undefined;
  const owner = claudeOwnerOf(skill.skillMdPath);
  const ws = workspaceFolderOf(skill.skillMdPath, workspaceFolders);
  if (!owner || !ws) return undefined;
  return path.relative(ws, owner).split(path.sep).join('/');
}

/** The label of an entry's row: the command Claude Code answers to, or the name when it never loads. */
export function entryLabel(skill: SkillEntry): string {
  return skill.invocation ?? skill.name;
}

/** The row's state: answers its command, loses it to another entry, or is never loaded. */
export type EntryState = 'loaded' | 'shadowed' | 'notLoaded';

export function entryState(skill: SkillEntry): EntryState {
  if (!skill.loaded || skill.invocation === null) return 'notLoaded';
  return skill.shadowedBy ? 'shadowed' : 'loaded';
}

interface Grouping {
  levels: LevelNode[];
  members: Map<string, SkillEntry[]>;
  levelOf: Map<SkillEntry, string>;
}

/** Grouping per skills array: the index hands out one array until it changes, so every row reuses one grouping. */
const groupings = new WeakMap<readonly SkillEntry[], Grouping>();

function levelKey(skill: SkillEntry, folders: readonly string[]): { id: string; make: () => LevelNode } {
  const level = skill.level;
  switch (level) {
    case 'project': {
      // The workspace folder holding it; else the project folder above (a parent up to the repository root).
      const ws = workspaceFolderOf(skill.skillMdPath, folders);
      const owner = ws === undefined ? claudeOwnerOf(skill.skillMdPath) : undefined;
      const folder = ws ?? owner ?? skill.root.workspaceFolder ?? '';
      const parentFolder = owner !== undefined && !folders.includes(owner);
      const label = parentFolder || folders.length > 1 ? `Project · ${path.basename(folder)}` : 'Project';
      return { id: `level:project:${folder}`, make: () => ({ kind: 'level', id: `level:project:${folder}`, label, level, folder, ...(parentFolder ? { parentFolder } : {}) }) };
    }
    case 'nested': {
      const folder = workspaceFolderOf(skill.skillMdPath, folders) ?? '';
      const label = folders.length > 1 && folder ? `Nested · ${path.basename(folder)}` : 'Nested';
      return { id: `level:nested:${folder}`, make: () => ({ kind: 'level', id: `level:nested:${folder}`, label, level, folder }) };
    }
    case 'plugin': {
      const plugin = skill.root.plugin ?? '';
      return { id: `level:plugin:${plugin}`, make: () => ({ kind: 'level', id: `level:plugin:${plugin}`, label: plugin ? `Plugin · ${plugin}` : 'Plugins', level, plugin }) };
    }
    default:
      return { id: `level:${level}`, make: () => ({ kind: 'level', id: `level:${level}`, label: LEVEL_LABEL[level], level }) };
  }
}

/** Skills before commands on the same command; then by path. */
function compareEntries(a: SkillEntry, b: SkillEntry): number {
  const la = entryLabel(a);
  const lb = entryLabel(b);
  // Entries Claude Code never loads (no `/`) after the commands.
  const na = a.invocation === null ? 1 : 0;
  const nb = b.invocation === null ? 1 : 0;
  if (na !== nb) return na - nb;
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.source !== b.source) return a.source === 'skill' ? -1 : 1;
  return a.skillMdPath < b.skillMdPath ? -1 : a.skillMdPath > b.skillMdPath ? 1 : 0;
}

const STATE_RANK: Record<EntryState, number> = { loaded: 0, shadowed: 1, notLoaded: 2 };

/**
 * Search order: by the row label (the command), the entry that answers it before those it shadows, never-loaded
 * entries after both; then as the tree orders them.
 */
export function searchOrder(skills: readonly SkillEntry[]): SkillEntry[] {
  return [...skills].sort((a, b) => {
    const na = a.invocation === null ? 1 : 0;
    const nb = b.invocation === null ? 1 : 0;
    if (na !== nb) return na - nb;
    const la = entryLabel(a);
    const lb = entryLabel(b);
    if (la !== lb) return la < lb ? -1 : 1;
    return STATE_RANK[entryState(a)] - STATE_RANK[entryState(b)] || compareEntries(a, b);
  });
}

function grouping(index: TreeSource): Grouping {
  const skills = index.skills;
  const known = groupings.get(skills);
  if (known) return known;
  const folders = index.options.workspaceFolders;
  const members = new Map<string, SkillEntry[]>();
  const nodes = new Map<string, LevelNode>();
  const levelOf = new Map<SkillEntry, string>();
  for (const s of skills) {
    const key = levelKey(s, folders);
    let list = members.get(key.id);
    if (!list) { list = []; members.set(key.id, list); nodes.set(key.id, key.make()); }
    list.push(s);
    levelOf.set(s, key.id);
  }
  for (const list of members.values()) list.sort(compareEntries);
  const folderRank = (n: LevelNode) => {
    const i = n.folder !== undefined ? folders.indexOf(n.folder) : -1;
    return i < 0 ? folders.length : i;
  };
  const levels = [...nodes.values()].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]
    || folderRank(a) - folderRank(b)
    // Parent folders: the one closer to the start folder (the longer path) first, as Claude Code ranks them.
    || (b.folder ?? '').length - (a.folder ?? '').length
    || (a.plugin ?? '').localeCompare(b.plugin ?? ''));
  const result = { levels, members, levelOf };
  groupings.set(skills, result);
  return result;
}

/** The id of the level group an entry sits in (its row's parent). */
export function levelNodeIdOf(index: TreeSource, skill: SkillEntry): string | undefined {
  return grouping(index).levelOf.get(skill);
}

/** The entries of one level group, in row order. */
export function entriesOf(index: TreeSource, node: LevelNode): readonly SkillEntry[] {
  return grouping(index).members.get(node.id) ?? [];
}

/** Top level: one group per level that has entries (precedence order), then Agents. Empty when nothing is indexed. */
export function rootNodes(index: TreeSource): SkillsNode[] {
  const out: SkillsNode[] = [...grouping(index).levels];
  if (index.agents.length) out.push({ kind: 'agents', id: 'agents' });
  return out;
}

/** Children of one node. */
export function childNodes(index: TreeSource, node: SkillsNode): SkillsNode[] {
  switch (node.kind) {
    case 'level':
      return entriesOf(index, node).map((s) => ({ kind: 'skill', id: `skill:${s.dir}`, dir: s.dir }));
    case 'skill':
    case 'folder': {
      const skill = index.skillByDir(node.dir);
      return skill ? filesUnder(skill, node.kind === 'skill' ? '' : node.relPath) : [];
    }
    case 'agents':
      return [...index.agents].sort((a, b) => a.name.localeCompare(b.name)).map((a) => ({ kind: 'agent', id: `agent:${a.path}`, path: a.path }));
    case 'agent': {
      const agent = index.agents.find((a) => a.path === node.path);
      return agent ? boundSkills(index, agent) : [];
    }
    default:
      return [];
  }
}

function filesUnder(skill: SkillEntry, prefix: string): SkillsNode[] {
  // A command is one file: its row opens it, with nothing under it.
  if (skill.source === 'command') return [];
  const folders = new Set<string>();
  const files: SkillsNode[] = [];
  const base = prefix ? `${prefix}/` : '';
  for (const raw of skill.files) {
    const rel = raw.split(path.sep).join('/');
    if (!rel.startsWith(base)) continue;
    const rest = rel.slice(base.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) folders.add(base + rest.slice(0, slash));
    else files.push({ kind: 'file', id: `skill:${skill.dir}/${rel}`, dir: skill.dir, relPath: rel, isScript: rel.startsWith('scripts/') });
  }
  const folderNodes: SkillsNode[] = [...folders].sort().map((f) => ({ kind: 'folder', id: `skill:${skill.dir}/${f}/`, dir: skill.dir, relPath: f }));
  // SKILL.md first, then folders, then other files.
  files.sort((a, b) => {
    const ra = (a as { relPath: string }).relPath;
    const rb = (b as { relPath: string }).relPath;
    return Number(rb.toLowerCase() === 'skill.md') - Number(ra.toLowerCase() === 'skill.md') || ra.localeCompare(rb);
  });
  const skillMd = files.filter((f) => (f as { relPath: string }).relPath.toLowerCase() === 'skill.md');
  const rest = files.filter((f) => !skillMd.includes(f));
  return [...skillMd, ...folderNodes, ...rest];
}

function boundSkills(index: TreeSource, agent: AgentEntry): SkillsNode[] {
  const all = index.skills;
  return agent.skills.map((name) => {
    const candidates = all.filter((s) => s.source !== 'command' && (s.name === name || s.invocation === `/${name}`) && !s.shadowedBy && s.loaded);
    const skill = candidates.find((s) => s.scope === 'project' && s.root.workspaceFolder === agent.workspaceFolder) ?? candidates[0];
    return { kind: 'boundSkill', id: `agent:${agent.path}/skill:${name}`, agentPath: agent.path, name, dir: skill?.dir };
  });
}

/**
 * What the Agents group shows, as one string: each agent's row and the skill each bound name resolves to (equal
 * strings render the same rows; the bound skills' own rows change with those skills).
 */
export function agentsSignature(index: TreeSource): string {
  return [...index.agents].sort((a, b) => a.path.localeCompare(b.path)).map((a) => [
    a.path, a.name, a.description ?? '', a.model ?? '', (a.tools ?? []).join(','),
    a.problems.map((p) => `${p.code}@${p.line}:${p.column} ${p.message}`).join(';'),
    boundSkills(index, a).map((n) => (n.kind === 'boundSkill' ? `${n.name}=${n.dir ?? ''}` : '')).join(','),
  ].join('\t')).join('\n');
}

/** The skill folders the Agents group shows as bound skills. */
export function boundSkillDirs(index: TreeSource): Set<string> {
  const dirs = new Set<string>();
  for (const a of index.agents) for (const n of boundSkills(index, a)) if (n.kind === 'boundSkill' && n.dir) dirs.add(n.dir);
  return dirs;
}

/** Worst severity among a skill's problems. */
export function worstSeverity(problems: ReadonlyArray<{ severity: string }>): 'error' | 'warning' | 'info' | undefined {
  if (problems.some((p) => p.severity === 'error')) return 'error';
  if (problems.some((p) => p.severity === 'warning')) return 'warning';
  if (problems.some((p) => p.severity === 'info')) return 'info';
  return undefined;
}

/** `~/…` for a path under `home`. */
export function homeRelative(file: string, home: string | undefined): string {
  if (!home) return file;
  return file === home ? '~' : isInside(file, home) ? `~/${path.relative(home, file).split(path.sep).join('/')}` : file;
}

/** Paths as a reader wants them: relative to the workspace folder (prefixed by its name when there are several), `~/…` under home. */
export function displayPaths(text: string, opts: { home?: string; workspaceFolders: readonly string[] }): string {
  let out = text;
  // The longest folders first: a workspace folder may sit under home.
  const folders = [...opts.workspaceFolders].sort((a, b) => b.length - a.length);
  for (const f of folders) out = out.split(f + path.sep).join(opts.workspaceFolders.length > 1 ? `${path.basename(f)}/` : '');
  if (opts.home) out = out.split(opts.home + path.sep).join('~/');
  return out;
}

/** The plain facts of an entry's row (the extension turns them into a TreeItem). */
export interface EntryRow {
  label: string;
  /** `hi · Says hello…`, `(shadowed) · …`, `(not loaded) · …`. */
  description: string;
  state: EntryState;
  /** Why it is shadowed or never loaded (paths as displayPaths writes them); undefined when it answers its command. */
  reason?: string;
}

/** Label, description and state of an entry's row; `shortDescription` is the description as the row shows it. */
export function entryRow(skill: SkillEntry, shortDescription: string, opts: { home?: string; workspaceFolders: readonly string[] }): EntryRow {
  const state = entryState(skill);
  const parts: string[] = [];
  if (state === 'shadowed') parts.push('(shadowed)');
  if (state === 'notLoaded') parts.push('(not loaded)');
  if (skill.displayName && skill.displayName !== entryLabel(skill)) parts.push(skill.displayName);
  const nested = nestedFolderOf(skill, opts.workspaceFolders);
  if (nested) parts.push(nested);
  if (shortDescription) parts.push(shortDescription);
  const row: EntryRow = { label: entryLabel(skill), description: parts.join(' · '), state };
  if (state === 'shadowed') row.reason = displayPaths(skill.shadowReason ?? `${skill.shadowedBy} answers ${skill.invocation ?? ''}`.trim(), opts);
  if (state === 'notLoaded') row.reason = displayPaths(skill.notLoadedReason ?? 'Claude Code does not load it', opts);
  return row;
}

/** Walks the whole tree (the bench's "first render" of every node). */
export function walkTree(index: TreeSource): number {
  let count = 0;
  const visit = (nodes: SkillsNode[]) => {
    for (const n of nodes) { count++; visit(childNodes(index, n)); }
  };
  visit(rootNodes(index));
  return count;
}
