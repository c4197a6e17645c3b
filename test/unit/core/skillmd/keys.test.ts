import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FRONTMATTER_KEYS, isAgentModel, keyInfo, keysForProfile } from '../../../../src/core/skillmd/keys';
import { CLAUDE_BOOLEAN_WORDS, EFFORT_LEVELS, MODEL_ALIASES } from '../../../../src/core/claude/values';

const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const CLAUDE_CODE_ONLY = ['when_to_use', 'argument-hint', 'arguments', 'disable-model-invocation', 'user-invocable', 'disallowed-tools',
  'model', 'effort', 'context', 'agent', 'background', 'hooks', 'paths', 'shell'];

test('the key set per profile is exactly the documented one', () => {
  assert.deepEqual(keysForProfile('spec'), SPEC_KEYS);
  assert.deepEqual(keysForProfile('upload'), SPEC_KEYS);
  assert.deepEqual(keysForProfile('claude-code'), [...SPEC_KEYS, ...CLAUDE_CODE_ONLY]);
  assert.equal(new Set(FRONTMATTER_KEYS.map((k) => k.key)).size, FRONTMATTER_KEYS.length);
});

test('every key has a doc that says which profiles accept it', () => {
  for (const k of FRONTMATTER_KEYS) {
    assert.ok(k.doc.length > 30, k.key);
    if (k.profiles.length === 1) assert.match(k.doc, /Claude Code only/, k.key);
    else assert.match(k.doc, /every profile/, k.key);
  }
});

test('enum and boolean keys carry their values', () => {
  // Completion values come from Claude Code's value tables (src/core/claude/values.ts).
  assert.deepEqual(keyInfo('model')?.values, ['inherit', ...MODEL_ALIASES]);
  for (const v of ['opusplan', 'sonnet[1m]', 'default', 'best']) assert.ok(keyInfo('model')?.values?.includes(v), v);
  assert.deepEqual(keyInfo('context')?.values, ['fork']);
  assert.deepEqual(keyInfo('effort')?.values, EFFORT_LEVELS);
  assert.deepEqual(keyInfo('effort')?.values, ['low', 'medium', 'high', 'xhigh', 'max']);
  assert.deepEqual(keyInfo('shell')?.values, ['bash', 'powershell']);
  for (const b of ['disable-model-invocation', 'user-invocable', 'background']) {
    assert.equal(keyInfo(b)?.type, 'boolean', b);
    assert.deepEqual(keyInfo(b)?.values, CLAUDE_BOOLEAN_WORDS, b);
    assert.deepEqual(keyInfo(b)?.values?.slice(0, 2), ['true', 'false'], b);
  }
  assert.equal(keyInfo('metadata')?.type, 'map');
  assert.equal(keyInfo('allowed-tools')?.type, 'string-or-list');
});

test('keyInfo is undefined for unknown keys (and prototype names)', () => {
  assert.equal(keyInfo('nope'), undefined);
  assert.equal(keyInfo('constructor'), undefined);
});

test('every Claude Code key except the spec ones has Claude Code\'s value check', () => {
  for (const key of CLAUDE_CODE_ONLY) assert.ok(keyInfo(key)?.claudeCode, key);
  for (const key of SPEC_KEYS) assert.equal(keyInfo(key)?.claudeCode, undefined, key);
  assert.deepEqual(FRONTMATTER_KEYS.filter((k) => k.requiresFork).map((k) => k.key), ['agent', 'background']);
  assert.match(keyInfo('background')!.doc, /Only applies with `context: fork`/);
});

test('Claude Code value checks: accepted values (booleans, /model values, effort levels) and refused ones', () => {
  const accepts = (key: string, v: unknown) => keyInfo(key)!.claudeCode!.accepts(v);
  for (const v of [true, false, 'yes', 'No', 'ON', 'off', '1', '0', 1, 0, 'TRUE']) assert.equal(accepts('disable-model-invocation', v), true, String(v));
  for (const v of ['maybe', 2, null, '', [true]]) assert.equal(accepts('disable-model-invocation', v), false, String(v));
  for (const v of ['opusplan', 'sonnet[1m]', 'opus[1m]', 'default', 'best', 'inherit', 'haiku', 'claude-opus-4-8', 'claude-sonnet-4-5-20250929', 'us.anthropic.claude-sonnet-4-5-v1:0']) {
    assert.equal(accepts('model', v), true, v);
  }
  for (const v of ['', 'sonnet 4', 3, ['opus'], null]) assert.equal(accepts('model', v), false, String(v));
  for (const v of ['low', 'medium', 'high', 'xhigh', 'max']) assert.equal(accepts('effort', v), true, v);
  for (const v of ['extreme', 'High', 5]) assert.equal(accepts('effort', v), false, String(v));
  assert.equal(accepts('argument-hint', ''), true, 'an empty argument-hint is no error');
  assert.equal(accepts('argument-hint', null), true);
  assert.equal(accepts('argument-hint', ['topic: foo']), true, 'a YAML list is read as a string');
  assert.equal(accepts('argument-hint', { a: 'b' }), false);
});

test('docs/rules.md lists every frontmatter key with the profiles that accept it', () => {
  const doc = readFileSync('docs/rules.md', 'utf8');
  const section = doc.slice(doc.indexOf('## Frontmatter keys'));
  assert.ok(section.length > 20, 'docs/rules.md has a "Frontmatter keys" section');
  for (const k of FRONTMATTER_KEYS) {
    const row = section.split('\n').find((l) => l.startsWith(`| \`${k.key}\` |`));
    assert.ok(row, `docs/rules.md lists ${k.key}`);
    assert.ok(row.includes(k.profiles.length === 3 ? 'every profile' : 'claude-code'), `${k.key}: ${row}`);
  }
});

test('isAgentModel (agent files) accepts what /model accepts (docs/sub-agents.md: "Accepts the same values as the `--model` flag")', () => {
  for (const v of ['opus', 'fable', 'opusplan', 'sonnet[1m]', 'inherit', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5[1m]', 'claude-3.5-sonnet', 'us.anthropic.claude-opus-4-1-v1:0']) {
    assert.equal(isAgentModel(v), true, v);
  }
  for (const v of ['', '   ', 'two words', '42']) assert.equal(isAgentModel(v), false, v);
});