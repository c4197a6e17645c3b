/**
 * Code actions of rule configuration: "Disable <code> for this file" (a `skillflow-disable` comment after the
 * frontmatter), "Disable <code> in this workspace" (`"rules": {"<code>": "off"}` in `.skillflow.json`, edited in
 * place with jsonc-parser so the file keeps its layout, created when missing) and the source action
 * "Fix all Skillflow problems" (`source.fixAll.skillflow`: every preferred quick fix of the file in one edit, also
 * for `editor.codeActionsOnSave`).
 */
import * as vscode from 'vscode';
import type { FileSystem } from '../../core/base/fs';
// The ES module build: the package's main entry is a UMD file whose inner requires a bundle cannot follow.
import { applyEdits } from 'jsonc-parser';
import { newRuleConfigText, ruleOffEdits } from '../../core/editor/features';
import { CONFIG_FILE_NAME } from '../../core/config/ruleConfig';
import { disableForFileEdit as coreDisableForFileEdit, fixAllEdits } from '../../core/fixes/skillFixes';
import { ruleCode, toVsRange } from '../adapters/ranges';
import { SKILL_DOCUMENTS, skillDocKind, validateDocumentText } from './documents';
import type { SkillsService } from './service';
import type { EditorRuleConfig } from './ruleConfig';

export const DISABLE_IN_WORKSPACE_COMMAND = 'skillflow.disableRuleInWorkspace';
export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('skillflow');

/** The edit that adds `code` to the file's `skillflow-disable` comment (or a new comment after the frontmatter): core/fixes. */
export function disableForFileEdit(doc: vscode.TextDocument, code: string): vscode.WorkspaceEdit | undefined {
  const e = coreDisableForFileEdit(doc.getText(), code);
  if (!e) return undefined;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, toVsRange(e.range), e.newText);
  return edit;
}

/** Sets `rules.<code>` to `off` in the workspace's `.skillflow.json` (created when missing); never rewrites a file it cannot parse. */
export async function disableInWorkspace(rules: EditorRuleConfig, file: vscode.Uri, code: string): Promise<boolean> {
  const target = rules.workspaceConfigFor(file.fsPath);
  if (!target) {
    void vscode.window.showWarningMessage(`Skillflow: ${file.fsPath} is not in a workspace folder; add "${code}": "off" to a ${CONFIG_FILE_NAME} yourself.`);
    return false;
  }
  let exists = true;
  try { await vscode.workspace.fs.stat(target); } catch { exists = false; }
  if (!exists) {
    await vscode.workspace.fs.writeFile(target, Buffer.from(newRuleConfigText(code), 'utf8'));
    rules.reload();
    return true;
  }
  // Unsaved changes in an editor are edited there; otherwise the file on disk (an open, unchanged document may not
  // have caught up with the disk yet).
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString() && d.isDirty);
  let text: string;
  try {
    text = doc ? doc.getText() : Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8');
  } catch (e) {
    void vscode.window.showErrorMessage(`Skillflow: ${target.fsPath} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
  const result = ruleOffEdits(text, code);
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Skillflow: ${target.fsPath} was not changed: it ${result.reason}. Fix it first.`);
    await vscode.window.showTextDocument(doc ? doc.uri : target);
    return false;
  }
  const edits = result.edits;
  if (doc) {
    const we = new vscode.WorkspaceEdit();
    for (const e of edits) we.replace(target, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
    if (!(await vscode.workspace.applyEdit(we)) || !(await doc.save())) return false;
  } else {
    await vscode.workspace.fs.writeFile(target, Buffer.from(applyEdits(text, edits), 'utf8'));
  }
  rules.reload();
  return true;
}

export class RuleDisableActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly fs?: FileSystem) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const kind = skillDocKind(doc.uri.fsPath, this.fs);
    if (!kind || kind === 'hooks') return [];
    const actions: vscode.CodeAction[] = [];
    const seen = new Set<string>();
    for (const d of context.diagnostics) {
      const code = ruleCode(d);
      if (code === undefined || seen.has(code)) continue;
      seen.add(code);
      const forFile = disableForFileEdit(doc, code);
      if (forFile) {
        const a = new vscode.CodeAction(`Disable ${code} for this file`, vscode.CodeActionKind.QuickFix);
        a.diagnostics = context.diagnostics.filter((x) => ruleCode(x) === code);
        a.edit = forFile;
        actions.push(a);
      }
      const inWorkspace = new vscode.CodeAction(`Disable ${code} in this workspace`, vscode.CodeActionKind.QuickFix);
      inWorkspace.diagnostics = context.diagnostics.filter((x) => ruleCode(x) === code);
      inWorkspace.command = { command: DISABLE_IN_WORKSPACE_COMMAND, title: inWorkspace.title, arguments: [doc.uri, code] };
      actions.push(inWorkspace);
    }
    return actions;
  }
}

/** Every preferred, certain fix for the document's current problems (core/fixes: what `validate --fix` applies too), as one edit. */
export function fixAllEdit(doc: vscode.TextDocument, service: SkillsService, rules: EditorRuleConfig): { edit: vscode.WorkspaceEdit; count: number } | undefined {
  const index = service.index;
  const text = doc.getText();
  const workspaceFolder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
  const result = validateDocumentText(doc.uri.fsPath, text, service.profile, service.fs, index.loaded ? index.knownSkillNames() : undefined, workspaceFolder);
  if (!result) return undefined;
  const edits = fixAllEdits(text, doc.uri.fsPath, rules.apply(doc.uri.fsPath, result.problems, text), { fs: service.fs, workspaceFolder });
  if (!edits.length) return undefined;
  const edit = new vscode.WorkspaceEdit();
  edit.set(doc.uri, edits.map((e) => vscode.TextEdit.replace(toVsRange(e.range), e.newText)));
  return { edit, count: edits.length };
}

export class SkillFixAllProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [FIX_ALL_KIND] };

  constructor(private readonly service: SkillsService, private readonly rules: EditorRuleConfig) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.contains(FIX_ALL_KIND) && !FIX_ALL_KIND.contains(context.only)) return [];
    const kind = skillDocKind(doc.uri.fsPath, this.service.fs);
    if (!kind || kind === 'hooks') return [];
    const fixed = fixAllEdit(doc, this.service, this.rules);
    if (!fixed) return [];
    const action = new vscode.CodeAction('Fix all Skillflow problems', FIX_ALL_KIND);
    action.edit = fixed.edit;
    return [action];
  }
}

/** Registers the disable quick fixes, the Fix all source action and the command behind "Disable … in this workspace". */
export function registerRuleFixes(service: SkillsService, rules: EditorRuleConfig): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(SKILL_DOCUMENTS, new RuleDisableActionProvider(service.fs), RuleDisableActionProvider.metadata),
    vscode.languages.registerCodeActionsProvider(SKILL_DOCUMENTS, new SkillFixAllProvider(service, rules), SkillFixAllProvider.metadata),
    vscode.commands.registerCommand(DISABLE_IN_WORKSPACE_COMMAND, (file: vscode.Uri, code: string) => disableInWorkspace(rules, file, code)),
  );
}
