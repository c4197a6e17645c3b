/** One problem as the CLI prints it: a `path:line:col: severity code message` line, or a JSON object. */
import type { Problem } from '../../core/base/types';
import { displayPath } from './paths';

/** One problem as a `path:line:col: severity code message` line (the problem matcher's format). */
export function problemLine(cwd: string, file: string, p: Problem): string {
  return problemText(displayPath(cwd, p.file ?? file), p);
}

/** problemLine with the file's display path worked out already. */
export function problemText(shownPath: string, p: Problem): string {
  return `${shownPath}:${p.line}:${p.column}: ${p.severity} ${p.code} ${p.message.replace(/\s*[\r\n]+\s*/g, ' ')}`;
}

/** A problem as JSON output gives it (its `file`, when set, is left to the caller). */
export function problemJson(p: Problem) {
  return { code: p.code, severity: p.severity, message: p.message, line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn };
}

/** `n word` or `n words`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
