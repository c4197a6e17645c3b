import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyAnswers, formatAnswerValue, normaliseAnswer, type ParsedContext, parseContextFile, unansweredQuestions } from '../../../../src/core/checkpoint/context';
import { rng } from '../../helpers/random';

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

// ---- Answers read back exactly; answering never changes the set of questions ----

// Pieces that meet every rule the reader has: headings, fences, breaks, fields, escapes, comments, blanks, line ends.
const PIECES = ['#', '## ', '### Q9: x', '\\', '\\\\', '---', '***', '- - -', '```', '~~~', '````js', '<!--', '-->', '<\\!--', 'Answer:', '**Answer:**', 'Type: multi',
  '- Options:', '* ', '> ', '  ', '   ', '\t', ' ', '\n', '\n', '\n', '\r\n', '\r', 'a', 'word', 'é', '日本', '\u2028', '\u00a0', '_', '__', '**', '`', ':', '= ', '<', '!', '-',
  '\n```', '\n```', '\n~~~', '\n## x', '\n---', '\n\\```', '\nType: text', '\n<!--'];

function randomText(next: () => number, maxPieces: number): string {
  let out = '';
  const n = Math.floor(next() * maxPieces);
  for (let i = 0; i < n; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

/** A context file with three questions whose old answers and surrounding text are random. */
function randomContext(next: () => number): string {
  const eol = next() < 0.3 ? '\r\n' : '\n';
  const noise = () => (next() < 0.5 ? randomText(next, 6).replace(/^[#`~ ]+/, '') : '');
  return [
    '---', 'skill: code-review', '---', '# Checkpoint: code-review', '', '## Progress Summary', 'Some progress.', '', '## Questions', '',
    '### Q1: Which branch?', noise(), `Answer: ${randomText(next, 8)}`, '',
    '### Q2: Anything to skip?', 'Type: text', `Answer:${randomText(next, 8)}`, noise(), '',
    '### Q3: Notes?', noise(), '',
    '### Q4: Last?', 'Answer:', '',
  ].join(eol);
}

const shape = (p: ParsedContext) => p.questions.map((q) => ({ id: q.id, text: q.text, type: q.type, options: q.options, allowOther: q.allowOther }));

test('round trip: any answer written reads back as exactly the same text (randomized, fixed seed)', () => {
  const next = rng(0x5eed);
  let tried = 0;
  for (let i = 0; i < 3000; i++) {
    const file = randomContext(next);
    const parsed = parseContextFile(file);
    if (!parsed.valid) continue;
    const target = parsed.questions[Math.floor(next() * parsed.questions.length)];
    const value = randomText(next, 12);
    if (!value.trim()) continue;
    tried++;
    const written = applyAnswers(file, parsed, { [target.id]: value });
    const again = parseContextFile(written);
    const q = again.questions.find((x) => x.id === target.id);
    assert.equal(q?.answer, normaliseAnswer(value), `${JSON.stringify(value)} in ${JSON.stringify(file)}`);
    for (const other of parsed.questions) {
      if (other.id !== target.id) assert.equal(again.questions.find((x) => x.id === other.id)?.answer, other.answer, `${other.id} changed: ${JSON.stringify(file)}`);
    }
  }
  assert.ok(tried > 1000, `only ${tried} inputs tried`);
});

test('answering never changes the set of questions (randomized, fixed seed)', () => {
  const next = rng(0xc0ffee);
  for (let i = 0; i < 3000; i++) {
    const file = randomContext(next);
    const parsed = parseContextFile(file);
    const values: Record<string, string> = {};
    for (const q of parsed.questions) if (next() < 0.7) values[q.id] = randomText(next, 10) || 'x';
    const again = parseContextFile(applyAnswers(file, parsed, values));
    assert.deepEqual(shape(again), shape(parsed), JSON.stringify({ file, values }));
  }
});

// Regressions: each of these valid answers used to be refused after writing (it read back differently).
test('answers with trailing blanks on an inner line, \\## / \\--- lines and <!-- read back exactly', () => {
  const file = '---\nskill: s\n---\n### Q1: a\nAnswer:\n\n### Q2: b\nAnswer:\n';
  const parsed = parseContextFile(file);
  for (const value of ['first  \nsecond', 'a\n\\## not a heading', 'a\n\\---', 'a\n\\\\---', 'see <!-- this --> too', '<!--', 'a <\\!-- b', 'x\n## heading\n```\n---\nType: y', 'a\n\t\nb']) {
    const written = applyAnswers(file, parsed, { Q1: value });
    const again = parseContextFile(written);
    assert.deepEqual(again.questions.map((q) => q.answer), [value, ''], JSON.stringify(written));
  }
  // The stored form stays readable: one backslash more where a line would end the answer, `<\!--` for `<!--`.
  assert.equal(applyAnswers(file, parsed, { Q1: 'a\n\\## b\n## c\n<!-- d' }), '---\nskill: s\n---\n### Q1: a\nAnswer: a\n\\\\## b\n\\## c\n<\\!-- d\n\n### Q2: b\nAnswer:\n');
  // Hand-written comments are still placeholders, not answers.
  assert.equal(parseContextFile('---\nskill: s\n---\n### Q1: a\nAnswer: <!-- your answer -->\n').questions[0].answer, '');
});

// Regression: an unclosed code fence inside an old answer hid every later question until the answer was replaced.
test('a code fence inside an answer, or one never closed, hides no question', () => {
  const file = '---\nskill: s\n---\n## Questions\n### Q1: a\nAnswer: here is code:\n```js\nlet x;\n\n### Q2: b\nAnswer:\n\n### Q3: c\nAnswer: ```\n```\n### Q4: d\nAnswer:\n';
  const parsed = parseContextFile(file);
  assert.deepEqual(parsed.questions.map((q) => [q.id, q.answer]), [['Q1', 'here is code:\n```js\nlet x;'], ['Q2', ''], ['Q3', '```\n```'], ['Q4', '']]);
  const written = applyAnswers(file, parsed, { Q1: 'main', Q2: 'yes' });
  assert.deepEqual(shape(parseContextFile(written)), shape(parsed));
  // A fence outside answers that is closed still hides what is inside it.
  const fenced = parseContextFile('---\nskill: s\n---\n## Questions\n```\n### Q7: example\n```\n### Q1: a\nAnswer:\n');
  assert.deepEqual(fenced.questions.map((q) => q.id), ['Q1']);
  // Never closed: text.
  const open = parseContextFile('---\nskill: s\n---\n## Questions\n### Q1: a\n```\n### Q2: b\nAnswer:\n');
  assert.deepEqual(open.questions.map((q) => q.id), ['Q1', 'Q2']);
});

test('context parsing is linear on long blank runs before U+2028 and unclosed fences', () => {
  const n = 200_000;
  const cases = [
    `---\nskill: s\n---\n### Q1${' '.repeat(n)}\u2028x\nAnswer:`,
    `---\nskill: s\n---\n### Q1: a\nOptions:\n-${' '.repeat(n)}\u2028\nAnswer:`,
    `---\nskill: s\n---\n### Q1: a\nOptions: a${' '.repeat(n)}b\nAnswer:`,
    `---\nskill: s\n---\n${'```\n'.repeat(n / 10)}### Q1: a\nAnswer:`,
    `---\nskill: s\n---\n### Q1: a\nAnswer: x\n${'```x\n~~~\n'.repeat(n / 20)}`,
    `---\nskill: s\n---\n### Q1: a\nAnswer: ${'<\\'.repeat(n / 4)}\n${'\\'.repeat(n)}`,
  ];
  for (const text of cases) {
    const started = performance.now();
    parseContextFile(text);
    const ms = performance.now() - started;
    assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 40))}`);
  }
});

test('a deep, huge or alias-heavy frontmatter is read as plain lines with a problem, and parsing it again never aborts the process', () => {
  // The YAML library's composer recursed once per level: past a few thousand levels the stack overflowed, and a later
  // parse could abort Node ("RegExpCompiler Allocation failed") instead of throwing.
  const cases: Array<[string, RegExp]> = [
    [`${'['.repeat(8000)}`, /nested more than 100 levels deep/],
    [`${'{a: '.repeat(2000)}x`, /nested more than 100 levels deep/],
    [`k:\n${'  - '.repeat(1)}${'- '.repeat(4000)}x`, /nested more than 100 levels deep/],
    [`skill: deep\nx: [${'a, '.repeat(2000)}a]`, /more than 5000 YAML tokens/],
    [`skill: deep\nx: &a 1\n${Array.from({ length: 30 }, (_, i) => `y${i}: *a`).join('\n')}`, /more than 20 aliases/],
  ];
  for (const [fm, message] of cases) {
    const text = `---\n${fm}\n---\n# Checkpoint: deep\n\n## Questions\n\n### Q1: Which?\nAnswer:\n`;
    for (let i = 0; i < 20; i++) {
      const parsed = parseContextFile(text);
      assert.equal(parsed.questions.length, 1);
      assert.ok(parsed.problems.some((p) => message.test(p.message)), `${fm.slice(0, 20)}: ${JSON.stringify(parsed.problems)}`);
    }
  }
  // Within the limits the YAML is read as before (nested 100 levels).
  const ok = parseContextFile(`---\nskill: deep\nx: ${'['.repeat(99)}${']'.repeat(99)}\n---\n# Checkpoint: deep\n`);
  assert.equal(ok.skill, 'deep');
  assert.deepEqual(ok.problems.filter((p) => /frontmatter/i.test(p.message)), []);
});
