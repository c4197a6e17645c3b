/**
 * A strict JSON parser that also records where every value sits, so problems in status.json and
 * registry.json can point at the offending key or value. Never throws.
 */
import type { Range } from '../base/types';

export interface JsonLocation {
  /** Range of the property name (absent for array items and the root). */
  key?: Range;
  value: Range;
}

export type JsonParseResult =
  | { ok: true; value: unknown; locate: (path: ReadonlyArray<string | number>) => JsonLocation | undefined }
  | { ok: false; message: string; range: Range };

class JsonSyntaxError {
  constructor(readonly message: string, readonly offset: number, readonly end = offset + 1) {}
}

/** Turns 0-based offsets into 1-based line/column positions. */
function makePositioner(text: string) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const pos = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };
  return (start: number, end: number): Range => {
    const a = pos(start);
    const b = pos(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// JSON forbids raw control characters inside strings, hence the control-character class.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Where one value sits, with its children's spans (a tree, so locating costs the path's length, not the file's). */
interface SpanNode {
  key?: [number, number];
  value: [number, number];
  children?: Map<string | number, SpanNode>;
}

/** Deeper nesting than this is refused (and keeps the recursion far from the stack limit). */
export const MAX_JSON_DEPTH = 200;

/**
 * Parses JSON text (a leading BOM is allowed); on failure returns the message and the error position.
 * Linear in the size of the text: sticky regular expressions that cannot backtrack, one pass, no
 * per-value copies of the path.
 */
export function parseJson(text: string): JsonParseResult {
  const toRange = makePositioner(text);
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const describe = (at: number) => (at >= text.length ? 'end of file (is the file half-written?)' : `character ${JSON.stringify(text[at])}`);
  const fail = (expected: string, at = i): never => {
    throw new JsonSyntaxError(`Invalid JSON: expected ${expected} but found ${describe(at)}`, at);
  };
  const skipWs = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const readString = (): string => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) {
      if (text.indexOf('"', i + 1) < 0) throw new JsonSyntaxError(`Invalid JSON: unterminated string (is the file half-written?)`, i, text.length);
      fail('a valid string');
    }
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  const parseValue = (depth: number, span: SpanNode): unknown => {
    skipWs();
    if (depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(`Invalid JSON: nesting deeper than ${MAX_JSON_DEPTH} levels`, i);
    const start = i;
    const c = text[i];
    let value: unknown;
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      const children = new Map<string | number, SpanNode>();
      span.children = children;
      skipWs();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          skipWs();
          if (text[i] !== '"') fail('a property name in double quotes');
          const keyStart = i;
          const key = readString();
          const child: SpanNode = { key: [keyStart, i], value: [i, i] };
          skipWs();
          if (text[i] !== ':') fail("':' after a property name");
          i++;
          // defineProperty: a "__proto__" key must stay a plain property. A repeated key: the last one counts.
          Object.defineProperty(obj, key, { value: parseValue(depth + 1, child), enumerable: true, writable: true, configurable: true });
          children.set(key, child);
          skipWs();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === '}') { i++; break; }
          fail("',' or '}'");
        }
      }
      value = obj;
    } else if (c === '[') {
      i++;
      const arr: unknown[] = [];
      const children = new Map<string | number, SpanNode>();
      span.children = children;
      skipWs();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          const child: SpanNode = { value: [i, i] };
          children.set(arr.length, child);
          arr.push(parseValue(depth + 1, child));
          skipWs();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === ']') { i++; break; }
          fail("',' or ']'");
        }
      }
      value = arr;
    } else if (c === '"') {
      value = readString();
    } else if (text.startsWith('true', i)) { i += 4; value = true; }
    else if (text.startsWith('false', i)) { i += 5; value = false; }
    else if (text.startsWith('null', i)) { i += 4; value = null; }
    else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) fail('a value');
      i += m![0].length;
      value = Number(m![0]);
    }
    span.value = [start, i];
    return value;
  };

  try {
    const root: SpanNode = { value: [i, i] };
    const value = parseValue(0, root);
    skipWs();
    if (i < text.length) fail('end of file');
    return {
      ok: true,
      value,
      locate(path) {
        let span: SpanNode | undefined = root;
        for (const segment of path) {
          span = span.children?.get(segment);
          if (!span) return undefined;
        }
        return { key: span.key && toRange(span.key[0], span.key[1]), value: toRange(span.value[0], span.value[1]) };
      },
    };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const end = Math.min(e.end, text.length);
    return { ok: false, message: e.message, range: toRange(e.offset, Math.max(end, e.offset)) };
  }
}
