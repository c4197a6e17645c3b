/**
 * The YAML library's parse of untrusted text (SKILL.md and checkpoint frontmatter) within limits that bound its work
 * and its recursion: nesting depth, tokens and aliases. The lexer and parser run token by token (neither recurses) and
 * stop at the first limit reached; the composer (which recurses once per level) runs only on text within them.
 * Never throws on any text; never runs out of stack.
 */
import { Composer, Lexer, Parser, YAMLParseError, type CST, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';

/**
 * Nesting limit: the parser's open nodes (maps, lists, flow collections, explicit keys) may be at most this deep.
 * Composing and converting nested nodes recurses (deep enough, it overflows the stack, and a regular expression the
 * library compiles at that depth can then abort the whole process), and a deep key was stringified at a cost growing
 * with its depth.
 */
export const MAX_YAML_DEPTH = 100;

/**
 * Size limit: at most this many tokens (keys, values, comments, indicators such as `-` `:` `[` `,`, runs of spaces,
 * line breaks). The YAML library spends a few microseconds on each token (lexing, parsing, composing), so this bounds
 * its work on one text to a few tens of milliseconds. Real frontmatter has at most a few hundred tokens (the largest of
 * test/fixtures: 85).
 */
export const MAX_YAML_TOKENS = 5000;

/**
 * Alias limit: at most this many aliases (`*name`). The YAML library finds each alias's anchor by walking the document
 * from its start (and converts the anchored value again for each top-level key converted on its own), so many aliases
 * cost a time growing with their number times the document's size. Real frontmatter has none.
 */
export const MAX_YAML_ALIASES = 20;

/** Which limit stopped a parse, and the offset in the text of the token that went past it. */
export interface YamlLimit {
  kind: 'depth' | 'tokens' | 'aliases';
  at: number;
}

/** The lexer's control lexemes (document start, scalar start, flow end): no text of the source, not counted as tokens. */
const CONTROL_LEXEMES: ReadonlySet<string> = new Set(['\x02', '\x18', '\x1f']);

/** The parser's tokens for an open map or list (one nesting level each). */
const COLLECTION_TOKENS: ReadonlySet<string> = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * Parses `source` (LF line breaks: the parser breaks lines only there) as one YAML document with the composer
 * `options`: the document (a second document is a `MULTIPLE_DOCS` error of the first), or no document and the limit
 * reached.
 */
export function parseYamlWithinLimits(source: string, options: DocumentOptions & ParseOptions & SchemaOptions): { doc: Document.Parsed | undefined; limit?: YamlLimit } {
  return withoutStackTraces(() => {
    const tokens: CST.Token[] = [];
    const limit = parseTokens(source, tokens);
    if (limit) return { doc: undefined, limit };
    const composer = new Composer(options);
    let doc: Document.Parsed | undefined;
    for (const d of composer.compose(tokens, true, source.length)) {
      if (!doc) doc = d;
      else {
        doc.errors.push(new YAMLParseError(d.range.slice(0, 2) as [number, number], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
        break;
      }
    }
    return { doc };
  });
}

/**
 * Runs `fn` with no stack traces captured: the YAML library reports each error as an Error object, and without stack
 * traces they cost a hundredth (a broken text can hold an error per line).
 */
export function withoutStackTraces<T>(fn: () => T): T {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Lexes and parses `source` into `tokens`; returns the first limit reached, if any. */
function parseTokens(source: string, tokens: CST.Token[]): YamlLimit | undefined {
  const parser = new Parser();
  const { stack } = parser;
  let count = 0;
  let aliases = 0;
  for (const lexeme of new Lexer().lex(source)) {
    const offset = parser.offset; // where this lexeme starts (the lexer's control lexemes have no length in the source)
    if (!CONTROL_LEXEMES.has(lexeme)) {
      if (++count > MAX_YAML_TOKENS) return { kind: 'tokens', at: Math.min(offset, source.length) };
      // An alias is the only lexeme that starts with '*' (a plain scalar cannot).
      if (lexeme.charCodeAt(0) === 42 && ++aliases > MAX_YAML_ALIASES) return { kind: 'aliases', at: Math.min(offset, source.length) };
    }
    for (const token of parser.next(lexeme)) tokens.push(token);
    // stack[0] is the document; the top may be a scalar being read (not a level). The depth is at most
    // stack.length - 1: the set look-up runs only near the limit (this loop runs once per lexeme).
    if (stack.length - 1 > MAX_YAML_DEPTH) {
      const depth = stack.length - 1 - (!COLLECTION_TOKENS.has(stack[stack.length - 1].type) ? 1 : 0);
      if (depth > MAX_YAML_DEPTH) return { kind: 'depth', at: Math.min(offset, source.length) };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return undefined;
}
