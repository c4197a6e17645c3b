import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RULES } from '../../../../src/core/base/rules';

test('docs/rules.md has an anchored section for every rule code (diagnostic code links land there)', () => {
  const doc = readFileSync('docs/rules.md', 'utf8');
  const missing = Object.keys(RULES).filter((code) => !doc.includes(`<a id="${code}"></a>\n\n## ${code}\n`));
  assert.deepEqual(missing, []);
  const documented = [...doc.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(documented.filter((c) => !(c in RULES)), [], 'sections for codes that no longer exist');
});

test('docs/rules.md has no raw HTML tag outside code but its anchors (the rules page renders it with HTML on: a bare <code> opened an element that swallowed the page end)', () => {
  const doc = readFileSync('docs/rules.md', 'utf8');
  // Fenced blocks, then code spans (any backtick run), then HTML comments: what is left is prose.
  const prose = doc.replace(/^```[\s\S]*?^```/gm, '').replace(/(`+)[\s\S]*?\1/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const tags = [...prose.matchAll(/<\/?[A-Za-z][\w-]*(\s[^>]*)?>/g)].map((m) => m[0]).filter((tag) => !/^<a id="[\w-]+">$|^<\/a>$/.test(tag));
  assert.deepEqual(tags, []);
});
