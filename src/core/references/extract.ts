/**
 * Finds path references in a SKILL.md body: markdown links/images and bare relative paths
 * (`references/x.md`, `scripts/run.py`, `other-skill/references/y.md`). Resolution happens in validation.
 */
import type { Range } from '../base/types';
import { LineIndex, Utf8LineIndex } from '../base/text';

export type ReferenceKind = 'link' | 'path';

export interface ReferenceCandidate {
  /** As written, without `#fragment` / `?query` (percent-escapes kept). */
  target: string;
  range: Range;
  /** `link`: a markdown link/image/definition target; `path`: a bare path in text or inline code. */
  kind: ReferenceKind;
}

/** First path segments that always mean "a file of this skill". */
export const KNOWN_SEGMENTS: ReadonlySet<string> = new Set(['scripts', 'references', 'assets']);

const INLINE_LINK = /!?\[(?:[^\]\\\n]|\\.){0,1000}\]\([ \t]*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*\)/g;
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)/;
const URL_LIKE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<>)\]`'"]*|\bwww\.[^\s<>)\]`'"]+/g;
/** Longer lines are data (minified code, base64), not prose: not scanned, which also bounds the regex work. */
const MAX_LINE = 20000;
const DOMAIN = /\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|me|sh)$/i;

/** Strips `#fragment` and `?query`; returns undefined for URLs, anchors, absolute, home and templated paths. */
export function normaliseLinkTarget(raw: string): string | undefined {
  let t = raw.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1).trim();
  const cut = t.search(/[#?]/);
  if (cut >= 0) t = t.slice(0, cut);
  if (t === '' || t === '.' || t === './') return undefined;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t)) return undefined; // http:, mailto:, file:, C:
  if (t.startsWith('/') || t.startsWith('\\') || t.startsWith('~')) return undefined;
  if (/[{}$*<>|`]/.test(t)) return undefined; // templates and globs are not files
  return t;
}

/** Raw reference candidates in `body` (whose first line is file line `bodyStartLine`), in order. Never throws. */
export function extractReferences(body: string, bodyStartLine: number): ReferenceCandidate[] {
  if (typeof body !== 'string' || body === '') return [];
  return extractReferencesFrom(new LineIndex(body), 0, bodyStartLine);
}

/**
 * Like `extractReferences` over the lines `firstLine`… of an existing line index (the body of a file whose index
 * the parser already built): `firstLine` (0-based) is file line `firstLineNumber`.
 *
 * Lines holding none of `/`, `]`, "```" or "~~~" are jumped over without being looked at. The others are read in
 * `lines.text` itself, which for a Utf8LineIndex is the file's bytes: everything looked for there is ASCII, which
 * bytes give exactly, and a bare path is ASCII too. Fences are found on it; a line with a link (`](`, or `]:`
 * outside fenced code) or a URL as well as a possible bare path is sliced (decoded) and read by `scanLine`; the
 * bare paths of any other line are read in place (`scanPaths`), and most lines with a `/` have none ("and/or").
 */
export function extractReferencesFrom(lines: LineIndex, firstLine: number, firstLineNumber: number): ReferenceCandidate[] {
  const found: ReferenceCandidate[] = [];
  const src = lines.text;
  const starts = lines.starts;
  const lineCount = starts.length;
  // Offsets in a Utf8LineIndex are bytes: a column is the UTF-16 length of the decoded text before it.
  const utf8 = lines instanceof Utf8LineIndex ? lines : undefined;
  let fence: string | undefined;
  let fenceCode = 0; // the open fence's character
  // Next `/`, `]`, "```" and "~~~" at or after the current line start (-1: none left), recomputed only when passed
  // and needed: only lines holding one of them can hold a reference or open or close a fence, and the others are
  // jumped over. In fenced code only `]` (links) and the fence's own kind (its end) matter.
  let slash = -2;
  let bracket = -2;
  let ticks = -2;
  let tildes = -2;
  let sorted = true; // candidates come line by line; only a line with links and paths can put them out of order
  let i = firstLine;
  while (i < lineCount) {
    const start = starts[i];
    if (bracket !== -1 && bracket < start) bracket = src.indexOf(']', start);
    let next = bracket;
    if (fence === undefined || fenceCode === 96) {
      if (ticks !== -1 && ticks < start) ticks = src.indexOf('```', start);
      if (ticks !== -1 && (next === -1 || ticks < next)) next = ticks;
    }
    if (fence === undefined || fenceCode === 126) {
      if (tildes !== -1 && tildes < start) tildes = src.indexOf('~~~', start);
      if (tildes !== -1 && (next === -1 || tildes < next)) next = tildes;
    }
    if (fence === undefined) {
      if (slash !== -1 && slash < start) slash = src.indexOf('/', start);
      if (slash !== -1 && (next === -1 || slash < next)) next = slash;
    }
    if (next === -1) break;
    // Start of the next line: the line's break lies between its end and `limit`, and `/`, `]`, `` ` ``, `~` and
    // spaces are no line break, so `limit` bounds searches for them as well as the line end does.
    const limit = i + 1 < lineCount ? starts[i + 1] : src.length;
    if (next >= limit) {
      // Jump to the line holding `next` (usually a few lines on).
      while (i + 1 < lineCount && starts[i + 1] <= next) i++;
      continue;
    }
    const lineIndex = i++;
    const c = src.charCodeAt(start);
    if (fence !== undefined) {
      // Closing fence: same character, at least as long, nothing else on the line. Trimmed, so the line's first
      // fence character comes after nothing but whitespace: ASCII whitespace or non-ASCII characters (some are
      // whitespace), and only then is the line looked at in full.
      let p = start;
      let d = c;
      while (p < limit && d !== fenceCode && (d >= 128 || d === 32 || (d >= 9 && d <= 13))) d = src.charCodeAt(++p);
      if (p < limit && d === fenceCode) {
        const trimmed = lines.slice(start, lines.lineEnd(lineIndex)).trim();
        if (trimmed.length >= fence.length && trimmed[0] === fence[0] && /^(`+|~+)$/.test(trimmed)) { fence = undefined; continue; }
      }
    } else if (c === 32 || c === 96 || c === 126) {
      // An opening fence (/^ {0,3}(`{3,}|~{3,})/): up to 3 spaces, then ``` or ~~~; with backticks, no further
      // backtick on the line. All ASCII: read on `src` directly.
      let p = start;
      while (p < start + 3 && src.charCodeAt(p) === 32) p++;
      const e = src.charCodeAt(p);
      if ((e === 96 || e === 126) && p < limit) {
        let q = p + 1;
        while (q < limit && src.charCodeAt(q) === e) q++;
        if (q - p >= 3) {
          let tick = q; // (a bounded search: indexOf would run on to the next backtick after the line)
          if (e === 96) while (tick < limit && src.charCodeAt(tick) !== 96) tick++;
          if (e !== 96 || tick === limit) { fence = src.slice(p, q); fenceCode = e; continue; }
        }
      }
    }
    const hasSlash = fence === undefined && slash !== -1 && slash < limit;
    const hasBracket = bracket !== -1 && bracket < limit;
    if (!hasSlash && !hasBracket) continue;
    const barePaths = fence === undefined;
    const end = lines.lineEnd(lineIndex);
    const line = firstLineNumber + (lineIndex - firstLine);
    let hasLink = false;
    if (hasBracket) {
      // INLINE_LINK needs a `](`, DEFINITION (outside fences) a `]:`. Without one, the line's last `]` leads on to
      // the next `]` after the line.
      let b = bracket;
      do {
        const after = src.charCodeAt(b + 1);
        if (after === 40 || (after === 58 && barePaths)) { hasLink = true; break; }
        b = src.indexOf(']', b + 1);
      } while (b !== -1 && b < end);
      if (!hasLink) bracket = b;
    }
    if (!hasLink && !hasSlash) continue; // nothing scanLine could find on this line
    // Longer lines are not scanned (a line of more than MAX_LINE bytes may be shorter in UTF-16 units).
    if (end - start > MAX_LINE && lines.slice(start, end).length > MAX_LINE) continue;
    if (!hasLink) {
      // Bare paths only, read from `src` itself unless the line holds a URL too (which blanks text).
      const after = scanPaths(src, start, slash, end, line, found, utf8);
      if (after !== URL_SEEN) { slash = after; continue; }
    }
    // Links count inside fences too; bare paths there are commands/examples.
    const before = found.length;
    scanLine(lines.slice(start, end), line, found, barePaths);
    if (sorted && found.length - before > 1) sorted = inOrder(found, before);
  }
  return sorted ? found : found.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
}

/** Whether the candidates `found[from]`… (all of one line) are in column order. */
function inOrder(found: ReferenceCandidate[], from: number): boolean {
  for (let k = from + 1; k < found.length; k++) if (found[k].range.column < found[k - 1].range.column) return false;
  return true;
}

/** What scanPaths gives for a line holding a URL and a run that may be a bare path. */
const URL_SEEN = -3;

/**
 * The bare paths of the line `src[start, end)` (`slash`: its first `/`), which holds no link: each `/` is expanded
 * over path characters into a run, whose trimmed text must pass `isBarePath`. A bare path is ASCII, so its text is
 * the same in bytes; with `utf8` (a Utf8LineIndex over `src`) its column is the UTF-16 length of the decoded text
 * before it, else its offset on the line. Gives the first `/` after the line, or -1.
 *
 * With `urls`, `src` is a line as it is, where a URL (`://`, `www.`) would be blanked first (scanLine's work): when
 * a run may be a bare path and the line holds one, URL_SEEN is given before anything is pushed. A run that may not
 * be one is passed over whatever the line holds: a URL blanks a run from where the URL starts (it ends before a
 * character that is no path character), so what is left of the run is a prefix of it, and the cheap test below is
 * necessary for any prefix of the run to give a bare path: past leading `:`s, a `/` that is not first, before any
 * `:`, `~`, `%`, `@` or `//`, and a leading `.`, a known first segment, or a `.` and a letter after that `/`.
 */
function scanPaths(src: string, start: number, slash: number, end: number, line: number, found: ReferenceCandidate[], utf8: LineIndex | undefined, urls = true): number {
  let checked = !urls; // the line has no URL (or URLs are blanked already)
  let at = start; // `col` is the UTF-16 column (0-based) of offset `at`
  let col = 0;
  let s = slash;
  while (s !== -1 && s < end) {
    // The run of path characters around `s` (the first `/` of its run), read once, with the cheap test as it goes.
    let from = s;
    let first = s; // first character other than a leading `:`
    let colon = false;
    let may = 0; // whether the run may be a bare path: 1 yes, -1 no, 0 not known yet
    while (from > start) {
      const c = src.charCodeAt(from - 1);
      if (!isPathChar(c)) break;
      from--;
      if (c === 58) {
        colon = true;
      } else {
        first = from;
        if (colon || c === 126 || c === 37 || c === 64) may = -1; // a `:` that is not leading, `~`, `%`, `@`
      }
    }
    if (first === s) may = -1;
    else if (may === 0 && (src.charCodeAt(first) === 46 || isKnownSegment(src, first, s))) may = 1;
    let to = s + 1;
    for (; may === 0 && to < end; to++) {
      const c = src.charCodeAt(to);
      if (!isPathChar(c)) break;
      if (c === 47 ? src.charCodeAt(to - 1) === 47 : c === 58 || c === 126 || c === 37 || c === 64) may = -1;
      else if (c === 46 && ((src.charCodeAt(to + 1) | 32) >= 97 && (src.charCodeAt(to + 1) | 32) <= 122)) may = 1;
    }
    while (to < end && isPathChar(src.charCodeAt(to))) to++;
    if (may === 1) {
      if (!checked) {
        const text = src.slice(start, end);
        if (text.includes('://') || text.includes('www.')) return URL_SEEN;
        checked = true;
      }
      let b = to;
      // Trailing sentence punctuation is not part of a path; leading `:` go (a `,` is no path character).
      while (b > from && isPunct(src.charCodeAt(b - 1))) b--;
      let a = from;
      while (a < b && src.charCodeAt(a) === 58) a++;
      if (isBarePath(src, a, b, a > start ? src.charCodeAt(a - 1) : -1)) {
        if (utf8) {
          col += utf8.slice(at, a).length; // ASCII as it is, else decoded (`at` and `a` are at ASCII characters)
          at = a;
        } else {
          col = a - start;
        }
        // (normaliseLinkTarget keeps a bare path as it is: no `<`, `#`, `?`, `:`, leading `/`, `\` or `~`, or template.)
        const target = src.slice(a, b);
        found.push({ target, range: { line, column: col + 1, endLine: line, endColumn: col + 1 + target.length }, kind: 'path' });
      }
    }
    s = src.indexOf('/', to);
  }
  return s;
}

const KNOWN = [...KNOWN_SEGMENTS];

/** Whether `s[from, to)` is one of KNOWN_SEGMENTS (read in place). */
function isKnownSegment(s: string, from: number, to: number): boolean {
  for (const k of KNOWN) if (k.length === to - from && s.startsWith(k, from)) return true;
  return false;
}

function push(found: ReferenceCandidate[], raw: string, line: number, start: number, kind: ReferenceKind): void {
  const target = normaliseLinkTarget(raw);
  if (target === undefined) return;
  const col = start + (raw.charCodeAt(0) === 60 ? (/^<\s*/.exec(raw)?.[0].length ?? 0) : 0);
  found.push({ target, range: { line, column: col + 1, endLine: line, endColumn: col + 1 + target.length }, kind });
}

/** The references of one line's (decoded) `text`; `barePaths` is false in fenced code. */
function scanLine(text: string, line: number, found: ReferenceCandidate[], barePaths: boolean): void {
  if (text.length > MAX_LINE) return;
  const hasSlash = barePaths && text.includes('/');
  // INLINE_LINK needs a `](`, DEFINITION a `]:`.
  const inline = text.includes('](');
  const definition = barePaths && text.includes(']:');
  if (!hasSlash && !inline && !definition) return; // most prose lines: nothing to do
  // Spans that must not be read as bare paths, as [from, to) pairs: link targets (taken as links) and URLs.
  let blanks: number[] | undefined;

  const def = definition ? DEFINITION.exec(text) : null;
  if (def) {
    push(found, def[1], line, def.index + def[0].length - def[1].length, 'link');
    return; // the whole line is blanked: no bare path
  }
  if (inline) {
    // The shared /g regexes: lastIndex is set to 0 before each loop, and exec leaves it at 0 when the loop ends.
    INLINE_LINK.lastIndex = 0;
    for (let m = INLINE_LINK.exec(text); m !== null; m = INLINE_LINK.exec(text)) {
      const at = m.index;
      // In code, `handlers[name](args)` is a call, not a link: a `[` after a word character, `]`, `)` or `}`.
      if (!barePaths && at > 0) {
        const c = text.charCodeAt(at - 1);
        if (isWordChar(c) || c === 93 || c === 41 || c === 125) continue;
      }
      const open = text.indexOf('](', at) + 2; // the match's first `](` (its label may hold an escaped one)
      let target = open;
      while (text.charCodeAt(target) === 32 || text.charCodeAt(target) === 9) target++; // the match ends with `)`
      push(found, m[1], line, target, 'link');
      (blanks ??= []).push(open - 1, at + m[0].length);
    }
  }
  if (!hasSlash) return;
  if (text.includes('://') || text.includes('www.')) {
    URL_LIKE.lastIndex = 0;
    for (let m = URL_LIKE.exec(text); m !== null; m = URL_LIKE.exec(text)) (blanks ??= []).push(m.index, m.index + m[0].length);
  }
  let scan = text;
  if (blanks) {
    if (!slashOutside(text, blanks)) return; // no `/` left to read
    for (let k = 0; k < blanks.length; k += 2) scan = scan.slice(0, blanks[k]) + ' '.repeat(blanks[k + 1] - blanks[k]) + scan.slice(blanks[k + 1]);
  }
  // Blanked text is spaces, which no run crosses: the bare paths are read as on a line without links or URLs.
  scanPaths(scan, 0, scan.indexOf('/'), scan.length, line, found, undefined, false);
}

/** Whether `text` has a `/` outside the [from, to) pairs of `blanks`. */
function slashOutside(text: string, blanks: number[]): boolean {
  next: for (let s = text.indexOf('/'); s !== -1; s = text.indexOf('/', s + 1)) {
    for (let k = 0; k < blanks.length; k += 2) if (s >= blanks[k] && s < blanks[k + 1]) continue next;
    return true;
  }
  return false;
}

/** Characters a bare path run may contain: `A-Z a-z 0-9 _ . - / ~ @ : + %` (1 in a table of the ASCII codes). */
const PATH_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/~@:+%') PATH_CHARS[c.charCodeAt(0)] = 1;

function isPathChar(c: number): boolean {
  return c < 128 && PATH_CHARS[c] === 1;
}

/** `.`, `:` or `,`. */
function isPunct(c: number): boolean {
  return c === 46 || c === 58 || c === 44;
}

/**
 * Conservative test for a bare relative path in prose (`dir/file.ext`, `scripts/x`, `./x.md`) on `s[from, to)`, a
 * run of path characters; `before` is the code of the character before the run on its line, or -1 at the line
 * start. Accepted: not after one of `\ $ / { }`, none of `: ~ % @`, a `/`, no empty segment (no `//`, no leading
 * or trailing `/`), then leading `.`/`..` segments and at least one segment matching SEGMENT. With leading dot
 * segments the last segment needs an extension (EXTENSION); without, the first must not look like a domain (DOMAIN)
 * and the last needs an extension or the first must be a known segment. One pass over the run, in place.
 */
function isBarePath(s: string, from: number, to: number, before: number): boolean {
  if (before === 92 || before === 36 || before === 47 || before === 123 || before === 125) return false; // `$DIR/x`, `{base}/x`: not relative to the skill
  let slashes = 0;
  let dots = 0; // leading `.` and `..` segments
  let rest = -1; // start of the first other segment (-1: none yet)
  let restEnd = -1;
  let restDot = -1; // last `.` of that segment
  let segment = from; // start of the current segment
  let segmentOk = true; // the current segment matches SEGMENT so far
  let dot = -1; // last `.` of the current segment
  for (let k = from; k <= to; k++) {
    const c = k < to ? s.charCodeAt(k) : 47; // the run's end ends its last segment
    if (c === 47) {
      const length = k - segment;
      if (length === 0) return false; // `//`, or a leading or trailing `/`
      if (rest !== -1) {
        if (!segmentOk) return false;
      } else if (s.charCodeAt(segment) === 46 && (length === 1 || (length === 2 && s.charCodeAt(segment + 1) === 46))) {
        if (k === to) return false; // dot segments only
        dots++;
      } else {
        if (!segmentOk) return false;
        rest = segment;
        restEnd = k;
        restDot = dot;
      }
      if (k === to) break;
      slashes++;
      segment = k + 1;
      segmentOk = true;
      dot = -1;
    } else if (c === 58 || c === 126 || c === 37 || c === 64) {
      return false; // [:~%@]
    } else {
      if (c === 46) dot = k;
      // SEGMENT: a word character first, then word characters, `.`, `-`, `@` (excluded above) or `+`.
      if (!isWordChar(c) && (k === segment || (c !== 46 && c !== 45 && c !== 43))) segmentOk = false;
    }
  }
  if (slashes === 0) return false;
  const extension = dot !== -1 && isExtension(s, dot, to);
  if (dots > 0) return extension; // ./x.md, ../x/y.md
  // example.com/a.md: DOMAIN on the first segment (its endings hold no `.`: only the text from its last `.` can match)
  if (restDot !== -1 && restEnd - restDot >= 3 && restEnd - restDot <= 5 && DOMAIN.test(s.slice(restDot, restEnd))) return false;
  return extension || isKnownSegment(s, rest, restEnd);
}

/** `[A-Za-z0-9_]`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * EXTENSION (`\.[A-Za-z][A-Za-z0-9]{0,7}$`) on a segment ending at `to` whose last `.` is at `dot`: the text after
 * it is a letter and up to 7 letters or digits (after an earlier `.` there would be a `.`, which is neither).
 */
function isExtension(s: string, dot: number, to: number): boolean {
  if (to - dot - 1 < 1 || to - dot - 1 > 8) return false;
  const c = s.charCodeAt(dot + 1) | 32;
  if (c < 97 || c > 122) return false;
  for (let k = dot + 2; k < to; k++) {
    const d = s.charCodeAt(k);
    if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57))) return false;
  }
  return true;
}
