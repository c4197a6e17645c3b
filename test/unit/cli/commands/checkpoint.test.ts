import { test, beforeEach, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';

const FIXTURES = join(process.cwd(), 'test/fixtures/checkpoint');
const review = readFileSync(join(FIXTURES, 'review-context.md'), 'utf8');
const lenient = readFileSync(join(FIXTURES, 'lenient-context.md'), 'utf8');
const base = mkdtempSync(join(tmpdir(), 'skillflow-cli-cp-'));
let ws: string;
let n = 0;

beforeEach(() => {
  ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, '.agent/tmp'), { recursive: true });
  writeFileSync(join(ws, '.agent/tmp/review-context.md'), review);
  writeFileSync(join(ws, '.agent/tmp/notes-context.md'), lenient);
});
after(() => rmSync(base, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main({ argv: ['checkpoint', ...argv], cwd: ws, fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}
const file = (name: string) => readFileSync(join(ws, '.agent/tmp', name), 'utf8');

test('load prints the invocation and the question counts', async () => {
  const r = await run('load', 'CONTEXT_PATH=.agent/tmp/review-context.md');
  assert.equal(r.code, 0);
  assert.equal(r.out, [
    'STATUS: SUCCESS',
    'OUTPUT:',
    '  SKILL: code-review',
    '  ARGS: PR=123',
    '  STATUS: AWAIT',
    '  CREATED: 2026-11-21T14:30:00Z',
    '  CONTEXT_PATH: .agent/tmp/review-context.md',
    '  QUESTIONS: 2',
    '  ANSWERED: 1',
    '  UNANSWERED: Q1',
    '',
  ].join('\n'));
  assert.equal(r.err, '');
});

test('update lists unanswered questions with the checkpoint protocol message and exits 1', async () => {
  const r = await run('update', 'CONTEXT_PATH=.agent/tmp/notes-context.md');
  assert.equal(r.code, 1);
  assert.equal(r.out, 'STATUS: ERROR\nOUTPUT: Context file has unanswered questions: Q1, Q3, Q5\n');
});

test('answer then update: the file changes only in its Answer fields, update prints the resume invocation', async () => {
  const a = await run('answer', 'CONTEXT_PATH=.agent/tmp/review-context.md', 'Q1=develop');
  assert.equal(a.code, 0, a.out + a.err);
  assert.equal(a.out, 'STATUS: SUCCESS\nOUTPUT:\n  CONTEXT_PATH: .agent/tmp/review-context.md\n  ANSWERED: Q1\n');
  assert.equal(file('review-context.md'), review.replace('- develop\nAnswer:\n', '- develop\nAnswer: develop\n'));
  const u = await run('update', 'CONTEXT_PATH=.agent/tmp/review-context.md');
  assert.equal(u.code, 0);
  assert.equal(u.out, 'STATUS: SUCCESS\nOUTPUT:\n  SKILL: code-review\n  ARGS: resume CONTEXT_PATH=.agent/tmp/review-context.md\n  RESUME: /code-review resume CONTEXT_PATH=.agent/tmp/review-context.md\n');
  assert.deepEqual(readdirSync(join(ws, '.agent/tmp')).sort(), ['notes-context.md', 'review-context.md'], 'no temp files left behind');
});

test('answer checks options and leaves the file untouched on any error', async () => {
  const before = file('notes-context.md');
  const bad = await run('answer', 'CONTEXT_PATH=.agent/tmp/notes-context.md', 'Q3=yes', 'Q2=shouty');
  assert.equal(bad.code, 1);
  assert.equal(bad.out, 'STATUS: ERROR\nOUTPUT: The answer to Q2 must be one of: formal, casual (got "shouty")\n');
  const unknown = await run('answer', 'CONTEXT_PATH=.agent/tmp/notes-context.md', 'Q9=x');
  assert.equal(unknown.out, 'STATUS: ERROR\nOUTPUT: Unknown question: Q9 (the file has Q1, Q2, Q3, Q4, Q5)\n');
  const confirm = await run('answer', 'CONTEXT_PATH=.agent/tmp/notes-context.md', 'Q1=Fixes', 'Q3=perhaps');
  assert.equal(confirm.out, 'STATUS: ERROR\nOUTPUT: The answer to Q3 must be yes or no (got "perhaps")\n');
  const empty = await run('answer', 'CONTEXT_PATH=.agent/tmp/notes-context.md', 'Q5=');
  assert.equal(empty.out, 'STATUS: ERROR\nOUTPUT: The answer to Q5 is empty\n');
  assert.equal(file('notes-context.md'), before);
});

test('answer with Allow-Other, confirm normalising, hostile text, then update succeeds', async () => {
  const hostile = "it's \"fine\"; $(touch x) `y`";
  const r = await run('answer', 'CONTEXT_PATH=.agent/tmp/notes-context.md', 'Q1=fixes, Docs', 'Q3=Y', `Q5=${hostile}`);
  assert.equal(r.code, 0, r.out);
  assert.equal(r.out, 'STATUS: SUCCESS\nOUTPUT:\n  CONTEXT_PATH: .agent/tmp/notes-context.md\n  ANSWERED: Q1, Q3, Q5\n');
  assert.equal(file('notes-context.md'), lenient
    .replace('**Answer:**\n', '**Answer:** Fixes, Docs\n')
    .replace('Answer:\n  <!-- yes or no -->\n', 'Answer: yes\n')
    .replace('Type: text\n', `Type: text\nAnswer: ${hostile}\n`));
  const u = await run('update', 'CONTEXT_PATH=.agent/tmp/notes-context.md');
  assert.equal(u.code, 0);
  assert.match(u.out, /RESUME: \/release-notes resume CONTEXT_PATH=\.agent\/tmp\/notes-context\.md/);
});

test('CRLF files are answered byte-exactly', async () => {
  const crlf = review.replace(/\n/g, '\r\n');
  writeFileSync(join(ws, '.agent/tmp/crlf-context.md'), crlf);
  const r = await run('answer', 'CONTEXT_PATH=.agent/tmp/crlf-context.md', 'Q1=main', 'Q2=line one\nline two');
  assert.equal(r.code, 0, r.out);
  assert.equal(file('crlf-context.md'), crlf.replace('- develop\r\nAnswer:\r\n', '- develop\r\nAnswer: main\r\n').replace('Answer: vendor/ and generated files', 'Answer: line one\r\nline two'));
});

test('protocol errors: not found, invalid format', async () => {
  const nf = await run('load', 'CONTEXT_PATH=.agent/tmp/missing-context.md');
  assert.deepEqual([nf.code, nf.out], [1, 'STATUS: ERROR\nOUTPUT: Context file not found\n']);
  writeFileSync(join(ws, '.agent/tmp/bad-context.md'), 'no questions here\n');
  for (const sub of ['load', 'update']) {
    const bad = await run(sub, 'CONTEXT_PATH=.agent/tmp/bad-context.md');
    assert.deepEqual([bad.code, bad.out], [1, 'STATUS: ERROR\nOUTPUT: Invalid context format\n']);
  }
  const badAnswer = await run('answer', 'CONTEXT_PATH=.agent/tmp/bad-context.md', 'Q1=x');
  assert.deepEqual([badAnswer.code, badAnswer.out], [1, 'STATUS: ERROR\nOUTPUT: Invalid context format\n']);
  assert.equal(file('bad-context.md'), 'no questions here\n');
});

test('paths leaving the workspace are refused with STATUS: ERROR', async () => {
  writeFileSync(join(base, 'outside-context.md'), review);
  symlinkSync(join(base, 'outside-context.md'), join(ws, '.agent/tmp/out-context.md'));
  for (const p of ['../outside-context.md', join(base, 'outside-context.md'), '.agent/tmp/out-context.md']) {
    for (const argv of [['load', `CONTEXT_PATH=${p}`], ['answer', `CONTEXT_PATH=${p}`, 'Q1=main']]) {
      const r = await run(...argv);
      assert.deepEqual([r.code, r.out], [1, 'STATUS: ERROR\nOUTPUT: CONTEXT_PATH is outside the workspace folder\n'], p);
    }
  }
  assert.equal(readFileSync(join(base, 'outside-context.md'), 'utf8'), review);
});

test('bad usage exits 2 with a message on stderr', async () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /missing subcommand/],
    [['frob'], /unknown subcommand 'frob'/],
    [['load'], /missing CONTEXT_PATH/],
    [['load', 'x.md'], /expected CONTEXT_PATH=<path>, got 'x.md'/],
    [['answer', 'CONTEXT_PATH=a.md'], /missing <Qid>=<answer>/],
    [['answer', 'CONTEXT_PATH=a.md', 'Q1=a', 'q1=b'], /Q1 given more than once/],
    [['load', 'CONTEXT_PATH=a', 'CONTEXT_PATH=b'], /CONTEXT_PATH given more than once/],
    [['load', '--format', 'json'], /unknown option '--format'/],
  ];
  for (const [argv, re] of cases) {
    const r = await run(...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, re);
  }
  const help = await run('--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /checkpoint answer CONTEXT_PATH=<path> <Qid>=<answer>/);
});

// Regression: a newline in CONTEXT_PATH was printed as a space (the protocol line stayed one line, but the path
// shown was not the path given). The CLI and the extension now refuse it with the same core message.
test('a control character in CONTEXT_PATH is refused, not printed as a space', async () => {
  const name = 'a\nb-context.md';
  writeFileSync(join(ws, '.agent/tmp', name), review);
  for (const sub of ['load', 'update']) {
    const r = await run(sub, `CONTEXT_PATH=.agent/tmp/${name}`);
    assert.deepEqual([r.code, r.out], [1, 'STATUS: ERROR\nOUTPUT: CONTEXT_PATH contains the control character U+000A (line feed); rename the file\n'], sub);
  }
  const answered = await run('answer', `CONTEXT_PATH=.agent/tmp/${name}`, 'Q1=main');
  assert.equal(answered.code, 1);
  assert.equal(file(name), review);
  const ctrlU = await run('update', 'CONTEXT_PATH=.agent/tmp/x\u0015touch PWNED #-context.md');
  assert.equal(ctrlU.out, 'STATUS: ERROR\nOUTPUT: CONTEXT_PATH contains the control character U+0015 (Ctrl-U); rename the file\n');
});
