import type { Problem, Range } from '../../../src/core/types';

/** A SKILL.md text with the given frontmatter lines and body. */
export function skill(frontmatter: string, body = '# Title\n\nBody.\n'): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

/** The four coordinates of a range (or a problem), for deepEqual. */
export function rangeOf(r: Range): Range {
  return { line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn };
}

export function r(line: number, column: number, endLine: number, endColumn: number): Range {
  return { line, column, endLine, endColumn };
}

/** `code@line:col-endLine:endCol` strings, for compact whole-list assertions. */
export function summary(problems: Problem[]): string[] {
  return problems.map((p) => `${p.code}@${p.line}:${p.column}-${p.endLine}:${p.endColumn}`);
}

export function codes(problems: Problem[]): string[] {
  return problems.map((p) => p.code);
}
