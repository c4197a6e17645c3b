import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mdCode, mdText } from '../../../../src/core/base/markdown';

const HOSTILE = ['![](https://t.example/p.gif)', '[click](https://evil.example)', 'https://evil.example/x', '<img src=x>', '$(zap) **bold** _x_', 'a`b``c', '<https://a.b>', 'x\n\n# heading', 'a\\![x](y)'];

/** The characters of `md` that Markdown would read as syntax: those not preceded by an escaping backslash. */
function unescaped(md: string): string {
  let out = '';
  for (let i = 0; i < md.length; i++) {
    if (md[i] === '\\') { i++; continue; }
    out += md[i];
  }
  return out;
}

test('mdText: no link, image, HTML, emphasis, heading or codicon survives', () => {
  for (const v of HOSTILE) {
    const plain = unescaped(mdText(v));
    assert.doesNotMatch(plain, /[[\]()!<>*_`$#\n]/, `${JSON.stringify(v)} → ${mdText(v)}`);
  }
});

test('mdCode: one code span whose fence is longer than any backtick run inside', () => {
  for (const v of HOSTILE) {
    const code = mdCode(v);
    const fence = /^`+/.exec(code)![0];
    assert.ok(code.endsWith(fence));
    const inner = code.slice(fence.length, code.length - fence.length);
    for (const run of inner.match(/`+/g) ?? []) assert.notEqual(run.length, fence.length);
    assert.doesNotMatch(code, /\n/);
  }
});
