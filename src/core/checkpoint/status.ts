/**
 * Parser of a skill's STATUS block (the skill output protocol): `STATUS: SUCCESS` (+ `OUTPUT:` with
 * indented `KEY: value` lines), `STATUS: AWAIT` + `CONTEXT_PATH: <path>`, `STATUS: ERROR` +
 * `OUTPUT: <message>`. Tolerant of surrounding text, code fences, quotes/bullets, bold keys and CRLF.
 */

export type StatusBlock =
  | { status: 'SUCCESS'; outputs: Array<{ key: string; value: string }>; /** An `OUTPUT:` value on the same line that is not KEY: value. */ outputText?: string; line: number }
  | { status: 'AWAIT'; contextPath?: string; line: number }
  | { status: 'ERROR'; message: string; line: number };

// Decoration a block may carry when pasted from a chat, a log or a terminal: `> `, `- `, `**KEY:**`, backticks, `⏺ `, `⎿ `.
const PREFIX = String.raw`^[ \t]*(?:[^\w\s][ \t]*){0,4}?(?:\*\*|__|\x60)?`;
// Linear: no two neighbouring quantifiers that can take the same blanks (`:[ \t]*(\*\*)?[ \t]*` backtracked
// quadratically over a long blank run), and values are `[^]*` (a `.*$` stops at U+2028 and backtracks).
const STATUS_LINE = new RegExp(`${PREFIX}STATUS(?:\\*\\*|__|\\x60)?[ \\t]*:[ \\t]*(?:(?:\\*\\*|__|\\x60)[ \\t]*)?(SUCCESS|AWAIT|ERROR)\\b`, 'i');
const KEY_LINE = new RegExp(`${PREFIX}([A-Za-z_][A-Za-z0-9_]*)(?:\\*\\*|__|\\x60)?[ \\t]*[:=](?:\\*\\*|__|\\x60)?([^]*)$`);
const FENCE = /^[ \t]*(?:>[ \t]*)*(?:`{3,}|~{3,})/;
/** How far below the STATUS line its CONTEXT_PATH / OUTPUT may be. */
const LOOKAHEAD = 40;

/** Strips quotes, backticks and trailing punctuation a path or value picks up in prose. */
export function cleanValue(raw: string): string {
  let v = raw.trim();
  for (let i = 0; i < 3; i++) {
    const before = v;
    v = v.replace(/^(\*\*|__)|(\*\*|__)$/g, '').trim();
    if (v.length >= 2 && /^["'`<]/.test(v) && v.endsWith({ '"': '"', "'": "'", '`': '`', '<': '>' }[v[0]] ?? '')) v = v.slice(1, -1).trim();
    if (v === before) break;
  }
  return v;
}

function indentOf(line: string): number {
  const m = /^[ \t]*(?:>[ \t]*)*/.exec(line);
  return m ? m[0].replace(/>/g, '').length : 0;
}

/** Finds the last STATUS block in `text` (the latest output when a log holds several); undefined when there is none. Never throws. */
export function parseStatusBlock(text: string): StatusBlock | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  const lines = text.slice(0, 1_000_000).split(/\r\n|\r|\n/);
  let statusAt = -1;
  let status = '';
  for (let i = 0; i < lines.length; i++) {
    const m = STATUS_LINE.exec(lines[i]);
    if (m) { statusAt = i; status = m[1].toUpperCase(); }
  }
  if (statusAt === -1) return undefined;
  const line = statusAt + 1;
  const after = lines.slice(statusAt + 1, statusAt + 1 + LOOKAHEAD);
  // Something on the STATUS line after the status word (e.g. `STATUS: AWAIT CONTEXT_PATH: x`).
  const tail = lines[statusAt].slice((STATUS_LINE.exec(lines[statusAt])?.[0].length ?? 0)).trim();

  if (status === 'AWAIT') {
    for (const l of [tail, ...after]) {
      const m = KEY_LINE.exec(l) ?? KEY_LINE.exec(l.replace(/^[^A-Za-z_]*/, ''));
      if (m && m[1].toUpperCase() === 'CONTEXT_PATH') {
        const path = cleanValue(m[2]);
        return { status: 'AWAIT', contextPath: path || undefined, line };
      }
    }
    return { status: 'AWAIT', line };
  }

  // The OUTPUT: line (same line or the next non-blank one that is not a fence).
  let outputAt = -1;
  let inline = '';
  for (let i = 0; i < after.length; i++) {
    const l = after[i];
    if (!l.trim() || FENCE.test(l)) continue;
    const m = KEY_LINE.exec(l);
    if (m && m[1].toUpperCase() === 'OUTPUT') { outputAt = i; inline = m[2].trim(); }
    break;
  }

  if (status === 'ERROR') {
    if (outputAt === -1) return { status: 'ERROR', message: '', line };
    if (inline) return { status: 'ERROR', message: cleanValue(inline), line };
    const baseIndent = indentOf(after[outputAt]);
    const more: string[] = [];
    for (const l of after.slice(outputAt + 1)) {
      if (!l.trim() || FENCE.test(l) || indentOf(l) <= baseIndent) break;
      more.push(l.trim());
    }
    return { status: 'ERROR', message: more.join('\n'), line };
  }

  const outputs: Array<{ key: string; value: string }> = [];
  if (outputAt === -1) return { status: 'SUCCESS', outputs, line };
  if (inline) {
    // `OUTPUT: {KEY: v, KEY2: w}` or `OUTPUT: KEY: v`
    const inner = inline.replace(/^\{|\}$/g, '').trim();
    for (const part of inner.split(/,\s*(?=[A-Za-z_][A-Za-z0-9_]*\s*:)/)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*:([^]*)$/.exec(part.trim());
      if (m) outputs.push({ key: m[1], value: cleanValue(m[2]) });
    }
    return outputs.length ? { status: 'SUCCESS', outputs, line } : { status: 'SUCCESS', outputs, outputText: inline, line };
  }
  const baseIndent = indentOf(after[outputAt]);
  for (const l of after.slice(outputAt + 1)) {
    if (!l.trim()) continue;
    if (FENCE.test(l) || indentOf(l) <= baseIndent && !/^[ \t]*(?:>[ \t]*)*[-*+][ \t]/.test(l)) break;
    const m = KEY_LINE.exec(l);
    if (!m) break;
    outputs.push({ key: m[1], value: cleanValue(m[2]) });
  }
  return { status: 'SUCCESS', outputs, line };
}

/** Finds `CONTEXT_PATH: <path>` (or `CONTEXT_PATH=<path>`) in one terminal line: the path's start index, length and cleaned value. Linear in the line's length. */
export function findContextPathLinks(line: string): Array<{ startIndex: number; length: number; contextPath: string }> {
  const links: Array<{ startIndex: number; length: number; contextPath: string }> = [];
  if (typeof line !== 'string') return links;
  const re = /CONTEXT_PATH[ \t]*[:=][ \t]*(?=\S)/g;
  // Where each quote character next occurs (searched once per quote and start, never again for an earlier start).
  const nextQuote = new Map<string, number>();
  const quoteAfter = (q: string, from: number): number => {
    const known = nextQuote.get(q);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = line.indexOf(q, from);
    nextQuote.set(q, at);
    return at;
  };
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const start = m.index + m[0].length;
    let raw: string;
    let offset = 0;
    const q = line[start];
    const close = q === '"' || q === "'" || q === '`' ? quoteAfter(q, start + 1) : -1;
    if (close > start) {
      raw = line.slice(start, close + 1); // a quoted path may hold spaces
    } else {
      let end = start;
      while (end < line.length && !/\s/.test(line[end])) end++;
      // Prose around the path: closing punctuation after it, opening quotes or a parenthesis before it.
      while (end > start && ')"\'`,.;:'.includes(line[end - 1])) end--;
      offset = 0;
      while (start + offset < end && '"\'`('.includes(line[start + offset])) offset++;
      raw = line.slice(start + offset, end);
    }
    const contextPath = cleanValue(raw);
    if (contextPath) links.push({ startIndex: start + offset, length: raw.length, contextPath });
    re.lastIndex = start + Math.max(1, offset + raw.length);
  }
  return links;
}
