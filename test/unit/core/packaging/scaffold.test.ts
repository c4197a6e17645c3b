import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { PROFILES } from '../../../../src/core/base/types';
import { checkSkillName, scaffoldSkill, TODO_DESCRIPTION } from '../../../../src/core/packaging/scaffold';
import { loadSkill } from '../../../../src/core/discovery/load';
import { packageSkill } from '../../../../src/core/packaging/package';
import { removeTree, tempTree } from '../../helpers/tempTree';

test('checkSkillName accepts kebab-case and explains every refusal', () => {
  assert.equal(checkSkillName('pdf-report'), undefined);
  assert.equal(checkSkillName('a1-b2'), undefined);
  assert.equal(checkSkillName(''), 'Enter a skill name, e.g. pdf-report.');
  assert.equal(checkSkillName('   '), 'Enter a skill name, e.g. pdf-report.');
  assert.equal(checkSkillName('PdfReport'), 'Use lower-case letters only.');
  assert.equal(checkSkillName('pdf_report'), "Use only a-z, 0-9 and '-' ('_' is not allowed).");
  assert.equal(checkSkillName('pdf report'), "Use only a-z, 0-9 and '-' (' ' is not allowed).");
  assert.equal(checkSkillName('-pdf'), "Remove the hyphen: a skill name cannot start or end with '-'.");
  assert.equal(checkSkillName('pdf-'), "Remove the hyphen: a skill name cannot start or end with '-'.");
  assert.equal(checkSkillName('pdf--report'), "Remove the '--': a skill name cannot contain '--'.");
  assert.equal(checkSkillName('a'.repeat(65)), 'Shorten the name to at most 64 characters (this one has 65).');
  assert.equal(checkSkillName('a'.repeat(64)), undefined);
  assert.equal(checkSkillName('my-claude-tool'), "Remove 'claude': names containing 'anthropic' or 'claude' are refused on upload.");
  assert.equal(checkSkillName('my-claude-tool', { allowReserved: true }), undefined);
  assert.equal(checkSkillName('My-claude-tool', { allowReserved: true }), 'Use lower-case letters only.');
  assert.equal(checkSkillName('../evil'), "Use only a-z, 0-9 and '-' ('.' is not allowed).");
  // A new name is ASCII: a non-ASCII lower-case letter (a warning in validation) is refused here.
  assert.equal(checkSkillName('café'), "Use only a-z, 0-9 and '-' ('é' is not allowed).");
  // Length is counted after NFKC, in characters, as validation counts it.
  assert.equal(checkSkillName('𝐚'.repeat(64)), undefined);
  assert.equal(checkSkillName('𝐚'.repeat(65)), 'Shorten the name to at most 64 characters (this one has 65).');
});

test('scaffoldSkill creates SKILL.md and the three folders; only the TODO description is reported, and packaging refuses it until replaced', () => {
  const dir = tempTree();
  try {
    const parent = path.join(dir, '.claude', 'skills');
    const r = scaffoldSkill(nodeFileSystem, parent, 'pdf-report');
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.dir, path.join(parent, 'pdf-report'));
    assert.deepEqual(r.files, ['SKILL.md', 'scripts/.gitkeep', 'references/.gitkeep', 'assets/.gitkeep'].map((f) => path.join(r.dir, f)));
    for (const f of r.files) assert.ok(fs.statSync(f).isFile(), f);
    const text = fs.readFileSync(r.files[0], 'utf8');
    assert.match(text, /^---\nname: pdf-report\ndescription: TODO - say what this skill does/);
    assert.match(text, /\n# Pdf Report\n/);
    for (const profile of PROFILES) {
      const s = loadSkill(nodeFileSystem, { path: parent, scope: 'project' }, 'pdf-report', profile)!;
      assert.deepEqual(s.problems.map((p) => [p.code, p.severity, p.line]), [['description-placeholder', profile === 'upload' ? 'error' : 'warning', 3]], `${profile}: ${JSON.stringify(s.problems)}`);
      assert.equal(s.description, TODO_DESCRIPTION);
    }
    assert.equal(packageSkill(nodeFileSystem, r.dir, dir).ok, false, 'a TODO description must not ship');
    fs.writeFileSync(r.files[0], fs.readFileSync(r.files[0], 'utf8').replace(TODO_DESCRIPTION, 'Builds PDF reports. Use when asked for a report.'));
    const packaged = packageSkill(nodeFileSystem, r.dir, dir);
    assert.ok(packaged.ok);
    assert.deepEqual(packaged.entries, ['pdf-report/SKILL.md', 'pdf-report/assets/.gitkeep', 'pdf-report/references/.gitkeep', 'pdf-report/scripts/.gitkeep']);
  } finally { removeTree(dir); }
});

test('a given description is written so that it parses back exactly (quoted when needed)', () => {
  const dir = tempTree();
  try {
    for (const [name, description] of [['plain', 'Makes charts. Use for charts.'], ['colon', 'Use when: the user asks # for "charts"'], ['bool', 'yes']] as const) {
      const r = scaffoldSkill(nodeFileSystem, dir, name, { description });
      assert.ok(r.ok);
      for (const profile of PROFILES) {
        const s = loadSkill(nodeFileSystem, { path: dir, scope: 'project' }, name, profile)!;
        assert.equal(s.description, description);
        assert.deepEqual(s.problems, [], `${name}/${profile}: ${JSON.stringify(s.problems)}`);
      }
    }
    assert.match(fs.readFileSync(path.join(dir, 'colon', 'SKILL.md'), 'utf8'), /\ndescription: "Use when: the user asks # for \\"charts\\""\n/);
    assert.match(fs.readFileSync(path.join(dir, 'plain', 'SKILL.md'), 'utf8'), /\ndescription: Makes charts\. Use for charts\.\n/);
  } finally { removeTree(dir); }
});

test('scaffoldSkill refuses an invalid name, an existing folder and a bad description, writing nothing', () => {
  const dir = tempTree({ 'taken/keep.txt': 'x' });
  try {
    assert.deepEqual(scaffoldSkill(nodeFileSystem, dir, 'Bad_Name'), { ok: false, message: "Invalid skill name 'Bad_Name': Use lower-case letters only. Try 'bad-name'." });
    assert.deepEqual(scaffoldSkill(nodeFileSystem, dir, 'taken'), { ok: false, message: `Already exists: ${path.join(dir, 'taken')}` });
    assert.deepEqual(scaffoldSkill(nodeFileSystem, dir, 'fine', { description: 'Has <html>' }), { ok: false, message: "Invalid description: Remove '<' and '>': a description cannot contain them." });
    assert.deepEqual(fs.readdirSync(dir), ['taken']);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'taken')), ['keep.txt']);
  } finally { removeTree(dir); }
});
