/**
 * The fixes of SKILL.md, command and agent problems, computed once for every surface: the editor's quick fixes and "Fix all Skillflow
 * problems" (src/extension/skills/quickFixes.ts, ruleFixes.ts) and `skillflow validate --fix` / `--fix-dry-run`
 * (src/cli/commands/validate.ts). A fix is a list of text edits in core coordinates (1-based, exclusive endColumn,
 * over the text without its BOM); `certain` fixes are the ones "Fix all" and `--fix` apply: they write what the
 * problem's message asks for and nothing the author has to fill in (a placeholder description is offered, never
 * applied). A description over the length limit is never trimmed: its fix only selects the text.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Range } from '../base/types';
import type { FrontmatterKey } from '../skillmd/model';
import { LineIndex } from '../base/text';
import { type DetailedParse, flowThenText, parseSkillMd, parseSkillMdDetailed } from '../skillmd/frontmatter';
import { checkToolEntry } from '../claude/tools';
import { AGENT_TOOL_KEYS } from '../agents/agents';
import { toolEntryAt } from '../validation/toolRules';
import { mcpServersForDocument, skillDocKind } from '../editor/documents';
import { checkSkillName, suggestSkillName } from '../skillmd/names';
import { DESCRIPTION_MAX } from '../validation/frontmatterRules';
import { findDisableComments } from '../config/ruleConfig';

/** Replace `range` with `newText` (an empty range inserts). */
export interface TextEdit {
  range: Range;
  newText: string;
}

/** A file to create (its folders too) with `content`; never one that exists. */
export interface CreateFileEdit {
  /** Absolute path. */
  path: string;
  content: string;
}

export interface Fix {
  /** The rule code of the problem it fixes. */
  code: string;
  /** The problem it fixes. */
  problem: Problem;
  /** What the editor shows ("Quote the value"). */
  title: string;
  /** The edits; empty for a fix that only selects `reveal` for the author or only creates files. */
  edits: TextEdit[];
  /**
   * Files the fix creates (a missing reference target). Applied by the editor and the language server only: such a
   * fix is never `certain`, so Fix all and `validate --fix` leave it.
   */
  createFiles?: CreateFileEdit[];
  /** A range to select and show instead of editing (the over-long description). */
  reveal?: Range;
  /** The only edit offered for its problem: the editor marks it preferred, and Fix all considers only these. */
  preferred: boolean;
  /** Applied by Fix all and `validate --fix`: the result is what the problem asks for, with nothing left to fill in. */
  certain: boolean;
}

export const DESCRIPTION_PLACEHOLDER = 'TODO describe what this skill does and when to use it';

/** A YAML plain scalar that contains `: ` (or starts with a YAML indicator) as a single-quoted scalar. */
export function yamlSingleQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The text without a leading byte order mark (core ranges are over that text). */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offset of a 1-based line/column in the text of `lines` (clamped to the line and the text). */
function offsetOf(lines: LineIndex, line: number, column: number): number {
  if (line > lines.lineCount) return lines.text.length;
  const i = Math.max(0, line - 1);
  return Math.min(lines.lineEnd(i), lines.starts[i] + Math.max(0, column - 1));
}

/** `key: a: b` → `key: 'a: b'` on the problem's line (or the line above). */
function quoteValue(lines: LineIndex, p: Problem): Omit<Fix, 'problem' | 'preferred'> | undefined {
  for (const lineNo of [p.line - 1, p.line - 2]) {
    if (lineNo < 0 || lineNo >= lines.lineCount) continue;
    const text = lines.lineText(lineNo);
    const m = /^(\s*[A-Za-z0-9_-]+:[ \t]+)(.*?)\s*$/.exec(text);
    if (!m) continue;
    const value = m[2];
    if (/^['"|>]/.test(value)) continue;
    if (!value.includes(': ') && !value.endsWith(':') && !flowThenText(value)) continue;
    const range = { line: lineNo + 1, column: m[1].length + 1, endLine: lineNo + 1, endColumn: m[1].length + value.length + 1 };
    return { code: p.code, title: 'Quote the value', edits: [{ range, newText: yamlSingleQuote(value) }], certain: true };
  }
  return undefined;
}

/**
 * The edit that deletes a top-level frontmatter key with its value (whole lines, a block value's too), or undefined
 * when the frontmatter is not closed or the key shares a line with another key (a flow mapping).
 */
export function removeKeyEdit(detail: DetailedParse, key: FrontmatterKey): TextEdit | undefined {
  const { parsed, lines } = detail;
  if (!parsed.frontmatterClosed) return undefined;
  const first = key.keyRange.line;
  const end = key.valueRange ?? key.keyRange;
  // A range ending at column 1 ends with the line break before it.
  const last = end.endColumn === 1 && end.endLine > first ? end.endLine - 1 : end.endLine;
  if (first < parsed.frontmatterStartLine || last >= parsed.bodyStartLine - 1) return undefined;
  if (lines.lineText(first - 1).slice(0, key.keyRange.column - 1).trim() !== '') return undefined;
  if (parsed.keys.some((k) => k !== key && k.keyRange.line >= first && k.keyRange.line <= last)) return undefined;
  return { range: { line: first, column: 1, endLine: last + 1, endColumn: 1 }, newText: '' };
}

/**
 * "Create <target>" for a link or path of a SKILL.md to a missing file of its own skill (the message says "does not
 * exist in this skill", without a letter-case hint, which would mean a typo rather than a file to write): the file,
 * with a heading for markdown, inside the skill folder. Not offered for a path out of the skill or one that exists.
 */
function createReferenceFix(file: string, p: Problem, fs: FileSystem | undefined): FoundFix | undefined {
  const target = /^'([^']+)' does not exist in this skill$/.exec(p.message)?.[1];
  if (target === undefined || /[\\%]/.test(target) || path.posix.isAbsolute(target) || /^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const skillDir = path.dirname(file);
  const created = path.resolve(skillDir, ...target.split('/'));
  const rel = path.relative(skillDir, created);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || target.endsWith('/')) return undefined;
  if (fs?.lstat(created)) return undefined;
  const base = path.basename(created);
  const content = /\.(md|markdown)$/i.test(base) ? `# ${base.replace(/\.[^.]+$/, '')}\n` : '';
  return { code: p.code, title: `Create ${rel.split(path.sep).join('/')}`, edits: [], createFiles: [{ path: created, content }], certain: false };
}

/**
 * "Change to '<path>'" for a reference whose message names the path that exists (`; did you mean '../../agents/x.md'?`):
 * the target as written is replaced where the problem's range holds exactly it. A guess: offered, not applied by Fix all.
 */
function meantPathFix(source: string, lines: LineIndex, p: Problem): FoundFix | undefined {
  const target = /^'([^']+)'/.exec(p.message)?.[1];
  const meant = /; did you mean '([^']+)'\?/.exec(p.message)?.[1];
  if (target === undefined || meant === undefined || /[\\%]/.test(target) || p.line !== p.endLine) return undefined;
  if (source.slice(offsetOf(lines, p.line, p.column), offsetOf(lines, p.endLine, p.endColumn)) !== target) return undefined;
  const range = { line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn };
  return { code: p.code, title: `Change to '${meant}'`, edits: [{ range, newText: meant }], certain: false };
}

/** Where the file lives, for fixes that depend on it: a plugin's agent is known by `fs`, the MCP servers in reach too. */
export interface FixEnvironment {
  fs?: FileSystem;
  /** The workspace folder holding the file (an agent's project `.mcp.json`). */
  workspaceFolder?: string;
}

/** A fix before its problem is attached; `preferred: false` keeps a lone fix from being the preferred one. */
type FoundFix = Omit<Fix, 'problem' | 'preferred'> & { preferred?: false };

/**
 * The certain fixes of a tools list (a skill's or command's `allowed-tools`, an agent's `tools`): the replacement
 * checkToolEntry gives for the entry under a `tool-unknown` / `tool-rule-invalid` problem (`web_fetch` → `WebFetch`),
 * and the key rename of `agent-tools-key` (`allowed-tools` → `tools` in an agent file).
 */
function toolFix(source: string, lines: LineIndex, detail: DetailedParse, p: Problem, kind: 'skill' | 'agent' | 'command', file: string, env: FixEnvironment | undefined): FoundFix | undefined {
  const range: Range = { line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn };
  if (p.code === 'agent-tools-key') {
    if (kind !== 'agent') return undefined;
    const skillKey = source.slice(offsetOf(lines, range.line, range.column), offsetOf(lines, range.endLine, range.endColumn));
    const agentKey = AGENT_TOOL_KEYS.find(([k]) => k === skillKey)?.[1];
    if (!agentKey || detail.parsed.keys.some((k) => k.key === agentKey)) return undefined;
    return { code: p.code, title: `Rename '${skillKey}' to '${agentKey}'`, edits: [{ range, newText: agentKey }], certain: true };
  }
  if (p.code !== 'tool-unknown' && p.code !== 'tool-rule-invalid') return undefined;
  const found = toolEntryAt(detail, kind === 'agent' ? 'agent' : 'skill', p.line, p.column);
  // Only when the problem is on exactly that entry (not the whole value of a list Skillflow could not map).
  const r = found?.entry.range;
  if (!found || !r || r.line !== range.line || r.column !== range.column || r.endLine !== range.endLine || r.endColumn !== range.endColumn) return undefined;
  const mcp = found.entry.text.startsWith('mcp__') && env?.fs ? mcpServersForDocument(file, kind, env.fs, env.workspaceFolder) : undefined;
  const replacement = checkToolEntry(found.entry.text, found.list, mcp)?.replacement;
  if (!replacement) return undefined;
  return { code: p.code, title: `Change to '${replacement}'`, edits: [{ range, newText: replacement }], certain: true };
}

/**
 * The fixes for `problems` of the SKILL.md, command or agent `file` whose text is `text`, in the order of the problems
 * (each problem's fixes together). Problems of other files and of codes without a fix get none. `env.fs` tells a
 * plugin's agent files from other markdown and finds the MCP servers an `mcp__` entry is checked against.
 */
export function skillFixes(text: string, file: string, problems: readonly Problem[], env?: FixEnvironment): Fix[] {
  const kind = skillDocKind(file, env?.fs) ?? 'skill';
  if (kind === 'hooks') return [];
  const source = withoutBom(text);
  const lines = new LineIndex(source);
  const detail = parseSkillMdDetailed(text);
  const parsed = detail.parsed;
  const keyOf = (name: string) => parsed.keys.find((k) => k.key === name);
  const folderName = path.basename(path.dirname(file));
  const out: Fix[] = [];
  for (const p of problems) {
    if (p.file !== undefined && p.file !== file) continue;
    const found: FoundFix[] = [];
    const tool = toolFix(source, lines, detail, p, kind, file, env);
    if (tool) found.push(tool);
    // Quoting a value is YAML's own fix: a command's or agent's frontmatter as a SKILL.md's (the message says it).
    if (p.code === 'yaml-syntax') {
      const f = quoteValue(lines, p);
      if (f) found.push(f);
    }
    // The other fixes are a SKILL.md's.
    if (kind === 'skill') switch (p.code) {
      case 'name-dir-mismatch': {
        const name = keyOf('name');
        if (name?.valueRange && checkSkillName(folderName, { allowReserved: true }) === undefined) {
          found.push({ code: p.code, title: `Rename to '${folderName}' (the folder name)`, edits: [{ range: name.valueRange, newText: folderName }], certain: true });
        }
        break;
      }
      case 'name-case':
      case 'name-charset':
      case 'name-hyphen': {
        const name = keyOf('name');
        if (name?.valueRange && typeof name.value === 'string') {
          // The same suggestion the problem's message names ("Rename to 'cafe'").
          const kebab = suggestSkillName(name.value);
          if (kebab && kebab !== name.value) {
            found.push({ code: p.code, title: `Convert to kebab-case: '${kebab}'`, edits: [{ range: name.valueRange, newText: kebab }], certain: true });
          }
        }
        break;
      }
      case 'description-angle-brackets': {
        const desc = keyOf('description');
        if (desc?.valueRange) {
          const r = desc.valueRange;
          const was = source.slice(offsetOf(lines, r.line, r.column), offsetOf(lines, r.endLine, r.endColumn));
          found.push({ code: p.code, title: 'Remove angle brackets from the description', edits: [{ range: r, newText: was.replace(/[<>]/g, '') }], certain: true });
        }
        break;
      }
      case 'description-missing': {
        if (parsed.hasFrontmatter) {
          const name = keyOf('name');
          // 0-based line after the name (or after the opening fence): the new key goes there.
          const afterLine = name ? (name.valueRange ?? name.keyRange).endLine : parsed.frontmatterStartLine - 1;
          const at = { line: afterLine + 1, column: 1, endLine: afterLine + 1, endColumn: 1 };
          // A placeholder: offered, never applied by Fix all.
          found.push({ code: p.code, title: 'Add a description', edits: [{ range: at, newText: `description: ${DESCRIPTION_PLACEHOLDER}\n` }], certain: false });
        }
        break;
      }
      case 'script-source-path': {
        // The message names the path to write ("Write '${CLAUDE_SKILL_DIR}/scripts/c.py': …"); the range is the path.
        const written = /^Write '([^']+)'/.exec(p.message)?.[1];
        if (written !== undefined) {
          const range = { line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn };
          found.push({ code: p.code, title: `Write '${written}'`, edits: [{ range, newText: written }], certain: true });
        }
        break;
      }
      case 'unknown-key': {
        // Offered, never applied by Fix all: a key Skillflow does not know may be one a newer Claude Code reads.
        const key = parsed.keys.find((k) => k.keyRange.line === p.line && k.keyRange.column === p.column);
        const edit = key && removeKeyEdit(detail, key);
        // Not preferred either: Auto Fix (one keystroke) must not delete it.
        if (key && edit) found.push({ code: p.code, title: `Remove '${key.key}'`, edits: [edit], certain: false, preferred: false });
        break;
      }
      case 'reference-missing':
      case 'reference-outside': {
        const meant = meantPathFix(source, lines, p);
        if (meant) found.push(meant);
        const create = p.code === 'reference-missing' ? createReferenceFix(file, p, env?.fs) : undefined;
        if (create) found.push(create);
        break;
      }
      case 'description-length': {
        const desc = keyOf('description');
        if (desc?.valueRange) {
          found.push({ code: p.code, title: `Open description (shorten it to ${DESCRIPTION_MAX} characters)`, edits: [], reveal: desc.valueRange, certain: false });
        }
        break;
      }
    }
    const preferred = found.length === 1 && found[0].preferred !== false && (found[0].edits.length > 0 || (found[0].createFiles?.length ?? 0) > 0);
    for (const f of found) out.push({ ...f, problem: p, preferred });
  }
  return out;
}

function before(a: { line: number; column: number }, b: { line: number; column: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

/** Two edits that cannot both apply: their ranges share a character, or both insert at one position (a duplicate too). */
export function editsOverlap(a: Range, b: Range): boolean {
  const aEmpty = a.line === a.endLine && a.column === a.endColumn;
  const bEmpty = b.line === b.endLine && b.column === b.endColumn;
  if (aEmpty && bEmpty) return a.line === b.line && a.column === b.column;
  const aEnd = { line: a.endLine, column: a.endColumn };
  const bEnd = { line: b.endLine, column: b.endColumn };
  return before(a, bEnd) && before(b, aEnd);
}

/**
 * What "Fix all" applies to a file: the edits of every preferred, certain fix of its problems, without overlaps (the
 * first fix wins, as with two fixes of one name).
 */
export function fixAllEdits(text: string, file: string, problems: readonly Problem[], env?: FixEnvironment): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const f of skillFixes(text, file, problems, env)) {
    if (!f.preferred || !f.certain) continue;
    for (const e of f.edits) if (!edits.some((x) => editsOverlap(x.range, e.range))) edits.push(e);
  }
  return edits;
}

/**
 * The text with non-overlapping `edits` applied (a leading BOM is kept; ranges are over the text without it).
 * Everything outside the edits stays byte for byte: line breaks, indentation, the rest of the file.
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const lines = new LineIndex(bom ? text.slice(1) : text);
  const located = edits
    .map((e) => ({ start: offsetOf(lines, e.range.line, e.range.column), end: offsetOf(lines, e.range.endLine, e.range.endColumn), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = lines.text;
  for (const e of located) out = out.slice(0, e.start) + e.newText + out.slice(Math.max(e.start, e.end));
  return bom + out;
}

/**
 * The edit behind "Disable <code> for this file": `code` added to the file's `skillflow-disable` comment, or a new
 * comment on the first line after the frontmatter (line 1 without one), with the file's line break. Undefined when the
 * comment names it already or the frontmatter is not closed (the file has no body to hold it).
 */
export function disableForFileEdit(text: string, code: string): TextEdit | undefined {
  const lines = new LineIndex(withoutBom(text));
  const existing = findDisableComments(text).find((c) => !c.nextLine);
  if (existing) {
    if (existing.codes.includes(code)) return undefined;
    // Just before the closing `-->`.
    const at = { line: existing.range.endLine, column: existing.range.endColumn - 3 };
    const before = lines.lineText(at.line - 1).charAt(at.column - 2);
    return { range: { ...at, endLine: at.line, endColumn: at.column }, newText: before === ' ' ? `${code} ` : ` ${code} ` };
  }
  const parsed = parseSkillMd(text);
  if (parsed.hasFrontmatter && !parsed.frontmatterClosed) return undefined;
  const eol = lines.text.includes('\r\n') ? '\r\n' : '\n';
  const comment = `<!-- skillflow-disable ${code} -->`;
  const line = parsed.hasFrontmatter ? parsed.bodyStartLine : 1;
  if (line > lines.lineCount) {
    const last = lines.lineCount;
    const end = lines.lineEnd(last - 1) - lines.starts[last - 1] + 1;
    return { range: { line: last, column: end, endLine: last, endColumn: end }, newText: `${eol}${comment}` };
  }
  return { range: { line, column: 1, endLine: line, endColumn: 1 }, newText: `${comment}${eol}` };
}
