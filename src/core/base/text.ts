/** Offset ↔ 1-based line/column mapping over a string (UTF-16 columns, like VS Code). */
import type { Range } from './types';

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

  /** The text of the offsets `[start, end)`. */
  slice(start: number, end: number): string {
    return this.text.slice(start, end);
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

const SURROGATE = /[\ud800-\udfff]/;

/** Number of Unicode code points (what "characters" means in the length rules). */
export function codePointLength(s: string): number {
  // No surrogate: one code point per unit (a native scan, where the loop below would walk every character).
  if (!SURROGATE.test(s)) return s.length;
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

const NON_ASCII = /[^\u0000-\u007f]/; // eslint-disable-line no-control-regex

/** `s.normalize('NFKC')`; NFKC leaves ASCII as it is, so pure-ASCII text (most names) skips the Unicode tables. */
export function nfkc(s: string): string {
  return NON_ASCII.test(s) ? s.normalize('NFKC') : s;
}

/**
 * `slice(start, end)` of a line index whose `text` is `text` and, for a Utf8LineIndex, whose bytes are `bytes`: the
 * text itself, decoded from the bytes where it holds non-ASCII bytes.
 */
export function decodedSlice(text: string, bytes: Buffer | undefined, start: number, end: number): string {
  const raw = text.slice(start, end);
  return bytes !== undefined && NON_ASCII.test(raw) ? bytes.toString('utf8', start, end) : raw;
}

/**
 * A LineIndex over the bytes of a UTF-8 file, held as a one-byte ("latin1") string: each character is one byte, so
 * searching it for ASCII (line breaks, `/`, `]`, fences) finds exactly what a search of the decoded text finds,
 * without decoding the file (UTF-8 decoding is the costliest step of a bulk run). Line breaks are ASCII, so lines
 * are the decoded text's lines. `text`, `starts` and offsets are in bytes; what leaves the index is exact:
 * `lineText` decodes a line that holds non-ASCII bytes, and ranges/positions count UTF-16 columns as LineIndex does.
 * Only for valid UTF-8 (check with `isUtf8` first: a replacement character would change lengths).
 */
export class Utf8LineIndex extends LineIndex {
  /** `bytes` must be valid UTF-8; `latin1` is `bytes.latin1Slice()` (passed when the caller already has it). */
  constructor(readonly bytes: Buffer, latin1: string = bytes.toString('latin1')) {
    super(latin1);
  }

  /** The exact (decoded) text of line `i`. */
  override lineText(i: number): string {
    return this.slice(this.starts[i], this.lineEnd(i));
  }

  /** The exact text of the bytes `[start, end)` (both at character boundaries, e.g. ASCII positions). */
  override slice(start: number, end: number): string {
    return decodedSlice(this.text, this.bytes, start, end);
  }

  override position(offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const i = this.lineOf(o);
    return { line: i + 1, column: this.slice(this.starts[i], o).length + 1 };
  }

  override lineRange(i: number): Range {
    const line = Math.max(0, Math.min(i, this.starts.length - 1));
    return { line: line + 1, column: 1, endLine: line + 1, endColumn: this.lineText(line).length + 1 };
  }
}

/**
 * Length in UTF-16 code units (what `string.length` gives) of the decoded text of valid UTF-8 `bytes`, without
 * decoding: every byte counts one, less continuation bytes (10xxxxxx), plus one for each 4-byte lead (a surrogate
 * pair). Reads four bytes at a time and skips all-ASCII words.
 */
export function utf16Length(bytes: Uint8Array): number {
  const n = bytes.length;
  // Byte by byte up to a 4-byte-aligned offset, then 16 bytes at a time (four words; all-ASCII blocks skipped), then
  // the tail. All byte-by-byte work is one function, so it shares type feedback (a separate head or tail loop, first
  // run with another length late in a bulk run, made the optimized code bail out again and again).
  const aligned = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  const words = (n - aligned) >> 2;
  const blockWords = words >= 4 ? words & ~3 : 0; // words in whole blocks of four
  const tail = aligned + blockWords * 4;
  let length = n + bytesDelta(bytes, 0, aligned) + bytesDelta(bytes, tail, n);
  if (blockWords > 0) {
    // The blocks go in slices of a few hundred, each one short call: a loop that runs long within one call is
    // compiled on the stack (OSR), and V8 kept entering such code on every later call although it bailed out each
    // time at a branch the first file had not taken (hundreds of bail-outs a bulk run).
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + aligned, blockWords);
    for (let w = 0; w < blockWords; w += SLICE_WORDS) length += blocksDelta(bytes, view, aligned, w, Math.min(blockWords, w + SLICE_WORDS));
  }
  return length;
}

/** Words per blocksDelta call (a multiple of four). */
const SLICE_WORDS = 256;

/** What the blocks of four words `view[from, to)` add to the UTF-16 length (`view` starts at byte `aligned`). */
function blocksDelta(bytes: Uint8Array, view: Uint32Array, aligned: number, from: number, to: number): number {
  let delta = 0;
  for (let w = from; w < to; w += 4) {
    if (((view[w] | view[w + 1] | view[w + 2] | view[w + 3]) & 0x80808080) === 0) continue;
    const at = aligned + w * 4;
    delta += bytesDelta(bytes, at, at + 16);
  }
  return delta;
}

/** What the bytes `[from, to)` of UTF-8 add to the UTF-16 length beyond one each. */
function bytesDelta(bytes: Uint8Array, from: number, to: number): number {
  let delta = 0;
  for (let i = from; i < to; i++) delta += utf16Delta(bytes[i]);
  return delta;
}

/** What one byte of UTF-8 adds to the UTF-16 length beyond one: -1 for a continuation byte, +1 for a 4-byte lead. */
function utf16Delta(b: number): number {
  return (b & 0xc0) === 0x80 ? -1 : b >= 0xf0 ? 1 : 0;
}

/** Rough token estimate used by `body-tokens` and the tree tooltip: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return tokensForLength(text.length);
}

/** `estimateTokens` of a text that is `length` characters (UTF-16 units) long. */
export function tokensForLength(length: number): number {
  return Math.ceil(length / 4);
}

/**
 * `s` as a string of its own. V8 makes substrings (13+ characters) views of their parent and joins strings
 * lazily, so a short value or message cut from a SKILL.md keeps the whole file text alive as long as it lives;
 * the copy lets the text be collected young (a bulk run otherwise retains every file it reads).
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** Levenshtein distance of two short strings; Infinity when their lengths differ by more than 3 (no typo of each other). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Splits `value` on the characters `isSeparator` accepts outside `open`…`close` groups; parts trimmed, empty ones dropped. */
export function splitOutside(value: string, open: string, close: string, isSeparator: (ch: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === open) depth++;
    else if (ch === close) depth = Math.max(0, depth - 1);
    if (depth === 0 && isSeparator(ch)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
