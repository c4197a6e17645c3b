/**
 * Minimal edits of a SKILL.md or command file's frontmatter: set one top-level key to a scalar, touching only the
 * key's value (or inserting one line), so every other byte stays as it was. Positions are 1-based with an exclusive
 * `endColumn`, counted in the text without its BOM (as editors show it).
 */
import { parseSkillMd } from '../skillmd/frontmatter';
import type { Range } from '../base/types';

export interface RangeEdit extends Range {
  text: string;
}

export type FrontmatterEditResult = { ok: true; edits: RangeEdit[] } | { ok: false; message: string };

function eolOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text.charCodeAt(i - 1) === 13 ? '\r\n' : '\n';
}

function at(line: number, column: number, text: string): RangeEdit {
  return { line, column, endLine: line, endColumn: column, text };
}

/**
 * The edits that make top-level `key` equal to `value` (YAML source text, e.g. `true`): replace the value when the
 * key exists, else insert `key: value` as the last frontmatter line, else add a frontmatter block at the top.
 * `isSet` tells when the current value already means `value` (no edit then). Refuses unreadable frontmatter.
 */
export function setFrontmatterScalar(text: string, key: string, value: string, isSet: (current: unknown) => boolean): FrontmatterEditResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = parseSkillMd(src);
  const eol = eolOf(src);
  if (!parsed.hasFrontmatter) return { ok: true, edits: [at(1, 1, `---${eol}${key}: ${value}${eol}---${eol}`)] };
  if (!parsed.frontmatterClosed) return { ok: false, message: "the frontmatter has no closing '---' line; close it first, then try again" };
  if (parsed.data === undefined) {
    const first = parsed.problems.find((p) => p.code !== 'bom');
    return { ok: false, message: `the frontmatter cannot be read${first ? ` (line ${first.line}: ${first.message})` : ''}; fix it first, then try again` };
  }
  const existing = parsed.keys.find((k) => k.key === key);
  if (existing) {
    if (isSet(existing.value)) return { ok: true, edits: [] };
    if (existing.valueRange) return { ok: true, edits: [{ ...existing.valueRange, text: value }] };
    // `key:` with no value: the value goes after the colon on the key's line.
    const line = src.split(/\r?\n|\r/)[existing.keyRange.line - 1] ?? '';
    const colon = line.indexOf(':', existing.keyRange.endColumn - 1);
    if (colon < 0) return { ok: false, message: `cannot find the ':' after '${key}' on line ${existing.keyRange.line}` };
    return { ok: true, edits: [at(existing.keyRange.line, colon + 2, ` ${value}`)] };
  }
  // The closing fence is the line before the body.
  return { ok: true, edits: [at(parsed.bodyStartLine - 1, 1, `${key}: ${value}${eol}`)] };
}

/** Where the `description` value sits (for selecting it), or undefined when the frontmatter has none. */
export function descriptionRange(text: string): Range | undefined {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return parseSkillMd(src).keys.find((k) => k.key === 'description')?.valueRange;
}

/** Applies non-overlapping edits to a text (without BOM); for tests and for callers without an editor. */
export function applyRangeEdits(text: string, edits: readonly RangeEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  const offset = (line: number, column: number) => (starts[line - 1] ?? text.length) + column - 1;
  const sorted = [...edits].sort((a, b) => offset(b.line, b.column) - offset(a.line, a.column));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.line, e.column)) + e.text + out.slice(offset(e.endLine, e.endColumn));
  return out;
}
