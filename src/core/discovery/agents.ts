/** Agents bound to skills: `<project>/.claude/agents/*.md` and a plugin's `agents/*.md`, each validated against the skills found. */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { fileProblem, sortProblems } from '../base/problems';
import type { AgentEntry } from '../skillmd/model';
import { validateAgentMd } from '../agents/agents';
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

/** The agent folder holding an agent file: a project's `.claude/agents`, or a plugin's `agents` (undefined for any other file). */
export function agentDirOf(fs: FileSystem, file: string, workspaceFolder: string | undefined): AgentDir | undefined {
  const dir = path.dirname(file);
  if (path.basename(dir) !== 'agents') return undefined;
  const owner = path.dirname(dir);
  if (path.basename(owner) === '.claude') return { dir, workspaceFolder: workspaceFolder ?? path.dirname(owner) };
  const plugin = pluginNameOf(fs, owner);
  return plugin !== undefined ? { dir, workspaceFolder: workspaceFolder ?? owner, plugin } : undefined;
}

/** Reads `<workspaceFolder>/.claude/agents/*.md` (validateAgentMd each; `agent-skill-missing` against knownSkills). */
export function loadAgents(fs: FileSystem, workspaceFolder: string, knownSkills: ReadonlySet<string>, modelBlocked?: ReadonlyMap<string, string>): AgentEntry[] {
  return loadAgentDir(fs, { dir: path.join(workspaceFolder, '.claude', 'agents'), workspaceFolder }, knownSkills, modelBlocked);
}

/** Reads the `*.md` files of one agent folder (validateAgentMd each; a plugin's agents are scoped `plugin`). */
export function loadAgentDir(fs: FileSystem, at: AgentDir, knownSkills: ReadonlySet<string>, modelBlocked?: ReadonlyMap<string, string>): AgentEntry[] {
  const { dir, workspaceFolder } = at;
  const entries = fs.readDir(dir);
  if (!entries) return [];
  const scope = at.plugin !== undefined ? 'plugin' : 'project';
  const mcp = agentMcpLookup(fs, at);
  const agents: AgentEntry[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!(e.isFile || e.isSymbolicLink) || !e.name.endsWith('.md')) continue;
    const file = path.join(dir, e.name);
    const stat = fs.stat(file);
    if (!stat?.isFile) continue;
    let agent: AgentEntry;
    if (stat.size > MAX_SKILL_MD_BYTES) {
      agent = { name: e.name.slice(0, -3), path: file, skills: [], scope, problems: [fileProblem('file-too-large', `the agent file is ${stat.size} bytes, over the ${MAX_SKILL_MD_BYTES}-byte limit; it was not parsed`)] };
    } else {
      let text: string;
      try {
        text = fs.readFile(file).toString('utf8');
      } catch (err) {
        agents.push({ name: e.name.slice(0, -3), path: file, skills: [], scope, workspaceFolder, problems: [fileProblem('file-unreadable', `the agent file cannot be read: ${err instanceof Error ? err.message : String(err)}`)] });
        continue;
      }
      agent = validateAgentMd(text, file, knownSkills, modelBlocked, { mcp });
      if (agent.documentation) continue;
    }
    agent.workspaceFolder = workspaceFolder;
    agent.scope = scope;
    sortProblems(agent.problems);
    agents.push(agent);
  }
  return agents;
}
