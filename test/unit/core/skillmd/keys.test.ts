import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FRONTMATTER_KEYS, isValidModel, keyInfo, keysForProfile } from '../../../../src/core/skillmd/keys';
import { CLAUDE_CODE_FIELDS } from '../../../../src/core/skillmd/schemas';

const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const CLAUDE_CODE_ONLY = ['when_to_use', 'argument-hint', 'arguments', 'disable-model-invocation', 'user-invocable', 'disallowed-tools',
  'model', 'effort', 'context', 'agent', 'background', 'hooks', 'paths', 'shell', 'version'];

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
    else assert.match(k.doc, /every profile|Required/, k.key);
  }
});

test('enum and boolean keys carry their values', () => {
  assert.deepEqual(keyInfo('model')?.values, ['sonnet', 'opus', 'haiku', 'inherit']);
  assert.deepEqual(keyInfo('context')?.values, ['fork']);
  assert.deepEqual(keyInfo('effort')?.values, ['low', 'medium', 'high', 'xhigh', 'max']);
  assert.deepEqual(keyInfo('shell')?.values, ['bash', 'powershell']);
  for (const b of ['disable-model-invocation', 'user-invocable', 'background']) {
    assert.equal(keyInfo(b)?.type, 'boolean', b);
    assert.deepEqual(keyInfo(b)?.values, ['true', 'false'], b);
  }
  assert.equal(keyInfo('metadata')?.type, 'map');
  assert.equal(keyInfo('allowed-tools')?.type, 'string-or-list');
});

test('keyInfo is undefined for unknown keys (and prototype names)', () => {
  assert.equal(keyInfo('nope'), undefined);
  assert.equal(keyInfo('constructor'), undefined);
});

test('every Claude Code key except the spec ones has a field-invalid shape', () => {
  for (const key of CLAUDE_CODE_ONLY) assert.ok(CLAUDE_CODE_FIELDS[key], key);
});

test('isValidModel accepts aliases and full ids only', () => {
  assert.equal(isValidModel('opus'), true);
  assert.equal(isValidModel('claude-sonnet-4-5-20250929'), true);
  assert.equal(isValidModel('claude-sonnet-4-5[1m]'), true);
  assert.equal(isValidModel('claude-3.5-sonnet'), true);
  assert.equal(isValidModel('sonnet-4'), false);
  assert.equal(isValidModel('claude'), false);
  assert.equal(isValidModel('claude--x'), false);
  assert.equal(isValidModel('CLAUDE-OPUS'), false);
});
