/**
 * Quick fixes for skillflow diagnostics in SKILL.md: the fixes the core computes (core/fixes/skillFixes.ts, also
 * behind `validate --fix`) as code actions. Description length is never trimmed automatically.
 */
import * as vscode from 'vscode';
import type { FileSystem } from '../../core/base/fs';
import type { Problem } from '../../core/base/types';
import { skillFixes } from '../../core/fixes/skillFixes';
import { fromVsPosition, ruleCode, toVsRange } from '../adapters/ranges';
import { SKILL_DOCUMENTS, skillDocKind } from './documents';

/** Internal command behind "Open description": selects a range in a document. */
export const SELECT_RANGE_COMMAND = 'skillflow.selectRange';

/** A skillflow diagnostic as the core problem it was made from (code, range, message). */
function toProblem(d: vscode.Diagnostic, code: string): Problem {
  const start = fromVsPosition(d.range.start);
  const end = fromVsPosition(d.range.end);
  const severity = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : d.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info';
  return { code, severity, message: d.message, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}

export class SkillQuickFixProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly fs: FileSystem) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const kind = skillDocKind(doc.uri.fsPath, this.fs);
    if (!kind || kind === 'hooks') return [];
    const ours = context.diagnostics.flatMap((d) => {
      const code = ruleCode(d);
      return code === undefined ? [] : [{ d, problem: toProblem(d, code) }];
    });
    if (!ours.length) return [];
    const byProblem = new Map(ours.map((o) => [o.problem, o.d]));
    return skillFixes(doc.getText(), doc.uri.fsPath, ours.map((o) => o.problem), { fs: this.fs, workspaceFolder: vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath }).map((f) => {
      const action = new vscode.CodeAction(f.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [byProblem.get(f.problem)!];
      if (f.edits.length || f.createFiles?.length) {
        const edit = new vscode.WorkspaceEdit();
        // Created, then written by a text edit (as the language server does): `contents` does not survive the
        // round trip of vscode.executeCodeActionProvider. A file made meanwhile fails the edit (no insert at its top).
        for (const c of f.createFiles ?? []) {
          const uri = vscode.Uri.file(c.path);
          edit.createFile(uri, { overwrite: false, ignoreIfExists: false });
          if (c.content) edit.insert(uri, new vscode.Position(0, 0), c.content);
        }
        for (const e of f.edits) edit.replace(doc.uri, toVsRange(e.range), e.newText);
        action.edit = edit;
      } else if (f.reveal) {
        action.command = { command: SELECT_RANGE_COMMAND, title: 'Open description', arguments: [doc.uri, toVsRange(f.reveal)] };
      }
      if (f.preferred) action.isPreferred = true;
      return action;
    });
  }
}

export function registerQuickFixes(fs: FileSystem): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(SKILL_DOCUMENTS, new SkillQuickFixProvider(fs), SkillQuickFixProvider.metadata),
    vscode.commands.registerCommand(SELECT_RANGE_COMMAND, async (uri: vscode.Uri, range: vscode.Range) => {
      const editor = await vscode.window.showTextDocument(uri, { selection: range, preview: false });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    }),
  );
}
