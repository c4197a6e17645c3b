import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { validateAgentMd } from '../../../../src/core/agents/agents';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { parseSkillMd } from '../../../../src/core/skillmd/frontmatter';
import { extractReferences } from '../../../../src/core/references/markdown';
import type { Problem, Profile } from '../../../../src/core/base/types';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { skill } from '../../helpers/validation';
import { rng } from '../../helpers/random';

const SKILL_DIR = nodePath.resolve('test/fixtures/corpus/anthropics-skills/skill-creator');
const ROOT = nodePath.dirname(SKILL_DIR);
const REAL = nodeFs.readFileSync(nodePath.join(SKILL_DIR, 'SKILL.md'), 'utf8');

function lineCount(text: string): number {
  return (text.startsWith('\uFEFF') ? text.slice(1) : text).split(/\r\n|\r|\n/).length;
}

function assertWellFormed(problems: Problem[], text: string, label: string): void {
  const lines = lineCount(text);
  for (const p of problems) {
    const where = `${label}: ${JSON.stringify(p)}`;
    assert.ok(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines, where);
    assert.ok(Number.isInteger(p.column) && p.column >= 1, where);
    assert.ok(p.endLine > p.line || (p.endLine === p.line && p.endColumn >= p.column), where);
    assert.ok(p.endLine <= lines, where);
    assert.ok(typeof p.message === 'string' && p.message.length > 0, where);
    assert.ok(['error', 'warning', 'info'].includes(p.severity), where);
  }
}

/** Validates under every profile (and as an agent); `withFs: false` skips reference resolution (file system calls are slow). */
function validateAll(text: string, label: string, withFs = true): Problem[] {
  let last: Problem[] = [];
  for (const profile of ['claude-code', 'spec', 'upload'] as Profile[]) {
    const ctx = withFs ? { profile, folderName: 'skill-creator', skillDir: SKILL_DIR, rootDir: ROOT } : { profile, folderName: 'skill-creator' };
    const res = validateSkillMd(text, ctx, nodeFileSystem);
    if (!withFs) extractReferences(res.parsed.body, res.parsed.bodyStartLine);
    assertWellFormed(res.problems, text, `${label} [${profile}]`);
    last = res.problems;
  }
  const agent = validateAgentMd(text, '/x/.claude/agents/a.md', new Set(['a']));
  assertWellFormed(agent.problems, text, `${label} [agent]`);
  return last;
}

test('a real SKILL.md truncated after every line never throws; inside the frontmatter it always has problems', () => {
  const lines = nodeFs.readFileSync(nodePath.join(ROOT, 'mcp-builder', 'SKILL.md'), 'utf8').split('\n');
  const closing = lines.indexOf('---', 1);
  assert.ok(closing > 0);
  for (let i = 0; i <= lines.length; i++) {
    const text = lines.slice(0, i).join('\n');
    const problems = validateAll(text, `first ${i} lines`, i % 10 === 0);
    if (i <= closing) assert.ok(problems.some((p) => p.severity === 'error'), `first ${i} lines: ${JSON.stringify(problems)}`);
  }
});

test('the frontmatter truncated at every character never throws', () => {
  const end = REAL.indexOf('\n---', 4) + 5;
  for (let i = 0; i <= end; i++) validateAll(REAL.slice(0, i), `first ${i} chars`, false);
});

test('random binary bytes give frontmatter-missing, never a throw', () => {
  const next = rng(42);
  for (let n = 0; n < 50; n++) {
    const bytes = Buffer.alloc(1 + Math.floor(next() * 4096));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    const problems = validateAll(bytes.toString('utf8'), `random #${n}`, false);
    assert.ok(problems.some((p) => p.code === 'frontmatter-missing'), `random #${n}`);
  }
});

test('random bytes inside a frontmatter fence never throw and give problems', () => {
  const next = rng(7);
  for (let n = 0; n < 100; n++) {
    const bytes = Buffer.alloc(1 + Math.floor(next() * 300));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    const text = `---\n${bytes.toString('latin1').replace(/^---$/gm, '')}\n---\nbody\n`;
    validateAll(text, `fenced random #${n}`, false);
  }
});

test('random mutations of a valid SKILL.md with YAML-significant characters never throw', () => {
  const next = rng(2026);
  const alphabet = ['-', ':', ': ', '#', "'", '"', '[', ']', '{', '}', '|', '>', '\n', '\r\n', '\t', ' ', '&a', '*a', '!!', '%', '@', '`', '\uFEFF', '---\n', '😀', '\u0000'];
  const base = skill('name: my-skill\ndescription: "Does: things"\nmetadata:\n  a: b\nallowed-tools: [Read, Grep]', '# T\n[x](references/a.md) `scripts/b.py`\n');
  for (let n = 0; n < 300; n++) {
    let text = base;
    const edits = 1 + Math.floor(next() * 4);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(next() * text.length);
      const piece = alphabet[Math.floor(next() * alphabet.length)];
      text = next() < 0.3 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + piece + text.slice(at);
    }
    validateAll(text, `mutation #${n}: ${JSON.stringify(text)}`, n % 25 === 0);
  }
});

test('a 2 MiB body is measured, not choked on', () => {
  const body = ('Some prose line with a path references/x.md and a link [y](assets/y.png).\n').repeat(30000);
  assert.ok(body.length > 2 * 1024 * 1024);
  const text = skill('name: skill-creator\ndescription: d', body);
  const res = validateSkillMd(text, { profile: 'claude-code', folderName: 'skill-creator', skillDir: SKILL_DIR, rootDir: ROOT }, nodeFileSystem);
  assert.equal(res.references.length, 60000);
  const problems = validateAll(text, '2 MiB', false);
  const codes = new Set(problems.map((p) => p.code));
  assert.ok(codes.has('body-lines') && codes.has('body-tokens'));
  assert.equal(res.problems.filter((p) => p.code === 'reference-missing').length, 60000);
});

test('a single 2 MiB line with slashes and brackets stays linear', () => {
  const line = '[a'.repeat(300000) + '](' + 'x/'.repeat(300000) + ' ' + 'a.b/'.repeat(200000);
  const problems = validateAll(skill('name: skill-creator\ndescription: d', line + '\n'), 'one long line');
  assert.ok(problems.some((p) => p.code === 'body-tokens'));
  assert.deepEqual(extractReferences(line, 1), []);
});

test('100-deep nested YAML (the limit) is parsed without a stack overflow', () => {
  let block = 'metadata:\n';
  for (let d = 1; d <= 98; d++) block += `${'  '.repeat(d)}k${d}:\n`;
  block += `${'  '.repeat(99)}leaf`;
  const problems = validateAll(skill(`name: skill-creator\ndescription: d\n${block}`), 'deep block');
  assert.ok(problems.some((p) => p.code === 'metadata-invalid'));
  const flow = `name: skill-creator\ndescription: d\nmetadata: ${'['.repeat(99)}x${']'.repeat(99)}`;
  assert.ok(validateAll(skill(flow), 'deep flow').some((p) => p.code === 'metadata-invalid'));
  const map = `name: skill-creator\ndescription: d\nhooks: ${'{a: '.repeat(99)}x${'}'.repeat(99)}`;
  assert.deepEqual(validateAll(skill(map), 'deep flow map').map((p) => p.code), ['unknown-key']);
});

test('YAML nested past 100 levels is one frontmatter-limits problem at the first level past the limit, at any depth', () => {
  for (const depth of [101, 2000, 30000]) {
    const problems = validateAll(skill(`name: skill-creator\ndescription: d\nmetadata: ${'['.repeat(depth)}${']'.repeat(depth)}`), `depth ${depth}`, false);
    assert.deepEqual(problems.map((p) => `${p.code}@${p.line}:${p.column}-${p.endColumn}`), ['frontmatter-limits@4:110-111'], `depth ${depth}`);
    assert.match(problems[0].message, /^Flatten the frontmatter: it is nested more than 100 levels deep/);
  }
  // The same limit for block nesting.
  let block = 'metadata:\n';
  for (let d = 1; d <= 120; d++) block += `${' '.repeat(d)}k${d}:\n`;
  const problems = validateAll(skill(`name: skill-creator\ndescription: d\n${block}`), 'deep block', false);
  assert.deepEqual(problems.map((p) => p.code), ['frontmatter-limits']);
});

test('colons in values: plain `: ` is an error with a quote hint, other colons are fine', () => {
  const bad = validateAll(skill('name: skill-creator\ndescription: Use when: asked\n'), 'colon');
  assert.deepEqual(bad.map((p) => p.code), ['yaml-syntax']);
  assert.match(bad[0].message, /^Quote the description: it contains ': '/);
  assert.deepEqual(validateAll(skill('name: skill-creator\ndescription: Time 10:30, ratio 1:2, url http://x.io'), 'colon ok'), []);
});

test('tabs: a tab after the colon is fine, a tab as indentation is a yaml error', () => {
  assert.deepEqual(validateAll(skill('name:\tskill-creator\ndescription:\td'), 'tab sep'), []);
  assert.deepEqual(validateAll(skill('name: skill-creator\ndescription: d\nmetadata:\n\ta: b'), 'tab indent').map((p) => p.code), ['yaml-syntax']);
});

test('unicode names: reported precisely, never a throw', () => {
  const cases: Array<[string, string[]]> = [
    ['名前', ['name-charset', 'name-dir-mismatch']],
    ['ｓｋｉｌｌ-ｃｒｅａｔｏｒ', []],
    ['skill\u200bcreator', ['name-charset', 'name-dir-mismatch']],
    ['Ⅻ-skill', ['name-case', 'name-dir-mismatch']], // NFKC: Ⅻ → XII
    ['😀', ['name-charset', 'name-dir-mismatch']],
  ];
  for (const [name, expected] of cases) {
    const problems = validateAll(skill(`name: "${name}"\ndescription: d`), name);
    assert.deepEqual(problems.map((p) => p.code).filter((c) => c.startsWith('name-') && c !== 'name-reserved').sort(), expected, name);
  }
});

test('degenerate files: empty, `---` only, fences only, BOM only, newlines only', () => {
  assert.deepEqual(validateAll('', 'empty').map((p) => p.code), ['frontmatter-missing']);
  assert.deepEqual(validateAll('---', '---').map((p) => p.code), ['frontmatter-unclosed']);
  assert.deepEqual(validateAll('---\n---', 'fences').map((p) => p.code), ['name-missing', 'description-missing']);
  assert.deepEqual(validateAll('\uFEFF', 'bom only').map((p) => p.code), ['bom', 'frontmatter-missing']);
  assert.deepEqual(validateAll('\n\n\n', 'newlines').map((p) => p.code), ['frontmatter-missing']);
  assert.deepEqual(validateAll('---\n---\n---\n', 'three fences').map((p) => p.code), ['name-missing', 'description-missing']);
});

test('non-string input to the parser and extractor does not throw', () => {
  assert.equal(parseSkillMd(undefined as unknown as string).problems[0].code, 'frontmatter-missing');
  assert.deepEqual(extractReferences(null as unknown as string, 1), []);
});
