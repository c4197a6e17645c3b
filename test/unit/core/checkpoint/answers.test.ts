import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkAnswer, normaliseConfirm, splitMulti } from '../../../../src/core/checkpoint/answers';

const single = { id: 'Q1', type: 'single' as const, options: ['main', 'develop'], allowOther: false };
const multi = { id: 'Q2', type: 'multi' as const, options: ['Features', 'Fixes', 'Breaking changes'], allowOther: false };

test('single: must be one of the options; spelling is taken from the option', () => {
  assert.deepEqual(checkAnswer(single, 'develop'), { ok: true, value: 'develop' });
  assert.deepEqual(checkAnswer(single, '  MAIN '), { ok: true, value: 'main' });
  assert.deepEqual(checkAnswer(single, 'trunk'), { ok: false, message: 'The answer to Q1 must be one of: main, develop (got "trunk")' });
});

test('single with Allow-Other accepts free text', () => {
  assert.deepEqual(checkAnswer({ ...single, allowOther: true }, 'release/2.0'), { ok: true, value: 'release/2.0' });
});

test('multi: every item must be an option; joined with ", "', () => {
  assert.deepEqual(checkAnswer(multi, 'fixes, Features'), { ok: true, value: 'Fixes, Features' });
  assert.deepEqual(checkAnswer(multi, 'Features,Fixes'), { ok: true, value: 'Features, Fixes' });
  assert.deepEqual(checkAnswer(multi, 'Features, Docs'), { ok: false, message: 'The answer to Q2 must be chosen from: Features, Fixes, Breaking changes (got "Docs")' });
  assert.deepEqual(checkAnswer({ ...multi, allowOther: true }, 'Features, Docs'), { ok: true, value: 'Features, Docs' });
  assert.deepEqual(checkAnswer(multi, 'Fixes, Fixes'), { ok: true, value: 'Fixes' });
});

test('splitMulti splits on ", " and keeps an option that contains a bare comma', () => {
  assert.deepEqual(splitMulti('a, b,  c, '), ['a', 'b', 'c']);
  assert.deepEqual(splitMulti('1,000 rows, 10 rows', ['1,000 rows', '10 rows']), ['1,000 rows', '10 rows']);
  assert.deepEqual(splitMulti('x,y', ['x', 'y']), ['x', 'y']);
});

test('confirm: yes/no normalised, anything else refused', () => {
  assert.deepEqual(checkAnswer({ id: 'Q3', type: 'confirm', options: [], allowOther: false }, 'Y'), { ok: true, value: 'yes' });
  assert.deepEqual(checkAnswer({ id: 'Q3', type: 'confirm', options: [], allowOther: false }, 'false'), { ok: true, value: 'no' });
  assert.deepEqual(checkAnswer({ id: 'Q3', type: 'confirm', options: [], allowOther: false }, 'maybe'), { ok: false, message: 'The answer to Q3 must be yes or no (got "maybe")' });
  assert.equal(normaliseConfirm('No.'), 'no');
  assert.equal(normaliseConfirm('nope'), undefined);
});

test('text: anything non-empty, trimmed; empty refused for every type', () => {
  assert.deepEqual(checkAnswer({ id: 'Q4', type: 'text', options: [], allowOther: false }, "  it's $(rm -rf /); `x` \n"), { ok: true, value: "it's $(rm -rf /); `x`" });
  for (const q of [single, multi, { id: 'Q4', type: 'text' as const, options: [], allowOther: false }]) {
    assert.deepEqual(checkAnswer(q, '   '), { ok: false, message: `The answer to ${q.id} is empty` });
  }
  assert.deepEqual(checkAnswer(single, undefined as unknown as string), { ok: false, message: 'The answer to Q1 is empty' });
});
