import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { RULES } from '../../../../src/core/base/rules';
import { escapeData, escapeProperty, formatGithub } from '../../../../src/cli/output/github';
import type { ValidateResult } from '../../../../src/cli/output/validateResult';
import { repositoryWebUrl } from '../../../../src/cli/output/ruleDocs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

function sarifValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's language pattern is not valid with the u flag;
  addFormats(ajv);
  const check = ajv.compile(JSON.parse(readFileSync('test/fixtures/sarif/sarif-2.1.0-rtm.5.json', 'utf8')));
  const validate = (data: unknown): boolean => check(data);
  return Object.assign(validate, { get errors() { return check.errors; } });
}

const TREE = {
  '.skillflow.json': '{"rules": {"bom": "off"}, "oops": 1}',
  '.claude/skills/a b/SKILL.md': skillMd('a b', 'The a skill. Use it in tests.', '# a\n\nSee [the guide](references/guide.md).\n'),
  '.claude/skills/two/SKILL.md': '---\nname: Two\ndescription: Has <b>.\n---\n',
};

test('--format sarif: valid SARIF 2.1.0 (schema), rule metadata with help links, results with regions relative to the run folder', async () => {
  const dir = tempTree(TREE);
  try {
    // Under spec the name format rules are errors (in claude-code they are warnings): results of both levels.
    const r = await run(['validate', '--format', 'sarif', '--profile', 'spec'], dir);
    assert.equal(r.code, 1);
    assert.equal(r.err, '');
    const log = JSON.parse(r.out);
    const validate = sarifValidator();
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    assert.equal(log.version, '2.1.0');
    const run0 = log.runs[0];
    assert.equal(run0.tool.driver.name, 'skillflow');
    assert.equal(run0.originalUriBaseIds['%SRCROOT%'].uri, `${pathToFileURL(dir).href}/`);
    const rules = run0.tool.driver.rules as Array<{ id: string; shortDescription: { text: string }; helpUri: string; defaultConfiguration: { level: string } }>;
    assert.deepEqual(rules.map((x) => x.id), Object.keys(RULES).sort());
    const missing = rules.find((x) => x.id === 'reference-missing')!;
    assert.equal(missing.shortDescription.text, RULES['reference-missing'].summary);
    // The repository's docs/rules.md (package.json `repository`), the rule's section.
    const repo = (JSON.parse(readFileSync('package.json', 'utf8')) as { repository: { url: string } }).repository.url;
    assert.equal(missing.helpUri, `${repositoryWebUrl(repo)}/blob/HEAD/docs/rules.md#reference-missing`);
    assert.match(missing.helpUri, /^https:\/\//);
    assert.equal(missing.defaultConfiguration.level, 'warning');
    assert.equal(rules.find((x) => x.id === 'shadowed')!.defaultConfiguration.level, 'note');
    const results = run0.results as Array<{ ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> } }> }>;
    const shape = results.map((x) => `${x.locations[0].physicalLocation.artifactLocation.uri} ${x.level} ${x.ruleId}`);
    assert.deepEqual(shape, [
      '.skillflow.json warning config-invalid',
      '.claude/skills/a%20b/SKILL.md error name-charset',
      '.claude/skills/a%20b/SKILL.md warning reference-missing',
      '.claude/skills/two/SKILL.md error name-case',
      '.claude/skills/two/SKILL.md error name-dir-mismatch',
      '.claude/skills/two/SKILL.md warning description-angle-brackets',
    ]);
    const case0 = results[3];
    assert.equal(rules[case0.ruleIndex].id, 'name-case');
    assert.deepEqual(case0.locations[0].physicalLocation.region, { startLine: 2, startColumn: 7, endLine: 2, endColumn: 10 });
    assert.equal(case0.locations[0].physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
  } finally {
    removeTree(dir);
  }
});

test('--format sarif: a clean run is a valid log with no results', async () => {
  const dir = tempTree({ '.claude/skills/ok/SKILL.md': skillMd('ok') });
  try {
    const r = await run(['validate', '--format', 'sarif', '--profile', 'upload'], dir);
    assert.equal(r.code, 0);
    const log = JSON.parse(r.out);
    const validate = sarifValidator();
    assert.ok(validate(log), JSON.stringify(validate.errors));
    assert.deepEqual(log.runs[0].results, []);
    assert.equal(log.runs[0].tool.driver.rules.find((x: { id: string }) => x.id === 'name-reserved').defaultConfiguration.level, 'error');
  } finally {
    removeTree(dir);
  }
});

test('the SARIF schema check can fail: a result without a message is rejected', () => {
  const validate = sarifValidator();
  assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'a' }] }] }), false);
  assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a', helpUri: 'not a uri' }] } } }] }), false);
});

test('--format github: one workflow command per problem, exact lines', async () => {
  const dir = tempTree(TREE);
  try {
    const r = await run(['validate', '--format', 'github', '--profile', 'spec'], dir);
    assert.equal(r.code, 1);
    const lines = r.out.split('\n');
    assert.equal(lines[0], "::warning file=.skillflow.json,line=1,col=27,endLine=1,endColumn=33,title=config-invalid::unknown key 'oops'; .skillflow.json accepts profile, rules and ignore");
    assert.match(lines[1], /^::error file=\.claude\/skills\/a b\/SKILL\.md,line=2,col=7,endLine=2,endColumn=10,title=name-charset::/);
    assert.match(lines[2], /^::warning file=\.claude\/skills\/a b\/SKILL\.md,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=reference-missing::.*references\/guide\.md/);
    assert.equal(lines[3], "::error file=.claude/skills/two/SKILL.md,line=2,col=7,endLine=2,endColumn=10,title=name-case::" + escapeData(lines[3].split('::')[2]));
    assert.equal(lines[6], 'skillflow: 2 skill(s) checked: 3 error(s), 3 warning(s)');
    assert.equal(lines.length, 8);
  } finally {
    removeTree(dir);
  }
});

test('github escaping: % \\r \\n in messages; also : and , in properties (Actions toolkit rules)', () => {
  assert.equal(escapeData('100% a\r\nb: c, d'), '100%25 a%0D%0Ab: c, d');
  assert.equal(escapeProperty('C:\\x,y%\n'), 'C%3A\\x%2Cy%25%0A');
  const result: ValidateResult = {
    skills: [{ path: 'a,b/x:y/SKILL.md', name: 'n', scope: 'project', problems: [
      { code: 'yaml-syntax', severity: 'error', message: 'bad: value,\nsee 50%', line: 3, column: 1, endLine: 4, endColumn: 2 },
      { code: 'shadowed', severity: 'info', message: 'hidden', line: 1, column: 1, endLine: 1, endColumn: 5, path: 'other/SKILL.md' },
    ] }],
    agents: [{ path: '.claude/agents/r.md', name: 'r', problems: [{ code: 'agent-model-invalid', severity: 'warning', message: 'm', line: 2, column: 8, endLine: 2, endColumn: 9 }] }],
    summary: { skills: 1, errors: 1, warnings: 1, infos: 1, agents: 1 },
  };
  assert.equal(formatGithub(result), [
    '::error file=a%2Cb/x%3Ay/SKILL.md,line=3,col=1,endLine=4,endColumn=2,title=yaml-syntax::bad: value,%0Asee 50%25',
    '::notice file=other/SKILL.md,line=1,col=1,endLine=1,endColumn=5,title=shadowed::hidden',
    '::warning file=.claude/agents/r.md,line=2,col=8,endLine=2,endColumn=9,title=agent-model-invalid::m',
    'skillflow: 1 skill(s) checked: 1 error(s), 1 warning(s)',
    '',
  ].join('\n'));
});

test('repositoryWebUrl: git+https and .git forms become the web URL; other forms give none', () => {
  assert.equal(repositoryWebUrl('git+https://example.org/o/r.git'), 'https://example.org/o/r');
  assert.equal(repositoryWebUrl('https://example.org/o/r/'), 'https://example.org/o/r');
  assert.equal(repositoryWebUrl('github:o/r'), undefined);
});
