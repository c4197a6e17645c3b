// Regression inputs for hostile frontmatter (one minimal input per class): long runs of blank lines, collections as
// keys, deep nesting, many keys, over-long implicit keys, error ranges at a line's end. Timing is checked by
// `npm run fuzz` (target `skillmd`), not here: these tests check the answers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import {
  MAX_FRONTMATTER_LENGTH, MAX_YAML_ALIASES, MAX_YAML_KEYS, MAX_YAML_TOKENS, parseSkillMdDetailed,
} from '../../../../src/core/skillmd/frontmatter';
import { validateSkillMdBytes } from '../../../../src/core/validation/bytes';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { summary } from '../../helpers/validation';

const ctx = { profile: 'claude-code' as const, folderName: 'a' };

/**
 * Validates `text` on the text path and the bytes path (one answer) and checks that the fast path and the YAML library
 * agree. `flat`: the text is flat frontmatter too large for the YAML library's limits (which count only what leaves
 * the fast path): the fast path must read it, and the YAML library alone would refuse it as too many tokens.
 */
function check(text: string, flat?: 'flat') {
  const res = validateSkillMd(text, ctx, nodeFileSystem);
  const bytes = validateSkillMdBytes(Buffer.from(text, 'utf8'), ctx, nodeFileSystem);
  assert.deepEqual(bytes.problems, res.problems, 'text path = bytes path');
  const slow = parseSkillMdDetailed(text, { fastPath: false });
  if (flat) {
    const fast = parseSkillMdDetailed(text);
    assert.ok(fast.fastPath === true || fast.parsed.problems.some((p) => p.code === 'frontmatter-limits' && /more than 1000/.test(p.message)), 'read by the fast path');
    assert.deepEqual(slow.parsed.problems.map((p) => [p.code, /YAML tokens/.test(p.message)]), [['frontmatter-limits', true]], 'the YAML library alone: over the token limit');
    assert.ok(!res.problems.some((p) => /YAML tokens/.test(p.message)), 'flat frontmatter is not counted in tokens');
  } else {
    assert.deepEqual(summary(slow.parsed.problems), summary(parseSkillMdDetailed(text).parsed.problems), 'fast path = YAML library');
  }
  return res.problems;
}

/** Runs `fn` and returns the process warnings it emitted. */
function warningsOf(fn: () => void): string[] {
  const seen: string[] = [];
  const listener = (w: Error) => seen.push(w.message);
  process.on('warning', listener);
  const emit = process.emitWarning;
  process.emitWarning = ((w: string | Error) => { seen.push(typeof w === 'string' ? w : w.message); }) as typeof process.emitWarning;
  try { fn(); } finally { process.emitWarning = emit; process.off('warning', listener); }
  return seen;
}

test('blank lines in a long frontmatter are read (gray-matter\'s quadratic comment regex is not run over them)', () => {
  const text = `---\nname: a\n${'\n'.repeat(60000)}description: b\n---\n`;
  assert.deepEqual(check(text, 'flat'), []);
  assert.deepEqual(check(`---\nname: a\n${' \n'.repeat(30000)}description: b\n---\n`, 'flat'), []);
});

test('blank and comment lines between keys are read by the fast path (no YAML library, a few microseconds per line less), as YAML reads them', () => {
  for (const text of [
    `---\nname: a\n${'\n'.repeat(3)}description: b\n---\n`,
    `---\nname: a\n${' \n'.repeat(3)}description: b\n---\n`,
    `---\nname: a\n${'# c\n\n'.repeat(3)}description: b\n---\n`,
  ]) {
    const fast = parseSkillMdDetailed(text);
    const full = parseSkillMdDetailed(text, { fastPath: false });
    assert.equal(fast.fastPath, true, JSON.stringify(text));
    assert.deepEqual(fast.parsed, full.parsed);
    assert.deepEqual(fast.parsed.data, { name: 'a', description: 'b' });
    assert.deepEqual(check(text), []);
  }
});

test('a frontmatter over 64 KiB is one frontmatter-limits problem, not read', () => {
  const text = `---\nname: a\n${'\n'.repeat(MAX_FRONTMATTER_LENGTH)}description: b\n---\n`;
  assert.deepEqual(summary(check(text)), [`frontmatter-limits@${MAX_FRONTMATTER_LENGTH - 8 + 3}:1-${MAX_FRONTMATTER_LENGTH - 8 + 3}:1`]);
});

test('a collection as a map key is a yaml-syntax problem, converted nowhere and with no process warning', () => {
  let problems: ReturnType<typeof check> = [];
  const warnings = warningsOf(() => { problems = check(`---\nname: a\ndescription: b\nmetadata:\n  ${'['.repeat(60)}x${']'.repeat(60)}: v\n---\n`); });
  assert.deepEqual(warnings, []);
  assert.deepEqual(summary(problems), ['yaml-syntax@5:3-5:124']);
  assert.match(problems[0].message, /map key must be a single value, not a list/);
  assert.deepEqual(summary(check('---\nname: a\ndescription: b\n? {x: y}\n: v\n---\n')), ['yaml-syntax@4:3-4:9']);
});

test('many keys: up to the limit they are checked, past it one frontmatter-limits problem at the first key over', () => {
  const keys = (n: number, quote: string) => Array.from({ length: n }, (_, i) => `k${i}: ${quote}x${quote}`).join('\n');
  for (const quote of ['', "'"]) {
    // Flat keys: the fast path reads them and reports the key limit itself (the YAML library is not run).
    const within = check(`---\nname: a\ndescription: b\n${keys(MAX_YAML_KEYS - 2, quote)}\n# c\n---\n`, 'flat');
    assert.equal(within.filter((p) => p.code === 'unknown-key').length, MAX_YAML_KEYS - 2);
    for (const tail of ['# c', 'k: [unclosed', '  indented: x', 'name: again']) {
      const text = `---\nname: a\ndescription: b\n${keys(MAX_YAML_KEYS + 100, quote)}\n${tail}\n---\n`;
      const over = check(text, 'flat');
      assert.deepEqual(summary(over), [`frontmatter-limits@${MAX_YAML_KEYS + 2}:1-${MAX_YAML_KEYS + 2}:2`], tail);
      assert.match(over[0].message, /more than 1000/);
      assert.equal(parseSkillMdDetailed(text).parsed.keys.length, MAX_YAML_KEYS);
    }
  }
  // Nested keys count too; past the limit no error is reported and no key kept (as on the fast path).
  const flow = (n: number) => `{${Array.from({ length: n }, (_, i) => `m${i}`).join(', ')}}`;
  const nested = check(`---\nname: a\ndescription: b\nmetadata: ${flow(MAX_YAML_KEYS + 100)}\nbad: [\n---\n`);
  // The four top-level keys count first (name, description, metadata, bad): the first key over is m996.
  const column = 'metadata: '.length + flow(MAX_YAML_KEYS - 4).length + 2;
  assert.deepEqual(summary(nested), [`frontmatter-limits@4:${column}-4:${column + 1}`]);
  assert.deepEqual(parseSkillMdDetailed(`---\nname: a\ndescription: b\nmetadata: ${flow(MAX_YAML_KEYS + 100)}\nbad: [\n---\n`).parsed.keys.map((k) => k.key), ['name', 'description', 'metadata']);
  // Up to the limit each one is checked (a key without a value is not a string).
  const within = check(`---\nname: a\ndescription: b\nmetadata: ${flow(MAX_YAML_KEYS - 3)}\n---\n`);
  assert.deepEqual([...new Set(within.map((p) => p.code))], ['metadata-invalid']);
  assert.equal(within.length, MAX_YAML_KEYS - 3);
});

test('YAML outside plain key: value lines: at most MAX_YAML_TOKENS tokens, else one frontmatter-limits problem at the first token over', () => {
  // Every kind of token counts: list and flow items, nested keys, CR line ends, comments and blank lines between them.
  const shapes: Array<(n: number) => string> = [
    (n) => `metadata: [${'[a], '.repeat(n / 5)}x]`,
    (n) => `allowed-tools:\n${'  - Read\n'.repeat(n / 5)}`,
    (n) => `metadata:\n${Array.from({ length: n / 6 }, (_, i) => `  m${i}: x`).join('\n')}`,
    (n) => `metadata:\n${'  # c\n\n'.repeat(n / 4)}  k: v`,
    (n) => `x: [a]\n${Array.from({ length: n / 5 }, (_, i) => `k${i}:\tx`).join('\n')}`,
  ];
  for (const shape of shapes) {
    const within = check(`---\nname: a\ndescription: b\n${shape(MAX_YAML_TOKENS - 200)}\n---\n`);
    assert.ok(!within.some((p) => p.code === 'frontmatter-limits'), shape(10));
    const text = `---\nname: a\ndescription: b\n${shape(MAX_YAML_TOKENS * 2)}\n---\n`;
    const over = check(text);
    assert.deepEqual(over.map((p) => p.code), ['frontmatter-limits'], shape(10));
    assert.match(over[0].message, /more than 5000 YAML tokens/);
    assert.equal(check(text.replace(/\n/g, '\r\n'))[0].code, 'frontmatter-limits');
  }
  // The position: the first token over the limit (here: the item that is token 5,001).
  const items = `---\nname: a\ndescription: b\nmetadata: [${'a, '.repeat(MAX_YAML_TOKENS)}]\n---\n`;
  // Tokens before the list: name : ␠ a ⏎ description : ␠ b ⏎ metadata : ␠ [ (14); each item: a , ␠ (3).
  const column = 12 + Math.floor((MAX_YAML_TOKENS - 14) / 3) * 3 + ((MAX_YAML_TOKENS - 14) % 3);
  assert.deepEqual(summary(check(items)), [`frontmatter-limits@4:${column}-4:${column + 1}`]);
});

test('aliases: at most MAX_YAML_ALIASES, else one frontmatter-limits problem at the first alias over', () => {
  const aliases = (n: number) => `x: &a [${'1, '.repeat(1000)}1]\n${Array.from({ length: n }, (_, i) => `y${i}: *a`).join('\n')}`;
  assert.deepEqual(check(`---\nname: a\ndescription: b\n${aliases(MAX_YAML_ALIASES)}\n---\n`).filter((p) => p.code !== 'unknown-key'), []);
  const over = check(`---\nname: a\ndescription: b\n${aliases(MAX_YAML_ALIASES + 1)}\n---\n`);
  assert.deepEqual(summary(over), [`frontmatter-limits@${5 + MAX_YAML_ALIASES}:${`y${MAX_YAML_ALIASES}: `.length + 1}-${5 + MAX_YAML_ALIASES}:${`y${MAX_YAML_ALIASES}: `.length + 2}`]);
  assert.match(over[0].message, /more than 20 \(`\*name`\)/);
  // In flow collections too; an alias-looking text inside quotes or a block is no alias.
  assert.equal(check(`---\nname: a\ndescription: b\nx: &a 1\ny: [${'*a, '.repeat(MAX_YAML_ALIASES)}*a]\n---\n`)[0].code, 'frontmatter-limits');
  assert.deepEqual(check(`---\nname: a\ndescription: b\nmetadata:\n  x: "${'*a '.repeat(100)}"\n  y: |\n${'    *a\n'.repeat(100)}---\n`), []);
});

test('duplicate keys are found in every map without comparing every pair', () => {
  const text = `---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: 600 }, (_, i) => `  m${i % 3}: x`).join('\n')}\n---\n`;
  const problems = check(text);
  assert.equal(problems.length, 597);
  assert.ok(problems.every((p) => p.code === 'yaml-syntax' && /unique/.test(p.message)));
  // The library points at one character: the range runs to the end of the line's text.
  assert.deepEqual(summary(check('---\nname: a\ndescription: b\nx: {a: 1, a: 2}\n---\n')), ['yaml-syntax@4:11-4:16']);
  // YAML: NaN keys are never equal; 1 and '1' differ.
  assert.deepEqual(check('---\nname: a\ndescription: b\nmetadata:\n  .nan: x\n  .nan: y\n  1: x\n  "1": y\n---\n').map((p) => p.code), ['metadata-invalid', 'metadata-invalid', 'metadata-invalid']);
});

test('an implicit key over 1,024 characters is a yaml-syntax problem on both paths', () => {
  assert.deepEqual(check(`---\nname: a\ndescription: b\n${'k'.repeat(1025)}: v\n---\n`).map((p) => p.code), ['yaml-syntax']);
  assert.deepEqual(check(`---\nname: a\ndescription: b\n${'k'.repeat(1024)}: v\n---\n`).map((p) => p.code), ['unknown-key']);
});

test('error ranges stay inside their line (a position at the line break marks the last character)', () => {
  // Missing closing quote: found at the end of the YAML.
  assert.deepEqual(summary(check('---\nname: a\ndescription: "b\n---\n')), ['yaml-syntax@3:1-3:16']);
  // An error at a line break.
  for (const text of ['---\nname: a\ndescription: b\nx: [\n---\n', '---\nname: a\ndescription: b\n- x\n---\n', '\ufeff\n---\n', '\ufeff']) {
    const lines = text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
    for (const p of check(text)) {
      assert.ok(p.endLine === p.line && p.endColumn <= lines[p.line - 1].length + 1, `${JSON.stringify(text)}: ${JSON.stringify(p)}`);
    }
  }
});

test('nesting past the limit gives one position on the text path and the bytes path, whatever the stack depth', () => {
  for (const depth of [101, 1500, 20000]) {
    for (const y of [`${'['.repeat(depth)}x`, `${'{a: '.repeat(depth)}x`, `\n  ${'- '.repeat(depth)}x`]) {
      const problems = check(`---\nname: a\ndescription: b\nmetadata: ${y}\n---\nBody é.\n`);
      assert.deepEqual(problems.map((p) => p.code), ['frontmatter-limits'], `${depth} ${y.slice(0, 8)}`);
    }
  }
  // The same answer deep inside a recursion (the editor's stack is not the CLI's).
  const text = `---\nname: a\ndescription: b\nmetadata: ${'['.repeat(3000)}\n---\n`;
  const top = summary(check(text));
  const nested = (n: number): string[] => (n === 0 ? summary(check(text)) : nested(n - 1));
  assert.deepEqual(nested(2000), top);
});
