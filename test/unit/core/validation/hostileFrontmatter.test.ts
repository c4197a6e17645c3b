// Regression inputs for hostile frontmatter (one minimal input per class): long runs of blank lines, collections as
// keys, deep nesting, many keys, over-long implicit keys, error ranges at a line's end. Timing is checked by
// `npm run fuzz` (target `skillmd`), not here: these tests check the answers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { MAX_FRONTMATTER_LENGTH, MAX_YAML_KEYS, parseSkillMdDetailed } from '../../../../src/core/skillmd/frontmatter';
import { validateSkillMdBytes } from '../../../../src/core/validation/bytes';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { summary } from '../../helpers/validation';

const ctx = { profile: 'claude-code' as const, folderName: 'a' };

function check(text: string) {
  const res = validateSkillMd(text, ctx, nodeFileSystem);
  const bytes = validateSkillMdBytes(Buffer.from(text, 'utf8'), ctx, nodeFileSystem);
  assert.deepEqual(bytes.problems, res.problems, 'text path = bytes path');
  const slow = parseSkillMdDetailed(text, { fastPath: false });
  assert.deepEqual(summary(slow.parsed.problems), summary(parseSkillMdDetailed(text).parsed.problems), 'fast path = YAML library');
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
  assert.deepEqual(check(text), []);
  assert.deepEqual(check(`---\nname: a\n${' \n'.repeat(30000)}description: b\n---\n`), []);
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
  for (const quote of ['', "'"]) { // check() reads each on both paths (past the limit only the YAML library reads it)
    const within = check(`---\nname: a\ndescription: b\n${keys(MAX_YAML_KEYS - 2, quote)}\n# c\n---\n`);
    assert.equal(within.filter((p) => p.code === 'unknown-key').length, MAX_YAML_KEYS - 2);
    const over = check(`---\nname: a\ndescription: b\n${keys(MAX_YAML_KEYS + 100, quote)}\n# c\n---\n`);
    assert.deepEqual(summary(over), [`frontmatter-limits@${MAX_YAML_KEYS + 2}:1-${MAX_YAML_KEYS + 2}:2`]);
  }
  // Nested keys count too.
  const nested = check(`---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: 1200 }, (_, i) => `  m${i}: x`).join('\n')}\n---\n`);
  assert.deepEqual(nested.map((p) => p.code), ['frontmatter-limits']);
});

test('duplicate keys are found in every map without comparing every pair', () => {
  const text = `---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: 900 }, (_, i) => `  m${i % 3}: x`).join('\n')}\n---\n`;
  const problems = check(text);
  assert.equal(problems.length, 897);
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
