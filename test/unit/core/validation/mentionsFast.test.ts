// findSkillMentions finds "skill" and "Skill" with one search and runs SKILL_PHRASE from just before the verb instead
// of across its whole window (mentions.ts, phraseStart): it must find exactly what the plain search found. The plain
// version is kept here as the oracle, and both are run on every fixture and on random texts made of the pieces the
// patterns look at.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import * as fc from 'fast-check';
import { mdFiles } from '../../helpers/validation';
import { findSkillMentions, type SkillMention } from '../../../../src/core/validation/mentions';
import { LineIndex, Utf8LineIndex } from '../../../../src/core/base/text';
import type { BodyView } from '../../../../src/core/validation/bodyRules';

const SKILL_PHRASE = /\b(?:use|using|invoke|invoking|run|running|call|load|trigger|activate|apply|launch)\s+(?:the\s+)?([`*"']{0,2})([a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)?)\1\s+$/i;
const NOT_NAMES = new Set(['this', 'that', 'the', 'a', 'an', 'your', 'my', 'our', 'their', 'its', 'each', 'every', 'any', 'which', 'same', 'new', 'right', 'appropriate', 'relevant', 'correct', 'following', 'above', 'below', 'next', 'other', 'another', 'whole', 'full', 'main', 'parent', 'matching', 'selected', 'specific', 'chosen', 'named', 'given', 'target', 'existing', 'corresponding', 'skill']);

/** The "… skill" half of findSkillMentions as it was: each word searched for, the regex over the whole window. */
function plainSkillPhrases(body: BodyView, bodyStartLine: number): SkillMention[] {
  const { lines, first } = body;
  const text = lines.text;
  const from = lines.starts[first] ?? 0;
  const out: SkillMention[] = [];
  const shift = bodyStartLine - 1 - first;
  for (const word of ['skill', 'Skill']) {
    for (let i = text.indexOf(word, from); i >= 0; i = text.indexOf(word, i + 5)) {
      const after = text.charCodeAt(i + 5);
      if ((after >= 97 && after <= 122) || (after >= 65 && after <= 90)) continue;
      const space = text.charCodeAt(i - 1);
      if (space !== 32 && space !== 10 && space !== 9) continue;
      const last = text.charCodeAt(i - 2);
      if (!((last >= 97 && last <= 122) || (last >= 48 && last <= 57) || last === 96 || last === 42 || last === 34 || last === 39 || last === 45 || last === 95)) continue;
      const start = Math.max(from, i - 120);
      const m = SKILL_PHRASE.exec(text.slice(start, i));
      if (!m || NOT_NAMES.has(m[2].toLowerCase())) continue;
      const at = start + m.index + m[0].lastIndexOf(m[2]);
      const r = lines.range(at, at + m[2].length);
      out.push({ name: m[2], slash: false, range: { line: r.line + shift, column: r.column, endLine: r.endLine + shift, endColumn: r.endColumn } });
    }
  }
  return out.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
}

function same(lines: LineIndex, first: number): number {
  const view: BodyView = { lines, first, length: lines.text.length, lastChar: 0 };
  const want = plainSkillPhrases(view, first + 1);
  const got = findSkillMentions(view, first + 1).filter((m) => !m.slash);
  assert.deepEqual(got, want, JSON.stringify(lines.text.slice(0, 200)));
  return want.length;
}

test('findSkillMentions finds the skill phrases the plain search found, in every fixture (text and bytes)', () => {
  let found = 0;
  for (const f of mdFiles(nodePath.resolve('test/fixtures'))) {
    const bytes = nodeFs.readFileSync(f);
    found += same(new LineIndex(bytes.toString('utf8')), 0);
    same(new Utf8LineIndex(bytes), 0);
    same(new LineIndex(bytes.toString('utf8')), 2);
  }
  assert.ok(found > 20, `only ${found} skill phrases in the fixtures`);
});

const PIECES = ['use ', 'Use', 'run', 'invoking ', 'the ', 'THE', ' ', '  ', '\t', '\n', '\u00a0', '\u2003', '`', '**', '"', "'", 'foo', 'Bar', 'a-b', 'x:y', '9', '_', 'skill', 'Skill', 'SKILL', ' skill', ' skills', 'kill', 's', '.', '(', '/', 'reuse', 'é', 'this'];

test('findSkillMentions: skill phrases on random texts, as the plain search', () => {
  fc.assert(fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), fc.nat(3), (parts, first) => {
    const text = parts.join('');
    const lines = new LineIndex(text);
    same(lines, Math.min(first, lines.lineCount - 1));
  }), { numRuns: 30000, seed: 23 });
});
