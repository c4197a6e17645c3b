// extractReferencesFrom (the body's lines read from the file's own line index) must find exactly what
// extractReferences finds on the body alone, with the same file line numbers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { mdFiles } from '../../helpers/validation';
import { parseSkillMdDetailed } from '../../../../src/core/skillmd/frontmatter';
import { extractReferences, extractReferencesFrom } from '../../../../src/core/references/markdown';
import { LineIndex, Utf8LineIndex } from '../../../../src/core/base/text';

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
    assert.equal(n > 0, b !== bodies[4], b); // an unclosed fence holds no reference
    same(b); // no frontmatter: the body is the whole file
  }
  const refs = extractReferencesFrom(parseSkillMdDetailed(`---\nname: x\n---\n${bodies[0]}`).lines, 3, 4);
  assert.deepEqual(refs.map((r) => `${r.kind}:${r.target}@${r.range.line}:${r.range.column}`), ['link:references/a.md@4:9', 'path:scripts/y.py@9:6']);
});

// The scanner reads a Utf8LineIndex's bytes in place (only the lines that may hold a reference are decoded): both
// index kinds must find the same references, with UTF-16 columns.

/** The references of `text` (from its first line, file line 1) through both index kinds, which must agree. */
function both(text: string): string[] {
  const fromText = extractReferencesFrom(new LineIndex(text), 0, 1);
  const fromBytes = extractReferencesFrom(new Utf8LineIndex(Buffer.from(text, 'utf8')), 0, 1);
  assert.deepEqual(fromBytes, fromText, JSON.stringify(text));
  return fromText.map((r) => `${r.kind}:${r.target}@${r.range.line}:${r.range.column}-${r.range.endColumn}`);
}

test('fences read on bytes: up to 3 spaces, no backtick after a backtick fence, any info string', () => {
  assert.deepEqual(both('   ```\nscripts/in.py\n   ```\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  assert.deepEqual(both('    ```\nscripts/a.py\n'), ['path:scripts/a.py@2:1-13']); // indented code, not a fence
  assert.deepEqual(both('``` x ` y\nscripts/a.py\n'), ['path:scripts/a.py@2:1-13']); // inline code, not a fence
  assert.deepEqual(both('~~~ `x`\nscripts/in.py\n~~~\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  assert.deepEqual(both('```é 😀\nscripts/in.py\n```\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
});

test('closing fences: same kind, at least as long, blanks only after; indented by ASCII blanks (as in list items)', () => {
  assert.deepEqual(both('```\nscripts/in.py\n   ```\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  assert.deepEqual(both('~~~\nscripts/in.py\n~~~~ \t\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  assert.deepEqual(both('```\nscripts/in.py\n\t\t```\t\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  assert.deepEqual(both('```\nscripts/in.py\n``````\nscripts/out.py'), ['path:scripts/out.py@4:1-15']);
  // Not closing: other text first (non-ASCII blanks are text in CommonMark), too short, the other kind.
  assert.deepEqual(both('```\n├── scripts/in.py ```\n│ ```\nscripts/still-in.py\n```\nscripts/out.py'), ['path:scripts/out.py@6:1-15']);
  assert.deepEqual(both('```\nscripts/in.py\n\u00a0```\nscripts/still-in.py\n```\nscripts/out.py'), ['path:scripts/out.py@6:1-15']);
  assert.deepEqual(both('````\n```\nscripts/in.py\n````\nscripts/out.py'), ['path:scripts/out.py@5:1-15']);
  assert.deepEqual(both('```\n~~~\nscripts/in.py\n```\nscripts/out.py'), ['path:scripts/out.py@5:1-15']);
});

test('links: none in fences, `]:` definitions outside; a `]` alone is no link', () => {
  assert.deepEqual(both('```\n[a]: references/in.md\n[b](references/in-link.md) x[c](references/call.md)\n```\n[d]: references/out.md'), [
    'link:references/out.md@5:6-23',
  ]);
  assert.deepEqual(both('[x] done: scripts/a.py and [y] scripts/b.py\n] scripts/c.py ]'), [
    'path:scripts/a.py@1:11-23', 'path:scripts/b.py@1:32-44', 'path:scripts/c.py@2:3-15',
  ]);
  assert.deepEqual(both('[d]: references/def.md scripts/not.py\n   [e]: <references/e f.md> "t"'), [
    'link:references/def.md@1:6-23', 'link:references/e f.md@2:10-27',
  ]);
});

test('URLs blank text: a run a URL starts in or runs over is cut or gone', () => {
  assert.deepEqual(both('lib/x.md:http://a.io/b and see\nwww.a.b,scripts/x.py\nsee http://x.io then scripts/run.py\nat https://x.io/scripts/a.py, scripts/b.py'), [
    'path:lib/x.md@1:1-9', 'path:scripts/run.py@3:22-36', 'path:scripts/b.py@4:31-43',
  ]);
  assert.deepEqual(both('scripts/a.py:https://x.io/y scripts/b.py\nreferences/c.mdwww.x.io/d.md'), [
    'path:scripts/a.py@1:1-13', 'path:scripts/b.py@1:29-41', 'path:references/c.mdwww.x.io/d.md@2:1-29',
  ]);
});

test('columns are UTF-16 columns of the decoded line, after non-ASCII text', () => {
  assert.deepEqual(both('é 😀 → scripts/x.py and ✅ references/y.md\n😀😀 [l](references/é.md) assets/z.png'), [
    'path:scripts/x.py@1:8-20', 'path:references/y.md@1:27-42', 'link:references/é.md@2:10-25', 'path:assets/z.png@2:27-39',
  ]);
});

test('candidates of a line are in column order, paths and links mixed', () => {
  assert.deepEqual(both('scripts/a.py then [x](references/b.md) then assets/c.png'), [
    'path:scripts/a.py@1:1-13', 'link:references/b.md@1:23-38', 'path:assets/c.png@1:45-57',
  ]);
  assert.deepEqual(both('[x](references/b.md) then scripts/a.py'), ['link:references/b.md@1:5-20', 'path:scripts/a.py@1:27-39']);
});

test('bare path runs: leading colons, the character before, domains, extensions, segments', () => {
  assert.deepEqual(both(':scripts/x.py ::./y.md a:scripts/z.py ,scripts/w.py'), ['path:scripts/x.py@1:2-14', 'path:./y.md@1:17-23', 'path:scripts/w.py@1:40-52']);
  assert.deepEqual(both('$scripts/a.py {base}/scripts/b.py \\scripts/c.py /scripts/d.py (scripts/e.py) "scripts/f.py"'), ['path:scripts/e.py@1:64-76', 'path:scripts/f.py@1:79-91']);
  assert.deepEqual(both('example.com/a.md ex.IO/b.md x.info/c.md x.sh/d.md x.shx/e.md docs.md/f.md'), ['path:x.shx/e.md@1:51-61', 'path:docs.md/f.md@1:62-74']);
  assert.deepEqual(both('a/b.ABCDEFGH a/b.ABCDEFGHI a/b.1x a/b.c.md a/b. a/b.x1 a/b.md.'), ['path:a/b.ABCDEFGH@1:1-13', 'path:a/b.c.md@1:35-43', 'path:a/b.x1@1:49-55', 'path:a/b.md@1:56-62']);
  assert.deepEqual(both('./x.md ../x/y.md ../.. ./scripts ./.hidden/x.md .github/x.md ../../a/b.py ./a/../b.md'), ['path:./x.md@1:1-7', 'path:../x/y.md@1:8-17', 'path:../../a/b.py@1:62-74']);
  assert.deepEqual(both('scripts//x.py scripts/ /scripts/x.py scripts/x.py/'), []);
  assert.deepEqual(both('scripts/a+b.py scripts/-x.py scripts/_x.py scripts/a@b.py scripts/a~b.py scripts/a%20b.py r/a-b_c.md'), ['path:scripts/a+b.py@1:1-15', 'path:scripts/_x.py@1:30-43', 'path:r/a-b_c.md@1:91-101']);
  assert.deepEqual(both('scripts/a.py\r\n```\r\nscripts/in.py\r\n```\rscripts/b.py\r[l](references/l.md)'), ['path:scripts/a.py@1:1-13', 'path:scripts/b.py@5:1-13', 'link:references/l.md@6:5-20']);
});

test('lines over 20000 UTF-16 units are not scanned (however many bytes they have)', () => {
  // 7000 × € is 21000 bytes but 7000 units: scanned. 10001 × 😀 is 20002 units, and 19988 + 13 is 20001: not scanned.
  assert.deepEqual(both(`${'€'.repeat(7000)} scripts/x.py\nok scripts/y.py`), ['path:scripts/x.py@1:7002-7014', 'path:scripts/y.py@2:4-16']);
  assert.deepEqual(both(`${'😀'.repeat(10001)} scripts/x.py [a](references/a.md)\nok scripts/y.py`), ['path:scripts/y.py@2:4-16']);
  assert.deepEqual(both(`${'a'.repeat(19986)} scripts/x.py\n${'a'.repeat(19988)} scripts/x.py`), ['path:scripts/x.py@1:19988-20000']);
});

test('property: random lines of tricky pieces give the same references through both index kinds', () => {
  let seed = 0x5eed;
  const random = (): number => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(random() * a.length)];
  const pieces = [
    '/', '/', '//', './', '../', '](', ']:', '[', ']', '(', ')', '<', '>', '`', '```', '~~~', 'http://', 'https://x.io/',
    'www.', ':', '::', ',', '.', '$', '{', '}', '\\', '~', '@', '%', '#', '?', '+', '-', '"', "'", ' ', ' ', '  ', '\t',
    'é', '😀', '→', '\u00a0', '\u2003', '\u3000', '\ufeff', '├──', 'scripts', 'references', 'assets', 'docs', 'a', 'x.md',
    'run.py', '.md', '.ABCDEFGHI', '.1x', '.github', 'example.com', 'x.sh', '\r', '\r\n', '\n',
  ];
  const fences = ['```', '~~~', '````', '~~~~', '```js', '``` x `', '~~~ `', '\u00a0```', '\u3000~~~', '\t```', '``` '];
  let found = 0;
  let lines: string[] = [];
  for (let n = 0; n < 20000; n++) {
    let line = '';
    if (random() < 0.12) line = ' '.repeat(Math.floor(random() * 5)) + pick(fences) + (random() < 0.3 ? pick(pieces) : '');
    else for (let k = Math.floor(random() * 25); k > 0; k--) line += pick(pieces);
    if (random() < 0.1) line = `[d${pick(pieces)}]: ${line}`;
    lines.push(line);
    if (lines.length > random() * 30) {
      found += both(lines.join(pick(['\n', '\r\n', '\r']))).length;
      lines = [];
    }
  }
  assert.ok(found > 300, `only ${found} references found`); // (fewer since fenced code holds none)
});
