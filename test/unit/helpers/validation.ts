import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Problem, Range } from '../../../src/core/base/types';

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

/** Every `.md` file under `dir`, sorted (fixture sweeps). */
export function mdFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of nodeFs.readdirSync(dir, { withFileTypes: true })) {
    const p = nodePath.join(dir, e.name);
    if (e.isDirectory()) out.push(...mdFiles(p));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
  return out.sort();
}
