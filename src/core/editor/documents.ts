/**
 * Which documents are skills, agents or commands, and their single-file validation: shared by the VS Code extension's
 * diagnostics and editor features and by the language server (src/lsp).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Profile } from '../base/types';
import type { ParsedSkillMd, SkillReference, ValidationContext } from '../skillmd/model';
import { mcpServersOf, validateSkillMd } from '../validation/validateSkill';
import { validatePluginHooksJson } from '../validation/hookRules';
import type { McpServersInReach } from '../claude/tools';
import { agentDirOf, agentMcpLookup, agentValidationOptions } from '../discovery/agents';
import { validateAgentMd } from '../agents/agents';
import { pluginNameOf } from '../discovery/plugins';
import { projectOf } from '../discovery/paths';
import { commandContextOf, validateCommandText } from '../discovery/load';

/**
 * The file patterns of the documents the language features apply to (the extension's selector, docs/editors.md).
 * The plugin agents pattern (any `agents` folder) takes a plugin's agents: skillDocKind checks that the folder above is a plugin.
 */
export const SKILL_DOCUMENT_PATTERNS: readonly string[] = ['**/SKILL.md', '**/.claude/agents/**/*.md', '**/agents/**/*.md', '**/.claude/commands/**/*.md'];

const AGENT_PATH = /[\\/]\.claude[\\/]agents[\\/](?:[^\\/]+[\\/])*[^\\/]+\.md$/;
/** A plugin's hooks file (validated as you type; skillDocKind checks that the folder above is a plugin). */
const HOOKS_PATH = /[\\/]hooks[\\/]hooks\.json$/;
const ANY_AGENT_PATH = /[\\/]agents[\\/](?:[^\\/]+[\\/])*[^\\/]+\.md$/;
const COMMAND_PATH = /[\\/]\.claude[\\/]commands[\\/](?:[^\\/]+[\\/])*[^\\/]+\.md$/;

export type SkillDocKind = 'skill' | 'agent' | 'command' | 'hooks' | undefined;

/** What kind of file `fsPath` is; with `fs`, a markdown file in a plugin's `agents` folder is an agent and its `hooks/hooks.json` a hooks file. */
export function skillDocKind(fsPath: string, fs?: FileSystem): SkillDocKind {
  if (path.basename(fsPath) === 'SKILL.md') return 'skill';
  if (AGENT_PATH.test(fsPath)) return 'agent';
  if (fs && ANY_AGENT_PATH.test(fsPath) && agentDirOf(fs, fsPath, undefined)?.plugin !== undefined) return 'agent';
  if (fs && HOOKS_PATH.test(fsPath) && pluginNameOf(fs, path.dirname(path.dirname(fsPath))) !== undefined) return 'hooks';
  if (COMMAND_PATH.test(fsPath)) return 'command';
  return undefined;
}

/** The validation context of a SKILL.md at `fsPath`, as discovery gives it (plugin, project folder, personal). */
export function skillContextOf(fsPath: string, profile: Profile, fs: FileSystem, workspaceFolder: string | undefined): ValidationContext {
  const skillDir = path.dirname(fsPath);
  const rootDir = path.dirname(skillDir);
  // A plugin's `skills/<folder>/SKILL.md` (as discovery classifies roots): its `name` is also the command.
  const plugin = path.basename(rootDir) === 'skills' ? pluginNameOf(fs, path.dirname(rootDir)) : undefined;
  // A project skill's project folder (as discovery has it: not the home folder, whose `.claude` holds personal skills).
  const found = plugin === undefined ? projectOf(skillDir) : undefined;
  const project = found !== undefined && found !== os.homedir() ? found : undefined;
  const personal = found !== undefined && found === os.homedir() ? true : undefined;
  return { profile, folderName: path.basename(skillDir), skillDir, rootDir, plugin, project, workspaceFolder, personal };
}

/** The MCP servers in reach of a SKILL.md, command or agent file (for tool-name completion, hovers and fixes). */
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

/** Validates a SKILL.md, command, agent or plugin hooks file from its text; undefined for other files. `workspaceFolder`: the one holding it. */
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
    const agent = validateAgentMd(text, fsPath, knownSkills, undefined, at ? agentValidationOptions(fs, at) : undefined);
    return { kind, problems: agent.problems, references: [] };
  }
  return undefined;
}
