/**
 * Reference extraction that reads a SKILL.md body as Markdown (CommonMark block structure, GitHub footnotes):
 * links, images, link reference definitions and path-shaped mentions in prose and inline code, each with its exact
 * range. Nothing inside fenced code (``` and ~~~, closed or running to the end), indented code blocks (4 columns
 * beyond the enclosing list item's content; indented text under list items and lazy paragraph lines is not code)
 * or HTML comments is a reference, nor is inline code that is a link's text only.
 *
 * Not file references: URLs, anchors, absolute, home and templated targets; placeholder names (`path/to/…`,
 * `filename.md`, `script_name.py`, `your-…`); targets holding `[`, `]` or `=` (SMARTS, regexes); footnotes; and
 * bare mentions that are flag values (`-dict=../x.dict`, `--out=../y.md`). Tentative (a reference only if the file
 * exists: never reported missing): link targets without a file extension that are no folder (`(url)`, routes, wiki
 * pages), a known folder and a name without extension ("under assets/code", `scripts/run`), and mentions in a clause of examples ("e.g.", "for example", "such as", an
 * "Example:" label), after a prohibition ("never run", "do not edit") or after an indefinite article ("a
 * `scripts/x.py` script").
 * A path written with `\` separators is a candidate too (validation reports it as not portable).
 *
 * Lines are classified on `lines.text`, which for a Utf8LineIndex is the file's bytes: everything a block
 * structure is recognised by is ASCII. Only lines that hold `/`, `]` or `\` outside code are decoded and read.
 */
import { KNOWN_SEGMENTS, normaliseLinkTarget, type ReferenceCandidate, type ReferenceKind } from '../skills/references';
import { LineIndex } from '../validation/text';

/** Longer lines are data (minified code, base64), not prose: not read. */
const MAX_LINE = 20000;

const INLINE_LINK = /!?\[(?:[^\]\\\n]|\\.){0,1000}\]\([ \t]*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*\)/g;
/** A link reference definition (not a footnote, `[^1]: text`). */
const DEFINITION = /^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*(<[^<>\n]*>|\S+)/;
const URL_LIKE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<>)\]`'"]*|\bwww\.[^\s<>)\]`'"]+/g;
/** A run of characters a forward-slash path may hold. */
const PATH_RUN = /[A-Za-z0-9_.~@:+%/-]+/g;
/** A run of characters a backslash path may hold, with at least one `\`. */
const BACKSLASH_RUN = /[A-Za-z0-9_.+-]+(?:\\[A-Za-z0-9_.+-]+)+/g;
const SEGMENT = /^\w[\w.+-]*$/;
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const DOMAIN = /\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|me|sh)$/i;
/** Names that stand for "some file" in templates and instructions. */
const PLACEHOLDER = /^(?:(?:file|script|skill|folder|dir|module|page|doc|template)[-_]?name|your[-_].*|my[-_]file|x{3,}|foo|bar|baz)$/i;
/** A clause of examples or prohibitions: what it names is not a file of the skill. */
const EXAMPLE_CLAUSE = /(?:\be\.g\.|\bfor (?:example|instance)\b|\bexamples?\**\s*:|\bsuch as\b)/i;
/** A prohibition governing the mention ("never run `./x.sh`", "do not edit `…`"). */
const PROHIBITION = /\b(?:never|don'?t|do not)\s+(?:\w+\s+){0,2}`*$/i;
/** An indefinite article right before a mention (and its opening backtick): a hypothetical file. */
const INDEFINITE = /\b(?:a|an)\s+`*$/i;
/** Where a clause starts: `;`, `!`, `?`, a table cell's `|`, or a `.` ending a sentence (followed by a capital). */
const CLAUSE_BREAK = /[;!?|]|\.\s+(?=[A-Z*_#])/g;

/** Raw reference candidates in `body` (whose first line is file line `bodyStartLine`), in order. Never throws. */
export function extractReferences(body: string, bodyStartLine: number): ReferenceCandidate[] {
  if (typeof body !== 'string' || body === '') return [];
  return extractReferencesFrom(new LineIndex(body), 0, bodyStartLine);
}

/**
 * The references of the lines `firstLine`… (0-based) of `lines`, where `firstLine` is file line `firstLineNumber`
 * (the body of a file whose index the parser already built). Columns count UTF-16 units of the decoded line.
 */
export function extractReferencesFrom(lines: LineIndex, firstLine: number, firstLineNumber: number): ReferenceCandidate[] {
  const found: ReferenceCandidate[] = [];
  const src = lines.text;
  const starts = lines.starts;
  const count = starts.length;
  let fenceChar = 0; // 96 (`) or 126 (~) while in fenced code
  let fenceLength = 0;
  let commentEnd = -1; // offset of the `-->` closing an HTML comment block (src.length: unclosed)
  let paragraph = false; // the previous line is paragraph text: a less indented or 4-column line continues it
  const items: number[] = []; // content columns of the open list items, innermost last
  // Next `/`, `]` and `\` at or after the current line (-1: none left): a prose line without one is not read.
  let slash = -2;
  let bracket = -2;
  let backslash = -2;
  for (let i = firstLine; i < count; i++) {
    const start = starts[i];
    if (commentEnd >= 0) {
      if (start <= commentEnd) continue;
      commentEnd = -1;
    }
    const end = lines.lineEnd(i);
    let p = start;
    let column = 0;
    for (; p < end; p++) {
      const c = src.charCodeAt(p);
      if (c === 32) column++;
      else if (c === 9) column += 4 - (column % 4);
      else break;
    }
    if (p === end) { paragraph = false; continue; } // blank: code blocks and list items stay open
    const c = src.charCodeAt(p);
    if (fenceChar !== 0) {
      if (c === fenceChar) {
        let q = p;
        while (q < end && src.charCodeAt(q) === fenceChar) q++;
        if (q - p >= fenceLength && isBlank(src, q, end)) fenceChar = 0;
      }
      continue;
    }
    let base = items.length ? items[items.length - 1] : 0;
    if (column < base) {
      // Less indented than the list item's content: a lazy continuation of its paragraph, or the item ends.
      if (!(paragraph && listContent(src, p, end, column) < 0 && !startsBlock(src, p, end))) {
        while (items.length && column < items[items.length - 1]) items.pop();
        base = items.length ? items[items.length - 1] : 0;
      }
    }
    if (column >= base + 4 && !paragraph) continue; // indented code
    const content = listContent(src, p, end, column);
    let at = p;
    if (content >= 0) {
      while (items.length && items[items.length - 1] > column) items.pop();
      items.push(content);
      at = p + 1;
      while (at < end && src.charCodeAt(at) !== 32 && src.charCodeAt(at) !== 9) at++; // past the marker
      while (at < end && (src.charCodeAt(at) === 32 || src.charCodeAt(at) === 9)) at++;
    }
    const d = at < end ? src.charCodeAt(at) : 0;
    if (d === 96 || d === 126) {
      let q = at;
      while (q < end && src.charCodeAt(q) === d) q++;
      if (q - at >= 3 && (d === 126 || src.indexOf('`', q) < 0 || src.indexOf('`', q) >= end)) {
        fenceChar = d;
        fenceLength = q - at;
        paragraph = false;
        continue;
      }
    }
    if (d === 60 && src.startsWith('<!--', at)) {
      const close = src.indexOf('-->', at + 4);
      if (close < 0 || close >= end) commentEnd = close < 0 ? src.length : close;
      paragraph = false;
      continue;
    }
    paragraph = d !== 35; // a heading (`#`) is no paragraph
    if (slash !== -1 && slash < start) slash = src.indexOf('/', start);
    if (bracket !== -1 && bracket < start) bracket = src.indexOf(']', start);
    if (backslash !== -1 && backslash < start) backslash = src.indexOf('\\', start);
    if (!((slash !== -1 && slash < end) || (bracket !== -1 && bracket < end) || (backslash !== -1 && backslash < end))) continue;
    if (end - start > MAX_LINE && lines.slice(start, end).length > MAX_LINE) continue;
    const before = found.length;
    readLine(lines.slice(start, end), firstLineNumber + (i - firstLine), found);
    if (found.length - before > 1) sortLine(found, before);
  }
  return found;
}

/** Whether `s[from, to)` is spaces and tabs only. */
function isBlank(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * For a line whose first non-blank character is at `p` (column `column`): the content column of the list item it
 * opens (`-`, `*`, `+`, or 1-9 digits and `.` or `)`, then a space, a tab or the line end), else -1.
 */
function listContent(s: string, p: number, end: number, column: number): number {
  const c = s.charCodeAt(p);
  let q = p;
  if (c === 45 || c === 42 || c === 43) {
    q = p + 1;
  } else if (c >= 48 && c <= 57) {
    while (q < end && q - p < 9 && s.charCodeAt(q) >= 48 && s.charCodeAt(q) <= 57) q++;
    const e = s.charCodeAt(q);
    if (q === end || (e !== 46 && e !== 41)) return -1;
    q++;
  } else {
    return -1;
  }
  if (q === end) return column + (q - p) + 1;
  const after = s.charCodeAt(q);
  if (after !== 32 && after !== 9) return -1;
  let spaces = 0;
  let r = q;
  while (r < end && (s.charCodeAt(r) === 32 || s.charCodeAt(r) === 9) && spaces < 5) { spaces++; r++; }
  if (r === end || spaces >= 5) spaces = 1; // blank after the marker, or indented code in the item: one space
  return column + (q - p) + spaces;
}

/** Whether the line at `p` starts a block that interrupts a paragraph (heading, fence, quote, HTML, rule). */
function startsBlock(s: string, p: number, end: number): boolean {
  const c = s.charCodeAt(p);
  if (c === 35 || c === 62 || c === 60) return true; // # > <
  if (c === 96 || c === 126) return end - p >= 3 && s.charCodeAt(p + 1) === c && s.charCodeAt(p + 2) === c;
  return false;
}

/** Puts the candidates `found[from]`… (one line's) in column order. */
function sortLine(found: ReferenceCandidate[], from: number): void {
  const tail = found.splice(from).sort((a, b) => a.range.column - b.range.column);
  for (const c of tail) found.push(c);
}

/** `[from, to)` pairs. */
type Spans = number[];

function inside(spans: Spans | undefined, k: number): boolean {
  if (spans) for (let j = 0; j < spans.length; j += 2) if (k >= spans[j] && k < spans[j + 1]) return true;
  return false;
}

/** The code spans of `t` (backtick runs closed by a run of the same length), as [from, to) pairs over the backticks. */
function codeSpans(t: string): Spans | undefined {
  let spans: Spans | undefined;
  let k = t.indexOf('`');
  while (k >= 0) {
    if (k > 0 && t.charCodeAt(k - 1) === 92) { k = t.indexOf('`', k + 1); continue; } // an escaped backtick
    let e = k;
    while (e < t.length && t.charCodeAt(e) === 96) e++;
    const run = e - k;
    let close = t.indexOf('`', e);
    for (; close >= 0; close = t.indexOf('`', close)) {
      let f = close;
      while (f < t.length && t.charCodeAt(f) === 96) f++;
      if (f - close === run) { (spans ??= []).push(k, f); break; }
      close = f;
    }
    if (close < 0) { k = t.indexOf('`', e); continue; } // unmatched: literal backticks
    k = t.indexOf('`', spans![spans!.length - 1]);
  }
  return spans;
}

function push(found: ReferenceCandidate[], target: string, line: number, column: number, kind: ReferenceKind, tentative = false): void {
  const c: ReferenceCandidate = { target, range: { line, column: column + 1, endLine: line, endColumn: column + 1 + target.length }, kind };
  if (tentative) c.tentative = true;
  found.push(c);
}

/** The references of one (decoded) prose line `t`, file line `line`. */
function readLine(t: string, line: number, found: ReferenceCandidate[]): void {
  const code = t.includes('`') ? codeSpans(t) : undefined;
  let blanks: Spans | undefined; // text not to read for bare paths: links, URLs, comments

  const comment = t.indexOf('<!--');
  if (comment >= 0) {
    const close = t.indexOf('-->', comment + 4);
    (blanks ??= []).push(comment, close < 0 ? t.length : close + 3);
  }
  if (t.includes(']:')) {
    const def = DEFINITION.exec(t);
    if (def && !inside(code, def.index)) {
      const raw = def[1];
      const at = def.index + def[0].length - raw.length;
      const target = linkTarget(raw);
      if (target !== undefined) push(found, target, line, at + (raw.charCodeAt(0) === 60 ? (/^<\s*/.exec(raw)?.[0].length ?? 0) : 0), 'link', !hasExtension(target));
      return; // the whole line is the definition
    }
  }
  if (t.includes('](')) {
    INLINE_LINK.lastIndex = 0;
    for (let m = INLINE_LINK.exec(t); m !== null; m = INLINE_LINK.exec(t)) {
      const at = m.index;
      const open = t.indexOf('](', at) + 2; // the match's first `](` (its label may hold an escaped one)
      if (inside(code, at) || inside(code, open - 2) || inside(blanks, at)) continue; // code, not a link
      if (at > 0 && t.charCodeAt(at - 1) === 92) continue; // `\[`: escaped, literal text
      if (t.charCodeAt(at + (t.charCodeAt(at) === 33 ? 2 : 1)) === 94) continue; // `[^1](…)`: a footnote
      (blanks ??= []).push(at, at + m[0].length);
      const raw = m[1];
      const target = linkTarget(raw);
      if (target === undefined) continue;
      let column = open;
      while (t.charCodeAt(column) === 32 || t.charCodeAt(column) === 9) column++;
      if (raw.charCodeAt(0) === 60) column += /^<\s*/.exec(raw)?.[0].length ?? 0;
      push(found, target, line, column, 'link', !hasExtension(target));
    }
  }
  const hasSlash = t.includes('/');
  const hasBackslash = t.includes('\\');
  if (!hasSlash && !hasBackslash) return;
  if (hasSlash && (t.includes('://') || t.includes('www.'))) {
    URL_LIKE.lastIndex = 0;
    for (let m = URL_LIKE.exec(t); m !== null; m = URL_LIKE.exec(t)) (blanks ??= []).push(m.index, m.index + m[0].length);
  }
  // Blanked text is spaces, which no run crosses.
  let scan = t;
  if (blanks) for (let k = 0; k < blanks.length; k += 2) scan = scan.slice(0, blanks[k]) + ' '.repeat(blanks[k + 1] - blanks[k]) + scan.slice(blanks[k + 1]);
  if (hasSlash) {
    PATH_RUN.lastIndex = 0;
    for (let m = PATH_RUN.exec(scan); m !== null; m = PATH_RUN.exec(scan)) {
      const run = m[0];
      if (!run.includes('/')) continue;
      let a = m.index;
      let b = a + run.length;
      while (b > a && (t.charCodeAt(b - 1) === 46 || t.charCodeAt(b - 1) === 58 || t.charCodeAt(b - 1) === 44)) b--; // sentence punctuation
      while (a < b && t.charCodeAt(a) === 58) a++; // leading `:`
      if (a === b) continue;
      const target = t.slice(a, b);
      const shape = barePath(target, a > 0 ? t.charCodeAt(a - 1) : -1);
      if (shape === NOT_A_PATH) continue;
      // A folder-like path opening inline code is a command (`scripts/review-package PLAN`); in prose it may be a folder.
      const command = shape === FOLDER_LIKE && a > 0 && t.charCodeAt(a - 1) === 96 && inside(code, a - 1);
      push(found, target, line, a, 'path', (shape === FOLDER_LIKE && !command) || isProse(t, a));
    }
  }
  if (hasBackslash) {
    BACKSLASH_RUN.lastIndex = 0;
    for (let m = BACKSLASH_RUN.exec(scan); m !== null; m = BACKSLASH_RUN.exec(scan)) {
      const a = m.index;
      let b = a + m[0].length;
      while (b > a && (t.charCodeAt(b - 1) === 46 || t.charCodeAt(b - 1) === 44)) b--;
      const before = a > 0 ? t.charCodeAt(a - 1) : -1;
      // After `\` (an escape), `:` (a drive, `C:\`), `/` or `$`/`%` (variables): not a relative path of the skill.
      if (before === 92 || before === 58 || before === 47 || before === 36 || before === 37) continue;
      const target = t.slice(a, b);
      if (isBackslashPath(target)) push(found, target, line, a, 'path', isProse(t, a));
    }
  }
}

/** A link target as a file reference (normalised), or undefined for URLs, placeholders and non-files. */
function linkTarget(raw: string): string | undefined {
  const target = normaliseLinkTarget(raw);
  if (target === undefined || /[[\]=]/.test(target)) return undefined;
  return hasPlaceholder(target.replace(/\\/g, '/')) ? undefined : target;
}

/**
 * Whether a link target names a file with an extension or a folder (`…/`): a target without either (`url`, a
 * route, a wiki page, `LICENSE`) is tentative.
 */
function hasExtension(target: string): boolean {
  const path = target.replace(/\\/g, '/');
  return path.endsWith('/') || EXTENSION.test(path.slice(path.lastIndexOf('/') + 1));
}

/** `path/to/…`, or a segment (without its extension) that is a placeholder name. */
function hasPlaceholder(path: string): boolean {
  const segments = path.split('/');
  let k = 0;
  while (segments[k] === '.' || segments[k] === '..') k++;
  if (segments[k] === 'path' && segments[k + 1] === 'to') return true;
  for (; k < segments.length; k++) {
    const s = segments[k];
    const dot = s.lastIndexOf('.');
    if (PLACEHOLDER.test(dot > 0 ? s.slice(0, dot) : s)) return true;
  }
  return false;
}

const NOT_A_PATH = 0;
const FILE_PATH = 1;
/** A known folder of a skill and a name without extension (`scripts/run`, but also "under assets/code"). */
const FOLDER_LIKE = 2;

/**
 * What the run of path characters `p` is (`before`: the code of the character before it, -1 at the line start).
 * A bare relative path to a file: not after `\ $ / { } =` (escapes, variables, templates, flag values), none of
 * `: ~ % @`, no empty segment, leading `.`/`..` segments then segments matching SEGMENT, the last with a file
 * extension (else FOLDER_LIKE when the first is a known folder of a skill); without leading dot segments the first
 * must not look like a domain; no placeholder name.
 */
function barePath(p: string, before: number): number {
  if (before === 92 || before === 36 || before === 47 || before === 123 || before === 125 || before === 61) return NOT_A_PATH;
  if (/[:~%@]/.test(p)) return NOT_A_PATH;
  const segments = p.split('/');
  if (segments.length < 2) return NOT_A_PATH;
  let k = 0;
  while (k < segments.length && (segments[k] === '.' || segments[k] === '..')) k++;
  if (k === segments.length) return NOT_A_PATH;
  for (let j = k; j < segments.length; j++) if (!SEGMENT.test(segments[j])) return NOT_A_PATH;
  if (k === 0 && DOMAIN.test(segments[0])) return NOT_A_PATH; // example.com/a.md
  if (hasPlaceholder(p)) return NOT_A_PATH;
  if (EXTENSION.test(segments[segments.length - 1])) return FILE_PATH;
  return k === 0 && KNOWN_SEGMENTS.has(segments[0]) ? FOLDER_LIKE : NOT_A_PATH;
}

/** `barePath` (a file) for a path written with `\`: it must start with a dot segment or a known folder of a skill. */
function isBackslashPath(p: string): boolean {
  const segments = p.split('\\');
  const first = segments[0];
  if (first !== '.' && first !== '..' && !KNOWN_SEGMENTS.has(first)) return false;
  return barePath(segments.join('/'), -1) === FILE_PATH;
}

/**
 * Whether the mention at `at` in `t` is prose rather than a reference: its clause (back to the last `;`, `!`,
 * `?`, `|` or sentence end) gives examples or forbids, or an indefinite article comes right before it.
 */
function isProse(t: string, at: number): boolean {
  const from = Math.max(0, at - 160);
  const before = t.slice(from, at);
  if (INDEFINITE.test(before) || PROHIBITION.test(before)) return true;
  let clause = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(before); m !== null; m = CLAUSE_BREAK.exec(before)) clause = m.index + m[0].length;
  return EXAMPLE_CLAUSE.test(before.slice(clause));
}
