/**
 * Agents bound to skills: the `*.md` files below `<project>/.claude/agents` and a plugin's `agents` (Claude Code scans both
 * recursively, docs/sub-agents.md), each validated against the skills found.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { fileProblem, sortProblems } from '../base/problems';
import { severityFor } from '../base/rules';
import type { AgentEntry } from '../skillmd/model';
import { type AgentValidationOptions, validateAgentMd } from '../agents/agents';
import { mcpServersInReach } from '../claude/mcp';
import type { McpServersInReach } from '../claude/tools';
import { pluginNameOf } from './plugins';
import { MAX_SKILL_MD_BYTES } from './load';

/** A folder of agent files: a project's `.claude/agents`, or a plugin's `agents` (with the plugin's name). */
export interface AgentDir {
  dir: string;
  workspaceFolder: string;
  plugin?: string;
}

/**
 * The MCP servers an agent's tools lists may name, looked up once when first asked: the workspace's and the project's
 * `.mcp.json`, and a plugin agent's own plugin servers.
 */
export function agentMcpLookup(fs: FileSystem, at: AgentDir): () => McpServersInReach | undefined {
  const owner = path.dirname(at.plugin !== undefined ? at.dir : path.dirname(at.dir));
  let servers: McpServersInReach | undefined;
  let looked = false;
  return () => {
    if (!looked) {
      looked = true;
      servers = mcpServersInReach(fs, [at.workspaceFolder, ...(at.plugin === undefined ? [owner] : [])], at.plugin !== undefined ? { name: at.plugin, root: owner } : undefined);
    }
    return servers;
  };
}

/** How one agent of an agent folder is validated: the MCP servers in reach, its plugin, where its hooks run. */
export function agentValidationOptions(fs: FileSystem, at: AgentDir): AgentValidationOptions {
  const mcp = agentMcpLookup(fs, at);
  if (at.plugin !== undefined) return { mcp, plugin: at.plugin };
  return { mcp, fs, hooksPlace: () => ({ project: path.dirname(path.dirname(at.dir)), mcp: mcp() }) };
}

/** How deep below an agents folder agent files are looked for (Claude Code's scan is recursive; this bounds a loop). */
const MAX_AGENT_DEPTH = 8;

/**
 * The agent folder holding an agent file, at any depth below it: a project's `.claude/agents`, or a plugin's `agents`
 * (undefined for any other file). The nearest folder named `agents` decides.
 */
export function agentDirOf(fs: FileSystem, file: string, workspaceFolder: string | undefined): AgentDir | undefined {
  let dir = path.dirname(file);
  for (let depth = 0; depth <= MAX_AGENT_DEPTH; depth++) {
    if (path.basename(dir) === 'agents') {
      const owner = path.dirname(dir);
      if (path.basename(owner) === '.claude') return { dir, workspaceFolder: workspaceFolder ?? path.dirname(owner) };
      const plugin = pluginNameOf(fs, owner);
      if (plugin !== undefined) return { dir, workspaceFolder: workspaceFolder ?? owner, plugin };
    }
    const parent = path.dirname(dir);
    if (parent === dir || (workspaceFolder !== undefined && dir === workspaceFolder)) return undefined;
    dir = parent;
  }
  return undefined;
}

/** The `*.md` files below an agents folder, at any depth (hidden folders skipped, links followed once), in name order. */
function agentFiles(fs: FileSystem, dir: string): string[] {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = (d: string, depth: number) => {
    const real = fs.realPath(d) ?? d;
    if (visited.has(real)) return;
    visited.add(real);
    const entries = fs.readDir(d);
    if (!entries) return;
    for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(d, e.name);
      if ((e.isFile || e.isSymbolicLink) && e.name.endsWith('.md')) {
        out.push(p);
      } else if ((e.isDirectory || e.isSymbolicLink) && !e.name.startsWith('.') && depth < MAX_AGENT_DEPTH && fs.stat(p)?.isDirectory) {
        walk(p, depth + 1);
      }
    }
  };
  walk(dir, 0);
  return out;
}

/** Reads the `*.md` files below `<workspaceFolder>/.claude/agents` (validateAgentMd each; `agent-skill-missing` against knownSkills). */
export function loadAgents(fs: FileSystem, workspaceFolder: string, knownSkills: ReadonlySet<string>, modelBlocked?: ReadonlyMap<string, string>): AgentEntry[] {
  return loadAgentDir(fs, { dir: path.join(workspaceFolder, '.claude', 'agents'), workspaceFolder }, knownSkills, modelBlocked);
}

/**
 * Reads the `*.md` files of one agent folder and its subfolders (validateAgentMd each; a plugin's agents are scoped
 * `plugin`). Two files of one folder tree that declare the same name: Claude Code loads one of them, "chosen by
 * filesystem read order" (docs/sub-agents.md), so each gets `agent-duplicate-name`. In a plugin a subfolder is part
 * of the identifier (`agents/review/security.md` is `my-plugin:review:security`), so only the same subfolder clashes.
 */
export function loadAgentDir(fs: FileSystem, at: AgentDir, knownSkills: ReadonlySet<string>, modelBlocked?: ReadonlyMap<string, string>): AgentEntry[] {
  const { dir, workspaceFolder } = at;
  if (!fs.stat(dir)?.isDirectory) return [];
  const scope = at.plugin !== undefined ? 'plugin' : 'project';
  const options = agentValidationOptions(fs, at);
  const agents: AgentEntry[] = [];
  for (const file of agentFiles(fs, dir)) {
    const fileName = path.basename(file).slice(0, -3);
    const stat = fs.stat(file);
    if (!stat?.isFile) continue;
    let agent: AgentEntry;
    if (stat.size > MAX_SKILL_MD_BYTES) {
      agent = { name: fileName, path: file, skills: [], scope, problems: [fileProblem('file-too-large', `the agent file is ${stat.size} bytes, over the ${MAX_SKILL_MD_BYTES}-byte limit; it was not parsed`)] };
    } else {
      let text: string;
      try {
        text = fs.readFile(file).toString('utf8');
      } catch (err) {
        agents.push({ name: fileName, path: file, skills: [], scope, workspaceFolder, problems: [fileProblem('file-unreadable', `the agent file cannot be read: ${err instanceof Error ? err.message : String(err)}`)] });
        continue;
      }
      agent = validateAgentMd(text, file, knownSkills, modelBlocked, options);
      if (agent.documentation) continue;
    }
    agent.workspaceFolder = workspaceFolder;
    agent.scope = scope;
    agents.push(agent);
  }
  markDuplicateAgents(agents, at);
  for (const agent of agents) sortProblems(agent.problems);
  return agents;
}

/** `agent-duplicate-name` on every agent of one folder tree whose identifier another file declares too. */
function markDuplicateAgents(agents: AgentEntry[], at: AgentDir): void {
  if (!severityFor('agent-duplicate-name', 'claude-code')) return;
  const idOf = (a: AgentEntry) => {
    if (at.plugin === undefined) return a.name;
    const sub = path.relative(at.dir, path.dirname(a.path));
    return [...(sub ? sub.split(path.sep) : []), a.name].join(':');
  };
  const byId = new Map<string, AgentEntry[]>();
  for (const a of agents) {
    if (a.problems.some((p) => p.code === 'agent-name-invalid' || p.code === 'file-too-large' || p.code === 'file-unreadable')) continue;
    const id = idOf(a);
    byId.set(id, [...(byId.get(id) ?? []), a]);
  }
  for (const [id, same] of byId) {
    if (same.length < 2) continue;
    for (const a of same) {
      const others = same.filter((o) => o !== a).map((o) => path.relative(at.dir, o.path).split(path.sep).join('/'));
      const shown = at.plugin !== undefined ? `${at.plugin}:${id}` : id;
      a.problems.push(fileProblem('agent-duplicate-name', `Claude Code loads only one agent named '${shown}' from this folder, chosen by file-system order: ${others.join(', ')} declares it too; rename one`));
    }
  }
}
