/**
 * The editor features of skill, agent and command files in core terms (1-based lines and columns, markdown strings,
 * text edits): hover text, completion items, the problems an open document shows, and the `.skillflow.json` edit
 * of "disable in this workspace" (the "disable for this file" edit is core/fixes' disableForFileEdit). The VS Code providers (src/extension/skills) and the language server (src/lsp) only convert positions and
 * objects; what they show is decided here, once.
 */
import { modify } from 'jsonc-parser';
import { detectFormatting } from '../base/jsonFormat';
import type { Problem, Profile, Range } from '../base/types';
import { parseJson } from '../workflow/json';
import { LineIndex } from '../base/text';
import type { FileSystem } from '../base/fs';
import { claudeTools, type McpServersInReach, pluginServerSegment, toolEntryHover } from '../claude/tools';
import { parseSkillMdDetailed, type DetailedParse } from '../skillmd/frontmatter';
import { FRONTMATTER_KEYS, hasForkContext, keyInfo, type FrontmatterKeyInfo } from '../skillmd/keys';
import type { AgentEntry, ParsedSkillMd, SkillEntry } from '../skillmd/model';
import { TOOL_LIST_KEYS, toolEntryAt } from '../validation/toolRules';
import { mcpServersForDocument, type SkillDocKind } from './documents';
import { CLAUDE_CODES } from '../discovery/claudeWiring';
import { mdCode } from '../base/markdown';

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** True when the 1-based position lies inside the core range (end exclusive, but the end itself counts for hovers at a word end). */
export function rangeContains(r: Range, p: Position): boolean {
  if (p.line < r.line || p.line > r.endLine) return false;
  if (p.line === r.line && p.column < r.column) return false;
  if (p.line === r.endLine && p.column > r.endColumn) return false;
  return true;
}

/** 1-based line numbers of the frontmatter content (between the `---` lines); empty when there is none. */
export function frontmatterLines(parsed: ParsedSkillMd, lineCount: number): { first: number; last: number } | undefined {
  if (!parsed.hasFrontmatter) return undefined;
  const last = parsed.frontmatterClosed ? parsed.bodyStartLine - 2 : lineCount;
  return { first: parsed.frontmatterStartLine, last };
}

const AGENT_KEYS: Record<string, string> = {
  name: 'The agent\'s name (required).',
  description: 'When Claude should delegate to this agent (required).',
  tools: 'Tools the agent may use: a comma-separated string or a list. Omit to inherit all tools.',
  model: '`sonnet`, `opus`, `haiku`, `inherit`, or a full model id.',
  skills: 'Skills bound to this agent: each entry must name an existing skill.',
  capabilities: 'What the agent can do (free-form list).',
  constraints: 'What the agent must not do (free-form list).',
};

function profilesText(profiles: readonly string[]): string {
  return profiles.length ? profiles.map((p) => `\`${p}\``).join(', ') : 'none';
}

/** A key's value kind with its values, for hovers and completion details: `boolean: true | false | yes | …`. */
function valueSummary(info: FrontmatterKeyInfo): string {
  if (!info.values?.length) return info.type;
  const shown = info.values.map((v) => `\`${v}\``).join(' | ');
  return info.type === 'model' || info.key === 'agent' ? `${info.type}: ${shown} | …` : `${info.type}: ${shown}`;
}

/** Where a document lives: what finds the MCP servers in reach of its tools lists (`mcp__<server>` hovers and completion). */
export interface DocumentPlace {
  file: string;
  fs: FileSystem;
  /** The workspace folder holding the file (an agent's project `.mcp.json`). */
  workspaceFolder?: string;
}

/** `skill` for SKILL.md and command files, `agent` for agent files: which tools keys the file has. */
function toolKeysKind(kind: 'skill' | 'agent' | 'command'): 'skill' | 'agent' {
  return kind === 'agent' ? 'agent' : 'skill';
}

function mcpOf(kind: SkillDocKind, place: DocumentPlace | undefined): McpServersInReach | undefined {
  return place ? mcpServersForDocument(place.file, kind, place.fs, place.workspaceFolder) : undefined;
}

export interface HoverText {
  markdown: string;
  range: Range;
}

/**
 * The last text parsed for an editor feature, and its parse: a hover, a completion and a link request on one version
 * of a document (and the three kinds a caller may try) parse it once. Features only read a parse; ranges they return
 * are copies, so a caller cannot change it.
 */
let lastParse: { text: string; detail: DetailedParse } | undefined;
function parsedOnce(text: string): DetailedParse {
  if (lastParse === undefined || lastParse.text !== text) lastParse = { text, detail: parseSkillMdDetailed(text) };
  return lastParse.detail;
}

/**
 * The hover on a tools-list entry (what the tool does, its rule forms, what is wrong with the entry) or on a
 * frontmatter key (or on its value: the key's hover) of a skill, command or agent file. `place` finds the MCP servers
 * an `mcp__` entry is checked against.
 */
export function hoverAt(kind: SkillDocKind, text: string, at: Position, place?: DocumentPlace): HoverText | undefined {
  if (!kind || kind === 'hooks') return undefined;
  const detail = parsedOnce(text);
  const tool = toolEntryAt(detail, toolKeysKind(kind), at.line, at.column);
  if (tool) {
    const mcp = tool.entry.text.startsWith('mcp__') ? mcpOf(kind, place) : undefined;
    return { markdown: toolEntryHover(tool.entry.text, tool.list, mcp), range: { ...tool.entry.range } };
  }
  const parsed = detail.parsed;
  const key = parsed.keys.find((k) => rangeContains(k.keyRange, at))
    ?? parsed.keys.find((k) => k.valueRange && rangeContains(k.valueRange, at));
  if (!key) return undefined;
  if (kind === 'agent') {
    const doc = AGENT_KEYS[key.key];
    return { markdown: `**${mdCode(key.key)}** (agent)\n\n${doc ?? 'Not a key Claude Code reads in agent files.'}`, range: { ...key.keyRange } };
  }
  const info = keyInfo(key.key);
  if (!info) return { markdown: `**${mdCode(key.key)}** — not a known SKILL.md key.\n\nNo validation profile accepts it (\`unknown-key\`).`, range: { ...key.keyRange } };
  let md = `**\`${info.key}\`** · ${valueSummary(info)}\n\n${info.doc}\n\n`;
  if (info.requiresFork && !hasForkContext(parsed.data)) {
    md += `This file has no \`context: fork\`: Claude Code ignores \`${info.key}\` here (\`field-invalid\`).\n\n`;
  }
  md += `Accepted by profiles: ${profilesText(info.profiles)}`;
  return { markdown: md, range: { ...key.keyRange } };
}

export interface CompletionEntry {
  label: string;
  /** A frontmatter key, a key's value, a Claude Code tool, an `mcp__<server>` entry. */
  kind: 'key' | 'value' | 'tool' | 'server';
  /** Text inserted in place of `range`. */
  insertText: string;
  /** What the completion replaces (on one line). */
  range: Range;
  detail: string;
  documentation?: string;
  sortText: string;
  /** A key the active profile does not accept (shown struck through). */
  deprecated: boolean;
  /** Completion should be asked again after inserting (the key has values to offer). */
  retrigger: boolean;
}

/** The tools key a frontmatter line belongs to: `key: …` on the line itself, or a list item under it. */
function toolsKeyOfLine(index: LineIndex, line: number, before: string, kind: 'skill' | 'agent'): string | undefined {
  const keys = TOOL_LIST_KEYS[kind];
  const own = /^([A-Za-z_-]+):/.exec(before);
  if (own) return Object.prototype.hasOwnProperty.call(keys, own[1]) ? own[1] : undefined;
  if (!/^\s+-\s/.test(before) && !/^\s+-$/.test(before)) return undefined;
  for (let i = line - 2; i >= 0; i--) {
    const text = index.lineText(i);
    if (/^\s/.test(text) || text.trim() === '') continue;
    const m = /^([A-Za-z_-]+):\s*$/.exec(text);
    return m && Object.prototype.hasOwnProperty.call(keys, m[1]) ? m[1] : undefined;
  }
  return undefined;
}

/**
 * Completion of a tools-list entry (a skill's or command's `allowed-tools` / `disallowed-tools`, an agent's `tools` /
 * `disallowedTools`): Claude Code's tools, then `mcp__<server>` for each server in reach. Undefined off a tools key.
 */
function toolCompletions(kind: 'skill' | 'agent' | 'command', index: LineIndex, at: Position, before: string, place: DocumentPlace | undefined): CompletionEntry[] | undefined {
  const key = toolsKeyOfLine(index, at.line, before, toolKeysKind(kind));
  if (!key) return undefined;
  const own = before.startsWith(`${key}:`);
  const value = own ? before.slice(key.length + 1) : before.replace(/^\s+-/, '');
  if (own && value.trim() === '' && !/\s$/.test(value)) return undefined; // right after the colon: a space comes first
  // The entry being typed: after the last comma or space outside parentheses.
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ch === ',' || /\s/.test(ch) || ch === '[' || ch === '"' || ch === "'")) start = i + 1;
  }
  if (depth > 0) return undefined; // inside a specifier
  const prefix = value.slice(start);
  const range: Range = { line: at.line, column: at.column - prefix.length, endLine: at.line, endColumn: at.column };
  const items: CompletionEntry[] = claudeTools().map((t, i) => ({
    label: t.name, kind: 'tool', insertText: t.name, range,
    detail: `Claude Code tool · ${t.permissionRequired ? 'asks for permission' : 'no permission needed'}`,
    documentation: toolEntryHover(t.name, 'allow'),
    sortText: `1${String(i).padStart(3, '0')}`, deprecated: false, retrigger: false,
  }));
  const mcp = mcpOf(kind, place);
  const servers = mcp ? [...mcp.configured, ...(mcp.plugin ? [...mcp.plugin.servers].map((s) => pluginServerSegment(mcp.plugin!.name, s)) : [])] : [];
  for (const server of [...new Set(servers)].sort()) {
    items.push({
      label: `mcp__${server}`, kind: 'server', insertText: `mcp__${server}`, range, detail: 'every tool of this MCP server',
      sortText: prefix.startsWith('m') ? `0${server}` : `2${server}`, deprecated: false, retrigger: false,
    });
  }
  return items;
}

/**
 * Completion of tool names in a tools list (skill, command and agent files; `place` adds the `mcp__<server>` entries
 * in reach), of frontmatter keys (at a line start) and of a key's values (after `key: `) in a SKILL.md or command file.
 */
export function completionsAt(kind: SkillDocKind, text: string, at: Position, profile: Profile, place?: DocumentPlace): CompletionEntry[] | undefined {
  if (kind !== 'skill' && kind !== 'command' && kind !== 'agent') return undefined;
  const parsed = parsedOnce(text).parsed;
  const index = new LineIndex(text);
  const lines = frontmatterLines(parsed, index.lineCount);
  if (!lines || at.line < lines.first || at.line > lines.last) return undefined;
  const lineStart = index.starts[at.line - 1];
  // A position past the line's end (a client may send one) is taken as its end: every range given stays in the line.
  const column = Math.min(at.column, index.lineEnd(at.line - 1) - lineStart + 1);
  const before = text.slice(lineStart, lineStart + column - 1);
  at = { line: at.line, column };
  const tools = toolCompletions(kind, index, at, before, place);
  if (tools) return tools;
  if (kind === 'agent') return undefined;

  const keyMatch = /^([A-Za-z_-]*)$/.exec(before);
  if (keyMatch) {
    const present = new Set(parsed.keys.filter((k) => k.keyRange.line !== at.line).map((k) => k.key));
    const range: Range = { line: at.line, column: 1, endLine: at.line, endColumn: at.column };
    return FRONTMATTER_KEYS.filter((k) => !present.has(k.key)).map((k, i) => ({
      label: k.key,
      kind: 'key',
      insertText: `${k.key}: `,
      range,
      detail: `${k.type} · ${k.profiles.join(', ')}${k.requiresFork ? ' · only with context: fork' : ''}`,
      documentation: k.doc,
      // Keys the active profile accepts sort first, spec keys in their documented order.
      sortText: `${k.profiles.includes(profile) ? '0' : '1'}${String(i).padStart(3, '0')}`,
      deprecated: !k.profiles.includes(profile),
      retrigger: Boolean(k.values?.length),
    }));
  }

  const valueMatch = /^([A-Za-z_-]+):[ \t]*(\S*)$/.exec(before);
  if (valueMatch) {
    // The key table's values: Claude Code's boolean words, /model values, effort levels, built-in agent types.
    const values = keyInfo(valueMatch[1])?.values ?? [];
    const range: Range = { line: at.line, column: at.column - valueMatch[2].length, endLine: at.line, endColumn: at.column };
    return values.map((v, i) => ({
      label: v, kind: 'value', insertText: v, range, detail: `${valueMatch[1]} value`, sortText: String(i).padStart(3, '0'), deprecated: false, retrigger: false,
    }));
  }
  return undefined;
}

/**
 * Cross-skill problems come from the index; the single-file validation of an open document cannot see them: the codes
 * Claude Code's model sets (claudeWiring) and `skill-md-case` (discovery).
 */
export const CROSS_SKILL_CODES: ReadonlySet<string> = new Set([...CLAUDE_CODES, 'skill-md-case']);

/** Cross-file problems of an agent file that only the index sees (two files of one agents folder with one name). */
const CROSS_AGENT_CODES: ReadonlySet<string> = new Set(['agent-duplicate-name']);

/** What the index knows about an open file that its own validation cannot see (the cross-skill and cross-agent codes). */
export function indexProblemsFor(index: { loaded: boolean; skillByFile(file: string): SkillEntry | undefined; readonly agents: readonly AgentEntry[] }, file: string): Problem[] {
  if (!index.loaded) return [];
  const entry = index.skillByFile(file);
  if (entry) return entry.problems.filter((p) => CROSS_SKILL_CODES.has(p.code) && (!p.file || p.file === entry.skillMdPath));
  const agent = index.agents.find((a) => a.path === file);
  return agent ? agent.problems.filter((p) => CROSS_AGENT_CODES.has(p.code)) : [];
}

/** What a file's problems show (two equal signatures publish the same markers). */
export function problemsSignature(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.code}|${p.severity}|${p.line}:${p.column}-${p.endLine}:${p.endColumn}|${p.message}`).join('\n');
}

export type RuleOffEdit = { ok: true; edits: { offset: number; length: number; content: string }[] } | { ok: false; reason: string };

/**
 * The edits that set `rules.<code>` to `off` in a `.skillflow.json` text ("Disable <code> in this workspace"), made
 * with jsonc-parser so the file keeps its layout; an empty text becomes a new file. A text that is not JSON, or
 * whose `rules` is not an object, is never rewritten: the reason says why.
 */
export function ruleOffEdits(text: string, code: string): RuleOffEdit {
  if (text.trim() === '') return { ok: true, edits: [{ offset: 0, length: text.length, content: newRuleConfigText(code) }] };
  const parsed = parseJson(text);
  const root = parsed.ok ? parsed.value : undefined;
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!parsed.ok) return { ok: false, reason: `is not valid JSON (${parsed.message})` };
  if (!isObject(root) || ('rules' in (root as object) && !isObject((root as { rules: unknown }).rules))) return { ok: false, reason: 'does not hold an object with a "rules" object' };
  // A new "rules" goes first: the formatter then touches only the lines it adds (appending would reformat the last property's line).
  const hasRules = 'rules' in (root as object);
  const edits = modify(text, ['rules', code], 'off', { getInsertionIndex: hasRules ? undefined : () => 0, formattingOptions: detectFormatting(text) });
  return { ok: true, edits };
}

/** A new `.skillflow.json` that turns `code` off. */
export function newRuleConfigText(code: string): string {
  return `${JSON.stringify({ rules: { [code]: 'off' } }, null, 2)}\n`;
}

/** The token under a 1-based position that matches `re` (global), with its range. */
function tokenAt(text: string, at: Position, re: RegExp): { match: RegExpExecArray; range: Range } | undefined {
  const index = new LineIndex(text);
  if (at.line < 1 || at.line > index.lineCount) return undefined;
  const start = index.starts[at.line - 1];
  const lineText = text.slice(start, index.lineEnd(at.line - 1));
  for (let m = re.exec(lineText); m; m = re.exec(lineText)) {
    const column = m.index + 1;
    if (at.column >= column && at.column <= column + m[0].length) {
      re.lastIndex = 0;
      return { match: m, range: { line: at.line, column, endLine: at.line, endColumn: column + m[0].length } };
    }
  }
  return undefined;
}

/** The skill an agent file's `skills:` entry under the position names (`name` or `plugin:name`), with its range. */
export function agentSkillAt(text: string, at: Position): { name: string; range: Range } | undefined {
  const parsed = parsedOnce(text).parsed;
  const i = parsed.keys.findIndex((k) => k.key === 'skills');
  if (i < 0) return undefined;
  const key = parsed.keys[i];
  const next = parsed.keys.slice(i + 1).find((k) => k.keyRange.line > key.keyRange.line);
  const lastLine = next ? next.keyRange.line - 1 : frontmatterLines(parsed, new LineIndex(text).lineCount)?.last ?? key.keyRange.line;
  if (at.line < key.keyRange.line || at.line > lastLine) return undefined;
  if (at.line === key.keyRange.line && at.column <= key.keyRange.endColumn) return undefined;
  const found = tokenAt(text, at, /[A-Za-z0-9][A-Za-z0-9_.:-]*/g);
  return found && { name: found.match[0], range: found.range };
}

/** A `/command` mention under the position (`/deploy`, `/plugin:skill`), not part of a path or URL. */
export function commandMentionAt(text: string, at: Position): { command: string; range: Range } | undefined {
  const found = tokenAt(text, at, /(?<![\w/.:~-])\/[a-z0-9][a-z0-9_:.-]*(?![\w/])/gi);
  if (!found) return undefined;
  const command = found.match[0].replace(/[.:]+$/, '');
  return { command, range: { ...found.range, endColumn: found.range.column + command.length } };
}
