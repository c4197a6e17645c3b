/**
 * `skillflow validate --format github`: one GitHub Actions workflow command per problem,
 * `::error file=<path>,line=<l>,col=<c>,endLine=<l>,endColumn=<c>,title=<code>::<message>`, which the runner shows
 * as an annotation on the file (warnings as `::warning`, info as `::notice`). Values are escaped as the Actions
 * toolkit does: `%`, `\r`, `\n` in the message; those and `:` and `,` in properties.
 */
import type { Severity } from '../../core/base/types';
import { resultProblems, type ValidateResult } from './validateResult';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** Escapes a workflow command's message. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The annotation lines for a result, each ending in `\n`; then a summary line as a plain log line. */
export function formatGithub(result: ValidateResult): string {
  let out = '';
  for (const { path, problem: p } of resultProblems(result)) {
    const props = [`file=${escapeProperty(path)}`, `line=${p.line}`, `col=${p.column}`, `endLine=${p.endLine}`, `endColumn=${p.endColumn}`, `title=${escapeProperty(p.code)}`];
    out += `::${COMMAND[p.severity]} ${props.join(',')}::${escapeData(p.message)}\n`;
  }
  const s = result.summary;
  out += `skillflow: ${s.skills} skill(s) checked: ${s.errors} error(s), ${s.warnings} warning(s)\n`;
  return out;
}
