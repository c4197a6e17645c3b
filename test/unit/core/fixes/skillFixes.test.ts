// The core fixes behind the editor's quick fixes, Fix all and `validate --fix`: one test per fix, each from the
// problems the validator really reports on the text, applied and validated again.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyTextEdits, DESCRIPTION_PLACEHOLDER, disableForFileEdit, editsOverlap, fixAllEdits, skillFixes, yamlSingleQuote } from '../../../../src/core/fixes/skillFixes';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { memFs } from '../../helpers/memfs';
import type { Problem } from '../../../../src/core/base/types';

const FILE = '/w/.claude/skills/my-skill/SKILL.md';

function problems(text: string, folderName = 'my-skill'): Problem[] {
  return validateSkillMd(text, { profile: 'claude-code', folderName }, memFs('/w', {})).problems;
}

/** The text after Fix all, and the codes still reported then. */
function fixAll(text: string, folderName = 'my-skill', file = FILE): { text: string; left: string[] } {
  const fixed = applyTextEdits(text, fixAllEdits(text, file, problems(text, folderName)));
  return { text: fixed, left: problems(fixed, folderName).map((p) => p.code) };
}

test('yaml-syntax: a plain value holding ": " is single-quoted (quotes inside doubled), certain', () => {
  const text = "---\nname: my-skill\ndescription: Use when: it's late\n---\n# B\n";
  const ps = problems(text);
  assert.ok(ps.some((p) => p.code === 'yaml-syntax'), JSON.stringify(ps));
  const f = skillFixes(text, FILE, ps).find((x) => x.code === 'yaml-syntax');
  assert.equal(f?.title, 'Quote the value');
  assert.ok(f.certain && f.preferred);
  const r = fixAll(text);
  assert.equal(r.text, "---\nname: my-skill\ndescription: 'Use when: it''s late'\n---\n# B\n");
  assert.deepEqual(r.left, []);
});

test('yaml-syntax: nothing to quote (an already quoted or block value) gives no fix', () => {
  const text = "---\nname: my-skill\ndescription: 'a\n---\n# B\n";
  const ps = problems(text);
  assert.ok(ps.some((p) => p.code === 'yaml-syntax'));
  assert.deepEqual(skillFixes(text, FILE, ps).filter((f) => f.code === 'yaml-syntax'), []);
});

test('name-dir-mismatch: rename to the folder, only when the folder name is itself a valid name', () => {
  const text = '---\nname: other-name\ndescription: Does things. Use it in tests.\n---\n# B\n';
  const r = fixAll(text);
  assert.equal(r.text, '---\nname: my-skill\ndescription: Does things. Use it in tests.\n---\n# B\n');
  assert.deepEqual(r.left, []);
  const bad = '/w/.claude/skills/Bad_Folder/SKILL.md';
  const ps = problems(text, 'Bad_Folder');
  assert.ok(ps.some((p) => p.code === 'name-dir-mismatch'));
  assert.deepEqual(skillFixes(text, bad, ps).filter((f) => f.code === 'name-dir-mismatch'), []);
});

test('name-case / name-charset / name-hyphen: kebab-case, the name the message suggests', () => {
  for (const [name, kebab] of [['My_Skill', 'my-skill'], ['my--skill', 'my-skill'], ['-my-skill', 'my-skill'], ['café', 'cafe']] as const) {
    const text = `---\nname: ${name}\ndescription: Does things. Use it in tests.\n---\n# B\n`;
    const ps = problems(text, kebab);
    const f = skillFixes(text, `/w/s/${kebab}/SKILL.md`, ps).find((x) => x.title.startsWith('Convert to kebab-case'));
    assert.equal(f?.title, `Convert to kebab-case: '${kebab}'`, `${name}: ${JSON.stringify(ps.map((p) => p.code))}`);
    const r = fixAll(text, kebab, `/w/s/${kebab}/SKILL.md`);
    assert.equal(r.text, `---\nname: ${kebab}\ndescription: Does things. Use it in tests.\n---\n# B\n`, name);
    assert.deepEqual(r.left, [], name);
  }
});

test('description-angle-brackets: the brackets go, the words stay; CRLF and a BOM are kept', () => {
  const text = '\uFEFF---\r\nname: my-skill\r\ndescription: Tidy <things> up. Use it in tests.\r\n---\r\n# B\r\n';
  const ps = problems(text);
  assert.ok(ps.some((p) => p.code === 'description-angle-brackets'));
  const fixed = applyTextEdits(text, fixAllEdits(text, FILE, ps));
  assert.equal(fixed, '\uFEFF---\r\nname: my-skill\r\ndescription: Tidy things up. Use it in tests.\r\n---\r\n# B\r\n');
});

test('description-missing: a placeholder is offered but not certain, so Fix all leaves the file alone', () => {
  const text = '---\nname: my-skill\n---\n# B\n';
  const ps = problems(text);
  const f = skillFixes(text, FILE, ps).find((x) => x.code === 'description-missing');
  assert.ok(f && !f.certain && f.preferred);
  assert.equal(applyTextEdits(text, f.edits), `---\nname: my-skill\ndescription: ${DESCRIPTION_PLACEHOLDER}\n---\n# B\n`);
  assert.deepEqual(fixAllEdits(text, FILE, ps), []);
});

test('description-length: only selects the description (never trimmed), not applied by Fix all', () => {
  const text = `---\nname: my-skill\ndescription: ${'word '.repeat(250)}end\n---\n# B\n`;
  const ps = problems(text);
  const f = skillFixes(text, FILE, ps).find((x) => x.code === 'description-length');
  assert.ok(f, JSON.stringify(ps.map((p) => p.code)));
  assert.deepEqual(f.edits, []);
  assert.equal(f.reveal?.line, 3);
  assert.ok(!f.certain && !f.preferred);
  assert.equal(applyTextEdits(text, fixAllEdits(text, FILE, ps)), text);
});

test('Fix all: two fixes of one name do not both apply (the first wins); problems of other files are skipped', () => {
  const text = '---\nname: Other_Name\ndescription: Tidy <things> up. Use it in tests.\n---\n# B\n';
  const ps = problems(text);
  const edits = fixAllEdits(text, FILE, ps);
  assert.equal(edits.length, 2, JSON.stringify(edits));
  const fixed = applyTextEdits(text, edits);
  assert.match(fixed, /^---\nname: (my-skill|other-name)\ndescription: Tidy things up/);
  assert.deepEqual(fixAllEdits(text, FILE, ps.map((p) => ({ ...p, file: '/w/elsewhere/SKILL.md' }))), []);
});

test('editsOverlap: shared characters or one insertion point; touching ranges do not overlap', () => {
  const r = (line: number, column: number, endLine: number, endColumn: number) => ({ line, column, endLine, endColumn });
  assert.ok(editsOverlap(r(1, 1, 1, 5), r(1, 4, 1, 8)));
  assert.ok(!editsOverlap(r(1, 1, 1, 5), r(1, 5, 1, 8)));
  assert.ok(editsOverlap(r(2, 3, 2, 3), r(2, 3, 2, 3)));
  assert.ok(!editsOverlap(r(2, 3, 2, 3), r(2, 4, 2, 4)));
  assert.ok(editsOverlap(r(1, 1, 3, 1), r(2, 1, 2, 2)));
});

test('applyTextEdits: edits apply from the end, everything else byte for byte', () => {
  const text = 'ab\ncd\nef';
  assert.equal(applyTextEdits(text, [
    { range: { line: 1, column: 2, endLine: 1, endColumn: 3 }, newText: 'X' },
    { range: { line: 3, column: 1, endLine: 3, endColumn: 1 }, newText: '>' },
    { range: { line: 9, column: 1, endLine: 9, endColumn: 1 }, newText: '!' },
  ]), 'aX\ncd\n>ef!');
  assert.equal(yamlSingleQuote("a: 'b'"), "'a: ''b'''");
});

test('disableForFileEdit: a new comment after the frontmatter (CRLF kept), a code added to the comment, none when named or unclosed', () => {
  const add = (text: string, code: string) => {
    const e = disableForFileEdit(text, code);
    return e && applyTextEdits(text, [e]);
  };
  assert.equal(add('---\r\nname: a\r\n---\r\n# A\r\n', 'bom'), '---\r\nname: a\r\n---\r\n<!-- skillflow-disable bom -->\r\n# A\r\n');
  assert.equal(add('---\nname: a\n---', 'bom'), '---\nname: a\n---\n<!-- skillflow-disable bom -->');
  assert.equal(add('# No frontmatter\n', 'bom'), '<!-- skillflow-disable bom -->\n# No frontmatter\n');
  const withComment = '---\nname: a\n---\n<!-- skillflow-disable-next-line body-lines -->\nx\n<!-- skillflow-disable bom -->\n';
  assert.equal(add(withComment, 'name-case'), withComment.replace('bom -->', 'bom name-case -->'));
  assert.equal(add('---\nname: a\n---\n<!-- skillflow-disable bom-->\n', 'name-case'), '---\nname: a\n---\n<!-- skillflow-disable bom name-case -->\n');
  assert.equal(disableForFileEdit(withComment, 'bom'), undefined);
  assert.equal(disableForFileEdit('---\nname: a\n', 'bom'), undefined, 'no body in an unclosed frontmatter');
});

test('unknown-key: "Remove \'colour\'" deletes the key with its value (block lines too), offered but not certain', () => {
  const text = '---\nname: my-skill\ndescription: Does things. Use it in tests.\ncolour:\n  - red\n  - blue\nlicense: MIT\n---\n# B\n';
  const ps = problems(text);
  const f = skillFixes(text, FILE, ps).find((x) => x.code === 'unknown-key');
  assert.equal(f?.title, "Remove 'colour'");
  assert.deepEqual([f.certain, f.preferred], [false, false], "neither Fix all nor Auto Fix deletes it");
  const fixed = applyTextEdits(text, f.edits);
  assert.equal(fixed, '---\nname: my-skill\ndescription: Does things. Use it in tests.\nlicense: MIT\n---\n# B\n');
  assert.deepEqual(problems(fixed).map((p) => p.code), []);
  // Fix all leaves it: a key Skillflow does not know may be one a newer Claude Code reads.
  assert.equal(fixAll(text).text, text);
});

test('unknown-key: no remove edit when the key shares its line with another (a flow mapping)', () => {
  const text = '---\n{name: my-skill, description: Does things. Use it in tests., colour: red}\n---\n# B\n';
  const ps = problems(text);
  assert.ok(ps.some((p) => p.code === 'unknown-key'), JSON.stringify(ps.map((p) => p.code)));
  assert.deepEqual(skillFixes(text, FILE, ps).filter((f) => f.code === 'unknown-key'), []);
});

test('unknown-key: a block scalar value and a CRLF file lose the key and keep the rest byte for byte', () => {
  const text = '---\r\nname: my-skill\r\ncolour: |\r\n  red\r\n  blue\r\ndescription: Does things. Use it in tests.\r\n---\r\n# B\r\n';
  const f = skillFixes(text, FILE, problems(text)).find((x) => x.code === 'unknown-key');
  assert.ok(f);
  assert.equal(applyTextEdits(text, f.edits), '---\r\nname: my-skill\r\ndescription: Does things. Use it in tests.\r\n---\r\n# B\r\n');
});

test('reference-missing: "Create references/guide.md" creates the missing file of the skill (a heading for markdown), not certain', () => {
  const text = '---\nname: my-skill\ndescription: Does things. Use it in tests.\n---\nSee [the guide](references/guide.md) and [data](assets/data.json) and [up](../other.md).\n';
  const fsys = memFs('/w', { '.claude/skills/my-skill/SKILL.md': text });
  const ps = validateSkillMd(text, { profile: 'claude-code', folderName: 'my-skill', skillDir: '/w/.claude/skills/my-skill' }, fsys).problems;
  const missing = ps.filter((p) => p.code === 'reference-missing').map((p) => p.message);
  assert.ok(missing.some((m) => m.startsWith("'references/guide.md' does not exist in this skill")), JSON.stringify(ps));
  const fixes = skillFixes(text, FILE, ps, { fs: fsys }).filter((f) => f.code === 'reference-missing');
  assert.deepEqual(fixes.map((f) => [f.title, f.createFiles, f.edits, f.certain, f.preferred]), [
    ['Create references/guide.md', [{ path: '/w/.claude/skills/my-skill/references/guide.md', content: '# guide\n' }], [], false, true],
    ['Create assets/data.json', [{ path: '/w/.claude/skills/my-skill/assets/data.json', content: '' }], [], false, true],
  ]);
  assert.deepEqual(fixAllEdits(text, FILE, ps, { fs: fsys }), [], 'Fix all and validate --fix never create files');
});

test('reference-missing / -outside: "Change to" the path the message names, where the range holds the target as written; never by Fix all', () => {
  const text = '---\nname: my-skill\ndescription: Does things. Use it in tests.\n---\nSee [w](reference/guide.md) and [a](../agents/a.md) and [b](../../../../b/SKILL.md).\n';
  const fsys = memFs('/w', { '.git/HEAD': 'ref', '.claude/skills/b/SKILL.md': 'b', '.claude/skills/my-skill/SKILL.md': text, '.claude/skills/my-skill/references/guide.md': '# g\n', '.claude/agents/a.md': 'a' });
  const ps = validateSkillMd(text, { profile: 'claude-code', folderName: 'my-skill', skillDir: '/w/.claude/skills/my-skill', rootDir: '/w/.claude/skills' }, fsys).problems;
  const fixes = skillFixes(text, FILE, ps, { fs: fsys }).filter((f) => f.code.startsWith('reference-'));
  assert.deepEqual(fixes.map((f) => [f.code, f.title, f.certain, f.createFiles]), [
    ['reference-missing', "Change to 'references/guide.md'", false, undefined],
    ['reference-missing', "Change to '../../agents/a.md'", false, undefined],
    ['reference-outside', "Change to '../b/SKILL.md'", false, undefined],
  ], JSON.stringify(ps.map((p) => p.message)));
  let fixed = text;
  for (const f of fixes.reverse()) fixed = applyTextEdits(fixed, f.edits);
  assert.equal(fixed, text.replace('(reference/guide.md)', '(references/guide.md)').replace('(../agents/a.md)', '(../../agents/a.md)').replace('(../../../../b/', '(../b/'));
  assert.deepEqual(fixAllEdits(text, FILE, ps, { fs: fsys }), []);
  // A range that no longer holds the target (the file changed since): no edit.
  const moved = ps.map((p) => ({ ...p, column: p.column + 1, endColumn: p.endColumn + 1 }));
  assert.deepEqual(skillFixes(text, FILE, moved, { fs: fsys }).filter((f) => f.title.startsWith('Change to')), []);
});

test('reference-missing: no Create fix for a letter-case slip, an absolute path or a file that exists meanwhile', () => {
  const p = (message: string): Problem => ({ code: 'reference-missing', severity: 'warning', message, line: 5, column: 1, endLine: 5, endColumn: 5 });
  const text = '---\nname: my-skill\ndescription: Does things. Use it in tests.\n---\nx\n';
  const fsys = memFs('/w', { '.claude/skills/my-skill/SKILL.md': text, '.claude/skills/my-skill/made.md': '# made\n' });
  const fixes = skillFixes(text, FILE, [
    p("'references/Guide.md' does not exist in this skill; 'references/guide.md' exists, but names are case-sensitive"),
    p("'/etc/guide.md' does not exist in this skill"),
    p("'made.md' does not exist in this skill"),
    p("'x.md' does not exist (it would be outside the skill folder)"),
  ], { fs: fsys });
  assert.deepEqual(fixes, []);
});
