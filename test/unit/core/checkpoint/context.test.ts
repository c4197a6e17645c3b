import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyAnswers, formatAnswerValue, parseContextFile, unansweredQuestions } from '../../../../src/core/checkpoint';

const FIXTURES = join(process.cwd(), 'test/fixtures/checkpoint');
const review = readFileSync(join(FIXTURES, 'review-context.md'), 'utf8');
const lenient = readFileSync(join(FIXTURES, 'lenient-context.md'), 'utf8');

test('the checkpoint protocol example context file parses into invocation, summary, outputs and questions', () => {
  const p = parseContextFile(review);
  assert.equal(p.valid, true);
  assert.deepEqual(p.problems, []);
  assert.equal(p.skill, 'code-review');
  assert.equal(p.args, 'PR=123');
  assert.equal(p.status, 'AWAIT');
  assert.equal(p.created, '2026-11-21T14:30:00Z');
  assert.equal(p.title, 'Checkpoint: code-review');
  assert.equal(p.progressSummary, 'Reviewed 12 of 20 files; paused because the base branch is ambiguous.');
  assert.deepEqual(p.partialOutputs, ['.agent/tmp/review-draft.md']);
  assert.equal(p.eol, '\n');
  assert.equal(p.questions.length, 2);
  const [q1, q2] = p.questions;
  assert.deepEqual(
    { id: q1.id, text: q1.text, type: q1.type, options: q1.options, allowOther: q1.allowOther, answer: q1.answer, line: q1.line },
    { id: 'Q1', text: 'Which branch should the review compare against?', type: 'single', options: ['main', 'develop'], allowOther: false, answer: '', line: 17 },
  );
  assert.deepEqual(
    { id: q2.id, text: q2.text, type: q2.type, options: q2.options, answer: q2.answer, line: q2.line },
    { id: 'Q2', text: 'Anything to skip?', type: 'text', options: [], answer: 'vendor/ and generated files', line: 24 },
  );
  assert.deepEqual(unansweredQuestions(p), ['Q1']);
});

test('answer regions point at the exact characters and bytes after the marker', () => {
  const p = parseContextFile(review);
  const [q1, q2] = p.questions;
  assert.equal(q1.answerRegion.hasMarker, true);
  assert.equal(q1.answerRegion.line, 22);
  assert.equal(review.slice(q1.answerRegion.start - 'Answer:'.length, q1.answerRegion.end), 'Answer:');
  assert.equal(review.slice(q2.answerRegion.start, q2.answerRegion.end), ' vendor/ and generated files');
  // ASCII file: byte offsets equal character offsets.
  assert.equal(q2.answerRegion.byteStart, q2.answerRegion.start);
  const bytes = Buffer.from(review, 'utf8');
  assert.equal(bytes.subarray(q2.answerRegion.byteStart, q2.answerRegion.byteEnd).toString('utf8'), ' vendor/ and generated files');
});

test('byte offsets differ from character offsets after multi-byte text', () => {
  const text = review.replace('Reviewed 12', 'Überprüft 12 — 검토');
  const p = parseContextFile(text);
  const q2 = p.questions[1];
  assert.ok(q2.answerRegion.byteStart > q2.answerRegion.start);
  assert.equal(Buffer.from(text, 'utf8').subarray(q2.answerRegion.byteStart, q2.answerRegion.byteEnd).toString('utf8'), ' vendor/ and generated files');
});

test('rewriting one answer changes only that Answer field (LF)', () => {
  const p = parseContextFile(review);
  const out = applyAnswers(review, p, { Q1: 'develop' });
  assert.equal(out, review.replace('- develop\nAnswer:\n', '- develop\nAnswer: develop\n'));
  const again = parseContextFile(out);
  assert.equal(again.questions[0].answer, 'develop');
  assert.equal(again.questions[1].answer, 'vendor/ and generated files');
});

test('rewriting keeps CRLF line endings and every other byte', () => {
  const crlf = review.replace(/\n/g, '\r\n');
  const p = parseContextFile(crlf);
  assert.equal(p.eol, '\r\n');
  assert.equal(p.questions[1].answer, 'vendor/ and generated files');
  const out = applyAnswers(crlf, p, { Q1: 'main', Q2: 'nothing' });
  assert.equal(out, crlf.replace('- develop\r\nAnswer:\r\n', '- develop\r\nAnswer: main\r\n').replace('Answer: vendor/ and generated files', 'Answer: nothing'));
  assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF introduced');
});

test('a multi-line answer is written with the file line ending and reads back', () => {
  const crlf = review.replace(/\n/g, '\r\n');
  const p = parseContextFile(crlf);
  const out = applyAnswers(crlf, p, { Q2: 'line one\nline two\n### not a heading\nType: not a field' });
  assert.ok(out.includes('Answer: line one\r\nline two\r\n\\### not a heading\r\n\\Type: not a field'));
  const back = parseContextFile(out);
  assert.equal(back.questions.length, 2);
  assert.equal(back.questions[1].answer, 'line one\nline two\n### not a heading\nType: not a field');
});

test('trailing spaces after an empty Answer: are part of the region', () => {
  const text = review.replace('- develop\nAnswer:\n', '- develop\nAnswer:   \n');
  const p = parseContextFile(text);
  assert.equal(applyAnswers(text, p, { Q1: 'main' }), review.replace('- develop\nAnswer:\n', '- develop\nAnswer: main\n'));
});

test('lenient file: bold markers, extra sections, fences, inline options, comments, missing Answer', () => {
  const p = parseContextFile(lenient);
  assert.equal(p.valid, true);
  assert.equal(p.skill, 'release-notes');
  assert.equal(p.args, 'VERSION=2.0');
  assert.equal(p.progressSummary, 'Collected 41 merged PRs.\nGrouped them by label.');
  assert.deepEqual(p.partialOutputs, ['.agent/tmp/notes-draft.md', '.agent/tmp/prs.json']);
  assert.deepEqual(p.questions.map((q) => q.id), ['Q1', 'Q2', 'Q3', 'Q4', 'Q5']);
  const [q1, q2, q3, q4, q5] = p.questions;
  assert.deepEqual([q1.type, q1.options, q1.allowOther, q1.answer], ['multi', ['Features', 'Fixes', 'Breaking changes'], true, '']);
  assert.deepEqual([q2.text, q2.type, q2.options, q2.answer], ['Which tone?', 'single', ['formal', 'casual'], 'casual']);
  assert.deepEqual([q3.text, q3.type, q3.answer], ['Publish right away?', 'confirm', '']);
  assert.deepEqual([q4.type, q4.answer], ['text', 'Thanks to all contributors.\nSecond line of the answer.']);
  assert.deepEqual([q5.type, q5.answer, q5.answerRegion.hasMarker], ['text', '', false]);
  assert.deepEqual(unansweredQuestions(p), ['Q1', 'Q3', 'Q5']);
  assert.deepEqual(p.problems.map((x) => x.message), ['Question Q5 has no Answer field; one is added when it is answered']);
});

test('lenient file: answers are written in place, a missing Answer field is added', () => {
  const p = parseContextFile(lenient);
  const out = applyAnswers(lenient, p, { Q1: 'Features, Fixes', Q3: 'yes', Q4: 'Only thanks.', Q5: 'The team' });
  const expected = lenient
    .replace('**Allow-Other:** yes\n**Answer:**\n', '**Allow-Other:** yes\n**Answer:** Features, Fixes\n')
    .replace('Answer:\n  <!-- yes or no -->\n', 'Answer: yes\n')
    .replace('Answer: Thanks to all contributors.\nSecond line of the answer.\n', 'Answer: Only thanks.\n')
    .replace('Type: text\n', 'Type: text\nAnswer: The team\n');
  assert.equal(out, expected);
  const back = parseContextFile(out);
  assert.deepEqual(back.questions.map((q) => q.answer), ['Features, Fixes', 'casual', 'yes', 'Only thanks.', 'The team']);
  assert.deepEqual(unansweredQuestions(back), []);
});

test('a thematic break ends an empty answer instead of becoming it', () => {
  const p = parseContextFile(lenient);
  assert.equal(p.questions[0].answer, '');
  assert.equal(lenient.slice(p.questions[0].answerRegion.start, p.questions[0].answerRegion.end), '');
});

test('a BOM is kept and the frontmatter still parses', () => {
  const text = `\uFEFF${review}`;
  const p = parseContextFile(text);
  assert.equal(p.skill, 'code-review');
  const out = applyAnswers(text, p, { Q1: 'main' });
  assert.ok(out.startsWith('\uFEFF---\n'));
  assert.equal(out, `\uFEFF${review.replace('- develop\nAnswer:\n', '- develop\nAnswer: main\n')}`);
});

test('skill falls back to the # Checkpoint: title; type defaults follow the protocol', () => {
  const text = '# Checkpoint: deploy\n\n## Questions\n### Q1: Where?\nOptions:\n- staging\n- prod\nAnswer:\n### Q2: Why?\nAnswer:\n';
  const p = parseContextFile(text);
  assert.equal(p.valid, true);
  assert.equal(p.skill, 'deploy');
  assert.equal(p.questions[0].type, 'single');
  assert.equal(p.questions[1].type, 'text');
});

test('invalid formats are reported as fatal problems, not thrown', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /No questions/],
    ['just some text\n', /No questions/],
    ['---\nskill: x\n---\n# Checkpoint: x\n', /No questions/],
    ['## Questions\n### Q1: a\nAnswer:\n', /No skill named/],
    ['---\nskill: "x; rm -rf ~"\n---\n### Q1: a\nAnswer:\n', /not a valid skill name/],
    ['---\nskill: x\n---\n### Q1: a\nAnswer:\n### Q1: b\nAnswer:\n', /Q1 appears twice/],
  ];
  for (const [text, re] of cases) {
    const p = parseContextFile(text);
    assert.equal(p.valid, false, text);
    assert.match(p.problems.filter((x) => x.fatal).map((x) => x.message).join('\n'), re);
  }
});

test('hostile input never throws', () => {
  const hostile: unknown[] = [
    undefined, null, 42, {},
    '---\n',
    '---\n: : :\n  - [\n---\n### Q1:\nAnswer:',
    '---\na: &a [*a, *a]\nb: *a\n---\n',
    '---\n' + 'x: &a [1]\n'.repeat(1) + 'y: [' + '*a,'.repeat(5000) + ']\n---\n### Q1: x\nAnswer:',
    '### Q1\n'.repeat(2000),
    '#'.repeat(100000),
    '```\n### Q1: never closed',
    'Answer:\n'.repeat(10000),
    '\r\r\r\n\n\r',
    '\uD800\uDC00\uD800 ### Q1: lone surrogate\nAnswer: \uDFFF',
    '---\nskill: ok\n---\n### Q1: a\nType: single\nOptions:\nAnswer:\n'.repeat(50),
    '\u0000\u0001---\nskill: x\n---',
  ];
  for (const h of hostile) {
    const p = parseContextFile(h as string);
    assert.equal(typeof p.valid, 'boolean');
    assert.ok(Array.isArray(p.questions));
  }
  assert.equal(parseContextFile('### Q1\n'.repeat(2000)).questions.length <= 500, true);
});

test('formatAnswerValue trims, escapes breakers on continuation lines and uses the given line ending', () => {
  assert.equal(formatAnswerValue('  main  ', '\n'), ' main');
  assert.equal(formatAnswerValue('a\r\n---\nb', '\r\n'), ' a\r\n\\---\r\nb');
  assert.equal(formatAnswerValue('# first line stays', '\n'), ' # first line stays');
});

test('pathological input stays linear (no regex backtracking blow-up)', () => {
  const cases = [
    `### Q1: ${' '.repeat(200_000)}x`,
    `---\nskill: ok${' '.repeat(200_000)}x\n---\n### Q1: a\nAnswer:`,
    `---\nskill: x\n---\n### Q1: a\nAnswer: a${' '.repeat(200_000)}b\n${' '.repeat(200_000)}c`,
    `### ${'**'.repeat(100_000)}Q1`,
    `---\nskill: x\n---\n## Questions\n${Array.from({ length: 400 }, (_, i) => `### Q${i}: q\nAnswer: ${'é'.repeat(1000)}\n`).join('')}`,
  ];
  for (const text of cases) {
    const started = performance.now();
    parseContextFile(text);
    const ms = performance.now() - started;
    assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 30))}`);
  }
  const many = parseContextFile(cases[4]);
  const last = many.questions[many.questions.length - 1];
  assert.equal(Buffer.from(cases[4], 'utf8').subarray(last.answerRegion.byteStart, last.answerRegion.byteEnd).toString('utf8'), ` ${'é'.repeat(1000)}`);
});

test('YAML aliases, huge frontmatter and non-scalar values do not break the invocation', () => {
  const bomb = `---\nskill: code-review\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n### Q1: a\nAnswer:\n`;
  const p = parseContextFile(bomb);
  assert.equal(p.skill, 'code-review');
  assert.equal(p.valid, true);
  const huge = `---\nskill: "big"\nnote: ${'x'.repeat(10_000)}\n---\n### Q1: a\nAnswer:\n`;
  const h = parseContextFile(huge);
  assert.equal(h.skill, 'big');
  assert.match(h.problems[0].message, /over 8192 characters/);
  const listSkill = parseContextFile('---\nskill: [a, b]\n---\n# Checkpoint: fallback\n### Q1: a\nAnswer:\n');
  assert.equal(listSkill.skill, 'fallback');
});
