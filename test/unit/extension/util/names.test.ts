import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { shorten, toKebabCase, yamlSingleQuote } from '../../../../src/extension/util/names';

test('toKebabCase fixes case, charset and hyphen problems', () => {
  assert.equal(toKebabCase('PDF Tools'), 'pdf-tools');
  assert.equal(toKebabCase('myCoolSkill'), 'my-cool-skill');
  assert.equal(toKebabCase('XMLParser'), 'xml-parser');
  assert.equal(toKebabCase('--double--hyphen-'), 'double-hyphen');
  assert.equal(toKebabCase('under_score.dot'), 'under-score-dot');
  assert.equal(toKebabCase('Café Déjà'), 'cafe-deja');
  assert.equal(toKebabCase('ｆｕｌｌｗｉｄｔｈ'), 'fullwidth');
  assert.equal(toKebabCase('!!!'), '');
});

test('yamlSingleQuote doubles single quotes', () => {
  assert.equal(yamlSingleQuote('Use when: x'), `'Use when: x'`);
  assert.equal(yamlSingleQuote(`it's: fine`), `'it''s: fine'`);
});

test('shorten cuts on a word boundary with an ellipsis', () => {
  assert.equal(shorten('short', 10), 'short');
  assert.equal(shorten('one two three four five', 12), 'one two…');
  assert.equal(shorten('a\n  b', 10), 'a b');
});
