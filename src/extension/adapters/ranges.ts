/** The one place where core positions (1-based, exclusive endColumn) become VS Code positions (0-based) and back. */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { messagePaths } from '../../core/base/messagePaths';
import type { Problem, Range } from '../../core/base/types';

export function toVsRange(r: Range): vscode.Range {
  const line = Math.max(0, r.line - 1);
  const column = Math.max(0, r.column - 1);
  const endLine = Math.max(line, r.endLine - 1);
  const endColumn = endLine === line ? Math.max(column, r.endColumn - 1) : Math.max(0, r.endColumn - 1);
  return new vscode.Range(line, column, endLine, endColumn);
}

/** A VS Code position as a core (1-based) line and column. */
export function fromVsPosition(p: vscode.Position): { line: number; column: number } {
  return { line: p.line + 1, column: p.character + 1 };
}

export { rangeContains } from '../../core/editor/features';

const SEVERITY: Record<Problem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** The command that opens the rules page on one rule (src/extension/skills/rulesPage.ts registers it). */
export const SHOW_RULE_COMMAND = 'skillflow.showRule';

/** The link target of a rule code: a command URI running Show Rule with that code (the workbench allows command links there). */
export function ruleTarget(code: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'command', path: SHOW_RULE_COMMAND, query: JSON.stringify([code]) });
}

let shortener: { key: string; say: (text: string) => string } | undefined;

/** A message with the paths in it relative to their workspace folder, `~` for the home (as the CLI prints them). */
export function shortMessage(text: string): string {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const key = folders.join('\0');
  if (shortener?.key !== key) shortener = { key, say: messagePaths(folders, os.homedir()) };
  return shortener.say(text);
}

/** A core problem as a Diagnostic: source `skillflow`, code linked to the rule's rendered section on the rules page. */
export function toDiagnostic(problem: Problem): vscode.Diagnostic {
  const d = new vscode.Diagnostic(toVsRange(problem), shortMessage(problem.message), SEVERITY[problem.severity]);
  d.source = 'skillflow';
  d.code = { value: problem.code, target: ruleTarget(problem.code) };
  return d;
}

/** The rule code of a skillflow diagnostic, or undefined for other sources. */
export function ruleCode(d: vscode.Diagnostic): string | undefined {
  if (d.source !== 'skillflow') return undefined;
  const c = d.code;
  if (typeof c === 'object' && c !== null) return String(c.value);
  return c === undefined ? undefined : String(c);
}
