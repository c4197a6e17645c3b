import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { shorten } from '../../../../src/extension/util/names';
import { yamlSingleQuote } from '../../../../src/core/fixes/skillFixes';

test('yamlSingleQuote doubles single quotes', () => {
  assert.equal(yamlSingleQuote('Use when: x'), `'Use when: x'`);
  assert.equal(yamlSingleQuote(`it's: fine`), `'it''s: fine'`);
});

test('shorten cuts on a word boundary with an ellipsis', () => {
  assert.equal(shorten('short', 10), 'short');
  assert.equal(shorten('one two three four five', 12), 'one two…');
  assert.equal(shorten('a\n  b', 10), 'a b');
});
