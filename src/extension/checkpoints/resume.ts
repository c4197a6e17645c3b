/** Resumes a paused skill: the quoted command in the `Skillflow` terminal, or on the clipboard (untrusted workspaces always). */
import * as vscode from 'vscode';
import type { LoadedCheckpoint } from '../../core/checkpoint/checkpoint';
import { buildResumeCommand, chooseResumeMode, type ResumeInvocation } from '../../core/checkpoint/resume';
import { pasteShellKind, shellKindFor } from '../../core/base/shell';
import { runInTerminal, TERMINAL_NAME } from '../util/terminal';

export interface ResumeOutcome {
  mode: 'terminal' | 'clipboard';
  command: string;
  /** Why the clipboard was used although the setting says terminal. */
  reason?: string;
  /** `shell ready`: a new terminal's shell reported its first prompt (shell integration) before the line was typed. */
  via?: 'shell ready' | 'typed';
}

export type ResumeResult = { ok: true; outcome: ResumeOutcome; terminal?: vscode.Terminal } | { ok: false; message: string };

/** Runs or copies the resume command for `invocation` of the loaded `checkpoint` (its workspace folder is the terminal's folder). */
export async function resumeSkill(checkpoint: LoadedCheckpoint, invocation: ResumeInvocation, log: vscode.LogOutputChannel): Promise<ResumeResult> {
  const folder = vscode.Uri.file(checkpoint.workspaceFolder);
  const config = vscode.workspace.getConfiguration('skillflow', folder);
  const template = config.get<string>('resume.command');
  const shell = shellKindFor(vscode.env.shell);
  const { mode, reason } = chooseResumeMode(config.get<string>('resume.mode', 'terminal'), vscode.workspace.isTrusted, shell);
  // Pasted text follows the user's shell too (fish reads quotes differently from bash).
  const kind = mode === 'clipboard' ? pasteShellKind(vscode.env.shell, process.platform) : shell ?? 'posix';
  const built = buildResumeCommand(template, invocation, kind);
  if (!built.ok) return built;

  if (mode === 'clipboard') {
    await vscode.env.clipboard.writeText(built.command);
    log.info(`resume: copied to the clipboard${reason ? ` (${reason})` : ''}: ${built.command}`);
    void vscode.window.showInformationMessage(`Resume command for ${invocation.skill} copied to the clipboard${reason ? ` (${reason})` : ''}.`);
    return { ok: true, outcome: { mode: 'clipboard', command: built.command, reason } };
  }

  // The CONTEXT_PATH is workspace-relative: a reused terminal first goes to the checkpoint's workspace folder.
  const ran = await runInTerminal(built.command, { cwd: folder, shell: shell ?? 'posix', what: `The resume command for ${invocation.skill}` });
  if (!ran.ok) return ran;
  log.info(`resume: sent to the ${TERMINAL_NAME} terminal (${ran.via}): ${ran.commandLine}`);
  return { ok: true, outcome: { mode: 'terminal', command: ran.commandLine, via: ran.via }, terminal: ran.terminal };
}
