/**
 * The shape of the Skills tree as plain data (vscode-free, so the bench measures it too):
 * scope groups → Workflow / Command skills → skill → SKILL.md, scripts/, references/, assets/;
 * and an Agents group whose agents list their bound skills.
 */
import * as path from 'node:path';
import type { AgentEntry, SkillEntry } from '../skillmd/model';
import type { SkillIndex } from './skillIndex';

export type SkillsNode =
  | { kind: 'scope'; id: string; label: string; scope: 'project' | 'personal' | 'plugin'; workspaceFolder?: string }
  | { kind: 'group'; id: string; label: string; parentId: string; skillKind: 'workflow' | 'command' }
  | { kind: 'skill'; id: string; dir: string }
  | { kind: 'folder'; id: string; dir: string; relPath: string }
  | { kind: 'file'; id: string; dir: string; relPath: string; isScript: boolean }
  | { kind: 'agents'; id: string }
  | { kind: 'agent'; id: string; path: string }
  | { kind: 'boundSkill'; id: string; agentPath: string; name: string; dir?: string };

const scopeId = (scope: string, folder?: string) => (folder ? `scope:${scope}:${folder}` : `scope:${scope}`);

/** The group a skill sits in (its parent's parent). */
export function scopeNodeIdOf(skill: SkillEntry): string {
  return skill.scope === 'project' ? scopeId('project', skill.root.workspaceFolder ?? '') : scopeId(skill.scope);
}

/** The skills of a scope node (command files are indexed with `source: 'command'` but not rows of this tree yet). */
function skillsOfScope(index: SkillIndex, node: Extract<SkillsNode, { kind: 'scope' }>): SkillEntry[] {
  return index.skills.filter((s) => s.source === 'skill' && s.scope === node.scope && (node.scope !== 'project' || (s.root.workspaceFolder ?? '') === (node.workspaceFolder ?? '')));
}

function groupsOf(parentId: string, skills: SkillEntry[]): SkillsNode[] {
  const out: SkillsNode[] = [];
  if (skills.some((s) => s.kind === 'workflow')) out.push({ kind: 'group', id: `${parentId}/workflow`, label: 'Workflow skills', parentId, skillKind: 'workflow' });
  if (skills.some((s) => s.kind === 'command')) out.push({ kind: 'group', id: `${parentId}/command`, label: 'Command skills', parentId, skillKind: 'command' });
  return out;
}

/** Top level: one Project group per workspace folder that has skills, Personal, Plugins, Agents. Empty when nothing is indexed. */
export function rootNodes(index: SkillIndex): SkillsNode[] {
  const skills = index.skills.filter((s) => s.source === 'skill');
  const out: SkillsNode[] = [];
  const folders = index.options.workspaceFolders;
  for (const folder of folders) {
    if (!skills.some((s) => s.scope === 'project' && s.root.workspaceFolder === folder)) continue;
    out.push({ kind: 'scope', id: scopeId('project', folder), label: folders.length > 1 ? `Project · ${path.basename(folder)}` : 'Project', scope: 'project', workspaceFolder: folder });
  }
  // Project skills whose root has no known workspace folder still need a home.
  if (skills.some((s) => s.scope === 'project' && !folders.includes(s.root.workspaceFolder ?? ''))) {
    out.push({ kind: 'scope', id: scopeId('project', ''), label: 'Project', scope: 'project', workspaceFolder: '' });
  }
  if (skills.some((s) => s.scope === 'personal')) out.push({ kind: 'scope', id: scopeId('personal'), label: 'Personal', scope: 'personal' });
  if (skills.some((s) => s.scope === 'plugin')) out.push({ kind: 'scope', id: scopeId('plugin'), label: 'Plugins', scope: 'plugin' });
  if (index.agents.length) out.push({ kind: 'agents', id: 'agents' });
  return out;
}

/** Children of one node. */
export function childNodes(index: SkillIndex, node: SkillsNode): SkillsNode[] {
  switch (node.kind) {
    case 'scope': {
      const skills = skillsOfScope(index, node);
      return groupsOf(node.id, skills);
    }
    case 'group': {
      const scopeNode = rootNodes(index).find((n) => n.id === node.parentId);
      if (!scopeNode || scopeNode.kind !== 'scope') return [];
      return skillsOfScope(index, scopeNode)
        .filter((s) => s.kind === node.skillKind)
        .map((s) => ({ kind: 'skill', id: `skill:${s.dir}`, dir: s.dir }));
    }
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

function boundSkills(index: SkillIndex, agent: AgentEntry): SkillsNode[] {
  const all = index.skills;
  return agent.skills.map((name) => {
    const candidates = all.filter((s) => s.name === name && !s.shadowedBy);
    const skill = candidates.find((s) => s.scope === 'project' && s.root.workspaceFolder === agent.workspaceFolder) ?? candidates[0];
    return { kind: 'boundSkill', id: `agent:${agent.path}/skill:${name}`, agentPath: agent.path, name, dir: skill?.dir };
  });
}

/** Worst severity among a skill's problems. */
export function worstSeverity(problems: ReadonlyArray<{ severity: string }>): 'error' | 'warning' | 'info' | undefined {
  if (problems.some((p) => p.severity === 'error')) return 'error';
  if (problems.some((p) => p.severity === 'warning')) return 'warning';
  if (problems.some((p) => p.severity === 'info')) return 'info';
  return undefined;
}

/** Walks the whole tree (the bench's "first render" of every node). */
export function walkTree(index: SkillIndex): number {
  let count = 0;
  const visit = (nodes: SkillsNode[]) => {
    for (const n of nodes) { count++; visit(childNodes(index, n)); }
  };
  visit(rootNodes(index));
  return count;
}
