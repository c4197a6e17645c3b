import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  applyRuleConfig, configureProblems, DEFAULT_RULE_CONFIG, disabledRules, findDisableComments, globToRegExp,
  mayHoldDisableComment, parseRuleConfig, RuleConfigFinder, ruleSettingOverrides,
} from '../../../../src/core/config/ruleConfig';
import { ruleConfigSchema } from '../../../../src/core/config/schema';
import { RULES } from '../../../../src/core/base/rules';
import type { Problem } from '../../../../src/core/base/types';
import { memFs } from '../../helpers/memfs';

function p(code: string, severity: Problem['severity'] = 'warning', line = 1): Problem {
  return { code, severity, message: code, line, column: 1, endLine: line, endColumn: 2 };
}

test('parseRuleConfig: a valid file gives its profile, rules and ignore globs, no problems', () => {
  const c = parseRuleConfig('{"$schema": "x", "profile": "spec", "rules": {"reference-missing": "off", "body-lines": "error"}, "ignore": ["legacy/**"]}', '/w/.skillflow.json');
  assert.deepEqual(c.problems, []);
  assert.equal(c.profile, 'spec');
  assert.deepEqual({ ...c.rules }, { 'reference-missing': 'off', 'body-lines': 'error' });
  assert.deepEqual(c.ignore, ['legacy/**']);
});

test('parseRuleConfig: half-written JSON is one config-invalid problem at the error position, defaults used, no throw', () => {
  const c = parseRuleConfig('{\n  "rules": {\n    "reference-missing": "of', '/w/.skillflow.json');
  assert.equal(c.problems.length, 1);
  assert.equal(c.problems[0].code, 'config-invalid');
  assert.equal(c.problems[0].file, '/w/.skillflow.json');
  assert.equal(c.problems[0].line, 3);
  assert.match(c.problems[0].message, /half-written.*default rules are used/);
  assert.deepEqual({ ...c.rules }, {});
  for (const text of ['', '   ', '[1]', 'null', '"x"', '{"rules": []}', '{"ignore": "x"}', '{"profile": 3}', '\u0000{']) {
    const r = parseRuleConfig(text, '/w/.skillflow.json');
    assert.ok(r.problems.length >= 1, text);
    assert.ok(r.problems.every((x) => x.code === 'config-invalid' && x.severity === 'warning'), text);
  }
});

test('parseRuleConfig: unknown rule codes, bad values and unknown keys are reported at the key; valid entries still apply', () => {
  const text = '{\n  "rules": {\n    "no-such-rule": "off",\n    "bom": "loud",\n    "shadowed": "off"\n  },\n  "ignores": []\n}';
  const c = parseRuleConfig(text, '/w/.skillflow.json');
  assert.deepEqual(c.problems.map((x) => [x.line, x.column, x.message]), [
    [7, 3, "unknown key 'ignores'; .skillflow.json accepts profile, rules and ignore"],
    [3, 5, "unknown rule code 'no-such-rule' (see docs/rules.md for the codes)"],
    [4, 12, "the rule 'bom' must be set to one of off, info, warning, error"],
  ]);
  assert.deepEqual({ ...c.rules }, { shadowed: 'off' });
});

test('RuleConfigFinder: the nearest ancestor .skillflow.json wins; no file = defaults; answers cached per folder', () => {
  const fs = memFs('/w', {
    '.skillflow.json': '{"rules": {"body-lines": "off"}}',
    'a/.claude/skills/s/SKILL.md': 'x',
    'b/.skillflow.json': '{"profile": "upload"}',
    'b/.claude/skills/t/SKILL.md': 'x',
  });
  let reads = 0;
  fs.onRead = () => { reads++; };
  const finder = new RuleConfigFinder(fs);
  assert.equal(finder.forFile('/w/a/.claude/skills/s/SKILL.md').file, '/w/.skillflow.json');
  assert.equal(finder.forFile('/w/b/.claude/skills/t/SKILL.md').file, '/w/b/.skillflow.json');
  assert.equal(finder.forFile('/w/b/.claude/skills/t/SKILL.md').profile, 'upload');
  assert.equal(finder.forFile('/w/a/.claude/skills/s/other.md').file, '/w/.skillflow.json');
  assert.equal(reads, 2);
  assert.deepEqual(finder.configs().map((c) => c.file), ['/w/.skillflow.json', '/w/b/.skillflow.json']);
  assert.equal(new RuleConfigFinder(memFs('/x', { 'SKILL.md': '' })).forFile('/x/SKILL.md'), DEFAULT_RULE_CONFIG);
  fs.files.set('/w/a/.skillflow.json', '{}');
  assert.equal(finder.forFile('/w/a/.claude/skills/s/SKILL.md').file, '/w/.skillflow.json', 'cached until clear()');
  finder.clear();
  assert.equal(finder.forFile('/w/a/.claude/skills/s/SKILL.md').file, '/w/a/.skillflow.json');
});

test('precedence: setting > nearest file > the rule table default; off drops the problem', () => {
  const config = parseRuleConfig('{"rules": {"reference-missing": "error", "body-lines": "off", "bom": "info"}}', '/w/.skillflow.json');
  const problems = [p('reference-missing'), p('body-lines'), p('bom'), p('unknown-key')];
  assert.deepEqual(applyRuleConfig(problems, { config: DEFAULT_RULE_CONFIG }).map((x) => `${x.code}:${x.severity}`),
    ['reference-missing:warning', 'body-lines:warning', 'bom:warning', 'unknown-key:warning']);
  assert.deepEqual(applyRuleConfig(problems, { config }).map((x) => `${x.code}:${x.severity}`),
    ['reference-missing:error', 'bom:info', 'unknown-key:warning']);
  const settingOverrides = { 'reference-missing': 'info', 'body-lines': 'warning', 'unknown-key': 'off' } as const;
  assert.deepEqual(applyRuleConfig(problems, { config, settingOverrides }).map((x) => `${x.code}:${x.severity}`),
    ['reference-missing:info', 'body-lines:warning', 'bom:info']);
  assert.deepEqual(applyRuleConfig(problems, { config, settingOverrides, disabledInFile: new Set(['bom', 'body-lines']) }).map((x) => x.code),
    ['reference-missing']);
  assert.equal(problems[0].severity, 'warning', 'the input problems are not modified');
});

test('ruleSettingOverrides keeps only known codes with valid values', () => {
  assert.deepEqual({ ...ruleSettingOverrides({ bom: 'off', 'nope': 'off', shadowed: 'loud', 'body-lines': 'error' }) }, { bom: 'off', 'body-lines': 'error' });
  assert.deepEqual(ruleSettingOverrides(null), {});
  assert.deepEqual(ruleSettingOverrides(['bom']), {});
});

test('disable comments: codes after the frontmatter, outside fenced code, spaces or commas; unknown codes reported', () => {
  const text = [
    '---', 'name: x', '# <!-- skillflow-disable bom -->', '---',
    '<!-- skillflow-disable reference-missing body-lines -->',
    '```md', '<!-- skillflow-disable unknown-key -->', '```',
    '~~~~', '```', '<!-- skillflow-disable name-case -->', '~~~~',
    'text <!-- skillflow-disable shadowed,bom --> more <!--skillflow-disable typo-rule-->',
  ].join('\n');
  assert.deepEqual(findDisableComments(text).map((c) => [c.range.line, c.range.column, c.codes]), [
    [5, 1, ['reference-missing', 'body-lines']],
    [13, 6, ['shadowed', 'bom']],
    [13, 51, ['typo-rule']],
  ]);
  const d = disabledRules(text, '/w/SKILL.md');
  assert.deepEqual([...d.codes].sort(), ['body-lines', 'bom', 'reference-missing', 'shadowed']);
  assert.equal(d.problems.length, 1);
  assert.equal(d.problems[0].code, 'config-invalid');
  assert.equal(d.problems[0].line, 13);
  assert.match(d.problems[0].message, /typo-rule/);
  assert.deepEqual(findDisableComments('---\nname: x\n<!-- skillflow-disable bom -->\n'), [], 'an unclosed frontmatter has no body');
  assert.deepEqual(findDisableComments('no frontmatter\r\n<!-- skillflow-disable bom -->').map((c) => c.codes), [['bom']]);
});

test('mayHoldDisableComment: false only for bytes whose text has no disable comment', () => {
  const texts = [
    '---\nname: x\n---\n<!-- skillflow-disable bom -->\n',
    'text <!--skillflow-disable typo-rule--> more',
    '<!--\n\tskillflow-disable bom -->',
    '<!-- a comment --> then skillflow-disable bom -->',
    'skillflow-disable bom --> then <!-- a comment -->',
    'plain text that names skillflow-disable without a comment',
    'a <!-- comment --> only',
    '',
  ];
  for (const t of texts) {
    const may = mayHoldDisableComment(Buffer.from(t));
    if (findDisableComments(t).length) assert.ok(may, JSON.stringify(t));
    const afterOpen = t.indexOf('<!--') >= 0 && t.indexOf('skillflow-disable', t.indexOf('<!--')) >= 0;
    assert.equal(may, afterOpen, JSON.stringify(t));
  }
});

test('ignore globs: segments, **, any-depth names, anchored, folders, classes and braces', () => {
  const m = (glob: string, rel: string) => globToRegExp(glob).test(rel);
  assert.ok(m('legacy/**', 'legacy/.claude/skills/a/SKILL.md'));
  assert.ok(m('legacy', 'x/legacy/skills/a/SKILL.md'), 'no slash: any depth, folder covers its contents');
  assert.ok(!m('legacy', 'legacy-2/SKILL.md'));
  assert.ok(m('/legacy', 'legacy/a/SKILL.md'));
  assert.ok(!m('/legacy', 'x/legacy/a/SKILL.md'));
  assert.ok(m('**/drafts/*/SKILL.md', 'a/b/drafts/s/SKILL.md'));
  assert.ok(m('**/drafts/*/SKILL.md', 'drafts/s/SKILL.md'));
  assert.ok(!m('skills/*/SKILL.md', 'skills/a/b/SKILL.md'));
  assert.ok(m('skills/?/SKILL.md', 'skills/a/SKILL.md'));
  assert.ok(m('skills/[ab]*/SKILL.md', 'skills/beta/SKILL.md'));
  assert.ok(!m('skills/[!ab]*/SKILL.md', 'skills/beta/SKILL.md'));
  assert.ok(m('skills/{one,two}/**', 'skills/two/SKILL.md'));
  assert.ok(!m('skills/{one,two}/**', 'skills/three/SKILL.md'));
  assert.ok(m('./a.md', 'a.md'));
  assert.ok(m('a+b(1).md', 'a+b(1).md'), 'regex characters are literal');
});

test('configureProblems: ignored files give undefined; the text is read only when there are problems', () => {
  const fs = memFs('/w', {
    '.skillflow.json': '{"ignore": ["old"], "rules": {"bom": "error"}}',
    'old/s/SKILL.md': 'x',
    'new/s/SKILL.md': 'x',
  });
  const finder = new RuleConfigFinder(fs);
  assert.equal(configureProblems(finder, '/w/old/s/SKILL.md', [p('bom')]), undefined);
  let asked = 0;
  const readText = () => { asked++; return '<!-- skillflow-disable unknown-key nope -->'; };
  assert.deepEqual(configureProblems(finder, '/w/new/s/SKILL.md', [], { readText }), []);
  assert.equal(asked, 0);
  const out = configureProblems(finder, '/w/new/s/SKILL.md', [p('bom'), p('unknown-key')], { readText })!;
  assert.equal(asked, 1);
  assert.deepEqual(out.map((x) => `${x.code}:${x.severity}`), ['bom:error', 'config-invalid:warning']);
  assert.equal(finder.isIgnored('/elsewhere/SKILL.md'), false);
});

test('the .skillflow.json schema lists exactly the rule table codes and is the shipped file', () => {
  const schema = ruleConfigSchema() as { properties: { rules: { propertyNames: { enum: string[] }; properties: Record<string, unknown> } } };
  const codes = Object.keys(RULES).sort();
  assert.deepEqual(schema.properties.rules.propertyNames.enum, codes);
  assert.deepEqual(Object.keys(schema.properties.rules.properties).sort(), codes);
  const expected = `${JSON.stringify(schema, null, 2)}\n`;
  if (process.env.SKILLFLOW_UPDATE_SCHEMA === '1') writeFileSync('schemas/skillflow.schema.json', expected);
  const shipped = JSON.parse(readFileSync('schemas/skillflow.schema.json', 'utf8'));
  assert.deepEqual(shipped.properties.rules.propertyNames.enum, codes, 'schemas/skillflow.schema.json is out of date: SKILLFLOW_UPDATE_SCHEMA=1 npm run test:unit -- ruleConfig');
  assert.equal(readFileSync('schemas/skillflow.schema.json', 'utf8'), expected);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  if (process.env.SKILLFLOW_UPDATE_SCHEMA === '1') {
    pkg.contributes.configuration.properties['skillflow.validation.rules'].propertyNames.enum = codes;
    writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  }
  assert.deepEqual(pkg.contributes.configuration.properties['skillflow.validation.rules'].propertyNames.enum, codes, 'package.json skillflow.validation.rules is out of date: SKILLFLOW_UPDATE_SCHEMA=1 npm run test:unit -- ruleConfig');
  assert.ok(pkg.contributes.jsonValidation.some((j: { fileMatch: string; url: string }) => j.fileMatch === '**/.skillflow.json' && j.url === './schemas/skillflow.schema.json'));
});

test('skillflow-disable-next-line: the codes are off on the next line only; unknown codes reported; not a file-level disable', () => {
  const text = [
    '---', 'name: x', 'description: d', '---',
    '<!-- skillflow-disable-next-line reference-missing -->',
    'See [a](missing-a.md).',
    'See [b](missing-b.md). <!-- skillflow-disable-next-line body-lines,nope -->',
    '<!-- skillflow-disable-nextline reference-missing -->',
    'See [c](missing-c.md).',
  ].join('\n');
  const comments = findDisableComments(text);
  assert.deepEqual(comments.map((c) => [c.range.line, c.nextLine, c.codes]), [[5, true, ['reference-missing']], [7, true, ['body-lines', 'nope']]]);
  const d = disabledRules(text);
  assert.deepEqual([...d.codes], []);
  assert.deepEqual([...d.lines].map(([line, codes]) => [line, [...codes]]), [[6, ['reference-missing']], [8, ['body-lines']]]);
  assert.deepEqual(d.problems.map((p) => [p.code, p.line]), [['config-invalid', 7]]);
  const at = (line: number, code = 'reference-missing'): Problem => ({ code, severity: 'warning', message: code, line, column: 5, endLine: line, endColumn: 9 });
  const finder = new RuleConfigFinder(memFs('/w', {}));
  const out = configureProblems(finder, '/w/s/SKILL.md', [at(6), at(7), at(9), at(6, 'body-lines')], { readText: () => text })!;
  assert.deepEqual(out.map((p) => `${p.code}@${p.line}`), ['reference-missing@7', 'reference-missing@9', 'body-lines@6', 'config-invalid@7']);
});
