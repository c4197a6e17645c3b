// validateSkillMdBytes reads the body of a SKILL.md as bytes (Utf8LineIndex) instead of decoding it: it must give
// exactly what validateSkillMd gives on the decoded text, for every file and every shape.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import type { Profile } from '../../../../src/core/base/types';
import { LineIndex, utf16Length, Utf8LineIndex } from '../../../../src/core/base/text';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { validateSkillMdBytes } from '../../../../src/core/validation/bytes';
import { mdFiles } from '../../helpers/validation';

/** Asserts the byte path and the text path agree on `bytes` (validated as `<skillDir>/SKILL.md`). */
function same(bytes: Buffer, skillDir: string, profile: Profile = 'claude-code'): void {
  const ctx = { profile, folderName: nodePath.basename(skillDir), skillDir, rootDir: nodePath.dirname(skillDir) };
  const text = bytes.toString('utf8');
  const viaText = validateSkillMd(text, ctx, nodeFileSystem);
  const viaBytes = validateSkillMdBytes(bytes, ctx, nodeFileSystem);
  assert.equal(viaBytes.textLength, text.length, `text length of ${skillDir}`);
  assert.deepStrictEqual(viaBytes.problems, viaText.problems, `problems differ for ${skillDir}`);
  assert.deepStrictEqual(viaBytes.references, viaText.references, `references differ for ${skillDir}`);
  assert.deepStrictEqual(viaBytes.parsed.keys, viaText.parsed.keys);
  assert.deepStrictEqual(viaBytes.parsed.data, viaText.parsed.data);
  assert.equal(viaBytes.parsed.body, viaText.parsed.body, 'the body decodes on demand to the same text');
  assert.equal(viaBytes.parsed.bodyStartLine, viaText.parsed.bodyStartLine);
}

test('bytes: every .md fixture gives the same result on both paths, in every profile', () => {
  const files = mdFiles(nodePath.resolve('test/fixtures'));
  assert.ok(files.length > 100, `only ${files.length} fixture files`);
  let nonAscii = 0;
  for (const f of files) {
    const bytes = nodeFs.readFileSync(f);
    if (bytes.some((b) => b >= 0x80)) nonAscii++;
    for (const profile of ['claude-code', 'spec', 'upload'] as const) same(bytes, nodePath.dirname(f), profile);
  }
  assert.ok(nonAscii >= 20, `only ${nonAscii} fixtures hold non-ASCII text: the byte path would not be exercised`);
});

/** A temporary skill folder with references/ref.md and references/Café.md. */
function skillDir(): string {
  const root = nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), 'skillflow-bytes-'));
  const dir = nodePath.join(root, 'my-skill');
  nodeFs.mkdirSync(nodePath.join(dir, 'references'), { recursive: true });
  nodeFs.writeFileSync(nodePath.join(dir, 'references', 'ref.md'), 'x');
  nodeFs.writeFileSync(nodePath.join(dir, 'references', 'Café.md'), 'x');
  return dir;
}

test('bytes: non-ASCII lines, links, fences, CRLF, BOM and long bodies agree with the text path', () => {
  const dir = skillDir();
  const head = '---\nname: my-skill\ndescription: Dés — “quoted” 😀 text\n---\n';
  const bodies = [
    '# Títle — 😀\n\nSee [réf](references/ref.md) and references/missing.md — then 😀 [x](references/nope.md).\n',
    'Café: [c](references/Café.md), [c2](references/caf%C3%A9.md), references/Café.md, references/café.md.\n',
    '```\n😀 references/in-fence.md [l](references/fenced-link.md)\n```\u00a0\nafter references/after.md\n',
    '~~~ é\nx references/a.md\n~~~\n😀 references/b.md\n',
    '- ünïcode/paths.md and ./rel/ä.md and ../other/ö.md\n',
    'x'.repeat(30) + '\u00a0/\u2003' + ' references/ref.md\n',
    `${'é line\n'.repeat(520)}`,
    `\n\n${'😀'.repeat(12000)} references/ref.md\n`,
    `${'ab😀 '.repeat(6000)}\n`,
    '',
    'no final newline references/ref.md 😀',
    '[def]: references/ref.md\n[déf]: references/missing-é.md\n',
  ];
  for (const body of bodies) {
    same(Buffer.from(head + body), dir);
    same(Buffer.from((head + body).replace(/\n/g, '\r\n')), dir);
    same(Buffer.from('\ufeff' + head + body), dir);
    same(Buffer.from(head.replace('😀', '') + body), dir);
  }
  // Shapes the byte path hands to the text path: unclosed frontmatter, no frontmatter, invalid UTF-8, a lone CR.
  same(Buffer.from('---\nname: é\n'), dir);
  same(Buffer.from('# No frontmatter — é\nreferences/ref.md\n'), dir);
  same(Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28, 0x0a, 0xff]), Buffer.from('references/ref.md\n')]), dir);
  same(Buffer.from(`${head}é\rreferences/missing.md\r`), dir);
  same(Buffer.from('---\nname: my-skill\ndescription: d é\n---'), dir);
  nodeFs.rmSync(nodePath.dirname(dir), { recursive: true, force: true });
});

test('bytes: the body-lines and body-tokens ranges count UTF-16 columns on non-ASCII lines', () => {
  const dir = skillDir();
  const bytes = Buffer.from(`---\nname: my-skill\ndescription: d\n---\n${'😀é—x\n'.repeat(600)}${'é'.repeat(21000)}\n`);
  const r = validateSkillMdBytes(bytes, { profile: 'claude-code', folderName: 'my-skill', skillDir: dir, rootDir: nodePath.dirname(dir) }, nodeFileSystem);
  const lines = r.problems.find((p) => p.code === 'body-lines');
  const tokens = r.problems.find((p) => p.code === 'body-tokens');
  assert.ok(lines && tokens, `expected body-lines and body-tokens, got ${r.problems.map((p) => p.code).join(', ')}`);
  // '😀é—x' is 5 UTF-16 units (the emoji is a surrogate pair) but 10 bytes: the range ends at column 6.
  assert.deepEqual([lines.line, lines.column, lines.endLine, lines.endColumn], [505, 1, 505, 6]);
  assert.deepEqual([tokens.line, tokens.column, tokens.endLine, tokens.endColumn], [5, 1, 5, 6]);
  assert.match(tokens.message, new RegExp(`about ${Math.ceil((600 * 6 + 21001) / 4)} tokens`));
  nodeFs.rmSync(nodePath.dirname(dir), { recursive: true, force: true });
});

test('utf16Length: equals the decoded length for any valid UTF-8, at any alignment', () => {
  const samples = ['', 'a', 'é', '—', '😀', 'a😀b', 'abc\u00a0def', `${'x'.repeat(7)}—${'😀'.repeat(5)}é`, 'plain ascii text only', '日本語のテキスト'];
  for (const s of samples) {
    for (let offset = 0; offset < 8; offset++) {
      const padded = Buffer.from(`${'z'.repeat(offset)}${s}${s}`);
      const view = padded.subarray(offset);
      assert.equal(utf16Length(view), view.toString('utf8').length, `${JSON.stringify(s)} at offset ${offset}`);
    }
  }
  // Random valid UTF-8 from random code points.
  let seed = 7;
  const rand = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  for (let k = 0; k < 300; k++) {
    let s = '';
    const len = rand(40);
    for (let i = 0; i < len; i++) {
      const kind = rand(4);
      const cp = kind === 0 ? 0x20 + rand(0x5f) : kind === 1 ? 0x80 + rand(0x780) : kind === 2 ? 0x800 + rand(0xd000) : 0x10000 + rand(0xfffff);
      s += String.fromCodePoint(cp);
    }
    const bytes = Buffer.from(s);
    assert.equal(utf16Length(bytes), s.length, JSON.stringify(s));
  }
  // Long texts (counted a slice of blocks at a time), non-ASCII at the edges of blocks and slices.
  for (const unit of ['a', 'é', '—', '😀']) {
    for (const n of [1023, 1024, 1025, 4096, 5000]) {
      const s = `${'x'.repeat(n)}${unit}${'y'.repeat(n % 17)}${unit}`;
      for (let offset = 0; offset < 4; offset++) {
        const view = Buffer.from(`${'z'.repeat(offset)}${s}`).subarray(offset);
        assert.equal(utf16Length(view), s.length, `${n} × x, ${unit}, offset ${offset}`);
      }
    }
  }
});

test('Utf8LineIndex: same lines, texts, positions and ranges as a LineIndex over the decoded text', () => {
  const texts = ['a\nb', 'é\n😀x\r\n—\rlast', '', '\n\n', 'x😀y/z]\n  ```é\n', '😀'.repeat(3) + '\n' + 'ab'];
  for (const t of texts) {
    const bytes = Buffer.from(t);
    const byByte = new Utf8LineIndex(bytes);
    const byText = new LineIndex(t);
    assert.equal(byByte.lineCount, byText.lineCount, JSON.stringify(t));
    for (let i = 0; i < byText.lineCount; i++) {
      assert.equal(byByte.lineText(i), byText.lineText(i));
      assert.deepEqual(byByte.lineRange(i), byText.lineRange(i));
      // The position of each line's end, in bytes, maps to the same line/column as in the text.
      assert.deepEqual(byByte.position(byByte.lineEnd(i)), byText.position(byText.lineEnd(i)));
    }
  }
});
