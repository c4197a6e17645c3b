/** Hovers on frontmatter keys, completion of keys and values (both computed in core/editor/features), and document links for references in SKILL.md. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { completionsAt, hoverAt } from '../../core/editor/features';
import { fromVsPosition, toVsRange } from '../adapters/ranges';
import type { SkillsService } from './service';
import { SKILL_DOCUMENTS, skillDocKind, validateDocumentText } from './documents';

export class SkillHoverProvider implements vscode.HoverProvider {
  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const hover = hoverAt(skillDocKind(doc.uri.fsPath), doc.getText(), fromVsPosition(position));
    return hover && new vscode.Hover(new vscode.MarkdownString(hover.markdown), toVsRange(hover.range));
  }
}

export class SkillCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly service: SkillsService) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
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
