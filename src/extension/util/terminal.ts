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

export type TerminalRun = { ok: true; terminal: vscode.Terminal; commandLine: string; via: 'shell integration' | 'sendText' } | { ok: false; message: string };

/** How long a new terminal's shell may take to start and report its shell integration before the line is typed anyway. */
export const SHELL_READY_MS = 15_000;

/**
 * The terminal's shell integration once its shell is at its first prompt, or what there is after `timeoutMs` (undefined
 * for a shell without integration: sh, a custom shell, the setting off), or undefined when the terminal closes. The
 * integration activates while the shell still runs its startup script (text sent then is echoed above the prompt); the
 * shell reports its folder (`cwd`) just before it prints the prompt, so that is the sign it reads commands.
 */
function whenShellReady(terminal: vscode.Terminal, timeoutMs: number): Promise<vscode.TerminalShellIntegration | undefined> {
  const atPrompt = (integration: vscode.TerminalShellIntegration | undefined) => integration?.cwd !== undefined;
  if (atPrompt(terminal.shellIntegration) || timeoutMs <= 0) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const done = (integration: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      for (const d of listeners) d.dispose();
      resolve(integration);
    };
    const timer = setTimeout(() => done(terminal.shellIntegration), timeoutMs);
    const listeners = [
      vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === terminal && atPrompt(e.shellIntegration)) done(e.shellIntegration); }),
      vscode.window.onDidCloseTerminal((closed) => { if (closed === terminal) done(undefined); }),
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
export async function runInTerminal(commandLine: string, options: { cwd?: vscode.Uri; shell?: Exclude<ShellKind, 'cmd'>; what?: string; readyMs?: number } = {}): Promise<TerminalRun> {
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
  const integration = await whenShellReady(terminal, existing ? 0 : options.readyMs ?? SHELL_READY_MS);
  if (terminal.exitStatus !== undefined) return { ok: false, message: `The ${TERMINAL_NAME} terminal closed before its shell was ready` };
  if (integration) {
    integration.executeCommand(line);
    return { ok: true, terminal, commandLine: line, via: 'shell integration' };
  }
  terminal.sendText(line, true);
  return { ok: true, terminal, commandLine: line, via: 'sendText' };
}
