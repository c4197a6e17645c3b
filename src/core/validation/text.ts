/** Offset ↔ 1-based line/column mapping over a string (UTF-16 columns, like VS Code). */
import type { Range } from '../types';

/** Line starts of a text; `\r\n`, `\n` and a lone `\r` each end a line (as in VS Code). */
export class LineIndex {
  /** Offset of the first character of each line. */
  readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // Fast path (no CR anywhere): indexOf is much faster than a per-character loop.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset just past the last character of line `i` (0-based), excluding its line break. */
  lineEnd(i: number): number {
    if (i + 1 >= this.starts.length) return this.text.length;
    let end = this.starts[i + 1];
    if (end > 0 && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > 0 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** The text of line `i` (0-based) without its line break. */
  lineText(i: number): string {
    return this.text.slice(this.starts[i], this.lineEnd(i));
  }

  /** 0-based line index holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** 1-based line and column of an offset (clamped to the text). */
  position(offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const i = this.lineOf(o);
    return { line: i + 1, column: o - this.starts[i] + 1 };
  }

  /** Range of `[start, end)` offsets. */
  range(start: number, end: number): Range {
    const a = this.position(start);
    const b = this.position(Math.max(start, end));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }

  /** Range covering line `i` (0-based) without its line break. */
  lineRange(i: number): Range {
    const line = Math.max(0, Math.min(i, this.starts.length - 1));
    return { line: line + 1, column: 1, endLine: line + 1, endColumn: this.lineEnd(line) - this.starts[line] + 1 };
  }
}

/** Number of Unicode code points (what "characters" means in the length rules). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
