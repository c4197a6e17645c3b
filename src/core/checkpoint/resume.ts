/** The resume invocation of a paused skill and the shell command line that runs it (every value quoted: no command injection). */
import { quoteShellArg, type ShellKind } from '../base/shell';

export { quotePosix, quotePowerShell, quoteShellArg, shellKindFor, type ShellKind } from '../base/shell';

export interface ResumeInvocation {
  skill: string;
  /** `resume CONTEXT_PATH=<path>` (the context file's `args:`). */
  args: string;
  /** `/<skill> resume CONTEXT_PATH=<path>`: what is typed into Claude Code. */
  prompt: string;
}

export const DEFAULT_RESUME_COMMAND = 'claude ${prompt}';

/** Builds the resume invocation; `relPath` is the workspace-relative context path. */
export function resumeInvocation(skill: string, relPath: string): ResumeInvocation {
  const args = `resume CONTEXT_PATH=${relPath}`;
  return { skill, args, prompt: `/${skill} ${args}` };
}

/**
 * Expands the `skillflow.resume.command` template: `${prompt}`, `${skill}` and `${contextPath}` become
 * quoted shell words; the rest of the template is the user's own text. A template without `${prompt}`
 * gets the quoted prompt appended.
 */
export function buildResumeCommand(template: string | undefined, invocation: ResumeInvocation, shell: ShellKind): string {
  const tpl = typeof template === 'string' && template.trim() ? template.trim() : DEFAULT_RESUME_COMMAND;
  const contextPath = invocation.args.replace(/^resume CONTEXT_PATH=/, '');
  const values: Record<string, string> = { prompt: invocation.prompt, skill: invocation.skill, contextPath };
  const withPrompt = tpl.includes('${prompt}') ? tpl : `${tpl} \${prompt}`;
  return withPrompt.replace(/\$\{(prompt|skill|contextPath)\}/g, (_m, name: string) => quoteShellArg(values[name], shell));
}

/** Terminal or clipboard: untrusted workspaces and shells without safe quoting always copy. */
export function chooseResumeMode(setting: string | undefined, trusted: boolean, shell: ShellKind | undefined): { mode: 'terminal' | 'clipboard'; reason?: string } {
  if (setting === 'clipboard') return { mode: 'clipboard' };
  if (!trusted) return { mode: 'clipboard', reason: 'the workspace is not trusted' };
  if (!shell) return { mode: 'clipboard', reason: 'the terminal shell (cmd.exe) has no safe quoting' };
  return { mode: 'terminal' };
}
