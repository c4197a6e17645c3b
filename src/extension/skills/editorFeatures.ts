/**
 * Hovers on frontmatter keys and tools-list entries, completion of keys, values and tool names (all computed in
 * core/editor/features), and document links for references in SKILL.md.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { completionsAt, type CompletionEntry, type DocumentPlace, hoverAt } from '../../core/editor/features';
import { fromVsPosition, toVsRange } from '../adapters/ranges';
import type { SkillsService } from './service';
import { SKILL_DOCUMENTS, skillDocKind, validateDocumentText } from './documents';

const ITEM_KINDS: Record<CompletionEntry['kind'], vscode.CompletionItemKind> = {
  key: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.EnumMember,
  tool: vscode.CompletionItemKind.Function,
  server: vscode.CompletionItemKind.Module,
};

/** Where the document lives, for the MCP servers in reach of its tools lists. */
function placeOf(doc: vscode.TextDocument, service: SkillsService): DocumentPlace {
  return { file: doc.uri.fsPath, fs: service.fs, workspaceFolder: vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath };
}

export class SkillHoverProvider implements vscode.HoverProvider {
  constructor(private readonly service: SkillsService) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const hover = hoverAt(skillDocKind(doc.uri.fsPath, this.service.fs), doc.getText(), fromVsPosition(position), placeOf(doc, this.service));
    return hover && new vscode.Hover(new vscode.MarkdownString(hover.markdown), toVsRange(hover.range));
  }
}

export class SkillCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly service: SkillsService) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const kind = skillDocKind(doc.uri.fsPath, this.service.fs);
    const entries = completionsAt(kind, doc.getText(), fromVsPosition(position), this.service.profile, placeOf(doc, this.service));
    return entries?.map((e) => {
      const item = new vscode.CompletionItem(e.label, ITEM_KINDS[e.kind]);
      item.insertText = e.insertText;
      item.range = toVsRange(e.range);
      item.detail = e.detail;
      if (e.documentation) item.documentation = new vscode.MarkdownString(e.documentation);
      item.sortText = e.sortText;
      if (e.deprecated) item.tags = [vscode.CompletionItemTag.Deprecated];
      if (e.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest values' };
      return item;
    });
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
    vscode.languages.registerHoverProvider(SKILL_DOCUMENTS, new SkillHoverProvider(service)),
    vscode.languages.registerCompletionItemProvider(SKILL_DOCUMENTS, new SkillCompletionProvider(service), ':', ' ', ','),
    vscode.languages.registerDocumentLinkProvider(SKILL_DOCUMENTS, new SkillLinkProvider(service)),
  );
}
