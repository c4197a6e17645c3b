import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { setSkillOverride } from '../../../../src/core/claude/settingsEdit';

test('a missing or blank file is created with just the override', () => {
  for (const text of [undefined, '', '  \n']) {
    const r = setSkillOverride(text, 'code-review', 'name-only');
    assert.ok(r.ok && r.changed);
    assert.equal(r.text, '{\n  "skillOverrides": {\n    "code-review": "name-only"\n  }\n}\n');
    assert.deepEqual(JSON.parse(r.text), { skillOverrides: { 'code-review': 'name-only' } });
  }
  const none = setSkillOverride(undefined, 'x', undefined);
  assert.ok(none.ok && !none.changed, 'removing from a missing file writes nothing');
});

test('an existing file keeps every other byte: its keys, order, indentation and line endings', () => {
  const text = '{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },\n    "model": "opus"\n}\n';
  const r = setSkillOverride(text, 'deploy', 'off');
  assert.ok(r.ok && r.changed);
  assert.ok(r.text.startsWith('{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },\n    "model": "opus",'), r.text);
  assert.ok(r.text.endsWith('\n    "skillOverrides": {\n        "deploy": "off"\n    }\n}\n'), r.text);
  assert.deepEqual(JSON.parse(r.text), { permissions: { allow: ['Bash(npm test)'] }, model: 'opus', skillOverrides: { deploy: 'off' } });

  const crlf = '{\r\n\t"skillOverrides": {\r\n\t\t"a": "on"\r\n\t}\r\n}\r\n';
  const c = setSkillOverride(crlf, 'b', 'name-only');
  assert.ok(c.ok);
  assert.equal(c.text, '{\r\n\t"skillOverrides": {\r\n\t\t"a": "on",\r\n\t\t"b": "name-only"\r\n\t}\r\n}\r\n');
});

test('an existing entry is replaced in place; the same value is no change; a BOM stays', () => {
  const text = '\ufeff{ "skillOverrides": { "a": "off", "b": "on" } }';
  const r = setSkillOverride(text, 'a', 'name-only');
  assert.ok(r.ok && r.changed);
  assert.equal(r.text, '\ufeff{ "skillOverrides": { "a": "name-only", "b": "on" } }');
  const same = setSkillOverride(text, 'b', 'on');
  assert.ok(same.ok && !same.changed);
  assert.equal(same.text, text);
});

test('removing the last override removes the emptied skillOverrides too', () => {
  const before = '{\n  "model": "opus"\n}\n';
  const added = setSkillOverride(before, 'a', 'off');
  assert.ok(added.ok);
  const removed = setSkillOverride(added.text, 'a', undefined);
  assert.ok(removed.ok && removed.changed);
  assert.equal(removed.text, before);
  const two = setSkillOverride('{"skillOverrides": {"a": "off", "b": "off"}}', 'a', undefined);
  assert.ok(two.ok);
  assert.deepEqual(JSON.parse(two.text), { skillOverrides: { b: 'off' } });
});

test('half-written or non-strict JSON is refused with its place; nothing is returned to write', () => {
  const cases: Array<[string, RegExp]> = [
    ['{\n  "skillOverrides": {\n    "a": "off"\n', /not valid JSON .*line [34]/],
    ['{ "model": "opus", }', /not valid JSON/],
    ['// mine\n{ "model": "opus" }', /not valid JSON .*line 1, column 1/],
    ['[1, 2]', /not a JSON object/],
    ['{ "skillOverrides": ["a"] }', /`skillOverrides` in the file is not an object/],
    ['{ "skillOverrides": "off" }', /`skillOverrides` in the file is not an object/],
  ];
  for (const [text, message] of cases) {
    const r = setSkillOverride(text, 'a', 'name-only');
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.message, message, text);
  }
});

test('names with dots or slashes are one key, not a path', () => {
  const r = setSkillOverride('{}', 'apps/web:deploy.v2', 'off');
  assert.ok(r.ok);
  assert.deepEqual(JSON.parse(r.text), { skillOverrides: { 'apps/web:deploy.v2': 'off' } });
});

test('a settings file nested too deeply for the parser is refused with a message, not an exception', () => {
  for (const deep of [`{"a": ${'['.repeat(200_000)}`, `{"skillOverrides": {}, "x": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`]) {
    const r = setSkillOverride(deep, 'x', 'off');
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /nested too deeply/);
  }
});
