/**
 * Finds path references in a SKILL.md body: markdown links/images and bare relative paths
 * (`references/x.md`, `scripts/run.py`, `other-skill/references/y.md`). Resolution happens in validation.
 */
import type { Range } from '../types';
import { LineIndex } from '../validation/text';

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

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_LINK = /!?\[(?:[^\]\\\n]|\\.){0,1000}\]\([ \t]*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*\)/g;
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)/;
const URL_LIKE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<>)\]`'"]*|\bwww\.[^\s<>)\]`'"]+/g;
/** Longer lines are data (minified code, base64), not prose: not scanned, which also bounds the regex work. */
const MAX_LINE = 20000;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.\-@+]*$/;
const DOMAIN = /\.(?:com|org|net|io|dev|ai|app|co|edu|gov|info|me|sh)$/i;
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

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
 * the parser already built): `firstLine` (0-based) is file line `firstLineNumber`. Lines holding none of `/`, `]`,
 * "```" or "~~~" are jumped over without being looked at.
 */
export function extractReferencesFrom(lines: LineIndex, firstLine: number, firstLineNumber: number): ReferenceCandidate[] {
  const found: ReferenceCandidate[] = [];
  const src = lines.text;
  const starts = lines.starts;
  let fence: string | undefined;
  // Next `/`, `]`, "```" and "~~~" at or after the current line start (-1: none left), recomputed only when passed.
  // Only lines holding one of them can hold a reference or open/close a fence: the others are jumped over.
  let slash = -2;
  let bracket = -2;
  let ticks = -2;
  let tildes = -2;
  let fenceChar = -2; // the next character of the open fence's kind
  let i = firstLine;
  while (i < lines.lineCount) {
    const start = starts[i];
    if (slash !== -1 && slash < start) slash = src.indexOf('/', start);
    if (bracket !== -1 && bracket < start) bracket = src.indexOf(']', start);
    if (ticks !== -1 && ticks < start) ticks = src.indexOf('```', start);
    if (tildes !== -1 && tildes < start) tildes = src.indexOf('~~~', start);
    const next = Math.min(slash < 0 ? Infinity : slash, bracket < 0 ? Infinity : bracket, ticks < 0 ? Infinity : ticks, tildes < 0 ? Infinity : tildes);
    if (next === Infinity) break;
    const end = lines.lineEnd(i);
    if (next >= end) { i = lines.lineOf(next); continue; }
    const line = firstLineNumber + (i - firstLine);
    i++;
    if (fence !== undefined) {
      // Closing fence: same character, at least as long, nothing else on the line.
      if (fenceChar !== -1 && fenceChar < start) fenceChar = src.indexOf(fence[0], start);
      if (fenceChar !== -1 && fenceChar < end) {
        const trimmed = lines.slice(start, end).trim();
        if (trimmed.length >= fence.length && trimmed[0] === fence[0] && /^(`+|~+)$/.test(trimmed)) { fence = undefined; continue; }
      }
    } else {
      // An opening fence starts with up to 3 spaces, then ``` or ~~~.
      const c = src.charCodeAt(start);
      if (c === 32 || c === 96 || c === 126) {
        const text = lines.slice(start, end);
        const open = FENCE_OPEN.exec(text);
        if (open && !(open[1][0] === '`' && text.slice(open[0].length).includes('`'))) { fence = open[1]; fenceChar = -2; continue; }
      }
    }
    const hasSlash = slash !== -1 && slash < end;
    const hasBracket = bracket !== -1 && bracket < end;
    if (!hasSlash && !hasBracket) continue; // nothing scanLine could find on this line
    // Links count inside fences too; bare paths there are commands/examples.
    scanLine(lines.slice(start, end), line, found, fence === undefined);
  }
  return found.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
}

function push(found: ReferenceCandidate[], raw: string, line: number, start: number, kind: ReferenceKind): void {
  const target = normaliseLinkTarget(raw);
  if (target === undefined) return;
  const col = start + (/^<\s*/.exec(raw)?.[0].length ?? 0);
  found.push({ target, range: { line, column: col + 1, endLine: line, endColumn: col + 1 + target.length }, kind });
}

function scanLine(text: string, line: number, found: ReferenceCandidate[], barePaths: boolean): void {
  if (text.length > MAX_LINE) return;
  const hasSlash = barePaths && text.includes('/');
  const maybeLink = text.includes('](') || text.includes(']:');
  if (!hasSlash && !maybeLink) return; // most prose lines: nothing to do
  // Spans that must not be read as bare paths: link targets (taken as links) and URLs.
  const blanks: Array<[number, number]> = [];

  if (maybeLink) {
    const def = barePaths ? DEFINITION.exec(text) : null;
    if (def) {
      push(found, def[1], line, def.index + def[0].length - def[1].length, 'link');
      blanks.push([0, text.length]);
    } else {
      // matchAll iterates a copy of the regex: the shared /g regex keeps no lastIndex state between calls.
      for (const m of text.matchAll(INLINE_LINK)) {
        // In code, `handlers[name](args)` is a call, not a link.
        if (!barePaths && m.index > 0 && /[\w\])}]/.test(text[m.index - 1])) continue;
        const open = m[0].indexOf('](') + 2;
        const lead = /^[ \t]*/.exec(m[0].slice(open))?.[0].length ?? 0;
        push(found, m[1], line, m.index + open + lead, 'link');
        blanks.push([m.index + open - 1, m.index + m[0].length]);
      }
    }
  }
  if (!hasSlash) return;
  if (text.includes('://') || text.includes('www.')) {
    for (const m of text.matchAll(URL_LIKE)) blanks.push([m.index, m.index + m[0].length]);
  }
  let scan = text;
  for (const [from, to] of blanks) scan = scan.slice(0, from) + ' '.repeat(to - from) + scan.slice(to);

  // Expand around each `/` over path characters: linear, and cheap on lines with few slashes.
  for (let slash = scan.indexOf('/'); slash >= 0;) {
    let from = slash;
    while (from > 0 && isPathChar(scan.charCodeAt(from - 1))) from--;
    let to = slash + 1;
    while (to < scan.length && isPathChar(scan.charCodeAt(to))) to++;
    let run = scan.slice(from, to);
    let start = from;
    // Trailing sentence punctuation is not part of a path.
    while (run.length && isPunct(run.charCodeAt(run.length - 1))) run = run.slice(0, -1);
    // Leading `:`/`,` go; a leading `.` stays (`.github/x`, `./x`, `../x` are different paths).
    while (run.length && (run.charCodeAt(0) === 58 || run.charCodeAt(0) === 44)) { run = run.slice(1); start++; }
    if (isBarePath(run, scan[start - 1])) push(found, run, line, start, 'path');
    slash = scan.indexOf('/', to);
  }
}

/** Characters a bare path run may contain: `A-Z a-z 0-9 _ . - / ~ @ : + %`. */
function isPathChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
    || c === 95 || c === 46 || c === 45 || c === 47 || c === 126 || c === 64 || c === 58 || c === 43 || c === 37;
}

/** `.`, `:` or `,`. */
function isPunct(c: number): boolean {
  return c === 46 || c === 58 || c === 44;
}

/** Conservative test for a bare relative path in prose: `dir/file.ext`, `scripts/x`, `./x.md`. */
function isBarePath(run: string, before: string | undefined): boolean {
  if (!run.includes('/') || run.includes('//') || run.endsWith('/')) return false;
  // Cheap necessary condition first (most slashes in prose are "and/or"): a run not starting with '.' has no
  // leading ./.. segments, so it needs an extension on its last segment or a known first segment.
  if (run.charCodeAt(0) !== 46 && !EXTENSION.test(run.slice(run.lastIndexOf('/') + 1)) && !KNOWN_SEGMENTS.has(run.slice(0, run.indexOf('/')))) return false;
  if (/[:~%@]/.test(run)) return false;
  if (before !== undefined && /[\\$/{}]/.test(before)) return false; // `$DIR/x`, `{base}/x`: not relative to the skill
  const segments = run.split('/');
  let i = 0;
  while (i < segments.length && (segments[i] === '.' || segments[i] === '..')) i++;
  const rest = segments.slice(i);
  if (rest.length === 0 || !rest.every((s) => SEGMENT.test(s))) return false;
  if (i === 0 && DOMAIN.test(rest[0])) return false; // example.com/a.md
  const hasExtension = EXTENSION.test(rest[rest.length - 1]);
  if (i > 0) return hasExtension; // ./x.md, ../x/y.md
  return hasExtension || KNOWN_SEGMENTS.has(rest[0]);
}
