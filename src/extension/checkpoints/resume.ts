/** Resumes a paused skill: the quoted command in the `Skillflow` terminal, or on the clipboard (untrusted workspaces always). */
import * as vscode from 'vscode';
import { buildResumeCommand, chooseResumeMode, quoteShellArg, type ResumeInvocation, shellKindFor } from '../../core/checkpoint';

export const TERMINAL_NAME = 'Skillflow';

export interface ResumeOutcome {
  mode: 'terminal' | 'clipboard';
  command: string;
  /** Why the clipboard was used although the setting says terminal. */
  reason?: string;
}

/** Runs or copies the resume command for `invocation` in `folder`. */
export async function resumeSkill(invocation: ResumeInvocation, folder: vscode.WorkspaceFolder, log: vscode.LogOutputChannel): Promise<ResumeOutcome> {
  const config = vscode.workspace.getConfiguration('skillflow', folder.uri);
  const template = config.get<string>('resume.command');
  const shell = shellKindFor(vscode.env.shell);
  const { mode, reason } = chooseResumeMode(config.get<string>('resume.mode', 'terminal'), vscode.workspace.isTrusted, shell);

  if (mode === 'clipboard') {
    const command = buildResumeCommand(template, invocation, process.platform === 'win32' ? 'powershell' : 'posix');
    await vscode.env.clipboard.writeText(command);
    log.info(`resume: copied to the clipboard${reason ? ` (${reason})` : ''}: ${command}`);
    void vscode.window.showInformationMessage(`Resume command for ${invocation.skill} copied to the clipboard${reason ? ` (${reason})` : ''}.`);
    return { mode: 'clipboard', command, reason };
  }

  const kind = shell ?? 'posix';
  let command = buildResumeCommand(template, invocation, kind);
  const existing = vscode.window.terminals.find((t) => t.name === TERMINAL_NAME && t.exitStatus === undefined);
  const terminal = existing ?? vscode.window.createTerminal({ name: TERMINAL_NAME, cwd: folder.uri });
  if (existing) {
    // The CONTEXT_PATH is workspace-relative: a reused terminal first goes to this workspace folder.
    const cwd = (existing.creationOptions as vscode.TerminalOptions).cwd;
    const cwdPath = typeof cwd === 'string' ? cwd : cwd?.fsPath;
    if (cwdPath !== folder.uri.fsPath) {
      const dir = quoteShellArg(folder.uri.fsPath, kind);
      command = kind === 'powershell' ? `Set-Location -LiteralPath ${dir}; ${command}` : `cd ${dir} && ${command}`;
    }
  }
  terminal.show(true);
  terminal.sendText(command, true);
  log.info(`resume: sent to the ${TERMINAL_NAME} terminal: ${command}`);
  return { mode: 'terminal', command };
}
