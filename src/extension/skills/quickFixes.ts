/** Quick fixes for skillflow diagnostics in SKILL.md . Description length is never trimmed automatically. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flowThenText, parseSkillMd } from '../../core/skillmd/frontmatter';
import { DESCRIPTION_MAX } from '../../core/validation/frontmatterRules';
import { checkSkillName, suggestSkillName } from '../../core/skillmd/names';
import { ruleCode, toVsRange } from '../adapters/ranges';
import { yamlSingleQuote } from '../util/names';
import { SKILL_DOCUMENTS, skillDocKind } from './documents';

/** Internal command behind "Open description": selects a range in a document. */
export const SELECT_RANGE_COMMAND = 'skillflow.selectRange';

const DESCRIPTION_PLACEHOLDER = 'TODO describe what this skill does and when to use it';

function fix(title: string, diagnostic: vscode.Diagnostic, edit: vscode.WorkspaceEdit): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.edit = edit;
  return action;
}

/** `key: a: b` → `key: 'a: b'` on the diagnostic's line (or the line above). */
function quoteValueAction(doc: vscode.TextDocument, d: vscode.Diagnostic): vscode.CodeAction | undefined {
  for (const lineNo of [d.range.start.line, d.range.start.line - 1]) {
    if (lineNo < 0 || lineNo >= doc.lineCount) continue;
    const text = doc.lineAt(lineNo).text;
    const m = /^(\s*[A-Za-z0-9_-]+:[ \t]+)(.*?)\s*$/.exec(text);
    if (!m) continue;
    const value = m[2];
    if (/^['"|>]/.test(value)) continue;
    if (!value.includes(': ') && !value.endsWith(':') && !flowThenText(value)) continue;
    const range = new vscode.Range(lineNo, m[1].length, lineNo, m[1].length + value.length);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, range, yamlSingleQuote(value));
    return fix('Quote the value', d, edit);
  }
  return undefined;
}

export class SkillQuickFixProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (skillDocKind(doc.uri.fsPath) !== 'skill') return [];
    const ours = context.diagnostics.filter((d) => ruleCode(d) !== undefined);
    if (!ours.length) return [];
    const parsed = parseSkillMd(doc.getText());
    const keyOf = (name: string) => parsed.keys.find((k) => k.key === name);
    const folderName = path.basename(path.dirname(doc.uri.fsPath));
    const actions: vscode.CodeAction[] = [];

    for (const d of ours) {
      const code = ruleCode(d);
      const perDiagnostic: vscode.CodeAction[] = [];
      switch (code) {
        case 'yaml-syntax': {
          const a = quoteValueAction(doc, d);
          if (a) perDiagnostic.push(a);
          break;
        }
        case 'name-dir-mismatch': {
          const name = keyOf('name');
          if (name?.valueRange && checkSkillName(folderName, { allowReserved: true }) === undefined) {
            const edit = new vscode.WorkspaceEdit();
            edit.replace(doc.uri, toVsRange(name.valueRange), folderName);
            perDiagnostic.push(fix(`Rename to '${folderName}' (the folder name)`, d, edit));
          }
          break;
        }
        case 'name-case':
        case 'name-charset':
        case 'name-hyphen': {
          const name = keyOf('name');
          if (name?.valueRange && typeof name.value === 'string') {
            // The same suggestion the diagnostic's message names ("Rename to 'cafe'").
            const kebab = suggestSkillName(name.value);
            if (kebab && kebab !== name.value) {
              const edit = new vscode.WorkspaceEdit();
              edit.replace(doc.uri, toVsRange(name.valueRange), kebab);
              perDiagnostic.push(fix(`Convert to kebab-case: '${kebab}'`, d, edit));
            }
          }
          break;
        }
        case 'description-angle-brackets': {
          const desc = keyOf('description');
          if (desc?.valueRange) {
            const range = toVsRange(desc.valueRange);
            const edit = new vscode.WorkspaceEdit();
            edit.replace(doc.uri, range, doc.getText(range).replace(/[<>]/g, ''));
            perDiagnostic.push(fix('Remove angle brackets from the description', d, edit));
          }
          break;
        }
        case 'description-missing': {
          if (parsed.hasFrontmatter) {
            const name = keyOf('name');
            const afterLine = name ? (name.valueRange ?? name.keyRange).endLine : parsed.frontmatterStartLine - 1;
            const edit = new vscode.WorkspaceEdit();
            edit.insert(doc.uri, new vscode.Position(afterLine, 0), `description: ${DESCRIPTION_PLACEHOLDER}\n`);
            perDiagnostic.push(fix('Add a description', d, edit));
          }
          break;
        }
        case 'script-source-path': {
          // The message names the path to write ("Write '${CLAUDE_SKILL_DIR}/scripts/c.py': …"); the range is the path.
          const written = /^Write '([^']+)'/.exec(d.message)?.[1];
          if (written !== undefined) {
            const edit = new vscode.WorkspaceEdit();
            edit.replace(doc.uri, d.range, written);
            perDiagnostic.push(fix(`Write '${written}'`, d, edit));
          }
          break;
        }
        case 'description-length': {
          const desc = keyOf('description');
          if (desc?.valueRange) {
            const action = new vscode.CodeAction(`Open description (shorten it to ${DESCRIPTION_MAX} characters)`, vscode.CodeActionKind.QuickFix);
            action.diagnostics = [d];
            action.command = { command: SELECT_RANGE_COMMAND, title: 'Open description', arguments: [doc.uri, toVsRange(desc.valueRange)] };
            perDiagnostic.push(action);
          }
          break;
        }
      }
      if (perDiagnostic.length === 1 && perDiagnostic[0].edit) perDiagnostic[0].isPreferred = true;
      actions.push(...perDiagnostic);
    }
    return actions;
  }
}

export function registerQuickFixes(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(SKILL_DOCUMENTS, new SkillQuickFixProvider(), SkillQuickFixProvider.metadata),
    vscode.commands.registerCommand(SELECT_RANGE_COMMAND, async (uri: vscode.Uri, range: vscode.Range) => {
      const editor = await vscode.window.showTextDocument(uri, { selection: range, preview: false });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    }),
  );
}
