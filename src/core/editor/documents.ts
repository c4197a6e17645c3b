/**
 * Which documents are skills, agents or commands, and their single-file validation: shared by the VS Code extension's
 * diagnostics and editor features and by the language server (src/lsp).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Profile } from '../base/types';
import type { ParsedSkillMd, SkillReference } from '../skillmd/model';
import { validateSkillMd } from '../validation/validateSkill';
import { validateAgentMd } from '../agents/agents';
import { pluginNameOf } from '../discovery/plugins';
import { projectOf } from '../discovery/paths';
import { validateCommandText } from '../discovery/load';

/** The file patterns of the documents the language features apply to (the extension's selector, docs/editors.md). */
export const SKILL_DOCUMENT_PATTERNS: readonly string[] = ['**/SKILL.md', '**/.claude/agents/*.md', '**/.claude/commands/**/*.md'];

const AGENT_PATH = /[\\/]\.claude[\\/]agents[\\/][^\\/]+\.md$/;
const COMMAND_PATH = /[\\/]\.claude[\\/]commands[\\/](?:[^\\/]+[\\/])*[^\\/]+\.md$/;

export type SkillDocKind = 'skill' | 'agent' | 'command' | undefined;

export function skillDocKind(fsPath: string): SkillDocKind {
  if (path.basename(fsPath) === 'SKILL.md') return 'skill';
  if (AGENT_PATH.test(fsPath)) return 'agent';
  if (COMMAND_PATH.test(fsPath)) return 'command';
  return undefined;
}

export interface SkillDocResult {
  kind: 'skill' | 'agent' | 'command';
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
  const kind = skillDocKind(fsPath);
  if (kind === 'skill') {
    const skillDir = path.dirname(fsPath);
    const rootDir = path.dirname(skillDir);
    // A plugin's `skills/<folder>/SKILL.md` (as discovery classifies roots): its `name` is also the command.
    const plugin = path.basename(rootDir) === 'skills' ? pluginNameOf(fs, path.dirname(rootDir)) : undefined;
    // A project skill's project folder (as discovery has it: not the home folder, whose `.claude` holds personal skills).
    const found = plugin === undefined ? projectOf(skillDir) : undefined;
    const project = found !== undefined && found !== os.homedir() ? found : undefined;
    const personal = found !== undefined && found === os.homedir() ? true : undefined;
    const r = validateSkillMd(text, { profile, folderName: path.basename(skillDir), skillDir, rootDir, plugin, project, workspaceFolder, personal }, fs);
    return { kind, problems: r.problems, parsed: r.parsed, references: r.references };
  }
  if (kind === 'command') {
    const r = validateCommandText(text, fsPath, profile, fs);
    return { kind, problems: r.problems, parsed: r.parsed, references: r.references };
  }
  if (kind === 'agent') {
    const agent = validateAgentMd(text, fsPath, knownSkills);
    return { kind, problems: agent.problems, references: [] };
  }
  return undefined;
}
