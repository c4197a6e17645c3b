/** Hovers on frontmatter keys, completion of keys and values, and document links for references in SKILL.md. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FRONTMATTER_KEYS, hasForkContext, keyInfo, type FrontmatterKeyInfo } from '../../core/skillmd/keys';
import { parseSkillMd } from '../../core/skillmd/frontmatter';
import type { ParsedSkillMd } from '../../core/skillmd/model';
import { fromVsPosition, rangeContains, toVsRange } from '../adapters/ranges';
import type { SkillsService } from './service';
import { SKILL_DOCUMENTS, skillDocKind, validateDocumentText } from './documents';

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

export class SkillHoverProvider implements vscode.HoverProvider {
  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const kind = skillDocKind(doc.uri.fsPath);
    if (!kind) return undefined;
    const parsed = parseSkillMd(doc.getText());
    const at = fromVsPosition(position);
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
  }
}

/** A key's value kind with its values, for hovers and completion details: `boolean: true | false | yes | …`. */
function valueSummary(info: FrontmatterKeyInfo): string {
  if (!info.values?.length) return info.type;
  const shown = info.values.map((v) => `\`${v}\``).join(' | ');
  return info.type === 'model' || info.key === 'agent' ? `${info.type}: ${shown} | …` : `${info.type}: ${shown}`;
}

export class SkillCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly service: SkillsService) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (skillDocKind(doc.uri.fsPath) !== 'skill') return undefined;
    const parsed = parseSkillMd(doc.getText());
    const lines = frontmatterLines(parsed, doc.lineCount);
    const line = position.line + 1;
    if (!lines || line < lines.first || line > lines.last) return undefined;
    const before = doc.lineAt(position.line).text.slice(0, position.character);

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
  }
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
    vscode.languages.registerHoverProvider(SKILL_DOCUMENTS, new SkillHoverProvider()),
    vscode.languages.registerCompletionItemProvider(SKILL_DOCUMENTS, new SkillCompletionProvider(service), ':', ' '),
    vscode.languages.registerDocumentLinkProvider(SKILL_DOCUMENTS, new SkillLinkProvider(service)),
  );
}
