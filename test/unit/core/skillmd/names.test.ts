import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { checkSkillName, NAME_MAX, nameFindings, normalizeName, suggestSkillName } from '../../../../src/core/skillmd/names';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { skill } from '../../helpers/validation';

test('suggestSkillName: case, charset and hyphen problems become one valid kebab-case name', () => {
  assert.equal(suggestSkillName('PDF Tools'), 'pdf-tools');
  assert.equal(suggestSkillName('My Skill'), 'my-skill');
  assert.equal(suggestSkillName('myCoolSkill'), 'my-cool-skill');
  assert.equal(suggestSkillName('XMLParser'), 'xml-parser');
  assert.equal(suggestSkillName('--double--hyphen-'), 'double-hyphen');
  assert.equal(suggestSkillName('--a__b--'), 'a-b');
  assert.equal(suggestSkillName('under_score.dot'), 'under-score-dot');
  assert.equal(suggestSkillName('Café Déjà'), 'cafe-deja');
  assert.equal(suggestSkillName('ｆｕｌｌｗｉｄｔｈ'), 'fullwidth');
  assert.equal(suggestSkillName('!!!'), '');
  assert.equal(suggestSkillName('a'.repeat(70)).length, NAME_MAX);
  assert.equal(suggestSkillName(`${'a'.repeat(63)}-b`), 'a'.repeat(63), 'no trailing hyphen after the cut');
  for (const text of ['Café', 'My Skill', '-x-', 'ÀÉÎ õü', 'a'.repeat(99)]) {
    const s = suggestSkillName(text);
    assert.deepEqual(nameFindings(s).filter((f) => f.code !== 'name-reserved'), [], `${text} → ${s} is valid`);
  }
});

test("for 'name: Café' the diagnostic suggests exactly what the quick fix writes", () => {
  const res = validateSkillMd(skill('name: Café\ndescription: d'), { profile: 'claude-code', folderName: 'Café' }, nodeFileSystem);
  const quickFixWrites = suggestSkillName('Café'); // quickFixes.ts: name-case/charset/hyphen write suggestSkillName(value)
  assert.equal(quickFixWrites, 'cafe');
  for (const code of ['name-case', 'name-charset']) {
    const p = res.problems.find((x) => x.code === code);
    assert.ok(p, code);
    assert.match(p.message, new RegExp(`^Rename to '${quickFixWrites}'`), code);
  }
});

test('validation and New Skill count and refuse by the same rules', () => {
  const samples = ['pdf-report', 'PdfReport', 'pdf_report', '-pdf', 'pdf--x', 'a'.repeat(64), 'a'.repeat(65), '𝐚'.repeat(65), 'my-claude', ' spaced ', 'café'];
  for (const name of samples) {
    const findings = nameFindings(normalizeName(name)).filter((f) => f.code !== 'name-reserved');
    const newSkill = checkSkillName(name, { allowReserved: true });
    assert.equal(newSkill === undefined, findings.length === 0, `${name}: New Skill ${newSkill ?? 'accepts'}, validation ${JSON.stringify(findings)}`);
    const res = validateSkillMd(skill(`name: "${name}"\ndescription: d`), { profile: 'spec', folderName: '' }, nodeFileSystem);
    const codes = res.problems.map((p) => p.code).filter((c) => c.startsWith('name-'));
    assert.deepEqual(codes, findings.map((f) => f.code), name);
  }
});

test('nameFindings: non-ASCII lower-case letters are their own case of name-charset', () => {
  assert.deepEqual(nameFindings('café'), [{ code: 'name-charset', found: ['é'], variant: 'non-ascii-lowercase' }]);
  assert.deepEqual(nameFindings('caf_é').map((f) => [f.code, 'variant' in f ? f.variant : undefined]), [['name-charset', undefined]]);
  assert.deepEqual(nameFindings('cafe'), []);
});
