// extractReferencesFrom (the body's lines read from the file's own line index) must find exactly what
// extractReferences finds on the body alone, with the same file line numbers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { mdFiles } from './helpers';
import { parseSkillMdDetailed } from '../../../src/core/skills/frontmatter';
import { extractReferences, extractReferencesFrom } from '../../../src/core/skills/references';

function same(text: string): number {
  const d = parseSkillMdDetailed(text);
  const { body, bodyStartLine } = d.parsed;
  const alone = extractReferences(body, bodyStartLine);
  if (body === '') return 0;
  assert.equal(d.lines.text.length - d.lines.starts[bodyStartLine - 1], body.length);
  assert.deepEqual(extractReferencesFrom(d.lines, bodyStartLine - 1, bodyStartLine), alone, JSON.stringify(text.slice(0, 80)));
  return alone.length;
}

test('extractReferencesFrom matches extractReferences on every fixture, with LF, CRLF and lone CR', () => {
  let found = 0;
  for (const f of mdFiles(nodePath.resolve('test/fixtures'))) {
    const text = nodeFs.readFileSync(f, 'utf8');
    found += same(text);
    same(text.replace(/\n/g, '\r\n'));
    same(text.replace(/\n/g, '\r'));
  }
  assert.ok(found > 200, `only ${found} references found in the fixtures`);
});

test('extractReferencesFrom: fences, links in fences, bracket-only and slash-only lines', () => {
  const bodies = [
    'See [a](references/a.md).\n```\nrun scripts/x.py\n[b](references/b.md)\n```\nthen scripts/y.py\n',
    '~~~~\nscripts/in.py\n~~~\nstill in\n~~~~~\nscripts/out.py\n',
    '   ```js\nx/y.js\n   ```\n``` inline ``` scripts/z.py\n[def]: references/def.md\n',
    'no refs here\n] only bracket\n/ only slash\nends with scripts/last.py',
    '```\nunclosed fence with [l](references/l.md) and scripts/p.py\n',
  ];
  for (const b of bodies) {
    const n = same(`---\nname: x\ndescription: y\n---\n${b}`);
    assert.ok(n > 0);
    same(b); // no frontmatter: the body is the whole file
  }
  const refs = extractReferencesFrom(parseSkillMdDetailed(`---\nname: x\n---\n${bodies[0]}`).lines, 3, 4);
  assert.deepEqual(refs.map((r) => `${r.kind}:${r.target}@${r.range.line}:${r.range.column}`), ['link:references/a.md@4:9', 'link:references/b.md@7:5', 'path:scripts/y.py@9:6']);
});
