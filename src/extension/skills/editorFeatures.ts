/** Hovers on frontmatter keys, completion of keys and values (both computed in core/editor/features), and document links for references in SKILL.md. */
import * as path from 'node:path';
import * as vscode from 'vscode';
<<<<<<< HEAD
import { completionsAt, hoverAt } from '../../core/editor/features';
import { fromVsPosition, toVsRange } from '../adapters/ranges';
=======
import { FRONTMATTER_KEYS, hasForkContext, keyInfo, type FrontmatterKeyInfo } from '../../core/skillmd/keys';
import { parseSkillMd, parseSkillMdDetailed } from '../../core/skillmd/frontmatter';
import { claudeTools, type McpServersInReach, pluginServerSegment, toolEntryHover } from '../../core/claude/tools';
import { TOOL_LIST_KEYS, toolEntryAt } from '../../core/validation/toolRules';
import type { ParsedSkillMd } from '../../core/skillmd/model';
import { fromVsPosition, rangeContains, toVsRange } from '../adapters/ranges';
>>>>>>> runtime
import type { SkillsService } from './service';
import { mcpServersForDocument, SKILL_DOCUMENTS, skillDocKind, validateDocumentText } from './documents';

<<<<<<< HEAD
=======
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

/** `skill` for SKILL.md and command files, `agent` for agent files: which tools keys the file has. */
function toolKeysKind(kind: 'skill' | 'agent' | 'command'): 'skill' | 'agent' {
  return kind === 'agent' ? 'agent' : 'skill';
}

>>>>>>> runtime
export class SkillHoverProvider implements vscode.HoverProvider {
  constructor(private readonly service: SkillsService) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
<<<<<<< HEAD
    const hover = hoverAt(skillDocKind(doc.uri.fsPath), doc.getText(), fromVsPosition(position));
    return hover && new vscode.Hover(new vscode.MarkdownString(hover.markdown), toVsRange(hover.range));
=======
    const kind = skillDocKind(doc.uri.fsPath, this.service.fs);
    if (!kind || kind === 'hooks') return undefined;
    const at = fromVsPosition(position);
    // A tools-list entry: what the tool does, its rule forms, what is wrong with the entry.
    const detail = parseSkillMdDetailed(doc.getText());
    const tool = toolEntryAt(detail, toolKeysKind(kind), at.line, at.column);
    if (tool) {
      const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
      const mcp = tool.entry.text.startsWith('mcp__') ? mcpServersForDocument(doc.uri.fsPath, kind, this.service.fs, folder) : undefined;
      return new vscode.Hover(new vscode.MarkdownString(toolEntryHover(tool.entry.text, tool.list, mcp)), toVsRange(tool.entry.range));
    }
    const parsed = detail.parsed;
    const key = parsed.keys.find((k) => rangeContains(k.keyRange, at));
    if (!key) return undefined;
    const md = new vscode.MarkdownString();
    if (kind === 'agent') {
      const doc = AGENT_KEYS[key.key];
      md.appendMarkdown(`**\`${key.key}\`** (agent)\n\n${doc ?? 'Not a key Claude Code reads in agent files.'}`);
      return new vscode.Hover(md, toVsRange(key.keyRange));
    }
    const info = keyInfo(key.key);
    if (!info) {
      md.appendMarkdown(`**\`${key.key}\`** — not a known SKILL.md key.\n\nNo validation profile accepts it (\`unknown-key\`).`);
    } else {
      md.appendMarkdown(`**\`${info.key}\`** · ${valueSummary(info)}\n\n`);
      md.appendMarkdown(`${info.doc}\n\n`);
      if (info.requiresFork && !hasForkContext(parsed.data)) {
        md.appendMarkdown(`This file has no \`context: fork\`: Claude Code ignores \`${info.key}\` here (\`field-invalid\`).\n\n`);
      }
      md.appendMarkdown(`Accepted by profiles: ${profilesText(info.profiles)}`);
    }
    return new vscode.Hover(md, toVsRange(key.keyRange));
>>>>>>> runtime
  }
}

export class SkillCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly service: SkillsService) {}

  private toolCompletions(doc: vscode.TextDocument, kind: 'skill' | 'agent' | 'command', position: vscode.Position, before: string): vscode.CompletionItem[] | undefined {
    const key = toolsKeyOfLine(doc, position.line, before, toolKeysKind(kind));
    if (!key) return undefined;
    const own = new RegExp(`^${key}:`).test(before);
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
    const replace = new vscode.Range(position.line, position.character - prefix.length, position.line, position.character);
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
    return toolCompletionItems(prefix, replace, mcpServersForDocument(doc.uri.fsPath, kind, this.service.fs, folder));
  }

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
<<<<<<< HEAD
    const entries = completionsAt(skillDocKind(doc.uri.fsPath), doc.getText(), fromVsPosition(position), this.service.profile);
    return entries?.map((e) => {
      const item = new vscode.CompletionItem(e.label, e.kind === 'key' ? vscode.CompletionItemKind.Property : vscode.CompletionItemKind.EnumMember);
      item.insertText = e.insertText;
      item.range = toVsRange(e.range);
      item.detail = e.detail;
      if (e.documentation) item.documentation = new vscode.MarkdownString(e.documentation);
      item.sortText = e.sortText;
      if (e.deprecated) item.tags = [vscode.CompletionItemTag.Deprecated];
      if (e.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest values' };
      return item;
    });
=======
    const kind = skillDocKind(doc.uri.fsPath, this.service.fs);
    if (!kind || kind === 'hooks') return undefined;
    const parsed = parseSkillMd(doc.getText());
    const lines = frontmatterLines(parsed, doc.lineCount);
    const line = position.line + 1;
    if (!lines || line < lines.first || line > lines.last) return undefined;
    const before = doc.lineAt(position.line).text.slice(0, position.character);
    const tools = this.toolCompletions(doc, kind, position, before);
    if (tools) return tools;
    if (kind !== 'skill') return undefined;

    const keyMatch = /^([A-Za-z_-]*)$/.exec(before);
    if (keyMatch) {
      const present = new Set(parsed.keys.filter((k) => k.keyRange.line !== line).map((k) => k.key));
      const profile = this.service.profile;
      const replace = new vscode.Range(position.line, 0, position.line, position.character);
      return FRONTMATTER_KEYS.filter((k) => !present.has(k.key)).map((k, i) => {
        const item = new vscode.CompletionItem(k.key, vscode.CompletionItemKind.Property);
        item.insertText = `${k.key}: `;
        item.range = replace;
        item.detail = `${k.type} · ${k.profiles.join(', ')}${k.requiresFork ? ' · only with context: fork' : ''}`;
        item.documentation = new vscode.MarkdownString(k.doc);
        // Keys the active profile accepts sort first, spec keys in their documented order.
        item.sortText = `${k.profiles.includes(profile) ? '0' : '1'}${String(i).padStart(3, '0')}`;
        if (!k.profiles.includes(profile)) item.tags = [vscode.CompletionItemTag.Deprecated];
        item.command = k.values?.length ? { command: 'editor.action.triggerSuggest', title: 'Suggest values' } : undefined;
        return item;
      });
    }

    const valueMatch = /^([A-Za-z_-]+):[ \t]*(\S*)$/.exec(before);
    if (valueMatch) {
      const info = keyInfo(valueMatch[1]);
      // The key table's values: Claude Code's boolean words, /model values, effort levels, built-in agent types.
      const values = info?.values ?? [];
      const start = position.character - valueMatch[2].length;
      const replace = new vscode.Range(position.line, start, position.line, position.character);
      return values.map((v, i) => {
        const item = new vscode.CompletionItem(v, vscode.CompletionItemKind.EnumMember);
        item.range = replace;
        item.detail = `${valueMatch[1]} value`;
        item.sortText = String(i).padStart(3, '0');
        return item;
      });
    }
    return undefined;
>>>>>>> runtime
  }
}

/** The tools key a line of the frontmatter belongs to: `key: …` on the line itself, or a list item under it. */
function toolsKeyOfLine(doc: vscode.TextDocument, lineIndex: number, before: string, kind: 'skill' | 'agent'): string | undefined {
  const keys = TOOL_LIST_KEYS[kind];
  const own = /^([A-Za-z_-]+):/.exec(before);
  if (own) return Object.prototype.hasOwnProperty.call(keys, own[1]) ? own[1] : undefined;
  if (!/^\s+-\s/.test(before) && !/^\s+-$/.test(before)) return undefined;
  for (let i = lineIndex - 1; i >= 0; i--) {
    const text = doc.lineAt(i).text;
    if (/^\s/.test(text) || text.trim() === '') continue;
    const m = /^([A-Za-z_-]+):\s*$/.exec(text);
    return m && Object.prototype.hasOwnProperty.call(keys, m[1]) ? m[1] : undefined;
  }
  return undefined;
}

/** Completion items for a tools-list entry: Claude Code's tools, then `mcp__<server>` for each server in reach. */
export function toolCompletionItems(prefix: string, replace: vscode.Range, mcp: McpServersInReach | undefined): vscode.CompletionItem[] {
  const items: vscode.CompletionItem[] = claudeTools().map((t, i) => {
    const item = new vscode.CompletionItem(t.name, vscode.CompletionItemKind.Function);
    item.range = replace;
    item.detail = `Claude Code tool · ${t.permissionRequired ? 'asks for permission' : 'no permission needed'}`;
    item.documentation = new vscode.MarkdownString(toolEntryHover(t.name, 'allow'));
    item.sortText = `1${String(i).padStart(3, '0')}`;
    return item;
  });
  const servers = mcp ? [...mcp.configured, ...(mcp.plugin ? [...mcp.plugin.servers].map((s) => pluginServerSegment(mcp.plugin!.name, s)) : [])] : [];
  for (const server of [...new Set(servers)].sort()) {
    const item = new vscode.CompletionItem(`mcp__${server}`, vscode.CompletionItemKind.Module);
    item.range = replace;
    item.detail = 'every tool of this MCP server';
    item.sortText = prefix.startsWith('m') ? `0${server}` : `2${server}`;
    items.push(item);
  }
  return items;
}

export class SkillLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly service: SkillsService) {}

  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    if (skillDocKind(doc.uri.fsPath) !== 'skill') return [];
    const result = validateDocumentText(doc.uri.fsPath, doc.getText(), this.service.profile, this.service.fs, undefined, vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath);
    if (!result) return [];
    // Missing targets get a reference-missing diagnostic instead of a dead link.
    return result.references.filter((r) => r.exists).map((r) => {
      const link = new vscode.DocumentLink(toVsRange(r.range), vscode.Uri.file(r.resolvedPath));
      link.tooltip = r.crossSkill ? `Open ${r.target} (another skill)` : `Open ${path.basename(r.resolvedPath)}`;
      return link;
    });
  }
}

export function registerEditorFeatures(service: SkillsService): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider(SKILL_DOCUMENTS, new SkillHoverProvider(service)),
    vscode.languages.registerCompletionItemProvider(SKILL_DOCUMENTS, new SkillCompletionProvider(service), ':', ' ', ','),
    vscode.languages.registerDocumentLinkProvider(SKILL_DOCUMENTS, new SkillLinkProvider(service)),
  );
}
