/** Agents bound to skills: `<project>/.claude/agents/*.md`, each validated against the skills found. */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { fileProblem, sortProblems } from '../base/problems';
import type { AgentEntry } from '../skillmd/model';
import { validateAgentMd } from '../agents/agents';
import { MAX_SKILL_MD_BYTES } from './load';

/** Reads `<workspaceFolder>/.claude/agents/*.md` (validateAgentMd each; `agent-skill-missing` against knownSkills). */
export function loadAgents(fs: FileSystem, workspaceFolder: string, knownSkills: ReadonlySet<string>, modelBlocked?: ReadonlyMap<string, string>): AgentEntry[] {
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
      agent = validateAgentMd(text, file, knownSkills, modelBlocked);
      if (agent.documentation) continue;
    }
    agent.workspaceFolder = workspaceFolder;
    agent.scope = 'project';
    sortProblems(agent.problems);
    agents.push(agent);
  }
  return agents;
}
