/** The entries of a tools list (`allowed-tools`, `disallowed-tools`, an agent's `tools`, `disallowedTools`), each with its exact range. */
import { isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { Range } from '../base/types';
import type { DetailedParse } from './frontmatter';
import type { FrontmatterKey } from './model';

/** One entry of a tools string: its text and its offset in the string. */
export interface ToolListPart {
  text: string;
  offset: number;
}

/** Splits a tools string (`Read, Grep` or `Read Bash(git status:*)`) on commas and spaces outside parentheses. */
export function splitToolListParts(value: string): ToolListPart[] {
  const parts: ToolListPart[] = [];
  let depth = 0;
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0) parts.push({ text: value.slice(start, end), offset: start });
    start = -1;
  };
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) flush(i);
    else if (start < 0) start = i;
  }
  flush(value.length);
  return parts;
}

/** One entry of a tools list with the range it has in the file (the whole value's when the source cannot be mapped). */
export interface ToolListEntry {
  text: string;
  range: Range;
}

/**
 * Where the characters of a one-line scalar's value start in its source: the value's own column for a plain scalar, one
 * further for a quoted one without escapes; undefined when the source is not the value character for character
 * (escapes, a folded or block scalar).
 */
function valueColumn(detail: DetailedParse, range: Range, value: string): number | undefined {
  if (range.line !== range.endLine) return undefined;
  const source = detail.lines.lineText(range.line - 1).slice(range.column - 1, range.endColumn - 1);
  if (source === value) return range.column;
  const quote = source[0];
  if ((quote === '"' || quote === "'") && source.endsWith(quote) && source.slice(1, -1) === value) return range.column + 1;
  return undefined;
}

function entriesOfString(detail: DetailedParse, value: string, range: Range): ToolListEntry[] {
  const column = valueColumn(detail, range, value);
  return splitToolListParts(value).map((p) => ({
    text: p.text,
    range: column === undefined ? range : { line: range.line, column: column + p.offset, endLine: range.line, endColumn: column + p.offset + p.text.length },
  }));
}

/** The string entries of a tools key's value (a string split on commas and spaces, or a list whose items may hold several), with ranges. */
export function toolListEntries(detail: DetailedParse, key: FrontmatterKey): ToolListEntry[] {
  const at = key.valueRange ?? key.keyRange;
  if (typeof key.value === 'string') return entriesOfString(detail, key.value, at);
  if (!Array.isArray(key.value)) return [];
  const node = detail.valueNodes.get(key.key);
  const items = isSeq(node) ? node.items : [];
  const out: ToolListEntry[] = [];
  key.value.forEach((item, i) => {
    if (typeof item !== 'string') return;
    const itemNode = items[i] as YamlNode | undefined;
    const range = (isScalar(itemNode) ? detail.nodeRange(itemNode) : undefined) ?? at;
    out.push(...entriesOfString(detail, item, range));
  });
  return out;
}
