/**
 * Every single-file rule over one SKILL.md text: the parser's own problems, the frontmatter rules (frontmatterRules.ts),
 * the body rules (bodyRules.ts) and the references (references/resolve.ts). bytes.ts is the same for bytes read from disk.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { mcpServersInReach } from '../claude/mcp';
import type { McpServersInReach } from '../claude/tools';
import type { Problem } from '../base/types';
import { type Emit, severityFor } from '../base/rules';
import { detach } from '../base/text';
import { parseSkillMdDetailed, sayOnFirstYamlError, withoutSkillReaders, type DetailedParse } from '../skillmd/frontmatter';
import type { ParsedSkillMd, SkillReference, ValidationContext } from '../skillmd/model';
import { extractReferencesFrom } from '../references/markdown';
import { checkScriptPaths, resolveReferences } from '../references/resolve';
import { extractScriptCommands } from '../references/commands';
import { type BodyView, checkBody, stringBody } from './bodyRules';
import { checkFrontmatter } from './frontmatterRules';
import { findSkillMentions, type SkillMention } from './mentions';
import { checkFrontmatterHooks, skillHooksPlace } from './hookRules';

/** The MCP servers in reach of a skill or command: its project's and workspace's `.mcp.json`, its plugin's own servers. */
export function mcpServersOf(fs: FileSystem, ctx: ValidationContext): McpServersInReach | undefined {
  const pluginRoot = ctx.plugin !== undefined && ctx.rootDir !== undefined && path.basename(ctx.rootDir) === 'skills' ? path.dirname(ctx.rootDir) : undefined;
  try {
    return mcpServersInReach(fs, [ctx.project, ctx.workspaceFolder], pluginRoot !== undefined && ctx.plugin !== undefined ? { name: ctx.plugin, root: pluginRoot } : undefined);
  } catch {
    return undefined; // a broken file system adapter must not break validation of the text
  }
}

/** A line that tells Claude to invoke something as a skill ("invoke the x sub-skill", "use the Skill tool", "run the y skill"). */
const INVOKE = /\b(?:invoke|invoking|activate|trigger|launch)\b|\bskill tool\b|\b(?:use|run|call|load)\b[^.]{0,60}\b(?:sub-?)?skill\b/i;

/**
 * `subskill-not-loaded` on a reference to a SKILL.md that Claude Code never loads as a skill (inside
 * the skill's `references/` or any folder that is not a direct child of a skills folder), on a line that tells
 * Claude to invoke it: the Skill tool will not find it. A line that says to read it is fine.
 */
function checkSubSkillInvocations(references: readonly SkillReference[], body: BodyView, bodyStartLine: number, emit: Emit): void {
  for (const r of references) {
    if (!r.exists || !r.resolvedPath.endsWith('SKILL.md') || path.basename(r.resolvedPath) !== 'SKILL.md') continue;
    const dir = path.dirname(r.resolvedPath);
    if (path.basename(path.dirname(dir)) === 'skills') continue; // a skill of a skills folder: loaded
    const line = body.lines.lineText(body.first + (r.range.line - bodyStartLine));
    if (!INVOKE.test(line)) continue;
    emit('subskill-not-loaded', r.range, `Tell Claude to read ${r.target} instead, or move its folder into a skills folder: Claude Code never loads a SKILL.md that is not a direct child of a skills folder, so invoking it as a skill finds nothing`);
  }
}

/** What validating a SKILL.md gives. */
export interface SkillMdValidation {
  parsed: ParsedSkillMd;
  problems: Problem[];
  references: SkillReference[];
  /** Mentions of other skills and commands in the body (checked against what Claude Code loads by discovery). */
  mentions: SkillMention[];
}

/** Validates one SKILL.md text under `ctx.profile`; reference checks need `ctx.skillDir`. Never throws. */
export function validateSkillMd(text: string, ctx: ValidationContext, fs: FileSystem): SkillMdValidation {
  const detail = parseSkillMdDetailed(text);
  return validateParsed(detail, stringBody(detail), ctx, fs);
}

export function validateParsed(detail: DetailedParse, body: BodyView | undefined, ctx: ValidationContext, fs: FileSystem): SkillMdValidation {
  const { parsed } = detail;
  const problems: Problem[] = [];
  const emit: Emit = (code, range, message, variant) => {
    const severity = severityFor(code, ctx.profile, variant);
    if (severity) problems.push({ code, severity, message: detach(message), line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn });
  };
  for (const p of parsed.problems) emit(p.code, p, ctx.command ? withoutSkillReaders(p.message) : p.message, p.variant);
  if (ctx.profile === 'claude-code') {
    // What Claude Code does with a frontmatter that does not parse (docs/skills.md: "If the frontmatter YAML is
    // malformed, Claude Code loads the skill body with empty metadata"; a command file's frontmatter is a skill's).
    sayOnFirstYamlError(problems, detail.yamlFailed, ctx.command
      ? 'Claude Code then runs the command with none of its frontmatter: no description, argument-hint or allowed-tools'
      : "Claude Code then loads the skill with empty metadata: the folder's name, the body's first paragraph as the description, none of the other keys");
  }
  if (parsed.data) {
    // The MCP servers in reach are looked up only for a tools list that names an MCP tool (a new context only then).
    const namesMcp = !ctx.mcp && parsed.keys.some((k) => (k.key === 'allowed-tools' || k.key === 'disallowed-tools') && JSON.stringify(k.value ?? '').includes('mcp__'));
    checkFrontmatter(detail, namesMcp ? { ...ctx, mcp: () => mcpServersOf(fs, ctx) } : ctx, emit);
    if (severityFor('hook-invalid', ctx.profile)) {
      for (const k of parsed.keys) if (k.key === 'hooks') { checkFrontmatterHooks(detail, k, skillHooksPlace(fs, ctx), fs, emit); break; }
    }
  }
  if (body && (parsed.hasFrontmatter ? parsed.frontmatterClosed : true)) checkBody(body, parsed.bodyStartLine, emit, ctx.command);
  let references: SkillReference[] = [];
  const mentions = body && ctx.skillDir ? findSkillMentions(body, parsed.bodyStartLine) : [];
  if (ctx.skillDir && body) {
    try {
      const candidates = extractReferencesFrom(body.lines, body.first, parsed.bodyStartLine);
      const where = { skillDir: ctx.skillDir, rootDir: ctx.rootDir, project: ctx.project, workspaceFolder: ctx.workspaceFolder, command: ctx.command, personal: ctx.personal };
      references = resolveReferences(candidates, where, fs, emit);
      // A plugin skill's commands: only in a plugin, where they run from a copy of the plugin folder.
      if (ctx.plugin !== undefined && !ctx.command) checkScriptPaths(extractScriptCommands(body.lines, body.first, parsed.bodyStartLine), where, fs, emit);
    } catch {
      references = []; // a broken file system adapter must not break validation of the text
    }
  }
  if (body && references.length && severityFor('subskill-not-loaded', ctx.profile)) checkSubSkillInvocations(references, body, parsed.bodyStartLine, emit);
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { parsed, problems, references, mentions };
}

