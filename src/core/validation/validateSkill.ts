/**
 * Every single-file rule over one SKILL.md text: the parser's own problems, the frontmatter rules (frontmatterRules.ts),
 * the body rules (bodyRules.ts) and the references (references/resolve.ts). bytes.ts is the same for bytes read from disk.
 */
import type { FileSystem } from '../base/fs';
import type { Problem } from '../base/types';
import { type Emit, severityFor } from '../base/rules';
import { detach } from '../base/text';
import { parseSkillMdDetailed, type DetailedParse } from '../skillmd/frontmatter';
import type { ParsedSkillMd, SkillReference, ValidationContext } from '../skillmd/model';
import { extractReferencesFrom } from '../references/markdown';
import { checkScriptPaths, resolveReferences } from '../references/resolve';
import { extractScriptCommands } from '../references/commands';
import { type BodyView, checkBody, stringBody } from './bodyRules';
import { checkFrontmatter } from './frontmatterRules';

/** What validating a SKILL.md gives. */
export interface SkillMdValidation {
  parsed: ParsedSkillMd;
  problems: Problem[];
  references: SkillReference[];
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
  for (const p of parsed.problems) emit(p.code, p, p.message, p.variant);
  if (parsed.data) checkFrontmatter(detail, ctx, emit);
  if (body && (parsed.hasFrontmatter ? parsed.frontmatterClosed : true)) checkBody(body, parsed.bodyStartLine, emit);
  let references: SkillReference[] = [];
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
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { parsed, problems, references };
}

