/** The one `Skillflow` terminal that Run Script and checkpoint resume type their command lines into. */
import * as vscode from 'vscode';
import { checkTypedCommand, quoteShellArg, type ShellKind } from '../../core/base/shell';

export const TERMINAL_NAME = 'Skillflow';

function openTerminal(): vscode.Terminal | undefined {
  return vscode.window.terminals.find((t) => t.name === TERMINAL_NAME && t.exitStatus === undefined);
}

/** The open `Skillflow` terminal, else a new one (started in `cwd` when given). */
export function findOrCreateTerminal(cwd?: vscode.Uri): vscode.Terminal {
  return openTerminal() ?? vscode.window.createTerminal({ name: TERMINAL_NAME, ...(cwd ? { cwd } : {}) });
}

export type TerminalRun = { ok: true; terminal: vscode.Terminal; commandLine: string } | { ok: false; message: string };

/**
 * Types `commandLine` into the `Skillflow` terminal and shows it. With `cwd`, a reused terminal that was
 * started elsewhere first changes there (`shell` picks the quoting). A line carrying a control character is
 * refused and nothing is typed: the terminal's line editor would act on it (Ctrl-U, Ctrl-W, a line feed).
 */
export function runInTerminal(commandLine: string, options: { cwd?: vscode.Uri; shell?: Exclude<ShellKind, 'cmd'>; what?: string } = {}): TerminalRun {
  const { cwd, shell = 'posix', what } = options;
  let line = commandLine;
  const existing = openTerminal();
  if (existing && cwd) {
    const started = (existing.creationOptions as vscode.TerminalOptions).cwd;
    const startedPath = typeof started === 'string' ? started : started?.fsPath;
    if (startedPath !== cwd.fsPath) {
      const dir = quoteShellArg(cwd.fsPath, shell);
      line = shell === 'powershell' ? `Set-Location -LiteralPath ${dir}; ${line}` : `cd ${dir} && ${line}`;
    }
  }
  const safe = checkTypedCommand(line, what);
  if (!safe.ok) return safe;
  const terminal = existing ?? findOrCreateTerminal(cwd);
  terminal.show(true);
  terminal.sendText(line, true);
  return { ok: true, terminal, commandLine: line };
}
