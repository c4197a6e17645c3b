/** The VS Code selector of the documents the language features apply to (the kinds and their validation are core/editor/documents). */
import type * as vscode from 'vscode';
<<<<<<< HEAD
import { SKILL_DOCUMENT_PATTERNS } from '../../core/editor/documents';

export { skillDocKind, validateDocumentText, type SkillDocKind, type SkillDocResult } from '../../core/editor/documents';

/** Documents the language features apply to. */
export const SKILL_DOCUMENTS: vscode.DocumentSelector = SKILL_DOCUMENT_PATTERNS.map((pattern) => ({ language: 'markdown', scheme: 'file', pattern }));
=======
import type { FileSystem } from '../../core/base/fs';
import type { Problem, Profile } from '../../core/base/types';
import type { ParsedSkillMd, SkillReference, ValidationContext } from '../../core/skillmd/model';
import { mcpServersOf, validateSkillMd } from '../../core/validation/validateSkill';
import { validatePluginHooksJson } from '../../core/validation/hookRules';
import type { McpServersInReach } from '../../core/claude/tools';
import { agentDirOf, agentMcpLookup } from '../../core/discovery/agents';
import { validateAgentMd } from '../../core/agents/agents';
import { pluginNameOf } from '../../core/discovery/plugins';
import { projectOf } from '../../core/discovery/paths';
import { commandContextOf, validateCommandText } from '../../core/discovery/load';

/** Documents the language features apply to. */
export const SKILL_DOCUMENTS: vscode.DocumentSelector = [
  { language: 'markdown', scheme: 'file', pattern: '**/SKILL.md' },
  { language: 'markdown', scheme: 'file', pattern: '**/.claude/agents/*.md' },
  // A plugin's agents (skillDocKind checks that the folder above is a plugin).
  { language: 'markdown', scheme: 'file', pattern: '**/agents/*.md' },
  { language: 'markdown', scheme: 'file', pattern: '**/.claude/commands/**/*.md' },
];

const AGENT_PATH = /[\\/]\.claude[\\/]agents[\\/][^\\/]+\.md$/;
/** A plugin's hooks file (validated as you type; skillDocKind checks that the folder above is a plugin). */
const HOOKS_PATH = /[\\/]hooks[\\/]hooks\.json$/;
const ANY_AGENT_PATH = /[\\/]agents[\\/][^\\/]+\.md$/;
const COMMAND_PATH = /[\\/]\.claude[\\/]commands[\\/](?:[^\\/]+[\\/])*[^\\/]+\.md$/;

export type SkillDocKind = 'skill' | 'agent' | 'command' | 'hooks' | undefined;

/** What kind of file `fsPath` is; with `fs`, a plugin's `agents/*.md` is an agent too. */
export function skillDocKind(fsPath: string, fs?: FileSystem): SkillDocKind {
  if (path.basename(fsPath) === 'SKILL.md') return 'skill';
  if (AGENT_PATH.test(fsPath)) return 'agent';
  if (fs && ANY_AGENT_PATH.test(fsPath) && agentDirOf(fs, fsPath, undefined)?.plugin !== undefined) return 'agent';
  if (fs && HOOKS_PATH.test(fsPath) && pluginNameOf(fs, path.dirname(path.dirname(fsPath))) !== undefined) return 'hooks';
  if (COMMAND_PATH.test(fsPath)) return 'command';
  return undefined;
}

/** The validation context of a SKILL.md at `fsPath`, as discovery gives it (plugin, project folder). */
export function skillContextOf(fsPath: string, profile: Profile, fs: FileSystem, workspaceFolder: string | undefined): ValidationContext {
  const skillDir = path.dirname(fsPath);
  const rootDir = path.dirname(skillDir);
  // A plugin's `skills/<folder>/SKILL.md` (as discovery classifies roots): its `name` is also the command.
  const plugin = path.basename(rootDir) === 'skills' ? pluginNameOf(fs, path.dirname(rootDir)) : undefined;
  // A project skill's project folder (as discovery has it: not the home folder, whose `.claude` holds personal skills).
  const found = plugin === undefined ? projectOf(skillDir) : undefined;
  const project = found !== undefined && found !== os.homedir() ? found : undefined;
  return { profile, folderName: path.basename(skillDir), skillDir, rootDir, plugin, project, workspaceFolder };
}

/** The MCP servers in reach of a SKILL.md, command or agent file (for tool-name completion and hovers). */
export function mcpServersForDocument(fsPath: string, kind: SkillDocKind, fs: FileSystem, workspaceFolder: string | undefined): McpServersInReach | undefined {
  try {
    if (kind === 'skill') return mcpServersOf(fs, skillContextOf(fsPath, 'claude-code', fs, workspaceFolder));
    if (kind === 'command') return mcpServersOf(fs, commandContextOf(fsPath, 'claude-code'));
    if (kind === 'agent') {
      const at = agentDirOf(fs, fsPath, workspaceFolder);
      return at ? agentMcpLookup(fs, at)() : undefined;
    }
  } catch {
    // an unreadable .mcp.json names no servers
  }
  return undefined;
}

export interface SkillDocResult {
  kind: 'skill' | 'agent' | 'command' | 'hooks';
  problems: Problem[];
  parsed?: ParsedSkillMd;
  references: SkillReference[];
}

/** Validates a SKILL.md or agent file from its text; undefined for other files. `workspaceFolder`: the one holding it. */
export function validateDocumentText(
  fsPath: string,
  text: string,
  profile: Profile,
  fs: FileSystem,
  knownSkills: ReadonlySet<string> | undefined,
  workspaceFolder?: string,
): SkillDocResult | undefined {
  const kind = skillDocKind(fsPath, fs);
  if (kind === 'skill') {
    const r = validateSkillMd(text, skillContextOf(fsPath, profile, fs, workspaceFolder), fs);
    return { kind, problems: r.problems, parsed: r.parsed, references: r.references };
  }
  if (kind === 'command') {
    const r = validateCommandText(text, fsPath, profile, fs);
    return { kind, problems: r.problems, parsed: r.parsed, references: r.references };
  }
  if (kind === 'hooks') {
    const pluginRoot = path.dirname(path.dirname(fsPath));
    return { kind, problems: validatePluginHooksJson(text, pluginRoot, pluginNameOf(fs, pluginRoot) ?? path.basename(pluginRoot), fs), references: [] };
  }
  if (kind === 'agent') {
    const at = agentDirOf(fs, fsPath, workspaceFolder);
    const agent = validateAgentMd(text, fsPath, knownSkills, undefined, at ? { mcp: agentMcpLookup(fs, at) } : undefined);
    return { kind, problems: agent.problems, references: [] };
  }
  return undefined;
}
>>>>>>> runtime
