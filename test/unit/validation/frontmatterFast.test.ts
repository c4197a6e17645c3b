// The flat-frontmatter fast path of parseSkillMdDetailed must give exactly what the YAML library gives.
// Every case is parsed twice (fast path allowed / forced off) and the two results compared in full.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Node as YamlNode } from 'yaml';
import { mdFiles } from './helpers';
import { parseSkillMdDetailed, type DetailedParse } from '../../../src/core/skills/frontmatter';

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
  assert.ok(corpusFast >= 25, `the fast path took only ${corpusFast} of ${corpus.length} corpus skills`);
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
  'has\ttab', 'tab\t#c', 'x #', 'x#', '#x', 'x ', ' ', '',
  '<html> tags', 'Use when: the build breaks', 'a: b: c', 'http://example.com/x', 'a,b', 'a -- b', '... dots', '--- dashes', 'x ---', '\'q', '"q',
];

const KEYS = ['name', 'description', 'license', 'true', 'True', 'null', 'false', 'a-b', '_x', '__proto__', 'constructor', 'Key9', '9k', 'k k', '"q"', "'q'", '? k', '-k', 'k.k', 'k/k', 'ké', 'allowed-tools', 'metadata', 'x:y'];

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

test('fast path: random flat frontmatters built from tricky pieces agree with the YAML library', () => {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const seps = [': ', ':  ', ': ', ': ', ':'];
  let fast = 0;
  for (let i = 0; i < 1500; i++) {
    const lines: string[] = [];
    const n = 1 + rand(5);
    for (let j = 0; j < n; j++) {
      const key = rand(3) === 0 ? KEYS[rand(KEYS.length)] : ['name', 'description', 'license', 'compatibility', 'model'][rand(5)];
      const value = rand(2) === 0 ? VALUES[rand(VALUES.length)] : `${VALUES[rand(VALUES.length)]}${[' ', '', ': ', ' #', '"', "'"][rand(6)]}${VALUES[rand(VALUES.length)]}`;
      lines.push(`${key}${seps[rand(seps.length)]}${value}`);
    }
    if (same(`---\n${lines.join('\n')}\n---\n# Body\n`)) fast++;
  }
  assert.ok(fast > 100, `fast path taken only ${fast} times`);
});
