/**
 * SKILL.md / agent .md parsing: BOM, `---` fences, YAML frontmatter with exact source ranges for every
 * top-level key and value, and the markdown body. Never throws; problems are returned.
 */
import { isCollection, isMap, isPair, isScalar, isSeq, Scalar, YAMLParseError, type Document, type Node as YamlNode } from 'yaml';
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_TOKENS, parseYamlWithinLimits, withoutStackTraces, type YamlLimit } from '../base/boundedYaml';
import type { Problem, Range } from '../base/types';
import { severityFor } from '../base/rules';
import { LineIndex } from '../base/text';
import type { FrontmatterKey, ParsedSkillMd } from './model';

/** Aliases may expand to at most this many nodes (guards against "billion laughs"). */
const MAX_ALIAS_COUNT = 100;
/** `---` alone on a line (trailing spaces/tabs allowed): a frontmatter fence. */
export const FENCE = /^---[ \t]*$/;

/** The parse plus what validators need to point into nested YAML values. */
export interface DetailedParse {
  parsed: ParsedSkillMd;
  /** Line index over the text without its BOM (all ranges are in these coordinates). */
  lines: LineIndex;
  /** True when the frontmatter had YAML errors (then `parsed.data` is undefined). */
  yamlFailed: boolean;
  /** Top-level value nodes by key (for ranges of list items and map entries). */
  valueNodes: Map<string, YamlNode | null>;
  /** Source range of any YAML node from this parse, trimmed of trailing whitespace; undefined for an empty node. */
  nodeRange(node: YamlNode | null | undefined): Range | undefined;
  /** Range of the opening `---` line. */
  openingRange: Range;
  /** True when the frontmatter was read by the flat-frontmatter fast path (no YAML library). */
  fastPath?: boolean;
}

function problem(code: string, range: Range, message: string, variant?: string): Problem {
  return { code, severity: severityFor(code, 'claude-code', variant) ?? 'error', message, ...range, ...(variant ? { variant } : {}) };
}

/** The `yaml-syntax` case Claude Code reads anyway: a top-level plain value containing `: ` (a warning in claude-code). */
export const COLON_VARIANT = 'colon-in-value';
/**
 * Who, besides Claude Code, reads a SKILL.md's frontmatter strictly (in the colon-in-value message). Not an agent's or
 * a command's: the validators of those files take it out (withoutSkillReaders).
 */
const SKILL_YAML_READERS = ' (the Agent Skills spec, claude.ai uploads)';

/** A parser message for an agent or command file: without the readers that only read skills. */
export function withoutSkillReaders(message: string): string {
  return message.replace(SKILL_YAML_READERS, '');
}

/**
 * For a file whose frontmatter does not parse (`yamlFailed`): `consequence` (what Claude Code then does with the file)
 * appended to the first `yaml-syntax` error among `problems`, said once.
 */
export function sayOnFirstYamlError(problems: Problem[], yamlFailed: boolean, consequence: string): void {
  if (!yamlFailed) return;
  const first = problems.find((p) => p.code === 'yaml-syntax' && p.severity === 'error');
  if (first) first.message += `; ${consequence}`;
}

/** A top-level plain value with `: ` inside, as Claude Code reads it: `at` is its offset in the YAML source. */
interface ColonValue {
  key: string;
  text: string;
  at: number;
  placeholder: string;
}

/** `key: value` at the start of a line, the value plain (no quote, block, flow, anchor, tag or alias) and holding `: `. */
const COLON_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+([^\s"'|>[{&*!%@`#][^\n]*?)[ \t]*$/;

/**
 * The YAML source with every top-level plain value that holds `: ` replaced by a placeholder of the same length, when
 * each of the parse's errors is on such a line; undefined otherwise. The values by their offset in the source.
 */
function colonFallback(source: string, errors: ReadonlyArray<{ pos: [number, number] }>): { text: string; values: Map<number, ColonValue> } | undefined {
  const values = new Map<number, ColonValue>();
  let text = source;
  for (const err of errors) {
    const lineStart = source.lastIndexOf('\n', Math.max(0, err.pos[0] - 1)) + 1;
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = source.length;
    const m = COLON_LINE.exec(source.slice(lineStart, lineEnd));
    if (!m || !/:[ \t]/.test(m[2])) return undefined;
    const at = lineStart + m[0].indexOf(m[2], m[1].length + 1);
    if (values.has(at)) continue;
    const placeholder = 'x'.repeat(m[2].length);
    values.set(at, { key: m[1], text: m[2], at, placeholder });
    text = text.slice(0, at) + placeholder + text.slice(at + placeholder.length);
  }
  return values.size ? { text, values } : undefined;
}

/**
 * The range of `length` characters from `offset`, cut at the end of its line and at least one character wide, inside
 * the line: a position at the line's end (a line break, the end of the text) marks the line's last character instead;
 * on an empty line the range is empty (column 1 to 1).
 */
export function charRange(lines: LineIndex, offset: number, length: number): Range {
  const at = lines.position(offset);
  const i = at.line - 1;
  const lineLength = lines.lineEnd(i) - lines.starts[i];
  const column = Math.max(1, Math.min(at.column, lineLength));
  const endColumn = Math.min(lineLength + 1, Math.max(column + 1, at.column + length));
  return { line: at.line, column, endLine: at.line, endColumn };
}

/** Parses a SKILL.md (or agent .md) into frontmatter keys with ranges and the body. Never throws. */
export function parseSkillMd(text: string): ParsedSkillMd {
  return parseSkillMdDetailed(text).parsed;
}

/** Options of `parseSkillMdDetailed`; `fastPath: false` always uses the YAML library (tests compare both paths). */
export interface ParseOptions {
  fastPath?: boolean;
}

/** Like `parseSkillMd`, plus the YAML nodes and the line index (for validators). Never throws. */
export function parseSkillMdDetailed(text: string, opts?: ParseOptions): DetailedParse {
  const input = typeof text === 'string' ? text : String(text ?? '');
  try {
    return parseUnsafe(input, opts?.fastPath !== false);
  } catch (e) {
    // Defensive: the YAML library should not throw here, but a parse must never take the caller down.
    const lines = new LineIndex(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
    const range = lines.lineRange(0);
    return {
      parsed: {
        hasBom: input.charCodeAt(0) === 0xfeff, hasFrontmatter: false, frontmatterClosed: false, data: undefined, keys: [],
        frontmatterStartLine: 2, bodyStartLine: 1, body: '',
        problems: [problem('yaml-syntax', range, `Fix the frontmatter: it could not be parsed (${e instanceof Error ? e.message : String(e)})`)],
      },
      lines, yamlFailed: true, valueNodes: new Map(), nodeRange: () => undefined, openingRange: range,
    };
  }
}

function parseUnsafe(input: string, fastPath: boolean): DetailedParse {
  const hasBom = input.charCodeAt(0) === 0xfeff;
  const src = hasBom ? input.slice(1) : input;
  const lines = new LineIndex(src);
  const problems: Problem[] = [];
  const openingRange = lines.lineRange(0);
  const valueNodes = new Map<string, YamlNode | null>();
  if (hasBom) {
    problems.push(problem('bom', charRange(lines, 0, 1),
      'Save the file as UTF-8 without a byte order mark: it starts with a BOM, and Claude Code before 2.1.239 ignored such a file without a word'));
  }
  const base: DetailedParse = {
    parsed: {
      hasBom, hasFrontmatter: false, frontmatterClosed: false, data: undefined, keys: [],
      frontmatterStartLine: 2, bodyStartLine: 1, body: src, problems,
    },
    lines, yamlFailed: false, valueNodes, nodeRange: () => undefined, openingRange,
  };

  if (!FENCE.test(lines.lineText(0))) {
    let hint = '';
    for (let i = 1; i < Math.min(lines.lineCount, 50); i++) {
      const t = lines.lineText(i);
      if (FENCE.test(t)) { hint = `; the '---' on line ${i + 1} must be the very first line`; break; }
      if (t.trim() !== '') break;
    }
    problems.push(problem('frontmatter-missing', openingRange, `Start the file with a '---' line opening the YAML frontmatter (name, description)${hint}`));
    return base;
  }
  base.parsed.hasFrontmatter = true;

  let close = -1;
  for (let i = 1; i < lines.lineCount; i++) {
    if (FENCE.test(lines.lineText(i))) { close = i; break; }
  }
  if (close < 0) {
    problems.push(problem('frontmatter-unclosed', openingRange, "Add a closing '---' line after the frontmatter: it has none"));
    base.parsed.body = '';
    base.parsed.bodyStartLine = lines.lineCount + 1;
    base.yamlFailed = true;
    return base;
  }
  base.parsed.frontmatterClosed = true;
  base.parsed.bodyStartLine = close + 2;
  base.parsed.body = close + 1 < lines.lineCount ? src.slice(lines.starts[close + 1]) : '';

  const yamlStart = lines.starts[1];
  const yamlEnd = lines.starts[close];
  if (yamlEnd - yamlStart > MAX_FRONTMATTER_LENGTH) {
    problems.push(problem('frontmatter-limits', lines.lineRange(lines.lineOf(yamlStart + MAX_FRONTMATTER_LENGTH)),
      `Shorten the frontmatter: it is ${yamlEnd - yamlStart} characters long, over the limit of ${MAX_FRONTMATTER_LENGTH} (from this line on), and was not read`));
    base.yamlFailed = true;
    return base;
  }
  if (fastPath) {
    const flat = parseFlatFrontmatter(src, yamlStart, lines.starts[close], lines);
    if (flat && flat.tooMany !== undefined) {
      // Flat keys up to the limit, then one more: what the YAML library would report, without running it.
      problems.push(tooManyKeys(charRange(lines, flat.tooMany, 1)));
      base.parsed.keys = flat.keys;
      base.yamlFailed = true;
      return base;
    }
    if (flat) {
      base.parsed.keys = flat.keys;
      base.parsed.data = flat.data;
      return new FlatParse(base.parsed, lines, openingRange, flat.nodes);
    }
  }
  return parseWithYaml(base, src, close);
}

/**
 * The rest of parseUnsafe for a frontmatter the fast path did not read (nested values, unusual YAML; a few percent of
 * real files): the YAML library's parse, its errors, keys and values. A function of its own, so that the optimizing
 * compiler, which compiles parseUnsafe for every bulk run, does not compile this rarely run part with it.
 */
function parseWithYaml(base: DetailedParse, src: string, close: number): DetailedParse {
  const { lines, valueNodes } = base;
  const problems = base.parsed.problems;
  const yamlStart = lines.starts[1];
  const first = parseFrontmatterYaml(src.slice(yamlStart, lines.starts[close]), yamlStart);
  const { source, sourceStart } = first;
  let { doc, limit, tooMany, collectionKeys } = first;
  // Claude Code reads `key: text with: a colon` as the text (changelog 2.1.69); strict YAML readers refuse it.
  let colonValues: ReadonlyMap<number, ColonValue> | undefined;
  if (doc && doc.errors.length && tooMany === undefined) {
    const retry = colonFallback(source, doc.errors);
    if (retry) {
      const again = parseFrontmatterYaml(retry.text, yamlStart);
      if (again.doc && !again.doc.errors.length && again.tooMany === undefined) {
        for (const v of retry.values.values()) {
          problems.push(problem('yaml-syntax', charRange(lines, yamlStart + v.at, v.text.length),
            `Quote ${v.key === 'description' ? 'the description' : `the value of '${v.key}'`}: it contains ': ' (e.g. ${v.key}: ${quotedExample(v.text)}). Claude Code reads it as written, but strict YAML readers${SKILL_YAML_READERS} refuse it`, COLON_VARIANT));
        }
        ({ doc, limit, tooMany, collectionKeys } = again);
        colonValues = retry.values;
      }
    }
  }
  if (!doc) {
    problems.push(problem('frontmatter-limits', charRange(lines, sourceStart + (limit?.at ?? 0), 1), LIMIT_MESSAGES[limit?.kind ?? 'depth']));
    base.yamlFailed = true;
    return base;
  }
  if (tooMany !== undefined) {
    // Past the first key over the limit nothing is reported or kept (as on the fast path, which stops reading there).
    doc.errors = doc.errors.filter((e) => e.pos[0] < tooMany);
  }

  const nodeRange = (node: YamlNode | null | undefined): Range | undefined => {
    if (!node || !node.range) return undefined;
    const start = node.range[0];
    let end = node.range[1];
    while (end > start && /\s/.test(source[end - 1])) end--;
    if (end <= start) return undefined;
    return lines.range(sourceStart + start, sourceStart + end);
  };
  base.nodeRange = nodeRange;

  // In document order, one per line, without the errors the first mistake caused on later lines (withoutKnockOns).
  const seenLines = new Set<number>();
  for (const err of withoutKnockOns([...doc.errors].sort((a, b) => a.pos[0] - b.pos[0]), source, yamlStart, lines)) {
    const start = Math.max(yamlStart, sourceStart + Math.max(0, Math.min(err.pos[0], source.length)));
    let range: Range;
    if (start >= lines.starts[close]) {
      // "Missing closing quote" and friends are found at the end of the YAML: show them on its last line, not on the fence.
      let last = close - 1;
      while (last > 1 && lines.lineText(last).trim() === '') last--;
      range = lines.lineRange(Math.max(1, last));
    } else {
      // The library's span when it names a token (more than one character); else from the error to the end of the
      // line's text. One line only; at least one character wide so that editors show it.
      const span = sourceStart + Math.min(err.pos[1], source.length) - start;
      const lineNo = lines.lineOf(start);
      const textEnd = lines.starts[lineNo] + lines.lineText(lineNo).trimEnd().length;
      range = charRange(lines, start, span > 1 ? span : textEnd - start);
    }
    if (seenLines.has(range.line)) continue;
    seenLines.add(range.line);
    problems.push(problem('yaml-syntax', range, yamlMessage(err.message, err.code, lines.lineText(range.line - 1))));
  }
  base.yamlFailed = doc.errors.length > 0;
  if (tooMany !== undefined) {
    problems.push(tooManyKeys(charRange(lines, sourceStart + tooMany, 1)));
    base.yamlFailed = true;
  }

  const contents = doc.contents as YamlNode | null;
  if (contents !== null && !isMap(contents)) {
    if (!base.yamlFailed) {
      problems.push(problem('frontmatter-not-mapping', nodeRange(contents) ?? lines.lineRange(1),
        'Write the frontmatter as `key: value` lines: it is not a YAML mapping'));
      base.yamlFailed = true;
    }
    return base;
  }

  const keys: FrontmatterKey[] = [];
  const data: Record<string, unknown> = {};
  if (isMap(contents)) {
    for (const pair of contents.items) {
      const keyNode = pair.key as YamlNode | null;
      const valueNode = pair.value as YamlNode | null;
      if (tooMany !== undefined && (keyNode?.range?.[0] ?? valueNode?.range?.[0] ?? 0) >= tooMany) break;
      let key: string;
      if (isScalar(keyNode)) key = String(keyNode.value ?? '');
      else if (keyNode && keyNode.range) key = source.slice(keyNode.range[0], keyNode.range[1]).trim();
      else key = '';
      const keyRange = keyNode && keyNode.range
        ? lines.range(sourceStart + keyNode.range[0], sourceStart + keyNode.range[1])
        : lines.range(yamlStart, yamlStart);
      let value: unknown = null;
      try {
        // A collection used as a key (reported above) would be stringified, at a cost growing with its depth: not converted.
        value = valueNode && !collectionKeys ? valueNode.toJS(doc as Document, { maxAliasCount: MAX_ALIAS_COUNT }) : null;
        const colon = colonValues && valueNode?.range ? colonValues.get(valueNode.range[0]) : undefined;
        if (colon && typeof value === 'string' && value.startsWith(colon.placeholder)) value = colon.text + value.slice(colon.placeholder.length);
      } catch (e) {
        const r = nodeRange(valueNode) ?? keyRange;
        problems.push(problem('yaml-syntax', r, `Fix the value of '${key}': it cannot be resolved (${e instanceof Error ? e.message : String(e)})`));
        base.yamlFailed = true;
      }
      const valueRange = nodeRange(valueNode);
      keys.push(valueRange ? { key, keyRange, valueRange, value } : { key, keyRange, value });
      if (!valueNodes.has(key)) valueNodes.set(key, valueNode);
      // defineProperty so that a `__proto__` key is stored as data, not as the prototype; other keys by a plain store.
      if (key === '__proto__') Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
      else data[key] = value;
    }
  }
  base.parsed.keys = keys;
  base.parsed.data = base.yamlFailed ? undefined : data;
  return base;
}

/** The `frontmatter-limits` message of each limit of the YAML library's parse. */
const LIMIT_MESSAGES: Record<YamlLimit['kind'], string> = {
  depth: `Flatten the frontmatter: it is nested more than ${MAX_YAML_DEPTH} levels deep (maps and lists) and was not read further`,
  tokens: `Simplify the frontmatter: it has more than ${MAX_YAML_TOKENS} YAML tokens (keys, values, comments, indicators such as \`-\` \`:\` \`[\` \`,\`) outside plain \`key: value\` lines, and was not read`,
  aliases: `Use fewer aliases: the frontmatter has more than ${MAX_YAML_ALIASES} (\`*name\`), and was not read`,
};

/** The `frontmatter-limits` problem of a frontmatter with more than MAX_YAML_KEYS keys, at the first key over. */
function tooManyKeys(range: Range): Problem {
  return problem('frontmatter-limits', range,
    `Use fewer keys: the frontmatter has more than ${MAX_YAML_KEYS} (counting nested maps), so the key rules were skipped and it was not read from here on`);
}

/**
 * A DetailedParse by the flat-frontmatter fast path: the YAML nodes are made on first use (few callers ask for them,
 * and making them costs every file). A class, so that every such parse has one shape, its accessor on the prototype.
 */
class FlatParse implements DetailedParse {
  readonly yamlFailed = false;
  readonly fastPath = true;
  private nodes: { valueNodes: Map<string, YamlNode | null>; ranges: Map<YamlNode, Range> } | undefined = undefined;

  constructor(
    public parsed: ParsedSkillMd,
    readonly lines: LineIndex,
    readonly openingRange: Range,
    private readonly makeNodes: () => { valueNodes: Map<string, YamlNode | null>; ranges: Map<YamlNode, Range> },
  ) {}

  get valueNodes(): Map<string, YamlNode | null> {
    return (this.nodes ??= this.makeNodes()).valueNodes;
  }

  nodeRange(node: YamlNode | null | undefined): Range | undefined {
    return node ? (this.nodes ??= this.makeNodes()).ranges.get(node) : undefined;
  }
}

/** YAML's limit: the ':' of an implicit key is at most this many characters after the key's start. */
const MAX_IMPLICIT_KEY = 1024;

/** Reserved plain scalars of the YAML 1.2 core schema that are not strings (null and booleans). */
const CORE_NON_STRING = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * The fast path for the common frontmatter: every line is blank (empty or spaces only), a comment (`#` at column 1)
 * or `key: value` at column 1, with a simple key
 * (`[A-Za-z_][A-Za-z0-9_-]*`, not null/true/false), one or more spaces, and a value that is either a plain
 * scalar the YAML core schema reads as exactly that string (no indicator first character, no ': ', ' #' or
 * trailing ':', not null/bool/number-like, no control characters), a one-line "..."/'...' string without
 * escapes or inner quotes, or a literal block scalar (`|`, `|-`, `|+`; see `readLiteralBlock`). Builds what
 * the YAML library would (keys, ranges, data, scalar nodes); returns undefined for anything else (indented
 * lines outside a block, CR, tabs, duplicates, nested or folded values...), and the caller then runs
 * the full parser. test/unit/core/skillmd/frontmatterFast.test.ts checks both paths agree.
 */
function parseFlatFrontmatter(src: string, from: number, to: number, lines: LineIndex): {
  keys: FrontmatterKey[]; data: Record<string, unknown>;
  /** The offset of the first key line past MAX_YAML_KEYS flat keys (then nothing after it was read). */
  tooMany?: number;
  /** The value nodes the YAML library would give, with their ranges (made when called). */
  nodes: () => { valueNodes: Map<string, YamlNode | null>; ranges: Map<YamlNode, Range> };
} | undefined {
  if (from >= to) return undefined;
  const keys: FrontmatterKey[] = [];
  const data: Record<string, unknown> = {};
  const seen = new Set<string>();
  /** Per key: where its node's range is ([start, end, node end] from `from`) and whether it is a block scalar. */
  const spans: Array<{ start: number; end: number; nodeEnd: number; block: boolean }> = [];
  let pos = from;
  while (pos < to) {
    let eol = src.indexOf('\n', pos);
    if (eol < 0 || eol >= to) eol = to; // the last line before the fence always ends in '\n' (to is the fence's start)
    // The next line's start, computed on every line: the rare branches below then hold no operation of their own (an
    // operation first run on a blank or comment line late in a bulk run had no type feedback when the optimizing
    // compiler compiled this function, and its code was thrown away then).
    const after = eol + 1;
    let i = pos;
    // Leading spaces, counted on every line (a loop run only for the rare indented line had no type feedback when the
    // optimizing compiler compiled this function, and threw its code away when first reached).
    while (i < eol && src.charCodeAt(i) === 32) i++;
    if (i === eol) {
      // A blank line (empty or only spaces): YAML skips it.
      pos = after;
      continue;
    }
    if (i > pos) return undefined; // any other indented line is left to the full parser
    const c0 = src.charCodeAt(i);
    // A comment line (`#` at column 1): YAML skips it unless it holds a character the fast path leaves alone. It takes
    // the plain value's way below (the same calls, which have type feedback), skipping the key and value rules.
    const comment = c0 === 35;
    let key = '';
    let keyEnd = i;
    let end = eol;
    if (!comment) {
      // Key.
      if (!isKeyStart(c0)) return undefined;
      i++;
      while (i < eol && isKeyChar(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) !== 58 || src.charCodeAt(i + 1) !== 32) return undefined; // ':' then a space
      if (i - pos > MAX_IMPLICIT_KEY) return undefined; // YAML refuses it (KEY_OVER_1024_CHARS): the full parser reports it
      if (keys.length >= MAX_YAML_KEYS) return { keys, data, tooMany: pos, nodes: () => ({ valueNodes: new Map(), ranges: new Map() }) };
      key = src.slice(pos, i);
      if (CORE_NON_STRING.has(key) || seen.has(key)) return undefined;
      keyEnd = i;
      i += 2;
      while (i < eol && src.charCodeAt(i) === 32) i++;
      while (end > i && src.charCodeAt(end - 1) === 32) end--;
      if (end <= i) return undefined; // `key:` with no value: the full parser decides
    }
    let value: string;
    let next = after;
    const q = src.charCodeAt(i); // on a comment line `#`: the plain way
    let literal = false;
    if (q === 124 && (end - i === 1 || (end - i === 2 && (src.charCodeAt(i + 1) === 45 || src.charCodeAt(i + 1) === 43)))) {
      // `|`, `|-` or `|+` alone on the line (trailing spaces allowed): a literal block scalar on the next lines.
      const block = readLiteralBlock(src, eol + 1, to, end - i === 1 ? 'clip' : src.charCodeAt(i + 1) === 45 ? 'strip' : 'keep');
      if (!block) return undefined;
      value = block.value;
      next = block.end;
      // The library's node range runs from the header to the end of the content; nodeRange then trims whitespace.
      end = next;
      while (end > i && /\s/.test(src[end - 1])) end--;
      literal = true;
    } else {
      if (q === 34 || q === 39) {
        // "..." or '...' on one line, nothing after the closing quote, no escapes or same quotes inside.
        if (end - i < 2 || src.charCodeAt(end - 1) !== q) return undefined;
        value = src.slice(i + 1, end - 1);
        if (value.includes(q === 34 ? '"' : "'") || value.includes('\\')) return undefined;
      } else {
        value = src.slice(i, end); // a comment line: all of it
        if (!comment) {
          if (!isSafePlain(value)) return undefined;
          // The value keeps trailing Unicode spaces (NBSP...) but nodeRange trims every /\s/ from the range.
          if (src.charCodeAt(end - 1) > 127) while (end > i && /\s/.test(src[end - 1])) end--;
          if (end <= i) return undefined;
        }
      }
      if (hasUnsafeChar(value)) return undefined;
    }
    if (comment) {
      pos = after;
      continue;
    }
    const valueRange = lines.range(i, end);
    spans.push({ start: i - from, end: end - from, nodeEnd: next - 1 - from, block: literal });
    keys.push({ key, keyRange: lines.range(pos, keyEnd), valueRange, value });
    seen.add(key);
    // A `__proto__` key is stored as data, not as the prototype (defineProperty); other keys by a plain store.
    if (key === '__proto__') Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
    else data[key] = value;
    pos = next;
  }
  const nodes = () => {
    const valueNodes = new Map<string, YamlNode | null>();
    const ranges = new Map<YamlNode, Range>();
    keys.forEach((k, n) => {
      const span = spans[n];
      const node = new Scalar<string>(k.value as string);
      if (span.block) node.type = Scalar.BLOCK_LITERAL;
      node.range = [span.start, span.end, span.nodeEnd];
      ranges.set(node, k.valueRange!);
      valueNodes.set(k.key, node);
    });
    return { valueNodes, ranges };
  };
  return { keys, data, nodes };
}

/** True when `s` has a character the fast path leaves to the YAML library: controls (tab, CR, LF...), C1, lone surrogates, line separators, BOM, non-characters. */
function hasUnsafeChar(s: string): boolean {
  return UNSAFE_CHAR.test(s);
}

/** hasUnsafeChar's characters (UTF-16 units: any surrogate, paired or not). A regex runs as native code from its first use. */
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff\u2028\u2029\ufeff\ufffe\uffff]/; // eslint-disable-line no-control-regex

/**
 * The content of a literal block scalar whose header line ends just before `start`, read the way the YAML
 * library reads it, or undefined when unsure. Supported: the first line after the header is either a
 * column-1 line (empty block, value '') or content indented by n ≥ 1 spaces; every later line up to the
 * first column-1 line (or `to`) is content indented by ≥ n spaces (the extra spaces are kept), or only
 * spaces (≤ n spaces: an empty line; more: content made of the spaces past n). Chomping as in YAML:
 * strip drops the final line break and the trailing empty lines, clip keeps one line break, keep keeps all.
 * Leading empty lines, lines indented by 1..n-1 spaces, tabs and other unsafe characters give undefined.
 * Returns the value and the offset of the line that ends the block.
 */
function readLiteralBlock(src: string, start: number, to: number, chomp: 'clip' | 'strip' | 'keep'): { value: string; end: number } | undefined {
  const parts: string[] = [];
  let contentLines = 0; // parts up to the last content line (the rest are trailing empty lines)
  let indent = -1;
  let p = start;
  while (p < to) {
    let eol = src.indexOf('\n', p);
    if (eol < 0 || eol >= to) eol = to;
    let k = p;
    while (k < eol && src.charCodeAt(k) === 32) k++;
    const spaces = k - p;
    if (k === eol) {
      // Only spaces: an empty line (or, past the indentation, content made of spaces).
      if (indent < 0) return undefined; // leading empty lines (indentation rules differ): the full parser decides
      if (spaces > indent) {
        parts.push(src.slice(p + indent, eol));
        contentLines = parts.length;
      } else parts.push('');
    } else {
      if (spaces === 0) break; // a column-1 line ends the block (the caller reads it as the next key or refuses it)
      if (indent < 0) indent = spaces;
      else if (spaces < indent) return undefined;
      const text = src.slice(p + indent, eol);
      if (hasUnsafeChar(text)) return undefined;
      parts.push(text);
      contentLines = parts.length;
    }
    p = eol + 1;
  }
  if (p > to) p = to;
  if (chomp === 'keep') return { value: parts.length ? `${parts.join('\n')}\n` : '', end: p };
  const content = parts.slice(0, contentLines).join('\n');
  return { value: chomp === 'clip' && contentLines ? `${content}\n` : content, end: p };
}

/**
 * Characters of a flat key, by ASCII code: 1 for `0-9` and `-`, 3 (also a first character) for `A-Z`, `a-z`, `_`.
 * A table, not a chain of comparisons: a comparison first made on a rare character (an upper-case letter, a digit) late
 * in a bulk run had no type feedback when parseFlatFrontmatter was compiled, and its optimized code was thrown away.
 */
const KEY_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) KEY_CHARS[c] = 3;
  else if ((c >= 48 && c <= 57) || c === 45) KEY_CHARS[c] = 1;
}

/** `[A-Za-z_]`. */
function isKeyStart(c: number): boolean {
  return c < 128 && KEY_CHARS[c] === 3;
}

/** `[A-Za-z0-9_-]`. */
function isKeyChar(c: number): boolean {
  return c < 128 && KEY_CHARS[c] !== 0;
}

/** Plain scalar characters that may not start a safe value: YAML indicators, digits and number signs, space. */
const UNSAFE_FIRST = new Set('-?:,[]{}#&*!|>\'"%@`+.~0123456789 \t');

/** True when YAML reads `value` (trimmed, one line) as a plain scalar equal to `value` itself, a string. */
function isSafePlain(value: string): boolean {
  if (UNSAFE_FIRST.has(value[0])) return false;
  // (Those words have 4 or 5 letters: a longer value, a description, is not hashed for the look-up.)
  if (value.length <= 5 && CORE_NON_STRING.has(value)) return false;
  if (value.includes(': ') || value.includes(' #') || value.includes('\t') || value.endsWith(':')) return false;
  return true;
}

const YAML_OPTIONS = {
  prettyErrors: false,
  // Duplicate keys are found by findDuplicateKeys (a hash per map): the library's own test compares every key of a map
  // with every other (quadratic: 50,000 keys took 15 s).
  uniqueKeys: false,
  keepSourceTokens: false,
  // No warnings printed on the process (a collection as a map key is reported as a problem instead).
  logLevel: 'error',
} as const;

/**
 * Length limit of the frontmatter (the text between the fences, in UTF-16 units): longer frontmatter is a
 * `frontmatter-limits` problem and is not read. It bounds the YAML library's work on one file (about a microsecond per
 * character on flow collections); Claude Code reads a few dozen short keys.
 */
export const MAX_FRONTMATTER_LENGTH = 64 * 1024;

/**
 * Limits of the frontmatter YAML read by the YAML library (see src/core/base/boundedYaml.ts): nesting depth, tokens and
 * aliases. Each is a `frontmatter-limits` problem at the first node, token or alias past it, and the YAML is not read.
 * Flat frontmatter (read by the fast path) is not counted: there only MAX_FRONTMATTER_LENGTH and MAX_YAML_KEYS apply.
 */
export { MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_TOKENS };

/**
 * Key limit of the frontmatter YAML: at most this many map entries in all (at any level). Past it the frontmatter is a
 * `frontmatter-limits` problem at the first entry over the limit and the key rules are skipped (each key would
 * otherwise be checked and reported on its own). Claude Code reads a few dozen keys.
 */
export const MAX_YAML_KEYS = 1000;

/**
 * Parses the frontmatter YAML with the `yaml` package, within the limits of parseYamlWithinLimits (`limit`: the one
 * reached; no document then). Our fence scan has found the block (gray-matter is not used here: its comment-stripping
 * regex runs over the whole block and is quadratic in runs of blank lines).
 * Returns the document, the string it was parsed from and that string's offset in the file.
 */
function parseFrontmatterYaml(yamlText: string, yamlStart: number): {
  doc: Document.Parsed | undefined; limit?: YamlLimit; tooMany?: number; collectionKeys?: boolean; source: string; sourceStart: number;
} {
  // The YAML parser only breaks lines at LF; a lone CR becomes LF (same length, so offsets still match).
  const source = yamlText.replace(/\r(?!\n)/g, '\n');
  const { doc, limit } = parseYamlWithinLimits(source, YAML_OPTIONS);
  if (!doc) return { doc, limit, source, sourceStart: yamlStart };
  return { doc, ...withoutStackTraces(() => findKeyProblems(doc)), source, sourceStart: yamlStart };
}

/** An error of a token the parser met outside the document (after a mistake ended it early). */
function strayInStream(err: YAMLParseError): boolean {
  return err.code === 'UNEXPECTED_TOKEN' && err.message.includes('in YAML stream');
}

/** A frontmatter line of text at column 0 that is no `key: value`, list item or comment (`<example>`, a sentence). */
function isProseLine(t: string): boolean {
  const c = t.charCodeAt(0);
  if (t === '' || c === 32 || c === 9 || c === 35 || c === 45) return false;
  return !/:(?:\s|$)/.test(t);
}

/** Codes of the errors findKeyProblems adds (a duplicate key, a list or map as a key): each stands on its own. */
const KEY_PROBLEM_CODES: ReadonlySet<string> = new Set(['DUPLICATE_KEY', 'NON_STRING_KEY']);
/** A frontmatter is parsed again to tell knock-on errors only with at most this many lines in error... */
const KNOCK_ON_MAX_LINES = 8;
/** ...and at most this many characters (a second parse of a large broken frontmatter is not worth its time). */
const KNOCK_ON_MAX_SOURCE = 16 * 1024;

/**
 * `errors` (sorted by position) of the YAML `source` without those its first mistake caused on later lines, lines
 * with nothing wrong of their own. A mistake that ends the document early (`argument-hint: [a] [b]`) makes the YAML
 * library read the rest as stray tokens of the stream, an error on every later line: those are dropped. Others (after
 * `[a] | [b]`, the `|` read as a block scalar, the next key "needs a value") are told by parsing the source once more
 * with the first mistake's line blanked (the same length: offsets stay): a later line is kept only when it is still
 * wrong then, with that parse's message (as it reads once the first mistake is fixed). Only for a small frontmatter
 * with 2 to KNOCK_ON_MAX_LINES lines in error; key problems are always kept.
 */
function withoutKnockOns(errors: readonly YAMLParseError[], source: string, yamlStart: number, index: LineIndex): YAMLParseError[] {
  let kept = errors.filter((e, i) => i === 0 || !strayInStream(e));
  let syntax = kept.filter((e) => !KEY_PROBLEM_CODES.has(e.code));
  if (syntax.length < 2) return kept;
  // Lines of the file (`index`, the parse's), where `source` starts at `yamlStart`.
  const lineOf = (offset: number) => index.lineOf(yamlStart + Math.max(0, Math.min(offset, source.length)));
  // Prose in the frontmatter (a description's `<example>` blocks run on at column 0, as agent files often have them):
  // what the parser makes of the lines after the first such line in error, `user:` and `assistant:` keys over and
  // over, is no mistake of its own. Nothing after it is reported.
  const prose = syntax.find((e) => isProseLine(index.lineText(lineOf(e.pos[0]))));
  if (prose !== undefined) {
    const last = lineOf(prose.pos[0]);
    kept = kept.filter((e) => lineOf(e.pos[0]) <= last);
    syntax = kept.filter((e) => !KEY_PROBLEM_CODES.has(e.code));
  }
  if (syntax.length < 2 || source.length > KNOCK_ON_MAX_SOURCE) return kept;
  const lines = new Set(syntax.map((e) => lineOf(e.pos[0])));
  if (lines.size < 2 || lines.size > KNOCK_ON_MAX_LINES) return kept;
  const first = syntax[0];
  const firstLine = lineOf(first.pos[0]);
  const at = Math.max(0, Math.min(first.pos[0], source.length));
  if (at >= source.length) return kept;
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const nl = source.indexOf('\n', at);
  const lineEnd = nl < 0 ? source.length : nl;
  const again = parseFrontmatterYaml(source.slice(0, lineStart) + ' '.repeat(lineEnd - lineStart) + source.slice(lineEnd), yamlStart);
  if (!again.doc) return kept;
  const stillWrong = new Map<number, YAMLParseError>();
  for (const e of again.doc.errors) {
    if (KEY_PROBLEM_CODES.has(e.code) || strayInStream(e)) continue;
    const line = lineOf(e.pos[0]);
    if (line > firstLine && !stillWrong.has(line)) stillWrong.set(line, e);
  }
  const out: YAMLParseError[] = [];
  for (const e of kept) {
    const line = lineOf(e.pos[0]);
    if (KEY_PROBLEM_CODES.has(e.code) || line <= firstLine) out.push(e);
    else if (stillWrong.has(line)) { out.push(stillWrong.get(line)!); stillWrong.delete(line); }
  }
  return out.sort((a, b) => a.pos[0] - b.pos[0]);
}

/**
 * Adds to `doc.errors` what the composer leaves to us: duplicate keys of every map (`DUPLICATE_KEY`, as the library
 * reports them: scalar keys equal by value, other keys never equal) and maps keyed by a list or map (`BAD_KEY`: such
 * a key has no string form Claude Code could use). Iterative and linear: one hash set per map.
 */
function findKeyProblems(doc: Document.Parsed): { tooMany?: number; collectionKeys: boolean } {
  const found: YAMLParseError[] = [];
  const stack: unknown[] = [doc.contents];
  let count = 0;
  let tooMany: number | undefined;
  let collectionKeys = false;
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (++count > MAX_YAML_KEYS) {
          const at = (pair.key as YamlNode | null)?.range?.[0] ?? (pair.value as YamlNode | null)?.range?.[0];
          if (at !== undefined && (tooMany === undefined || at < tooMany)) tooMany = at;
        }
        const key = pair.key as YamlNode | null;
        if (isScalar(key)) {
          const v = key.value;
          if (v === v && seen.has(v)) found.push(new YAMLParseError(key.range ? [key.range[0], key.range[0] + 1] : [0, 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
          seen.add(v);
        } else if (isCollection(key)) {
          collectionKeys = true;
          found.push(new YAMLParseError(key.range ? [key.range[0], key.range[1]] : [0, 0], 'NON_STRING_KEY',
            `A map key must be a single value, not a ${isSeq(key) ? 'list' : 'map'}`));
        } else if (key) stack.push(key);
        if (pair.value) stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isPair(node)) {
      stack.push(node.key, node.value);
    }
  }
  // In document order, as the composer would have reported them.
  if (found.length) doc.errors = [...doc.errors, ...found].sort((a, b) => a.pos[0] - b.pos[0]);
  return { tooMany, collectionKeys };
}

/** `value` in double quotes for a message (cut at 40 characters). */
function quotedExample(value: string): string {
  return `"${value.replace(/"/g, '\\"').slice(0, 40)}${value.length > 40 ? '…' : ''}"`;
}

/**
 * Whether a plain value opens a YAML flow list or map and has more text after it closes, as in
 * `argument-hint: [to-branch] [from-branch]` (the shape Claude Code's documents give as an example of a hint): YAML
 * reads a list and then finds text where the line should end. Quoting the value makes it the text the author meant.
 */
export function flowThenText(value: string): boolean {
  const open = value.charCodeAt(0);
  if (open !== 91 && open !== 123) return false; // [ {
  const close = open === 91 ? 93 : 125;
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 34 || c === 39) return false; // quotes inside: not this simple shape
    if (c === open) depth++;
    else if (c === close && --depth === 0) {
      const rest = value.slice(i + 1).trim();
      return rest !== '' && !rest.startsWith('#');
    }
  }
  return false;
}

/** A YAML error message that leads with the fix: quote a plain value containing `: `, else fix the syntax. */
function yamlMessage(message: string, code: string, lineText: string): string {
  const first = message.split('\n')[0].replace(/\s+at line \d+, column \d+:?$/, '').trim();
  const detail = `YAML syntax error: ${first.charAt(0).toLowerCase()}${first.slice(1)}`;
  const m = /^\s*(?:-\s+)?([^\s#'"{[&*!|>-][^:]*?):[ \t]+(.*)$/.exec(lineText);
  if (m) {
    const key = m[1].trim();
    const value = m[2].trimEnd();
    const what = key === 'description' ? 'the description' : `the value of '${key}'`;
    const quotedOrBlock = /^["'|>[{&*!]/.test(value);
    if (!quotedOrBlock && /:[ \t]/.test(value)) {
      return `Quote ${what}: it contains ': ' (e.g. ${key}: ${quotedExample(value)}); ${detail}`;
    }
    if (flowThenText(value)) {
      return `Quote ${what}: '${value.slice(0, 40)}${value.length > 40 ? '…' : ''}' is a YAML list followed by more text, not one value (e.g. ${key}: ${quotedExample(value)}); ${detail}`;
    }
    if (code === 'BAD_SCALAR_START') return `Quote ${what}: ${detail}`;
  }
  // Text at column 0 (a description's `<example>` run on): YAML reads a line there as a new key.
  if (isProseLine(lineText)) return `Indent this line under the value it belongs to (or take it out of the frontmatter): at column 0 YAML reads it as a new key, and it is text; ${detail}`;
  return `Fix the YAML: ${detail}`;
}
