import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { appendToArray, removeProperty, setProperty } from '../../../../src/core/workflow/edit';

const ok = (r: { ok: true; text: string } | { ok: false; message: string }): string => {
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.ok ? r.text : '';
};

test('setProperty replaces only the value bytes, or appends a property laid out like its neighbours', () => {
  assert.equal(ok(setProperty('{"phase":"PLAN","n":-0}', 'phase', 'CANCELLED')), '{"phase":"CANCELLED","n":-0}');
  assert.equal(ok(setProperty('{ "a": 1e400 }', 'b', 'x')), '{ "a": 1e400, "b": "x" }');
  assert.equal(ok(setProperty('{\n    "a": 12345678901234567890\n}\n', 'b', [1])), '{\n    "a": 12345678901234567890,\n    "b": [\n        1\n    ]\n}\n');
  assert.equal(ok(setProperty('{\r\n\t"a": 1\r\n}\r\n', 'b', { c: 2 })), '{\r\n\t"a": 1,\r\n\t"b": {\r\n\t\t"c": 2\r\n\t}\r\n}\r\n');
  assert.equal(ok(setProperty('\ufeff{"a":1}', 'a', 2)), '\ufeff{"a":2}');
  assert.equal(ok(setProperty('{}', 'a', 1)), '{"a":1}');
  assert.equal(ok(setProperty('{\n}\n', 'a', 1)), '{\n  "a": 1\n}\n');
});

test('appendToArray adds one element after the last, keeping the array\'s layout', () => {
  assert.equal(ok(appendToArray('{"t":[1.0,2E5]}', 't', { a: 1 })), '{"t":[1.0,2E5,{"a":1}]}');
  assert.equal(ok(appendToArray('{\n  "t": [\n    {"x": 1}\n  ]\n}', 't', { a: 1 })), '{\n  "t": [\n    {"x": 1},\n    {\n      "a": 1\n    }\n  ]\n}');
  assert.equal(ok(appendToArray('{\n  "t": []\n}', 't', 1)), '{\n  "t": [\n    1\n  ]\n}');
  assert.equal(ok(appendToArray('{"t": 5}', 't', 1)), '{"t": [1]}');
  assert.equal(ok(appendToArray('{"u": 5}', 't', 1)), '{"u": 5, "t": [1]}');
});

test('removeProperty takes the property and one comma, nothing else', () => {
  assert.equal(ok(removeProperty('{\n  "a": 1,\n  "b": 2\n}\n', 'b')), '{\n  "a": 1\n}\n');
  assert.equal(ok(removeProperty('{\n  "a": 1,\n  "b": 2\n}\n', 'a')), '{\n  "b": 2\n}\n');
  assert.equal(ok(removeProperty('{\n  "a": 1\n}\n', 'a')), '{}\n');
  assert.equal(ok(removeProperty('{"a":1,"b":-0,"c":1e400}', 'b')), '{"a":1,"c":1e400}');
});

test('repeated keys and non-objects are refused with a message, never guessed', () => {
  assert.deepEqual(setProperty('{"phase":"PLAN","phase":"WORK"}', 'phase', 'X', 'status.json'), { ok: false, message: 'status.json has the key "phase" 2 times; fix it by hand first' });
  assert.deepEqual(removeProperty('[1]', 'a', 'registry.json'), { ok: false, message: 'registry.json is not a valid JSON object' });
  assert.deepEqual(removeProperty('{"b":1}', 'a', 'registry.json'), { ok: false, message: 'registry.json has no key "a"' });
});
