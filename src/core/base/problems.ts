/** Problems as the core hands them out: a file-level problem, and the one order every list of problems is in. */
import type { Problem, Range } from './types';
import { severityFor } from './rules';

export function fileProblem(code: string, message: string): Problem {
  return { code, severity: severityFor(code, 'claude-code') ?? 'error', message, line: 1, column: 1, endLine: 1, endColumn: 1 };
}

/** Sorts problems by position, then code (stable, in place); returns the array. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(compareProblems);
}

/** sortProblems' order: by line, column, then code. */
export function compareProblems(a: Problem, b: Problem): number {
  return a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** Two ranges the same (both undefined counts as the same). */
export function sameRange(a: Range | undefined, b: Range | undefined): boolean {
  return a === b || (!!a && !!b && a.line === b.line && a.column === b.column && a.endLine === b.endLine && a.endColumn === b.endColumn);
}
