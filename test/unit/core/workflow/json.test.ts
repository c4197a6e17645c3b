import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseJson } from '../../../../src/core/workflow/json';

test('parses what JSON.parse parses, including escapes, numbers and nesting', () => {
  const samples = ['{}', '[]', '0', '-1.5e3', '"a\\u00e9\\n\\"b"', 'true', 'null', '{"a":[1,{"b":false}],"c":"d"}', ' \r\n\t{ "x" : [ ] } \n', '\ufeff{"bom": 1}'];
  for (const text of samples) {
    const r = parseJson(text);
    assert.ok(r.ok, text);
    assert.deepEqual(r.value, JSON.parse(text.replace(/^\ufeff/, '')), text);
  }
});

test('records 1-based ranges of keys and values', () => {
  const text = '{\n  "phase": "WORK",\n  "transitions": [\n    { "from": "INIT", "to": "PLAN" }\n  ]\n}\n';
  const r = parseJson(text);
  assert.ok(r.ok);
  assert.deepEqual(r.locate(['phase']), { key: { line: 2, column: 3, endLine: 2, endColumn: 10 }, value: { line: 2, column: 12, endLine: 2, endColumn: 18 } });
  assert.deepEqual(r.locate(['transitions', 0])?.value, { line: 4, column: 5, endLine: 4, endColumn: 37 });
  assert.deepEqual(r.locate(['transitions', 0, 'to'])?.value, { line: 4, column: 29, endLine: 4, endColumn: 35 });
  assert.equal(r.locate(['transitions', 1]), undefined);
  assert.deepEqual(r.locate([])?.value, { line: 1, column: 1, endLine: 6, endColumn: 2 });
});

test('a half-written file reports the end of file with its position', () => {
  const r = parseJson('{\n  "phase": "WO');
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.message, /unterminated string \(is the file half-written\?\)/);
  assert.deepEqual(r.range, { line: 2, column: 12, endLine: 2, endColumn: 15 });
  const cut = parseJson('{\n  "phase": "WORK",\n');
  assert.equal(cut.ok, false);
  if (!cut.ok) {
    assert.equal(cut.message, 'Invalid JSON: expected a property name in double quotes but found end of file (is the file half-written?)');
    assert.deepEqual(cut.range, { line: 3, column: 1, endLine: 3, endColumn: 1 });
  }
  const empty = parseJson('');
  assert.equal(empty.ok, false);
  if (!empty.ok) assert.match(empty.message, /expected a value but found end of file/);
});

test('syntax errors name the character and where it is', () => {
  const cases: Array<[string, string, number, number]> = [
    ['{"a": 1,}', "expected a property name in double quotes but found character \"}\"", 1, 9],
    ['{"a" 1}', "expected ':' after a property name but found character \"1\"", 1, 6],
    ['[1 2]', "expected ',' or ']' but found character \"2\"", 1, 4],
    ['{"a": tru}', 'expected a value but found character "t"', 1, 7],
    ['{} x', 'expected end of file but found character "x"', 1, 4],
    ["{'a': 1}", 'expected a property name in double quotes but found character "\'"', 1, 2],
  ];
  for (const [text, message, line, column] of cases) {
    const r = parseJson(text);
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.equal(r.message, `Invalid JSON: ${message}`, text);
    assert.equal(r.range.line, line, text);
    assert.equal(r.range.column, column, text);
  }
});

test('a __proto__ key stays a plain property and absurd nesting is an error, not a crash', () => {
  const r = parseJson('{"__proto__": {"polluted": true}}');
  assert.ok(r.ok);
  assert.deepEqual(Object.keys(r.value as object), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const deep = parseJson('['.repeat(5000));
  assert.equal(deep.ok, false);
  if (!deep.ok) assert.match(deep.message, /nesting deeper than 200 levels/);
});

test('hostile shapes parse in one pass: a long key above many values, long strings, many numbers, deep nesting refused', () => {
  // Regression: locating spans by the stringified path made a 200 KB key above 100,000 values quadratic.
  const longKey = 'k'.repeat(200_000);
  const wide = parseJson(`{"${longKey}":[${'1,'.repeat(100_000)}1]}`);
  assert.ok(wide.ok);
  assert.deepEqual(wide.locate([longKey, 100_000])?.value, { line: 1, column: 400_006, endLine: 1, endColumn: 400_007 });
  const unterminated = parseJson(`"${'a'.repeat(1_000_000)}`);
  assert.equal(unterminated.ok, false);
  const deep = parseJson('['.repeat(100_000));
  assert.equal(deep.ok, false);
  if (!deep.ok) assert.match(deep.message, /nesting deeper than 200 levels/);
  const digits = parseJson(`1${'0'.repeat(1_000_000)}`);
  assert.ok(digits.ok);
});
