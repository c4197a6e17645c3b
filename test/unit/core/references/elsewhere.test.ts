// elsewhereClause (markdown.ts) splits the one regex `cd…|…skill's$` in two to skip the halves that cannot match;
// it must answer what that regex's leftmost match did, on any text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { elsewhereClause } from '../../../../src/core/references/markdown';

const ONE_REGEX = /\bcd`?\s+(?:(?:to|into|in)\s+)?[`'"]?[\w.~$@{}-]*\/|(?:\*\*|`)?([\w.-]+)(?:\*\*|`)?\s+(?:skill|plugin)['’]s\s*`?$/i;

function oneRegex(s: string): string | null | undefined {
  const m = ONE_REGEX.exec(s);
  return m === null ? undefined : m[1] === undefined ? null : m[1];
}

const PIECES = ['cd', 'CD', 'Cd ', 'cd`', ' ', '\t', '\u00a0', 'to ', 'into ', 'in ', '`', '**', "'", '’', '"', 's', 'S', 'skill', 'SKILL', 'plugin', "skill's", 'plugin’s', 'other-skill', 'x.y', '/', '../', 'a', 'the', '.', ';', '\n', 'abcd', 'é'];

test('elsewhereClause answers as the one regex did, on texts made of the pieces it looks for', () => {
  fc.assert(fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (parts) => {
    const s = parts.join('');
    assert.deepEqual(elsewhereClause(s), oneRegex(s), JSON.stringify(s));
  }), { numRuns: 20000, seed: 23 });
});

test('elsewhereClause: the cases the rule is for', () => {
  for (const s of ['run `cd` to `../other-skill/` and run', 'see the **other-skill** skill\'s', 'the `this` skill’s  `', 'cd ../x/ then the a-b skill\'s', 'the a-b skill\'s cd ../x/', 'nothing here', '']) {
    assert.deepEqual(elsewhereClause(s), oneRegex(s), s);
  }
  assert.equal(elsewhereClause('see the **other-skill** skill\'s'), 'other-skill');
  assert.equal(elsewhereClause('`cd` to `../other-skill/`'), null);
  assert.equal(elsewhereClause('plain prose'), undefined);
});
