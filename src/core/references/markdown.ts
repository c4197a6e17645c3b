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
 * pages), a known folder and a name without extension in prose ("under assets/code"; opening inline code it is a
 * command and counts), and mentions in a clause of examples ("e.g.", "for example", "such as", an "Example:"
 * label), after a prohibition ("never run", "do not edit") or after an indefinite article ("a `scripts/x.py`
 * script"); files named `example.*`/`sample.*` and the paths in the same parentheses; a quoted path in a code
 * statement in inline code; paths in a heading right above a fenced block; a mention followed by "etc." or by an
 * arrow to another path (a mapping that illustrates a rule). A brace expansion (`x.{sh,ps1}`) gives
 * one candidate per alternative; a glob (`agents-*-rules.md`) none. A path written with `\` separators is a
 * candidate too (validation reports it as not portable).
 *
 * Lines are classified on `lines.text`, which for a Utf8LineIndex is the file's bytes: everything a block
 * structure is recognised by is ASCII. Only lines that may hold a reference (a `\`, a `](` or `]:`, or a `/` in a
 * run of path characters that may be a path) outside code are decoded and read. The CommonMark departures, for
 * real skills: a closing fence may be indented any number of blanks (fences inside list items), and a line of
 * prose after a paragraph is read as its lazy continuation whatever its indentation.
 */
import { decodedSlice, LineIndex, Utf8LineIndex } from '../base/text';
import { absoluteLinkTarget, KNOWN_SEGMENTS, normaliseLinkTarget, type ReferenceCandidate, type ReferenceKind } from './extract';

/** Longer lines are data (minified code, base64), not prose: not read. */
const MAX_LINE = 20000;

const INLINE_LINK = /!?\[(?:[^\]\\\n]|\\.){0,1000}\]\([ \t]*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*\)/g;
/** A link reference definition (not a footnote, `[^1]: text`). */
const DEFINITION = /^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*(<[^<>\n]*>|\S+)/;
const URL_LIKE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<>)\]`'"]*|\bwww\.[^\s<>)\]`'"]+/g;
/** A run of characters a backslash path may hold, with at least one `\`. */
const BACKSLASH_RUN = /[A-Za-z0-9_.+-]+(?:\\[A-Za-z0-9_.+-]+)+/g;
const SEGMENT = /^\w[\w.+-]*$/;
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const DOMAIN = /\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|me|sh)$/i;
/** Names that stand for "some file" in templates and instructions. */
const PLACEHOLDER = /^(?:\.\.?\/)*path\/to\/|(?:^|\/)(?:(?:file|script|skill|folder|dir|module|page|doc|template)[-_]?name|your[-_][^/]*|my[-_]file|x{3,}|foo|bar|baz)(?:\.[^/]*)?(?:\/|$)/i;
/** A clause of examples or prohibitions: what it names is not a file of the skill. */
const EXAMPLE_CLAUSE = /(?:\be\.g\.|\bfor (?:example|instance)\b|\bexamples?\**\s*:|\bsuch as\b|\bz\.[\s_]?B\.|\bzum Beispiel\b|\bp\.\s?ej\.|\bpor ejemplo\b|\bpar ex\.|\bpar exemple\b|例如|比如|例えば|如(?=[\s:：`“"「（(]))/i;
/** "z. B.": an abbreviation whose inner ". B" is no sentence end (CLAUSE_BREAK would cut the clause there). */
const ABBREVIATION = /\bz\.\s+B\./g;
/**
 * A sentence that names where the file is: it changes folder first ("`cd` to `../other-skill/` and run
 * `scripts/x.py`"), or the file is another skill's ("the **other-skill** skill's `examples/a.json`").
 */
const ELSEWHERE_CD = /\bcd`?\s+(?:(?:to|into|in)\s+)?[`'"]?[\w.~$@{}-]*\//i;
const ELSEWHERE_SKILL = /(?:\*\*|`)?([\w.-]+)(?:\*\*|`)?\s+(?:skill|plugin)['’]s\s*`?$/i;
const CD = /cd/i;
const SPACE = /\s/;

/**
 * The leftmost ELSEWHERE clause in `s`, as one regex `cd…|…skill's$` would find it: undefined when there is none,
 * null for a `cd`, else the name before "skill's". Each half runs only where it can match: unanchored and ending in
 * `$`, the "skill's" half costs every position of every text it is tried on.
 */
export function elsewhereClause(s: string): string | null | undefined {
  const cd = CD.test(s) ? ELSEWHERE_CD.exec(s) : null;
  const skill = endsWithS(s) ? ELSEWHERE_SKILL.exec(s) : null;
  if (cd !== null && (skill === null || cd.index <= skill.index)) return null;
  return skill === null ? undefined : skill[1];
}

/** Whether `s` ends with an `s` and then white space and a backtick at most (what "skill's" ends with). */
function endsWithS(s: string): boolean {
  let e = s.length;
  if (e > 0 && s.charCodeAt(e - 1) === 96) e--;
  while (e > 0 && SPACE.test(s[e - 1])) e--;
  const c = e > 0 ? s.charCodeAt(e - 1) : 0;
  return c === 115 || c === 83;
}

/** Words before "skill's" that mean this skill, not another one. */
const THIS_SKILL = new Set(['this', 'the', 'our', 'its', 'same', 'current', 'each', 'every', 'a', 'an', 'your', 'that']);

/** Where a clause starts: `;`, `!`, `?`, a table cell's `|`, or a `.` ending a sentence (followed by a capital). */
const CLAUSE_BREAK = /[;!?|。；！？]|\.\s+(?=[A-Z*_#])/g;

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
  // Lines are decoded here, not by `lines.slice`: a call on `lines` in the loop, optimized for the one kind of index
  // the first files gave, was thrown away when the other kind came.
  const bytes = lines instanceof Utf8LineIndex ? lines.bytes : undefined;
  const count = starts.length;
  let fenceChar = 0; // 96 (`) or 126 (~) while in fenced code
  let fenceLength = 0;
  let commentEnd = -1; // offset of the `-->` closing an HTML comment block (src.length: unclosed)
  let paragraph = false; // the previous line is paragraph text: a less indented or 4-column line continues it
  let heading = false; // the line is a heading
  const items: number[] = []; // content columns of the open list items, innermost last
  // Next `/`, `]` and `\` at or after the current line (-1: none left): a prose line without one is not read.
  let slash = -2;
  let bracket = -2;
  let backslash = -2;
  let variable = -2; // next `CLAUDE_` (a `${CLAUDE_SKILL_DIR}/…` path)
  const length = src.length;
  for (let i = firstLine; i < count; i++) {
    let start = starts[i];
    if (commentEnd >= 0) {
      if (start <= commentEnd) continue;
      commentEnd = -1;
    }
    if (fenceChar !== 0) {
      // In fenced code only a line holding the fence's kind can close it: jump to the next one.
      const next = src.indexOf(fenceChar === 96 ? '```' : '~~~', start);
      if (next < 0) break;
      while (i + 1 < count && starts[i + 1] <= next) i++;
      start = starts[i];
    }
    let end = i + 1 < count ? starts[i + 1] : length;
    if (end > start && src.charCodeAt(end - 1) === 10) end--;
    if (end > start && src.charCodeAt(end - 1) === 13) end--;
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
    heading = false;
    if (column < 4 && items.length === 0 && isPlainStart(c)) {
      paragraph = true; // the common case, a line of prose outside lists: no block structure to look at
    } else {
      let base = items.length ? items[items.length - 1] : 0;
      if (column < base) {
        // Less indented than the list item's content: a lazy continuation of its paragraph, or the item ends.
        // (startsBlock first: then its call is made on the common lines here too, and has type feedback when the
        // optimizing compiler compiles this function; never made before, it would be a point of deoptimization.)
        if (!(paragraph && !startsBlock(src, p, end) && listContent(src, p, end, column) < 0)) {
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
        if (q - at >= 3 && (d === 126 || !hasBacktick(src, q, end))) {
          fenceChar = d;
          fenceLength = q - at;
          paragraph = false;
          continue;
        }
      }
      if (d === 60 && src.startsWith('<!--', at)) {
        const close = src.indexOf('-->', at + 4);
        if (close < 0 || close >= end) commentEnd = close < 0 ? length : close;
        paragraph = false;
        continue;
      }
      paragraph = d !== 35; // a heading (`#`) is no paragraph
      heading = d === 35;
    }
    // Whether the line may hold a reference, read in place (all that is looked for is ASCII): a `\`, a `](` or
    // `]:`, or a `/` in a run of path characters that passes `plausible`. Most lines with a `/` have none ("and/or")
    // and are not decoded and read in full. The pointers move on past what was looked at.
    if (backslash !== -1 && backslash < start) backslash = src.indexOf('\\', start);
    let hold = backslash !== -1 && backslash < end;
    if (!hold) {
      if (bracket !== -1 && bracket < start) bracket = src.indexOf(']', start);
      while (bracket !== -1 && bracket < end) {
        const n = src.charCodeAt(bracket + 1);
        if (n === 40 || n === 58) { hold = true; break; }
        bracket = src.indexOf(']', bracket + 1);
      }
    }
    if (!hold) {
      if (slash !== -1 && slash < start) slash = src.indexOf('/', start);
      while (slash !== -1 && slash < end) {
        let a = slash;
        while (a > start && isPathChar(src.charCodeAt(a - 1))) a--;
        let b = slash + 1;
        while (b < end && isPathChar(src.charCodeAt(b))) b++;
        // (A URL in the run cuts it where the URL starts: then the part before may be a path.)
        if (plausible(src, a, b) || hasUrl(src, a, b)) { hold = true; break; }
        slash = src.indexOf('/', b);
      }
    }
    if (variable !== -1 && variable < start) variable = indexOfClaude(src, start);
    const variables = variable !== -1 && variable < end;
    if (!hold && !variables) continue;
    const t = decodedSlice(src, bytes, start, end);
    if (t.length > MAX_LINE) continue;
    const before = found.length;
    const line = firstLineNumber + (i - firstLine);
    if (hold) readLine(t, line, found, heading && fenceFollows(src, end));
    if (variables) variablePaths(t, line, found);
    if (found.length - before > 1) sortLine(found, before);
  }
  return found;
}

/**
 * `src.indexOf('CLAUDE_', from)`, found as "LAUDE_" with a "C" before it: V8 searches a pattern of seven characters or
 * more with Boyer-Moore tables built at every call, ten times slower here than its plain search for six (which skips
 * to each "L" with memchr); on a bulk run the plain call was a quarter of extractReferencesFrom's own time.
 */
function indexOfClaude(src: string, from: number): number {
  for (let k = src.indexOf('LAUDE_', from + 1); k >= 0; k = src.indexOf('LAUDE_', k + 1)) if (src.charCodeAt(k - 1) === 67) return k - 1;
  return -1;
}

/**
 * `${CLAUDE_SKILL_DIR}/…` and `${CLAUDE_PLUGIN_ROOT}/…` (also `$VAR/…` and `"${VAR}"/…`): paths Claude Code
 * substitutes in the skill's content (skills.md, "Available string substitutions"), in prose and inline code
 * (`python3 ${CLAUDE_SKILL_DIR}/scripts/x.py`): a file of the skill or the plugin for certain. Not in fenced code,
 * like every reference: skills that teach plugin writing show such paths in example blocks. A path that continues
 * as a template or glob (`<name>`, `*`, `{a,b}`, `$X`) or is a placeholder names no one file.
 */
const VARIABLE_PATH = /(["']?)\$(\{?)(CLAUDE_SKILL_DIR|CLAUDE_PLUGIN_ROOT)(\}?)\1\/([A-Za-z0-9_./@+~%-]*)/g;

function variablePaths(t: string, line: number, found: ReferenceCandidate[]): void {
  VARIABLE_PATH.lastIndex = 0;
  for (let m = VARIABLE_PATH.exec(t); m !== null; m = VARIABLE_PATH.exec(t)) {
    if ((m[2] === '{') !== (m[4] === '}')) continue; // `${X` or `$X}`: not the variable
    let path = m[5];
    const after = t.charCodeAt(m.index + m[0].length);
    if (after === 42 || after === 63 || after === 91 || after === 123 || after === 60 || after === 36) continue; // glob, template
    while (path.length && isPunct(path.charCodeAt(path.length - 1))) path = path.slice(0, -1);
    // `${CLAUDE_PLUGIN_ROOT}/.../x.py`: an elision, not a folder named `...`.
    if (path === '' || path === '.' || hasPlaceholder(path) || /(?:^|\/)\.{3,}(?:\/|$)/.test(path)) continue;
    const column = m.index + m[0].length - m[5].length;
    push(found, path, line, column, 'path', isProse(t, m.index), path.length);
    found[found.length - 1].anchor = m[3] === 'CLAUDE_SKILL_DIR' ? 'skill' : 'plugin';
  }
}

/**
 * Whether a line whose first non-blank character is `c` (indented less than 4, outside lists) is plain paragraph
 * text: not a list marker, fence, HTML comment, heading or other block start.
 */
function isPlainStart(c: number): boolean {
  return c >= 65 ? c !== 96 && c !== 126 : c !== 45 && c !== 42 && c !== 43 && c !== 60 && c !== 35 && (c < 48 || c > 57);
}

/** Whether the first non-blank line after offset `from` (a line's end) opens a fenced block. */
function fenceFollows(s: string, from: number): boolean {
  let k = from;
  for (let c = s.charCodeAt(k); c === 10 || c === 13 || c === 32 || c === 9; c = s.charCodeAt(++k));
  const c = s.charCodeAt(k);
  return (c === 96 || c === 126) && s.charCodeAt(k + 1) === c && s.charCodeAt(k + 2) === c;
}

/** Whether `s[from, to)` holds a backtick (bounded: no search past the line). */
function hasBacktick(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === 96) return true;
  return false;
}

/**
 * The cheap test a run of path characters `s[a, b)` must pass to be read as a bare path: after trailing
 * punctuation and leading `:`s, a `.` and a letter after its last `/` (an extension), or a leading `.` or known
 * folder.
 */
function plausible(s: string, a: number, b: number): boolean {
  while (b > a && isPunct(s.charCodeAt(b - 1))) b--;
  while (a < b && s.charCodeAt(a) === 58) a++;
  if (a === b) return false;
  let dot = b - 1; // the last `.` after the last `/`
  while (dot > a && s.charCodeAt(dot) !== 46 && s.charCodeAt(dot) !== 47) dot--;
  return (s.charCodeAt(dot) === 46 && isLetter(s.charCodeAt(dot + 1))) || s.charCodeAt(a) === 46 || startsKnown(s, a);
}

/**
 * Whether `s[from + 1, to)` holds a `://`. A search by the string built-in: a loop here, run on few lines, had no type
 * feedback when the optimizing compiler first compiled the extractor, and threw its code away when first reached.
 */
function hasUrl(s: string, from: number, to: number): boolean {
  return to - from > 3 && s.slice(from + 1, to).includes('://');
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
    // Both comparisons on every digit-led line (in `e !== 46 && e !== 41` the common "1." never reaches the second:
    // it had no type feedback when the extractor was optimized, and threw that code away when first reached).
    const dot = e === 46;
    const paren = e === 41;
    if (q === end || !(dot || paren)) return -1;
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
  // Insertion sort in place (a line holds a few candidates, mostly in order already); stable, as Array#sort is.
  for (let k = from + 1; k < found.length; k++) {
    const c = found[k];
    let j = k;
    while (j > from && found[j - 1].range.column > c.range.column) {
      found[j] = found[j - 1];
      j--;
    }
    found[j] = c;
  }
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

function push(found: ReferenceCandidate[], target: string, line: number, column: number, kind: ReferenceKind, tentative = false, width = target.length): void {
  const c: ReferenceCandidate = { target, range: { line, column: column + 1, endLine: line, endColumn: column + 1 + width }, kind };
  if (tentative) c.tentative = true;
  found.push(c);
}

/**
 * The references of one (decoded) prose line `t`, file line `line`. `titled`: the line is a heading right above a
 * fenced block, whose paths name the example file the block shows ("### Setup script (scripts/setup.ps1)").
 */
function readLine(t: string, line: number, found: ReferenceCandidate[], titled: boolean): void {
  const code = t.includes('`') ? codeSpans(t) : undefined;
  let blanks: Spans | undefined; // text not to read for bare paths: links, URLs, comments
  const firstOfLine = found.length;
  let examples = false; // a bare path named `example.*` or `sample.*` was found

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
      pushLink(found, raw, line, at + (raw.charCodeAt(0) === 60 ? (/^<\s*/.exec(raw)?.[0].length ?? 0) : 0));
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
      let column = open;
      while (t.charCodeAt(column) === 32 || t.charCodeAt(column) === 9) column++;
      if (raw.charCodeAt(0) === 60) column += /^<\s*/.exec(raw)?.[0].length ?? 0;
      pushLink(found, raw, line, column);
    }
  }
  const hasSlash = t.includes('/');
  const hasBackslash = t.includes('\\');
  if (!hasSlash && !hasBackslash) return;
  if (hasSlash && (t.includes('://') || t.includes('www.'))) {
    URL_LIKE.lastIndex = 0;
    for (let m = URL_LIKE.exec(t); m !== null; m = URL_LIKE.exec(t)) (blanks ??= []).push(m.index, m.index + m[0].length);
  }
  // Each `/` is expanded over path characters into a run (read once), which a cheap test passes on to barePath: a
  // file extension after its last `/`, or a leading `.` or known folder. Most runs ("and/or") fail it.
  // No run crosses the edge of a blanked span (a link, a URL, a comment).
  for (let k = hasSlash ? t.indexOf('/') : -1; k !== -1;) {
    let from = 0;
    let to = t.length;
    if (blanks) {
      let blank = false;
      for (let j = 0; j < blanks.length; j += 2) {
        if (k >= blanks[j] && k < blanks[j + 1]) { blank = true; k = t.indexOf('/', blanks[j + 1]); break; }
        if (blanks[j + 1] <= k && blanks[j + 1] > from) from = blanks[j + 1];
        if (blanks[j] > k && blanks[j] < to) to = blanks[j];
      }
      if (blank) continue;
    }
    let a = k;
    while (a > from && isPathChar(t.charCodeAt(a - 1))) a--;
    let b = k + 1;
    while (b < to && isPathChar(t.charCodeAt(b))) b++;
    const next = b < to ? t.charCodeAt(b) : -1;
    if ((next === 42 || next === 63 || next === 91) && isGlob(t, b, to)) {
      // A glob (`references/agents-*-rules.md`): a pattern, not one file; nothing of it is read as a path.
      k = t.indexOf('/', patternEnd(t, b, to));
      continue;
    }
    if (next === 123) {
      // A brace expansion (`scripts/extract.{sh,ps1}`): one candidate per alternative, each over the whole expression.
      const end = expandBraces(t, a, b, to, line, found, code, titled);
      k = t.indexOf('/', end);
      continue;
    }
    k = t.indexOf('/', b);
    if (!plausible(t, a, b)) continue;
    while (b > a && isPunct(t.charCodeAt(b - 1))) b--; // sentence punctuation
    while (a < b && t.charCodeAt(a) === 58) a++; // leading `:`
    if (pushBarePath(found, t, t.slice(a, b), a, b, line, code, titled) === EXAMPLE_FILE) examples = true;
  }
  if (examples) examplesAround(t, found, firstOfLine);
  if (hasBackslash) {
    BACKSLASH_RUN.lastIndex = 0;
    for (let m = BACKSLASH_RUN.exec(t); m !== null; m = BACKSLASH_RUN.exec(t)) {
      const a = m.index;
      if (inside(blanks, a)) continue;
      let b = a + m[0].length;
      while (b > a && (t.charCodeAt(b - 1) === 46 || t.charCodeAt(b - 1) === 44)) b--;
      const before = a > 0 ? t.charCodeAt(a - 1) : -1;
      // After `\` (an escape), `:` (a drive, `C:\`), `/` or `$`/`%` (variables): not a relative path of the skill.
      if (before === 92 || before === 58 || before === 47 || before === 36 || before === 37) continue;
      const target = t.slice(a, b);
      // One that climbs out of the skill (`..\..\windows\win.ini`) is a traversal example far more often than a file the
      // skill uses (none of the public skills checked names a file that way): it counts only where it exists.
      if (isBackslashPath(target)) push(found, target, line, a, 'path', target.startsWith('..\\') || isProse(t, a));
    }
  }
}

/** Characters a forward-slash path run may hold: `A-Z a-z 0-9 _ . - / ~ @ : + %` (1 in a table of the ASCII codes). */
const PATH_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/~@:+%') PATH_CHARS[c.charCodeAt(0)] = 1;

function isPathChar(c: number): boolean {
  return c < 128 && PATH_CHARS[c] === 1;
}

/** `.`, `:` or `,`. */
function isPunct(c: number): boolean {
  return c === 46 || c === 58 || c === 44;
}

function isLetter(c: number): boolean {
  return (c | 32) >= 97 && (c | 32) <= 122;
}

const KNOWN = [...KNOWN_SEGMENTS];

/** Whether a known folder of a skill and a `/` start `t` at `at`. */
function startsKnown(t: string, at: number): boolean {
  const c = t.charCodeAt(at);
  if (c !== 115 && c !== 114 && c !== 97) return false; // s, r, a
  for (const k of KNOWN) if (t.charCodeAt(at + k.length) === 47 && t.startsWith(k, at)) return true;
  return false;
}

/**
 * Pushes the link target `raw` (written at `column`) as a candidate: a relative file reference, or an absolute path
 * (`/etc/hosts`, `file:///…`: anchor `absolute`); tentative without a file extension. URLs, placeholders: nothing.
 */
function pushLink(found: ReferenceCandidate[], raw: string, line: number, column: number): void {
  const target = linkTarget(raw);
  if (target !== undefined) { push(found, target, line, column, 'link', !hasExtension(target)); return; }
  const absolute = absoluteLinkTarget(raw);
  if (absolute === undefined || /[[\]=]/.test(absolute) || hasPlaceholder(absolute)) return;
  push(found, absolute, line, column, 'link', !hasExtension(absolute), absolute.length + (/^<?\s*file:\/\//i.test(raw) ? 7 : 0));
  found[found.length - 1].anchor = 'absolute';
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
  return PLACEHOLDER.test(path);
}

const NOT_A_PATH = 0;
const FILE_PATH = 1;
/** A known folder of a skill and a name without extension (`scripts/run`, but also "under assets/code"). */
const FOLDER_LIKE = 2;
/** A file named as an example (`scripts/example.py`, `assets/sample.json`): a reference only if it exists. */
const EXAMPLE_FILE = 3;
/** The name of a file that stands for an example of its kind. */
const EXAMPLE_NAME = /^(?:example|sample)s?(?:[-_.][^/]*)?$/i;

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
  const last = segments[segments.length - 1];
  if (EXTENSION.test(last)) return EXAMPLE_NAME.test(last) ? EXAMPLE_FILE : FILE_PATH;
  return k === 0 && KNOWN_SEGMENTS.has(segments[0]) ? FOLDER_LIKE : NOT_A_PATH;
}

/**
 * Whether the `*`, `?` or `[` at `b`, right after a run of path characters, continues it as a glob: after a `/`,
 * `-`, `_` or `.` (`scripts/*.py`, `agents-*-rules.md`), or followed by more of the path (`file?.md`, `x[0-9].md`);
 * not the `**` closing bold text or a question mark ending a sentence.
 */
function isGlob(t: string, b: number, to: number): boolean {
  const last = t.charCodeAt(b - 1);
  if (last === 47 || last === 45 || last === 95 || last === 46) return true;
  let e = b;
  while (e < to && (t.charCodeAt(e) === 42 || t.charCodeAt(e) === 63)) e++;
  if (t.charCodeAt(b) === 91) e = t.indexOf(']', b) + 1 || to;
  return e < to && isPathChar(t.charCodeAt(e)) && !isPunctEnd(t, e, to);
}

/** Whether `t[e]` is sentence punctuation that ends the text or is followed by a blank (`x.md?.` is no glob). */
function isPunctEnd(t: string, e: number, to: number): boolean {
  return isPunct(t.charCodeAt(e)) && (e + 1 >= to || t.charCodeAt(e + 1) === 32 || t.charCodeAt(e + 1) === 9);
}

/** Where a glob pattern that a path run `t[…, b)` continues ends: past path characters and `* ? [ ] { }`. */
function patternEnd(t: string, b: number, to: number): number {
  while (b < to) {
    const c = t.charCodeAt(b);
    if (!(isPathChar(c) || c === 42 || c === 63 || c === 91 || c === 93 || c === 123 || c === 125 || c === 44)) break;
    b++;
  }
  return b;
}

/**
 * Reads the brace expansion `t[a, b)` `{alt,…}` suffix (the `{` at `b`) as one bare path per alternative, each a
 * candidate over the whole expression; returns where the expression ends (nothing is pushed for a malformed one).
 */
function expandBraces(t: string, a: number, b: number, to: number, line: number, found: ReferenceCandidate[], code: Spans | undefined, titled: boolean): number {
  const close = t.indexOf('}', b);
  if (close < 0 || close >= to) return b + 1;
  const alternatives = t.slice(b + 1, close).split(',');
  let end = close + 1;
  while (end < to && isPathChar(t.charCodeAt(end))) end++;
  while (end > close + 1 && isPunct(t.charCodeAt(end - 1))) end--;
  if (alternatives.length < 2 || alternatives.some((x) => !/^[\w.+-]*$/.test(x))) return end;
  while (a < b && t.charCodeAt(a) === 58) a++;
  const stem = t.slice(a, b);
  const suffix = t.slice(close + 1, end);
  for (const alt of alternatives) pushBarePath(found, t, stem + alt + suffix, a, end, line, code, titled);
  return end;
}

/**
 * Pushes the bare path `target`, written at `t[a, end)`, as a candidate (tentative when the text around it makes it
 * an example, see the file comment); returns its shape (NOT_A_PATH: nothing pushed).
 */
function pushBarePath(found: ReferenceCandidate[], t: string, target: string, a: number, end: number, line: number, code: Spans | undefined, titled: boolean): number {
  const before = a > 0 ? t.charCodeAt(a - 1) : -1;
  const shape = barePath(target, before);
  if (shape === NOT_A_PATH) return shape;
  // A folder-like path opening inline code is a command (`scripts/review-package PLAN`); in prose it may be a folder.
  const command = shape === FOLDER_LIKE && before === 96 && inside(code, a - 1);
  // A quoted path in a code statement (`import logo from './assets/logo.png'`) is example code.
  const literal = (before === 39 || before === 34) && inside(code, a) && codeStatement(t, code, a);
  push(found, target, line, a, 'path', (shape === FOLDER_LIKE && !command) || shape === EXAMPLE_FILE || literal || titled || isProse(t, a) || exampleAfter(t, end), end - a);
  return shape;
}

/** Whether the code span holding `t[at]` is a statement (it has a blank: `import x from './a.png'`), not a lone path. */
function codeStatement(t: string, code: Spans | undefined, at: number): boolean {
  if (code) for (let j = 0; j < code.length; j += 2) if (at >= code[j] && at < code[j + 1]) return /[ \t]/.test(t.slice(code[j], code[j + 1]));
  return false;
}

/**
 * When a line names an example file (`scripts/example.py`), the bare paths listed with it in the same parentheses
 * are examples too ("paths within the skill (`scripts/example.py`, `references/guide.md`)"): tentative.
 */
function examplesAround(t: string, found: ReferenceCandidate[], from: number): void {
  for (let j = from; j < found.length; j++) {
    const c = found[j];
    if (c.kind !== 'path' || !EXAMPLE_NAME.test(c.target.slice(c.target.lastIndexOf('/') + 1))) continue;
    const at = c.range.column - 1;
    const open = t.lastIndexOf('(', at);
    const close = t.indexOf(')', at);
    if (open < 0 || close < 0 || t.lastIndexOf(')', at) > open) continue;
    for (let k = from; k < found.length; k++) {
      const other = found[k];
      if (other.kind === 'path' && other.range.column - 1 > open && other.range.column - 1 < close) other.tentative = true;
    }
  }
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
  const words = wordsBefore(t, at);
  // An indefinite article right before it (a hypothetical file); a prohibition governing it ("never run `./x.sh`",
  // "do not edit `…`", up to two words between).
  if (words[0] === 'a' || words[0] === 'an') return true;
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    if (w === 'never' || w === "don't" || w === 'dont' || (w === 'not' && words[k + 1] === 'do')) return true;
  }
  let before = t.slice(Math.max(0, at - 160), at);
  // The clause is a tail of `before` that starts after a non-word character (a break or a blank), where `\b` holds
  // as at the start of a string: what matches in the clause matches in `before`, so most mentions stop here.
  const example = EXAMPLE_CLAUSE.test(before);
  const elsewhere = elsewhereClause(before);
  if (!example && elsewhere === undefined) return false;
  if (example) before = before.replace(ABBREVIATION, (m) => m.replace(/\s/g, '_'));
  let clause = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(before); m !== null; m = CLAUSE_BREAK.exec(before)) clause = m.index + m[0].length;
  const tail = before.slice(clause);
  if (example && EXAMPLE_CLAUSE.test(tail)) return true;
  const m = elsewhere === undefined ? undefined : elsewhereClause(tail);
  return m !== undefined && (m === null || !THIS_SKILL.has(m.toLowerCase()));
}

/**
 * Whether what follows a mention ending at `b` makes it an example: "etc." (`scripts/setup.sh` etc.), or an arrow to
 * another path (`./scripts/tool.py` → `.agents/skills/y/scripts/tool.py`: a mapping that illustrates a rule). An
 * arrow to prose ("`scripts/build.py` → builds the site") describes a file of the skill: no example.
 */
function exampleAfter(t: string, b: number): boolean {
  let k = b;
  while (k < t.length && (t.charCodeAt(k) === 96 || t.charCodeAt(k) === 32)) k++;
  if (t.startsWith('etc', k)) return !isLetter(t.charCodeAt(k + 3));
  if (k >= t.length) return false; // (a read past the end made the optimized code bail out)
  const c = t.charCodeAt(k);
  if (c === 0x2192) k++;
  else if ((c === 45 || c === 61) && t.charCodeAt(k + 1) === 62) k += 2;
  else return false;
  while (k < t.length && (t.charCodeAt(k) === 96 || t.charCodeAt(k) === 32)) k++;
  let e = k;
  while (e < t.length && isPathChar(t.charCodeAt(e))) e++;
  return e > k && t.slice(k, e).includes('/');
}

/**
 * The (up to) four words right before `at` in `t`, nearest first, lower-case; backticks and blanks between are
 * skipped. isProse looks for words of at most five letters: a longer one is given as '' (neither cut out nor
 * lower-cased), and a word is lower-cased only when it has a capital.
 */
function wordsBefore(t: string, at: number): string[] {
  const words: string[] = [];
  let k = at;
  while (words.length < 4) {
    while (k > 0 && (t.charCodeAt(k - 1) === 96 || t.charCodeAt(k - 1) === 32 || t.charCodeAt(k - 1) === 9)) k--;
    let w = k;
    let capital = false;
    for (; w > 0; w--) {
      const c = t.charCodeAt(w - 1);
      if (c >= 65 && c <= 90) capital = true;
      else if (!((c >= 97 && c <= 122) || c === 39)) break;
    }
    if (w === k) break;
    words.push(k - w > 5 ? '' : capital ? t.slice(w, k).toLowerCase() : t.slice(w, k));
    k = w;
  }
  return words;
}
