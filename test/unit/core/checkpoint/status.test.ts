import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findContextPathLinks, parseStatusBlock } from '../../../../src/core/checkpoint/status';

test('SUCCESS with OUTPUT key/values (the checkpoint protocol example)', () => {
  const block = parseStatusBlock('STATUS: SUCCESS\nOUTPUT:\n  RESULT: CHANGES_REQUIRED\n  REVIEW_PATH: .agent/tmp/review.md\n');
  assert.deepEqual(block, {
    status: 'SUCCESS',
    outputs: [{ key: 'RESULT', value: 'CHANGES_REQUIRED' }, { key: 'REVIEW_PATH', value: '.agent/tmp/review.md' }],
    line: 1,
  });
});

test('SUCCESS without OUTPUT', () => {
  assert.deepEqual(parseStatusBlock('STATUS: SUCCESS'), { status: 'SUCCESS', outputs: [], line: 1 });
});

test('AWAIT with CONTEXT_PATH inside a code fence and surrounding prose, CRLF', () => {
  const text = 'The skill paused.\r\n\r\n```\r\nSTATUS: AWAIT\r\nCONTEXT_PATH: .agent/tmp/xxx-context.md\r\n```\r\nAnswer it please.';
  assert.deepEqual(parseStatusBlock(text), { status: 'AWAIT', contextPath: '.agent/tmp/xxx-context.md', line: 4 });
});

test('AWAIT tolerates bold keys, quotes, backticks and `=`', () => {
  assert.deepEqual(parseStatusBlock('**STATUS:** AWAIT\n**CONTEXT_PATH:** `.agent/tmp/a b-context.md`'), { status: 'AWAIT', contextPath: '.agent/tmp/a b-context.md', line: 1 });
  assert.deepEqual(parseStatusBlock('> STATUS: AWAIT\n> CONTEXT_PATH=".agent/tmp/q.md"'), { status: 'AWAIT', contextPath: '.agent/tmp/q.md', line: 1 });
  assert.deepEqual(parseStatusBlock('⏺ STATUS: AWAIT\n  ⎿ CONTEXT_PATH: .agent/tmp/c.md'), { status: 'AWAIT', contextPath: '.agent/tmp/c.md', line: 1 });
});

test('AWAIT without CONTEXT_PATH has no path', () => {
  assert.deepEqual(parseStatusBlock('STATUS: AWAIT\n\nnothing else'), { status: 'AWAIT', line: 1 });
});

test('ERROR keeps the whole message, colons included', () => {
  assert.deepEqual(parseStatusBlock('STATUS: ERROR\nOUTPUT: Linear API 호출 실패: 401 Unauthorized'), { status: 'ERROR', message: 'Linear API 호출 실패: 401 Unauthorized', line: 1 });
  assert.deepEqual(parseStatusBlock('STATUS: ERROR\nOUTPUT:\n  first line\n  second line\nafter'), { status: 'ERROR', message: 'first line\nsecond line', line: 1 });
  assert.deepEqual(parseStatusBlock('STATUS: ERROR'), { status: 'ERROR', message: '', line: 1 });
});

test('the last block wins when a log holds several', () => {
  const text = 'STATUS: AWAIT\nCONTEXT_PATH: old.md\n...\nSTATUS: ERROR\nOUTPUT: Context file not found\n';
  assert.deepEqual(parseStatusBlock(text), { status: 'ERROR', message: 'Context file not found', line: 4 });
});

test('inline OUTPUT {KEY: v, ...} is split into outputs', () => {
  assert.deepEqual(parseStatusBlock('STATUS: SUCCESS\nOUTPUT: {DRAFT_PATH: a.md, RESULT: PASS}'), {
    status: 'SUCCESS', outputs: [{ key: 'DRAFT_PATH', value: 'a.md' }, { key: 'RESULT', value: 'PASS' }], line: 1,
  });
  assert.deepEqual(parseStatusBlock('STATUS: SUCCESS\nOUTPUT: all good'), { status: 'SUCCESS', outputs: [], outputText: 'all good', line: 1 });
});

test('OUTPUT lines stop at the first line that is not indented', () => {
  const block = parseStatusBlock('STATUS: SUCCESS\nOUTPUT:\n  A_PATH: x.md\nDone. NOT_OUTPUT: y\n');
  assert.deepEqual(block, { status: 'SUCCESS', outputs: [{ key: 'A_PATH', value: 'x.md' }], line: 1 });
});

test('no STATUS block and hostile input return undefined without throwing', () => {
  for (const h of ['', 'hello', 'STATUS: MAYBE', 'STATUSES: SUCCESS', undefined, null, 7, 'STATUS: AWAIT\n'.repeat(10000), '\u0000'.repeat(1000)]) {
    const r = parseStatusBlock(h as string);
    if (h === 'STATUS: AWAIT\n'.repeat(10000)) assert.equal(r?.status, 'AWAIT');
    else assert.equal(r, undefined, String(h).slice(0, 20));
  }
});

test('findContextPathLinks finds the path after CONTEXT_PATH: / = with exact positions', () => {
  const line = 'STATUS: AWAIT CONTEXT_PATH: .agent/tmp/x-context.md';
  const links = findContextPathLinks(line);
  assert.deepEqual(links, [{ startIndex: 28, length: 23, contextPath: '.agent/tmp/x-context.md' }]);
  assert.equal(line.substr(links[0].startIndex, links[0].length), '.agent/tmp/x-context.md');
  const echoed = '$ echo "CONTEXT_PATH: .agent/tmp/x-context.md"';
  const [e] = findContextPathLinks(echoed);
  assert.equal(e.contextPath, '.agent/tmp/x-context.md');
  assert.equal(echoed.substr(e.startIndex, e.length), '.agent/tmp/x-context.md');
  assert.deepEqual(findContextPathLinks("CONTEXT_PATH='a b.md' and CONTEXT_PATH=c.md."), [
    { startIndex: 13, length: 8, contextPath: 'a b.md' },
    { startIndex: 39, length: 4, contextPath: 'c.md' },
  ]);
  assert.deepEqual(findContextPathLinks('CONTEXT_PATH:'), []);
  assert.deepEqual(findContextPathLinks('no path here'), []);
  assert.deepEqual(findContextPathLinks(undefined as unknown as string), []);
});

/** Milliseconds `fn` takes (best of two, to ride out a busy machine). */
function timed(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 2; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

// Regression: `STATUS:` followed by 200,000 blanks took ~20 s (two neighbouring blank quantifiers backtracked).
test('STATUS parsing is linear: long blank runs, U+2028 tails, many CONTEXT_PATH links', () => {
  const n = 200_000;
  const cases = [
    `STATUS:${' '.repeat(n)}`,
    `STATUS: ${'\t '.repeat(n / 2)}x`,
    `STATUS: AWAIT\nCONTEXT_PATH:${' '.repeat(n)}\u2028x`,
    `STATUS: SUCCESS\nOUTPUT:\n  KEY:${' '.repeat(n)}\u2028`,
    `STATUS: SUCCESS\nOUTPUT: {A:${' '.repeat(n)}\u2028}`,
    `> - **${' '.repeat(n)}STATUS`,
    `${'STATUS: \n'.repeat(n / 10)}`,
  ];
  for (const text of cases) {
    const ms = timed(() => parseStatusBlock(text));
    assert.ok(ms < 500, `${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 30))}`);
  }
  const lines = [
    `CONTEXT_PATH:"${' a'.repeat(n / 2)}`.repeat(1),
    'CONTEXT_PATH:"a '.repeat(n / 16),
    `CONTEXT_PATH:${'.'.repeat(n)}a`,
    'CONTEXT_PATH: x '.repeat(n / 16),
  ];
  for (const line of lines) {
    const ms = timed(() => findContextPathLinks(line));
    assert.ok(ms < 500, `${ms.toFixed(0)} ms on ${JSON.stringify(line.slice(0, 30))}`);
  }
  // The minimal input of the class still parses as before.
  assert.deepEqual(parseStatusBlock(`STATUS:${' '.repeat(n)}AWAIT\nCONTEXT_PATH: a.md`), { status: 'AWAIT', contextPath: 'a.md', line: 1 });
  assert.deepEqual(findContextPathLinks('CONTEXT_PATH:"a b" and CONTEXT_PATH: (c.md).'), [
    { startIndex: 13, length: 5, contextPath: 'a b' }, { startIndex: 38, length: 4, contextPath: 'c.md' },
  ]);
});
