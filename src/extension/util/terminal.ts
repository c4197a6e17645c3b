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

/** `via`: `shell ready` when a new terminal's shell reported its first prompt before the line was typed, else `typed`. */
export type TerminalRun = { ok: true; terminal: vscode.Terminal; commandLine: string; via: 'shell ready' | 'typed' } | { ok: false; message: string };

/** How long a new terminal's shell may take to start and report its shell integration before the line is typed anyway. */
export const SHELL_READY_MS = 15_000;

/**
 * Resolves true once a new terminal's shell is at its first prompt, false after `timeoutMs` (a shell without
 * integration: sh, a custom shell, the setting off) or when the terminal closes. The shell integration activates while
 * the shell still runs its startup script (text sent then is echoed above the prompt); the shell reports its folder
 * (`cwd`) just before it prints the prompt, so that is the sign it reads commands.
 */
function shellAtPrompt(terminal: vscode.Terminal, timeoutMs: number): Promise<boolean> {
  const atPrompt = (integration: vscode.TerminalShellIntegration | undefined) => integration?.cwd !== undefined;
  if (atPrompt(terminal.shellIntegration)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      for (const d of listeners) d.dispose();
      resolve(ready);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    const listeners = [
      vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === terminal && atPrompt(e.shellIntegration)) done(true); }),
      vscode.window.onDidCloseTerminal((closed) => { if (closed === terminal) done(false); }),
    ];
  });
}

/**
 * Types `commandLine` into the `Skillflow` terminal and shows it; resolves once the line is sent. A new terminal's
 * shell is waited for (its shell integration, at most SHELL_READY_MS): text sent before the shell reads it is echoed
 * above the first prompt and runs only once the shell has started. With `cwd`, a reused terminal that was started
 * elsewhere first changes there (`shell` picks the quoting). A line carrying a control character is refused and
 * nothing is typed: the terminal's line editor would act on it (Ctrl-U, Ctrl-W, a line feed).
 */
export async function runInTerminal(commandLine: string, options: { cwd?: vscode.Uri; shell?: Exclude<ShellKind, 'cmd'>; what?: string } = {}): Promise<TerminalRun> {
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
  // A reused terminal's shell is already running (with or without integration): nothing to wait for.
  const ready = existing ? false : await shellAtPrompt(terminal, SHELL_READY_MS);
  if (terminal.exitStatus !== undefined) return { ok: false, message: `The ${TERMINAL_NAME} terminal closed before its shell was ready` };
  // Typed, not integration.executeCommand: that sends Ctrl+C first when it cannot tell the prompt is empty, which
  // would stop a claude session still running in a reused terminal.
  terminal.sendText(line, true);
  return { ok: true, terminal, commandLine: line, via: ready ? 'shell ready' : 'typed' };
}
