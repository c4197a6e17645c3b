/**
 * Quick fixes for skillflow diagnostics in SKILL.md: the fixes the core computes (core/fixes/skillFixes.ts, also
 * behind `validate --fix`) as code actions. Description length is never trimmed automatically.
 */
import * as vscode from 'vscode';
<<<<<<< HEAD
import type { Problem } from '../../core/base/types';
import { skillFixes } from '../../core/fixes/skillFixes';
import { fromVsPosition, ruleCode, toVsRange } from '../adapters/ranges';
import { SKILL_DOCUMENTS, skillDocKind } from './documents';
=======
import type { FileSystem } from '../../core/base/fs';
import { flowThenText, parseSkillMd, parseSkillMdDetailed } from '../../core/skillmd/frontmatter';
import { checkToolEntry } from '../../core/claude/tools';
import { AGENT_TOOL_KEYS } from '../../core/agents/agents';
import { toolEntryAt } from '../../core/validation/toolRules';
import { DESCRIPTION_MAX } from '../../core/validation/frontmatterRules';
import { checkSkillName, suggestSkillName } from '../../core/skillmd/names';
import { fromVsPosition, ruleCode, toVsRange } from '../adapters/ranges';
import { yamlSingleQuote } from '../util/names';
import { mcpServersForDocument, SKILL_DOCUMENTS, skillDocKind } from './documents';
>>>>>>> runtime

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
<<<<<<< HEAD
    if (skillDocKind(doc.uri.fsPath) !== 'skill') return [];
    const ours = context.diagnostics.flatMap((d) => {
      const code = ruleCode(d);
      return code === undefined ? [] : [{ d, problem: toProblem(d, code) }];
    });
    if (!ours.length) return [];
    const byProblem = new Map(ours.map((o) => [o.problem, o.d]));
    return skillFixes(doc.getText(), doc.uri.fsPath, ours.map((o) => o.problem)).map((f) => {
      const action = new vscode.CodeAction(f.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [byProblem.get(f.problem)!];
      if (f.edits.length) {
        const edit = new vscode.WorkspaceEdit();
        for (const e of f.edits) edit.replace(doc.uri, toVsRange(e.range), e.newText);
        action.edit = edit;
      } else if (f.reveal) {
        action.command = { command: SELECT_RANGE_COMMAND, title: 'Open description', arguments: [doc.uri, toVsRange(f.reveal)] };
=======
    const kind = skillDocKind(doc.uri.fsPath, this.fs);
    if (!kind || kind === 'hooks') return [];
    const ours = context.diagnostics.filter((d) => ruleCode(d) !== undefined);
    if (!ours.length) return [];
    if (kind !== 'skill') return this.toolActions(doc, kind, ours);
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
        case 'tool-unknown':
        case 'tool-rule-invalid':
          perDiagnostic.push(...this.toolActions(doc, kind, [d]));
          break;
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
>>>>>>> runtime
      }
      if (f.preferred) action.isPreferred = true;
      return action;
    });
  }

  /**
   * Fixes that are certain for tools lists: the replacement checkToolEntry gives for the entry under a `tool-unknown` /
   * `tool-rule-invalid` diagnostic (`web_fetch` → `WebFetch`), and the key rename of `agent-tools-key`.
   */
  private toolActions(doc: vscode.TextDocument, kind: 'skill' | 'agent' | 'command', diagnostics: vscode.Diagnostic[]): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const detail = parseSkillMdDetailed(doc.getText());
    const keysKind = kind === 'agent' ? 'agent' : 'skill';
    for (const d of diagnostics) {
      const code = ruleCode(d);
      if (code === 'agent-tools-key' && kind === 'agent') {
        const skillKey = doc.getText(d.range);
        const agentKey = AGENT_TOOL_KEYS.find(([k]) => k === skillKey)?.[1];
        if (agentKey && !detail.parsed.keys.some((k) => k.key === agentKey)) {
          const edit = new vscode.WorkspaceEdit();
          edit.replace(doc.uri, d.range, agentKey);
          const a = fix(`Rename '${skillKey}' to '${agentKey}'`, d, edit);
          a.isPreferred = true;
          actions.push(a);
        }
        continue;
      }
      if (code !== 'tool-unknown' && code !== 'tool-rule-invalid') continue;
      const at = fromVsPosition(d.range.start);
      const found = toolEntryAt(detail, keysKind, at.line, at.column);
      // Only when the diagnostic is on exactly that entry (not the whole value of a list Skillflow could not map).
      if (!found || !toVsRange(found.entry.range).isEqual(d.range)) continue;
      const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
      const mcp = found.entry.text.startsWith('mcp__') ? mcpServersForDocument(doc.uri.fsPath, kind, this.fs, folder) : undefined;
      const replacement = checkToolEntry(found.entry.text, found.list, mcp)?.replacement;
      if (!replacement) continue;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, d.range, replacement);
      const a = fix(`Change to '${replacement}'`, d, edit);
      a.isPreferred = true;
      actions.push(a);
    }
    return actions;
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
