// closestName (the "Did you mean" of mention-unknown) skips candidates that share no piece with the name before it
// computes their edit distance (claudeWiring.ts, sharesPiece): it must answer exactly what the plain scan answered.
// The plain scan is kept here as the oracle, run on random names over a small alphabet (so that near names are common).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { closestName } from '../../../../src/core/discovery/claudeWiring';

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

/** The first candidate (in pool order) at the smallest distance within the limit: what the plain scan returned. */
function plainClosest(name: string, pool: string[]): string | undefined {
  if (name.length < 4) return undefined;
  const limit = Math.min(2, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of pool) {
    if (c.includes(':')) continue;
    const d = distance(name, c);
    if (d < bestDistance) { best = c; bestDistance = d; }
  }
  return best;
}

const word = fc.stringMatching(/^[a-f:-]{0,14}$/);
/** One edit: insert, delete or replace a character at a position (both taken modulo the word's length). */
const edit = fc.tuple(fc.constantFrom('insert', 'delete', 'replace'), fc.nat(), fc.constantFrom('a', 'b', 'c', '-', 'x'));
function applyEdits(s: string, edits: Array<[string, number, string]>): string {
  for (const [kind, at, c] of edits) {
    const i = at % (s.length + 1);
    s = kind === 'insert' ? s.slice(0, i) + c + s.slice(i) : kind === 'delete' ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + c + s.slice(i + 1);
  }
  return s;
}

test('closestName answers what the plain scan answers', () => {
  // Each candidate is a random word or the name after one to four edits (near names, at every distance around the limit).
  const candidate = (name: string) => fc.oneof(word, fc.array(edit, { minLength: 1, maxLength: 4 }).map((e) => applyEdits(name, e)));
  fc.assert(fc.property(word.chain((name) => fc.tuple(fc.constant(name), fc.array(candidate(name), { maxLength: 30 }))), ([name, pool]) => {
    assert.equal(closestName(name, new Set(pool)), plainClosest(name, [...new Set(pool)]));
  }), { numRuns: 3000 });
});

test('closestName finds a near name among many far ones, and none when all are far', () => {
  const pool = new Set(Array.from({ length: 3000 }, (_, i) => `algorithmic-art-${i}`));
  pool.add('db-reindex');
  assert.equal(closestName('db-reindx', pool), 'db-reindex');
  assert.equal(closestName('algorithmic-art-20000', pool), 'algorithmic-art-2000');
  assert.equal(closestName('frontend-design', pool), undefined);
});
