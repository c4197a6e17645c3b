import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mergeJsonChanges } from '../../../../src/core/base/jsonMerge';

const b = (s: string) => Buffer.from(s, 'utf8');

test('JSON merge: both sides appended to an array (theirs first), their new key and our changed value both kept; other bytes as they were', () => {
  const ancestor = b('{\n    "phase": "PLAN",\n    "events": ["L0"],\n    "note": "x"\n}\n');
  const theirs = b('{\n  "phase": "PLAN",\n  "events": [\n    "L0",\n    "L1"\n  ],\n  "note": "x",\n  "owner": "orchestrator"\n}\n');
  const current = b('{\n    "phase": "CANCELLED",\n    "events": ["L0", "L2"],\n    "note": "x"\n}\n');
  const out = mergeJsonChanges(ancestor, theirs, current)!.toString('utf8');
  assert.deepEqual(JSON.parse(out), { phase: 'CANCELLED', events: ['L0', 'L1', 'L2'], note: 'x', owner: 'orchestrator' });
  assert.match(out, /^\{\n {4}"phase": "CANCELLED",\n/, 'our formatting and our value kept');
  assert.match(out, /\n {4}"note": "x"/);
});

test('JSON merge: an element both sides appended is kept once; a key theirs removed is removed; the same value changed both ways keeps theirs', () => {
  const ancestor = b('{"allow": ["a"], "old": 1, "mode": "full"}');
  const theirs = b('{"allow": ["a", "b"], "mode": "quick"}');
  const current = b('{"allow": ["a", "b", "c"], "old": 1, "mode": "lite"}');
  assert.deepEqual(JSON.parse(mergeJsonChanges(ancestor, theirs, current)!.toString('utf8')), { allow: ['a', 'b', 'c'], mode: 'quick' });
});

test('JSON merge: nothing changed on their side gives the current bytes back unchanged (BOM included)', () => {
  const current = b('\ufeff{ "a" :1 }\n');
  assert.ok(mergeJsonChanges(b('{"a":0}'), b('{"a":0}'), current)!.equals(current));
});

test('JSON merge: a half-written or non-UTF-8 text is not merged', () => {
  assert.equal(mergeJsonChanges(b('{"a":1}'), b('{"a":2}'), b('{"a":')), undefined);
  assert.equal(mergeJsonChanges(b('{"a":1}'), b('{"a":2}'), b('')), undefined);
  assert.equal(mergeJsonChanges(b('{"a":1}'), Buffer.from('{"a":"caf\xe9"}', 'latin1'), b('{"a":1}')), undefined);
});

test('JSON merge: a key named __proto__ is merged as data', () => {
  const out = mergeJsonChanges(b('{}'), b('{"__proto__": {"x": 1}}'), b('{"y": 2}'));
  assert.deepEqual(JSON.parse(out!.toString('utf8')), JSON.parse('{"y": 2, "__proto__": {"x": 1}}'));
});
