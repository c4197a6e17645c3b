/** The resume invocation of a paused skill and the shell command line that runs it. */
import { checkTypedCommand, quoteShellArg, type ShellKind } from '../base/shell';

export interface ResumeInvocation {
  skill: string;
  /** The workspace-relative context path, `/`-separated. */
  contextPath: string;
  /** `resume CONTEXT_PATH=<path>` (the protocol's `args:`). */
  args: string;
  /** `/<skill> resume CONTEXT_PATH=<path>`: what is typed into Claude Code. */
  prompt: string;
}

export const DEFAULT_RESUME_COMMAND = 'claude ${prompt}';

/** Builds the resume invocation; `contextPath` is the workspace-relative context path. */
export function resumeInvocation(skill: string, contextPath: string): ResumeInvocation {
  const args = `resume CONTEXT_PATH=${contextPath}`;
  return { skill, contextPath, args, prompt: `/${skill} ${args}` };
}

/**
 * Expands the `skillflow.resume.command` template: `${prompt}`, `${skill}` and `${contextPath}` become
 * quoted shell words; the rest of the template is the user's own text. A template without `${prompt}`
 * gets the quoted prompt appended. Refuses a command that would carry a control character (a terminal's
 * line editor acts on those before any quoting applies).
 */
export function buildResumeCommand(template: string | undefined, invocation: ResumeInvocation, shell: ShellKind): { ok: true; command: string } | { ok: false; message: string } {
  const tpl = typeof template === 'string' && template.trim() ? template.trim() : DEFAULT_RESUME_COMMAND;
  const values: Record<string, string> = { prompt: invocation.prompt, skill: invocation.skill, contextPath: invocation.contextPath };
  const withPrompt = tpl.includes('${prompt}') ? tpl : `${tpl} \${prompt}`;
  let unquotable: string | undefined;
  const command = withPrompt.replace(/\$\{(prompt|skill|contextPath)\}/g, (_m, name: string) => {
    const quoted = quoteShellArg(values[name], shell);
    if (quoted === undefined) unquotable = name;
    return quoted ?? '';
  });
  if (unquotable) return { ok: false, message: `The resume command for ${invocation.skill} cannot be quoted safely for cmd.exe (its ${unquotable} holds ", % or !); use PowerShell or copy the prompt by hand` };
  const safe = checkTypedCommand(command, `The resume command for ${invocation.skill}`);
  return safe.ok ? { ok: true, command } : safe;
}

/** Terminal or clipboard: untrusted workspaces and shells without safe quoting always copy. */
export function chooseResumeMode(setting: string | undefined, trusted: boolean, shell: ShellKind | undefined): { mode: 'terminal' | 'clipboard'; reason?: string } {
  if (setting === 'clipboard') return { mode: 'clipboard' };
  if (!trusted) return { mode: 'clipboard', reason: 'the workspace is not trusted' };
  if (!shell) return { mode: 'clipboard', reason: 'the terminal shell (cmd.exe) has no safe quoting' };
  return { mode: 'terminal' };
}
