// The flat-frontmatter fast path of parseSkillMdDetailed must give exactly what the YAML library gives.
// Every case is parsed twice (fast path allowed / forced off) and the two results compared in full.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Node as YamlNode } from 'yaml';
import { mdFiles } from '../../helpers/validation';
import { parseSkillMdDetailed, type DetailedParse } from '../../../../src/core/skillmd/frontmatter';

/** Everything a caller can observe of a parse, as plain data. */
function observable(d: DetailedParse) {
  const nodes: Array<[string, unknown, unknown]> = [];
  for (const [key, node] of d.valueNodes) {
    const n = node as (YamlNode & { toJSON(): unknown }) | null;
    nodes.push([key, n === null ? null : n.toJSON(), d.nodeRange(n)]);
  }
  return { parsed: d.parsed, yamlFailed: d.yamlFailed, openingRange: d.openingRange, lineStarts: d.lines.starts, nodes, empty: d.nodeRange(undefined) };
}

/** Asserts both paths agree on `text`; returns whether the fast path was taken. */
function same(text: string): boolean {
  const fast = parseSkillMdDetailed(text);
  const full = parseSkillMdDetailed(text, { fastPath: false });
  assert.equal(full.fastPath, undefined);
  assert.deepStrictEqual(observable(fast), observable(full), `fast and full parse differ for ${JSON.stringify(text)}`);
  return fast.fastPath === true;
}

test('fast path: every .md fixture (corpus and others) parses identically on both paths', () => {
  const files = mdFiles(nodePath.resolve('test/fixtures'));
  assert.ok(files.length > 100, `only ${files.length} fixture files`);
  let fast = 0;
  for (const f of files) if (same(nodeFs.readFileSync(f, 'utf8'))) fast++;
  // The fast path must actually be exercised: most corpus skills have flat frontmatter.
  const corpus = files.filter((f) => f.includes(`${nodePath.sep}corpus${nodePath.sep}`) && nodePath.basename(f) === 'SKILL.md');
  let corpusFast = 0;
  for (const f of corpus) if (parseSkillMdDetailed(nodeFs.readFileSync(f, 'utf8')).fastPath) corpusFast++;
  assert.ok(corpus.length >= 27, `${corpus.length} corpus skills`);
  // All 27 (claude-api's description is a `|-` block scalar).
  assert.ok(corpusFast >= 27, `the fast path took only ${corpusFast} of ${corpus.length} corpus skills`);
  assert.ok(fast >= corpusFast);
});

const VALUES = [
  'plain', 'my-skill', 'Does things. Use when X.', 'with: colon', 'with:colon', 'a #comment', 'C# and F#', 'x:y', 'ends:', 'ends :',
  'true', 'True', 'TRUE', 'false', 'null', 'Null', 'NULL', '~', 'yes', 'no', 'on', 'off', 'y', 'n',
  '1', '1.0', '-1', '+1', '.5', '1e3', 'e1', '0x1F', '0o17', '.inf', '-.inf', '.nan', '.NaN', '1_000', '2024-01-01', '12:30',
  '-x', '- x', '-', '?x', '? x', ':x', ',x', '[a, b]', '{a: 1}', 'a [b] {c}', 'x]', 'x}', 'x,y', '&anchor x', '*alias', 'x *y', '!tag x', '!!str 1', '|', '>', '|-', '@at', '`bt`', '%pct', 'a % b',
  '"dq"', '"it\'s"', '"a: b # c"', '"a\\"b"', '"a\\nb"', '"unterminated', '"dq" # c', '"dq" x', '"dq"x', '""', '"', '" lead"', '"trail "',
  "'sq'", "'say \"hi\"'", "'it''s'", "'a\\b'", "''", "'", "'sq' # c", "'sq' x",
  'a " b', "a ' b", 'back\\slash', 'trailing   ', 'double  space', 'é ünicode — dash', 'emoji 😀', 'NEL\u0085x', 'a\u2028b', 'nb\u00a0sp', 'zw\u200bsp', 'bom\ufeffx', 'ctl\u0001x', 'del\u007fx',
  'has\ttab', 'tab\t#c', 'x #', 'x#', '#x', 'x ', ' ', '', 'trail\u00a0', '\u00a0', '\u00a0lead', 'ideo\u3000', 'x\u00a0 \u00a0',
  '<html> tags', 'Use when: the build breaks', 'a: b: c', 'http://example.com/x', 'a,b', 'a -- b', '... dots', '--- dashes', 'x ---', '\'q', '"q',
];

const KEYS = ['name', 'description', 'license', 'true', 'True', 'null', 'false', 'a-b', '_x', '__proto__', 'constructor', 'Key9', '9k', 'k k', '"q"', "'q'", '? k', '-k', 'k.k', 'k/k', 'ké', 'allowed-tools', 'metadata', 'x:y'];

/** Line runs put between keys by the random tests: blank lines, comments, and a few shapes left to the full parser. */
const BETWEEN: string[][] = [
  [''], ['', ''], [' '], ['   ', ''], ['# c'], ['#'], ['# a: b # c'], ['', '# section', ''], ['# é — 漢字'], ['#x', '', '#y'],
  ['  # indented'], ['\t'], ['# tab\tin'], ['  '], ['', '  continued'], ['# c', ' x'],
];

test('fast path: tricky values give the same parse as the YAML library', () => {
  let fast = 0;
  for (const v of VALUES) {
    for (const sep of [': ', ':  ', ':\t', ':', ' : ']) {
      if (same(`---\nname: my-skill\ndescription${sep}${v}\n---\nBody\n`)) fast++;
      if (same(`---\ndescription${sep}${v}\nname: my-skill\n---\n`)) fast++;
      if (same(`---\nmetadata${sep}${v}\n---\nBody`)) fast++;
    }
  }
  // Sanity: plain and quoted values do take the fast path.
  assert.ok(fast > 50, `fast path taken only ${fast} times`);
  assert.equal(same('---\nname: my-skill\ndescription: "You MUST use this - it\'s: fine # really"\n---\nBody\n'), true);
  assert.equal(same('---\nname: my-skill\ndescription: plain text, with [brackets] and C# inside\nlicense: Complete terms in LICENSE.txt\n---\n'), true);
  // A plain value keeps a trailing NBSP, but its range (like nodeRange) ends before it.
  assert.equal(same('---\nname: my-skill\ndescription: ends in nbsp\u00a0\n---\n'), true);
});

test('fast path: literal block scalars (| |- |+) give the same parse as the YAML library', () => {
  const taken = [
    // One line, each chomping indicator, as the last key before the fence and followed by more keys.
    '---\nname: a\ndescription: |\n  one line\n---\n',
    '---\nname: a\ndescription: |-\n  one line\n---\n',
    '---\nname: a\ndescription: |+\n  one line\n---\n',
    '---\ndescription: |\n  one line\nname: a\nlicense: MIT\n---\nBody\n',
    '---\ndescription: |-\n  one line\nname: a\n---\n',
    '---\ndescription: |+\n  one line\nname: a\n---\n',
    // Many lines; later lines more indented (the extra spaces are kept); 1- and 4-space indentation.
    '---\nname: a\ndescription: |\n  one\n  two\n  three\n  four\nlicense: x\n---\n',
    '---\nname: a\ndescription: |-\n  one\n    deeper\n      deepest\n  back\n---\n',
    '---\nname: a\ndescription: |\n one space\n  two\n---\n',
    '---\nname: a\ndescription: |-\n    four spaces\n    again\n       more\n---\n',
    // Trailing spaces on content lines and after the header; a separator of several spaces.
    '---\nname: a\ndescription: |  \n  trailing   \n  spaces \n---\n',
    '---\nname: a\ndescription: |-   \n  trailing   \n---\n',
    '---\nname: a\ndescription:    |\n  x\n---\n',
    // Unicode (no surrogates: those always fall back), NBSP and ideographic space at the end of the content.
    '---\nname: a\ndescription: |-\n  é ü — « » 漢字 ∑\n  ends in nbsp\u00a0\n---\n',
    '---\nname: a\ndescription: |\n  ideographic\u3000\n  \u3000\n---\n',
    // Blank lines inside and at the end: empty, with up to n spaces, with more than n spaces (content).
    '---\nname: a\ndescription: |\n  one\n\n  two\n---\n',
    '---\nname: a\ndescription: |-\n  one\n \n  two\n  \n  three\n---\n',
    '---\nname: a\ndescription: |\n  one\n     \n  two\n---\n',
    '---\nname: a\ndescription: |\n  one\n\n\n---\n',
    '---\nname: a\ndescription: |-\n  one\n\n  \n---\n',
    '---\nname: a\ndescription: |+\n  one\n\n \n---\n',
    '---\nname: a\ndescription: |\n  one\n    \n---\n',
    '---\nname: a\ndescription: |-\n  one\n     \n\n---\n',
    '---\nname: a\ndescription: |+\n  one\n     \n\n---\n',
    '---\ndescription: |\n  one\n\nname: a\n---\n',
    '---\ndescription: |-\n  one\n\n\nname: a\n---\n',
    '---\ndescription: |+\n  one\n\n\nname: a\n---\n',
    // Empty blocks.
    '---\ndescription: |\nname: a\n---\n',
    '---\ndescription: |-\nname: a\n---\n',
    '---\ndescription: |+\nname: a\n---\n',
    '---\nname: a\ndescription: |\n---\n',
    '---\nname: a\ndescription: |-  \n---\n',
    // Content that would mean something outside a block.
    '---\nname: a\ndescription: |\n  key: value\n  # not a comment\n  - not a list\n  ---\n  ...\n  "q" \'s\' \\ |\n  > [x] {y} &a *b !c @d `e`\n---\n',
    '---\nname: a\ndescription: |\n  true\n---\n',
    // Two blocks in a row; the claude-api corpus shape.
    '---\ndescription: |\n  one\nmetadata: |-\n  two\n---\n',
    '---\nname: claude-api\ndescription: |-\n  Reference for the Claude API — model ids.\n  TRIGGER — read BEFORE opening the target file; don\'t skip.\n  SKIP only when another provider is used.\nlicense: Complete terms in LICENSE.txt\n---\n\n# Body\n',
  ];
  for (const t of taken) assert.equal(same(t), true, `fast path not taken for ${JSON.stringify(t)}`);
  // Shapes left to the full parser (or refused further on); both paths must still agree.
  const others = [
    '---\r\nname: a\r\ndescription: |\r\n  one\r\n  two\r\n---\r\nBody\r\n', '---\rname: a\rdescription: |\r  one\r---\r',
    '---\nname: a\ndescription: |\n  one\r\n---\n', '---\nname: a\ndescription: |\n  one\n two\n---\n', '---\nname: a\ndescription: |\n    one\n  two\n---\n',
    '---\nname: a\ndescription: |\n\tone\n---\n', '---\nname: a\ndescription: |\n \tone\n---\n', '---\nname: a\ndescription: |\n  one\n\ttwo\n---\n', '---\nname: a\ndescription: |\n  a\tb\n---\n',
    '---\nname: a\ndescription: |\t\n  one\n---\n', '---\nname: a\ndescription: |2\n   one\n---\n', '---\nname: a\ndescription: |-2\n   one\n---\n', '---\nname: a\ndescription: |2-\n   one\n---\n',
    '---\nname: a\ndescription: | # comment\n  one\n---\n', '---\nname: a\ndescription: |- # c\n  one\n---\n', '---\nname: a\ndescription: |#c\n  one\n---\n', '---\nname: a\ndescription: |-+\n  one\n---\n', '---\nname: a\ndescription: ||\n  one\n---\n',
    '---\nname: a\ndescription: >\n  one\n  two\n\n  three\n---\n', '---\nname: a\ndescription: >-\n  one\n  two\n---\n', '---\nname: a\ndescription: >+\n  one\n---\n',
    '---\nname: a\ndescription: |\n\n  leading blank\n---\n', '---\nname: a\ndescription: |\n   \n  leading spaces\n---\n', '---\nname: a\ndescription: |\n \n  x\n---\n',
    '---\ndescription: |\n\nname: a\n---\n', '---\ndescription: |+\n\n\nname: a\n---\n', '---\ndescription: |\n  \n---\n',
    '---\nname: a\ndescription: |\n  one\n# comment\n---\n', '---\nname: a\ndescription: |\n  one\n...\n---\n', '---\nname: a\ndescription: |\n  one\n- x\n---\n',
    '---\nname: a\ndescription: |\n  emoji 😀\n---\n', '---\nname: a\ndescription: |\n  ctl\u0001\n---\n', '---\nname: a\ndescription: |\n  nel\u0085x\n---\n', '---\nname: a\ndescription: |\n  ls\u2028x\n---\n', '---\nname: a\ndescription: |\n  bom\ufeffx\n---\n',
    '---\nname: a\ndescription: |\n  one\nname: b\n---\n', '---\nname: a\ndescription: |\n  one\n  two', '---\n|\n  x\n---\n', '---\nname: a\ndescription: !!str |\n  one\n---\n', '---\nname: a\ndescription: &x |\n  one\n---\n',
    '---\nname: a\nmetadata:\n  description: |\n    one\n---\n', '---\nname: a\ndescription: |\n  one\n---\n  two\n---\n',
  ];
  for (const t of others) same(t);
});

test('fast path: tricky keys and line shapes give the same parse as the YAML library', () => {
  for (const k of KEYS) {
    same(`---\n${k}: value\n---\n`);
    same(`---\nname: x\n${k}: value\ndescription: y\n---\n`);
    same(`---\n${k}:\n---\n`);
  }
  const shapes = [
    '---\n---\n', '---\n\n---\n', '---\n# only a comment\n---\n', '---\nname: a\n\ndescription: b\n---\n', '---\nname: a\n# c\ndescription: b\n---\n',
    '---\nname: a\ndescription: b\nname: c\n---\n', '---\nname: a\n  continued\n---\n', '---\nname: a\n continued: x\n---\n', '---\nname: a\ndescription: |\n  block\n---\n',
    '---\nname: a\r\ndescription: b\r\n---\r\nBody\r\n', '---\rname: a\rdescription: b\r---\rBody', '---\nname: a\rdescription: b\n---\n', '\ufeff---\nname: a\ndescription: b\n---\n',
    '---\nname: a\ndescription: b\n---', '---\nname: a\ndescription: b   \n---\n', '---\nname: a   \n---\n', '---  \nname: a\n---\t\nBody', '---\nname: a\n...\n---\n',
    '---\n name: a\n---\n', '---\n\tname: a\n---\n', '---\nname: a\ndescription: b\n', '---\nname: a\n--- \nx', '---\nname: "a\n  b"\n---\n', "---\nname: 'a\n  b'\n---\n",
    '---\nname: a\nmetadata:\n  k: v\n---\n', '---\nallowed-tools: Read Grep\n---\n', '---\n%YAML 1.2\nname: a\n---\n', '---\n- a\n- b\n---\n', '---\nplain\n---\n',
    '---\nname: a #c\n---\n', '---\nname: a\t\n---\n', '---\nname:\ta\n---\n',
  ];
  for (const s of shapes) same(s);
});

test('fast path: blank lines and column-1 comments between keys give the same parse as the YAML library', () => {
  const taken = [
    // Blank lines (empty or spaces only) and comments between keys, before the first and after the last key.
    '---\nname: a\n\ndescription: b\n---\n', '---\nname: a\n\n\n\ndescription: b\n---\nBody\n', '---\nname: a\n \n   \ndescription: b\n---\n',
    '---\n\nname: a\ndescription: b\n---\n', '---\nname: a\ndescription: b\n\n---\n', '---\nname: a\ndescription: b\n  \n---\n',
    '---\nname: a\n# c\ndescription: b\n---\n', '---\n# leading comment\nname: a\n---\n', '---\nname: a\n# trailing comment\n---\n',
    '---\nname: a\n#\n#no space\n# é 漢字 — "q" \'s\' : # | > [x] {y}\ndescription: b\n---\n', '---\nname: a\n# key: value\n#   - item\n---\n',
    '---\nname: a\n\n# section\n\ndescription: b\n\n# end\n\n---\n',
    // Only blank lines and comments: no keys.
    '---\n\n---\n', '---\n\n\n---\nBody\n', '---\n  \n---\n', '---\n# only a comment\n---\n', '---\n# one\n\n# two\n---\n',
    // After literal block scalars: blank lines (trailing lines of the block), then a comment ends the block.
    '---\ndescription: |\n  one\n\n# c\nname: a\n---\n', '---\ndescription: |-\n  one\n\n\n# c\n\nname: a\n---\n',
    '---\ndescription: |+\n  one\n\n# c\n\nname: a\n---\n', '---\ndescription: |+\n  one\n  \n# c\n   \n---\n',
    '---\ndescription: |\n# c\nname: a\n---\n', '---\ndescription: |-\n  one\n# c\n---\n', '---\nname: a\ndescription: |\n  one\n# comment\n---\n',
    // Long runs (the fuzz suite's blank-lines, space-lines and comment-lines classes, small).
    `---\nname: a\n${'\n'.repeat(500)}description: b\n---\n`, `---\nname: a\n${' \n'.repeat(250)}description: b\n---\n`,
    `---\nname: a\n${'# c\n\n'.repeat(100)}description: b\n---\n`,
    // A comment with trailing blanks; keys that start with an upper-case letter or `_`, or hold digits.
    '---\n# c   \nName: a\n_k: b\nKey9: c\nk-9_x: d\n---\n',
  ];
  for (const t of taken) assert.equal(same(t), true, `fast path not taken for ${JSON.stringify(t)}`);
  // Left to the full parser: indented or tab lines, unsafe characters in a comment, comments on a value line,
  // continuation lines after a blank line or comment, CR line ends, documents markers.
  const others = [
    '---\nname: a\n  # indented comment\ndescription: b\n---\n', '---\nname: a\n\t\ndescription: b\n---\n', '---\nname: a\n \t \ndescription: b\n---\n',
    '---\nname: a\n# ctl\u0001\n---\n', '---\nname: a\n# emoji 😀\n---\n', '---\nname: a\n# nel\u0085x\n---\n', '---\nname: a\n# bom\ufeff\n---\n', '---\nname: a\n# ls\u2028x\n---\n',
    '---\nname: a\n# c\r\ndescription: b\n---\n', '---\nname: a\n\r\ndescription: b\n---\n', '---\r\nname: a\r\n\r\n# c\r\ndescription: b\r\n---\r\n',
    '---\nname: a\n\n  continued\n---\n', '---\nname: a\n# c\n  continued\n---\n', '---\nname: a # c\n\n---\n', '---\nname: a\n\n- x\n---\n',
    '---\nname: a\n\n...\n---\n', '---\nname: a\n#\n\nname: b\n---\n', '---\ndescription: |\n\n# c\nname: a\n---\n', '---\ndescription: |\n  one\n  # in block\n# c\n---\n',
    '---\nname: a\n\nmetadata:\n  # c\n  k: v\n\n  j: w\n---\n',
  ];
  for (const t of others) same(t);
});

test('fast path: random flat frontmatters built from tricky pieces agree with the YAML library', () => {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) % n; // the high bits: the low bits of this generator repeat with short periods
  };
  // Blank lines and comments between keys come from a second generator, so that the first one's pieces stay as they were.
  let seed2 = 777;
  const rand2 = (n: number) => {
    seed2 = (seed2 * 1103515245 + 12345) & 0x7fffffff;
    return (seed2 >>> 16) % n;
  };
  const seps = [': ', ':  ', ': ', ': ', ':'];
  const headers = ['|', '|-', '|+', '|  ', '|', '|-', '|2', '| # c', '>', '>-', '|\t'];
  let fast = 0;
  let fastBlocks = 0;
  let fastBetween = 0;
  for (let i = 0; i < 2000; i++) {
    const lines: string[] = [];
    const n = 1 + rand(5);
    let blocks = 0;
    let between = 0;
    for (let j = 0; j < n; j++) {
      const key = rand(3) === 0 ? KEYS[rand(KEYS.length)] : ['name', 'description', 'license', 'compatibility', 'model'][rand(5)];
      if (rand(4) === 0) {
        // A block scalar: mostly well-formed, sometimes with a header, line or indentation the fast path leaves alone.
        blocks++;
        lines.push(`${key}${seps[rand(seps.length - 1)]}${headers[rand(3) === 0 ? rand(headers.length) : rand(6)]}`);
        const indent = 1 + rand(4);
        const count = rand(5);
        for (let l = 0; l < count; l++) {
          const r = rand(12);
          if (r < 7) lines.push(`${' '.repeat(indent + (rand(5) === 0 ? 1 + rand(3) : 0))}${VALUES[rand(VALUES.length)] || 'x'}`);
          else if (r < 10) lines.push(' '.repeat(rand(3) === 0 ? rand(indent + 3) : 0));
          else if (r < 11) lines.push(`${' '.repeat(rand(indent))}${VALUES[rand(VALUES.length)]}`);
          else lines.push(`${['\t', ' \t', ''][rand(3)]}${VALUES[rand(VALUES.length)]}`);
        }
        if (rand2(3) === 0) { between++; lines.push(...BETWEEN[rand2(4) === 0 ? rand2(BETWEEN.length) : rand2(10)]); }
        continue;
      }
      const value = rand(2) === 0 ? VALUES[rand(VALUES.length)] : `${VALUES[rand(VALUES.length)]}${[' ', '', ': ', ' #', '"', "'"][rand(6)]}${VALUES[rand(VALUES.length)]}`;
      lines.push(`${key}${seps[rand(seps.length)]}${value}`);
      // Blank lines and comments between keys (mostly the shapes the fast path takes).
      if (rand2(3) === 0) { between++; lines.push(...BETWEEN[rand2(4) === 0 ? rand2(BETWEEN.length) : rand2(10)]); }
    }
    if (same(`---\n${lines.join('\n')}\n---\n# Body\n`)) {
      fast++;
      if (blocks) fastBlocks++;
      if (between) fastBetween++;
    }
  }
  assert.ok(fast > 100, `fast path taken only ${fast} times`);
  assert.ok(fastBetween > 30, `fast path taken only ${fastBetween} times with blank lines or comments between keys`);
  assert.ok(fastBlocks > 20, `fast path taken only ${fastBlocks} times with a block scalar`);
});

test('fast path: random literal block scalars agree with the YAML library', () => {
  let seed = 4242;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) % n; // the high bits: the low bits of this generator repeat with short periods
  };
  const texts = ['a', 'line two', 'é ü — 漢字', 'x: y', '# not comment', '---', '...', '- item', 'trail  ', 'nbsp\u00a0', '\u3000', 'q"\'\\', '|', '>', ' lead', '  '];
  let fast = 0;
  for (let i = 0; i < 1500; i++) {
    const lines: string[] = [];
    const keys = 1 + rand(4);
    for (let j = 0; j < keys; j++) {
      if (j > 0 && rand(3) === 0) lines.push(...BETWEEN[rand(10)]);
      if (rand(3) === 0) { lines.push(`k${j}: plain ${j}`); continue; }
      lines.push(`k${j}:${rand(2) ? ' ' : '  '}${['|', '|-', '|+'][rand(3)]}${rand(5) ? '' : '  '}`);
      const indent = 1 + rand(4);
      const count = rand(7);
      for (let l = 0; l < count; l++) {
        // The first line is content (leading empty lines go to the full parser); then content or empty lines.
        if (l === 0 || rand(10) < 6) lines.push(`${' '.repeat(rand(5) === 0 ? indent + 1 + rand(3) : indent)}${texts[rand(texts.length)]}`);
        else lines.push(' '.repeat(rand(3) ? 0 : rand(indent + 3)));
      }
    }
    if (same(`---\n${lines.join('\n')}\n${rand(4) ? '' : '\n'}---\nBody\n`)) fast++;
  }
  assert.ok(fast > 400, `fast path taken only ${fast} times`);
});
