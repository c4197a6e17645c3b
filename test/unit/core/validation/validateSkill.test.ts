import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { PROFILES, type Profile, type Range, type Severity } from '../../../../src/core/base/types';
import { estimateTokens } from '../../../../src/core/base/text';
import { suggestSkillName } from '../../../../src/core/validation/frontmatterRules';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { r, rangeOf, skill, summary } from '../../helpers/validation';

type Sev = Severity | undefined;

interface RuleCase {
  title: string;
  code: string;
  text: string;
  folderName?: string;
  /** Expected severity in [claude-code, spec, upload]; undefined = the code must not appear. */
  severities: [Sev, Sev, Sev];
  range: Range;
  message: RegExp;
  nearMiss: string;
  nearMissFolder?: string;
}

const FOLDER = 'my-skill';
const ok = (extra = '') => skill(`name: my-skill\ndescription: Does a thing.${extra ? '\n' + extra : ''}`);
const long = (n: number, ch = 'a') => ch.repeat(n);

const CASES: RuleCase[] = [
  { title: 'no frontmatter', code: 'frontmatter-missing', text: 'Just text\n', severities: ['error', 'error', 'error'],
    range: r(1, 1, 1, 10), message: /must start with a '---' line/, nearMiss: ok() },
  { title: 'no closing fence', code: 'frontmatter-unclosed', text: '---\nname: my-skill\ndescription: d\n', severities: ['error', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /no closing '---'/, nearMiss: '---\nname: my-skill\ndescription: d\n---\n' },
  { title: 'unquoted `: ` in a value', code: 'yaml-syntax', text: skill('name: my-skill\ndescription: Use when: asked'), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 15), message: /quote the value/, nearMiss: skill('name: my-skill\ndescription: "Use when: asked"') },
  { title: 'a list as frontmatter', code: 'frontmatter-not-mapping', text: skill('- name\n- description'), severities: ['error', 'error', 'error'],
    range: r(2, 1, 3, 14), message: /must be a YAML mapping/, nearMiss: ok() },
  { title: 'UTF-8 BOM', code: 'bom', text: '\uFEFF' + ok(), severities: ['warning', 'warning', 'error'],
    range: r(1, 1, 1, 2), message: /byte order mark/, nearMiss: ok() },
  { title: 'no name', code: 'name-missing', text: skill('description: d'), severities: ['error', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /'name' is missing.*name: my-skill/, nearMiss: ok() },
  { title: 'no description', code: 'description-missing', text: skill('name: my-skill'), severities: ['error', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /'description' is missing/, nearMiss: ok() },
  { title: 'numeric name', code: 'name-type', text: skill('name: 123\ndescription: d'), folderName: '123', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 10), message: /non-empty string \(it is the number 123\)/, nearMiss: skill('name: "123"\ndescription: d'), nearMissFolder: '123' },
  { title: 'empty name', code: 'name-type', text: skill('name: ""\ndescription: d'), severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 9), message: /it is empty/, nearMiss: ok() },
  { title: 'name without a value', code: 'name-type', text: skill('name:\ndescription: d'), severities: ['error', 'error', 'error'],
    range: r(2, 1, 2, 5), message: /it is empty/, nearMiss: ok() },
  { title: 'list description', code: 'description-type', text: skill('name: my-skill\ndescription: [a, b]'), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 20), message: /it is a list/, nearMiss: ok() },
  { title: 'whitespace description', code: 'description-type', text: skill('name: my-skill\ndescription: "   "'), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 19), message: /it is empty/, nearMiss: ok() },
  { title: '65-character name', code: 'name-length', text: skill(`name: ${long(65)}\ndescription: d`), folderName: long(65), severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 72), message: /at most 64 characters \(it has 65\)/, nearMiss: skill(`name: ${long(64)}\ndescription: d`), nearMissFolder: long(64) },
  { title: 'upper-case name', code: 'name-case', text: skill('name: My-Skill\ndescription: d'), folderName: 'My-Skill', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /lower-case \(found 'M', 'S'\); use 'my-skill'/, nearMiss: skill('name: my-skill\ndescription: d') },
  { title: 'underscore in name', code: 'name-charset', text: skill('name: my_skill\ndescription: d'), folderName: 'my_skill', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /only contain a-z, 0-9 and '-' \(found '_'\); use 'my-skill'/, nearMiss: ok() },
  { title: 'space in name', code: 'name-charset', text: skill('name: my skill\ndescription: d'), folderName: 'my skill', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /found space/, nearMiss: ok() },
  { title: 'accented name', code: 'name-charset', text: skill('name: café\ndescription: d'), folderName: 'café', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 11), message: /found 'é'/, nearMiss: skill('name: cafe\ndescription: d'), nearMissFolder: 'cafe' },
  { title: 'leading hyphen', code: 'name-hyphen', text: skill('name: -my-skill\ndescription: d'), folderName: '-my-skill', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /starts with '-'/, nearMiss: ok() },
  { title: 'double hyphen', code: 'name-hyphen', text: skill('name: my--skill\ndescription: d'), folderName: 'my--skill', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /contains '--'/, nearMiss: ok() },
  { title: 'trailing hyphen', code: 'name-hyphen', text: skill('name: my-skill-\ndescription: d'), folderName: 'my-skill-', severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /ends with '-'/, nearMiss: ok() },
  { title: 'name differs from folder', code: 'name-dir-mismatch', text: skill('name: template-skill\ndescription: d'), folderName: 'template', severities: ['warning', 'error', 'warning'],
    range: r(2, 7, 2, 21), message: /'template-skill' but the folder is 'template'/, nearMiss: skill('name: "  template  "\ndescription: d'), nearMissFolder: 'template' },
  { title: 'full-width name vs ASCII folder (NFKC-equal)', code: 'name-dir-mismatch', text: skill('name: other\ndescription: d'), severities: ['warning', 'error', 'warning'],
    range: r(2, 7, 2, 12), message: /'other' but the folder is 'my-skill'/, nearMiss: skill('name: ｍｙ-ｓｋｉｌｌ\ndescription: d') },
  { title: 'reserved word claude', code: 'name-reserved', text: skill('name: claude-helper\ndescription: d'), folderName: 'claude-helper', severities: [undefined, undefined, 'error'],
    range: r(2, 7, 2, 20), message: /reserved word 'claude'/, nearMiss: skill('name: cloud-helper\ndescription: d'), nearMissFolder: 'cloud-helper' },
  { title: 'reserved word anthropic', code: 'name-reserved', text: skill('name: my-anthropic\ndescription: d'), folderName: 'my-anthropic', severities: [undefined, undefined, 'error'],
    range: r(2, 7, 2, 19), message: /reserved word 'anthropic'/, nearMiss: ok() },
  { title: '1025-character description', code: 'description-length', text: skill(`name: my-skill\ndescription: ${long(1025)}`), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 1039), message: /at most 1024 characters \(it has 1025\)/, nearMiss: skill(`name: my-skill\ndescription: ${long(1024)}`) },
  { title: 'angle brackets in description', code: 'description-angle-brackets', text: skill('name: my-skill\ndescription: Wraps <b> tags'), severities: ['warning', 'warning', 'error'],
    range: r(3, 14, 3, 28), message: /must not contain '<' or '>'/, nearMiss: skill('name: my-skill\ndescription: Wraps b tags') },
  { title: 'description + when_to_use over 1536', code: 'listing-length', text: skill(`name: my-skill\ndescription: ${long(1000)}\nwhen_to_use: ${long(537)}`), severities: ['warning', undefined, undefined],
    range: r(3, 14, 3, 1014), message: /are 1537 characters.*1536/, nearMiss: skill(`name: my-skill\ndescription: ${long(1000)}\nwhen_to_use: ${long(536)}`) },
  { title: 'empty compatibility', code: 'compatibility-invalid', text: ok('compatibility: ""'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 18), message: /1–500 characters \(it is empty\)/, nearMiss: ok('compatibility: Requires git and network access') },
  { title: '501-character compatibility', code: 'compatibility-invalid', text: ok(`compatibility: ${long(501)}`), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 517), message: /\(it has 501\)/, nearMiss: ok(`compatibility: ${long(500)}`) },
  { title: 'numeric compatibility', code: 'compatibility-invalid', text: ok('compatibility: 3'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 17), message: /the number 3/, nearMiss: ok('compatibility: "3"') },
  { title: 'metadata value that is a number', code: 'metadata-invalid', text: ok('metadata:\n  author: me\n  version: 1.0'), severities: ['error', 'error', 'error'],
    range: r(6, 12, 6, 15), message: /'metadata.version' must be a string.*quote it: "1"/, nearMiss: ok('metadata:\n  author: me\n  version: "1.0"') },
  { title: 'metadata that is a list', code: 'metadata-invalid', text: ok('metadata: [a]'), severities: ['error', 'error', 'error'],
    range: r(4, 11, 4, 14), message: /map of string keys to string values \(it is a list\)/, nearMiss: ok('metadata: {a: b}') },
  { title: 'metadata with a nested map', code: 'metadata-invalid', text: ok('metadata:\n  nested:\n    x: y'), severities: ['error', 'error', 'error'],
    range: r(6, 5, 6, 9), message: /'metadata.nested' must be a string \(it is a map\)/, nearMiss: ok('metadata:\n  nested: "x: y"') },
  { title: 'allowed-tools as a YAML list (Claude Code only)', code: 'allowed-tools-invalid', text: ok('allowed-tools: [Read, Grep]'), severities: [undefined, 'error', 'error'],
    range: r(4, 16, 4, 28), message: /space-separated string in the (spec|upload) profile.*allowed-tools: Read Grep/, nearMiss: ok('allowed-tools: Read Grep') },
  { title: 'allowed-tools as a number', code: 'allowed-tools-invalid', text: ok('allowed-tools: 5'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 17), message: /space-separated string of tool names/, nearMiss: ok('allowed-tools: Bash(git status:*) Read') },
  { title: 'bad model', code: 'field-invalid', text: ok('model: gpt-4'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 13), message: /'model' must be one of sonnet, opus, haiku, inherit or a full model id/, nearMiss: ok('model: claude-sonnet-4-5-20250929') },
  { title: 'string boolean', code: 'field-invalid', text: ok('disable-model-invocation: "yes"'), severities: ['error', undefined, undefined],
    range: r(4, 27, 4, 32), message: /must be true or false \(it is "yes"\)/, nearMiss: ok('disable-model-invocation: true') },
  { title: 'context other than fork', code: 'field-invalid', text: ok('context: spawn'), severities: ['error', undefined, undefined],
    range: r(4, 10, 4, 15), message: /'context' must be fork/, nearMiss: ok('context: fork') },
  { title: 'effort out of range', code: 'field-invalid', text: ok('effort: extreme'), severities: ['error', undefined, undefined],
    range: r(4, 9, 4, 16), message: /one of low, medium, high, xhigh, max/, nearMiss: ok('effort: max') },
  { title: 'user-invocable as a number', code: 'field-invalid', text: ok('user-invocable: 0'), severities: ['error', undefined, undefined],
    range: r(4, 17, 4, 18), message: /true or false \(it is the number 0\)/, nearMiss: ok('user-invocable: false') },
  { title: 'paths as a map', code: 'field-invalid', text: ok('paths: {a: b}'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 14), message: /glob string or a list of globs/, nearMiss: ok('paths:\n  - "src/**/*.ts"') },
  { title: 'shell not bash/powershell', code: 'field-invalid', text: ok('shell: zsh'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 11), message: /one of bash, powershell/, nearMiss: ok('shell: powershell') },
  { title: 'hooks as a string', code: 'field-invalid', text: ok('hooks: run.sh'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 14), message: /map of hook events/, nearMiss: ok('hooks:\n  PreToolUse: []') },
  { title: 'an unknown key', code: 'unknown-key', text: ok('allowed_tools: Read'), severities: ['warning', 'error', 'error'],
    range: r(4, 1, 4, 14), message: /unknown key 'allowed_tools' \(did you mean 'allowed-tools'\?\)/, nearMiss: ok('allowed-tools: Read') },
  { title: 'a Claude Code key outside claude-code', code: 'unknown-key', text: ok('model: sonnet'), severities: [undefined, 'error', 'error'],
    range: r(4, 1, 4, 6), message: /'model' is a Claude Code key; the (spec|upload) profile accepts only name, description, license, compatibility, metadata, allowed-tools/, nearMiss: ok('license: MIT') },
  { title: 'body over 500 lines', code: 'body-lines', text: skill('name: my-skill\ndescription: d', 'x\n'.repeat(501)), severities: ['warning', 'warning', 'warning'],
    range: r(505, 1, 505, 2), message: /501 lines, over the recommended 500/, nearMiss: skill('name: my-skill\ndescription: d', 'x\n'.repeat(500)) },
  { title: 'body over 5000 tokens', code: 'body-tokens', text: skill('name: my-skill\ndescription: d', '\n' + 'y'.repeat(20001)), severities: ['warning', 'warning', 'warning'],
    range: r(6, 1, 6, 20002), message: /about 5001 tokens/, nearMiss: skill('name: my-skill\ndescription: d', 'y'.repeat(20000)) },
];

for (const c of CASES) {
  test(`${c.code}: ${c.title} — triggers with the right severity and range per profile, near miss does not`, () => {
    PROFILES.forEach((profile: Profile, i) => {
      const res = validateSkillMd(c.text, { profile, folderName: c.folderName ?? FOLDER }, nodeFileSystem);
      const hits = res.problems.filter((p) => p.code === c.code);
      const expected = c.severities[i];
      if (expected === undefined) {
        assert.deepEqual(hits, [], `${profile}: expected no ${c.code}`);
      } else {
        assert.equal(hits.length, 1, `${profile}: ${JSON.stringify(res.problems)}`);
        assert.equal(hits[0].severity, expected, profile);
        assert.deepEqual(rangeOf(hits[0]), c.range, profile);
        assert.match(hits[0].message, c.message, profile);
      }
      const near = validateSkillMd(c.nearMiss, { profile, folderName: c.nearMissFolder ?? c.folderName ?? FOLDER }, nodeFileSystem);
      assert.deepEqual(near.problems.filter((p) => p.code === c.code), [], `${profile} near miss`);
    });
  });
}

test('every single-file SPEC code has a table case', () => {
  const covered = new Set(CASES.map((c) => c.code));
  for (const code of ['frontmatter-missing', 'frontmatter-unclosed', 'yaml-syntax', 'frontmatter-not-mapping', 'bom', 'name-missing',
    'description-missing', 'name-type', 'description-type', 'name-length', 'name-case', 'name-charset', 'name-hyphen', 'name-dir-mismatch',
    'name-reserved', 'description-length', 'description-angle-brackets', 'listing-length', 'compatibility-invalid', 'metadata-invalid',
    'allowed-tools-invalid', 'field-invalid', 'unknown-key', 'body-lines', 'body-tokens']) {
    assert.ok(covered.has(code), code);
  }
});

test('a clean skill with every Claude Code key validates clean in claude-code', () => {
  const text = skill([
    'name: my-skill', 'description: Does a thing. Use when asked.', 'license: MIT', 'compatibility: Needs git',
    'metadata:', '  author: me', 'allowed-tools: Read Grep', 'when_to_use: When asked.', 'argument-hint: [issue-number]',
    'arguments: [issue, branch]', 'disable-model-invocation: false', 'user-invocable: true', 'disallowed-tools: Bash',
    'model: inherit', 'effort: high', 'context: fork', 'agent: Explore', 'background: false', 'hooks:', '  Stop: []',
    'paths: "src/**"', 'shell: bash', 'version: 1.2',
  ].join('\n'));
  const res = validateSkillMd(text, { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  assert.equal(res.parsed.data?.effort, 'high');
});

test('allowed-tools list entries are checked one by one in claude-code; the whole list is wrong elsewhere', () => {
  const text = ok('allowed-tools:\n  - Read\n  - ""\n  - 3');
  const cc = validateSkillMd(text, { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(summary(cc.problems), ['allowed-tools-invalid@6:5-6:7', 'allowed-tools-invalid@7:5-7:6']);
  assert.match(cc.problems[0].message, /entry 2: it is empty/);
  assert.match(cc.problems[1].message, /entry 3: it is the number 3/);
  const spec = validateSkillMd(text, { profile: 'spec', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(summary(spec.problems), ['allowed-tools-invalid@5:3-7:6']);
  assert.equal(spec.problems[0].severity, 'error');
});

test('unknown-key messages: a hint for near misses, the accepted keys outside claude-code', () => {
  const text = ok('descripton_extra: x\ncolour: red');
  const cc = validateSkillMd(text, { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(cc.problems.map((p) => p.message), [
    "unknown key 'descripton_extra'; Claude Code does not use it",
    "unknown key 'colour'; Claude Code does not use it",
  ]);
  const typo = validateSkillMd(ok('licence: MIT'), { profile: 'upload', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(typo.problems.map((p) => p.message), [
    "unknown key 'licence' (did you mean 'license'?); the upload profile accepts only name, description, license, compatibility, metadata, allowed-tools",
  ]);
});

test('field-invalid: every Claude Code key rejects a wrong shape and accepts a right one', () => {
  const cases: Array<[string, string, string]> = [
    ['when_to_use', '[a]', 'When asked.'],
    ['argument-hint', '{a: b}', '"[issue]"'],
    ['arguments', '3', 'issue branch'],
    ['disable-model-invocation', 'yes', 'true'],
    ['user-invocable', '"false"', 'false'],
    ['background', 'null', 'true'],
    ['disallowed-tools', '{Bash: true}', '[Bash, Write]'],
    ['model', 'claude', 'haiku'],
    ['effort', 'High', 'xhigh'],
    ['context', 'true', 'fork'],
    ['agent', '""', 'Explore'],
    ['hooks', '[a]', '{}'],
    ['paths', '7', '"*.md"'],
    ['shell', 'cmd', 'bash'],
    ['version', '[1]', '"1.0.0"'],
    ['license', '2024', 'Apache-2.0'],
  ];
  for (const [key, bad, good] of cases) {
    const wrong = validateSkillMd(ok(`${key}: ${bad}`), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.deepEqual(wrong.problems.map((p) => `${p.code}@${p.line}:${p.column}`), [`field-invalid@4:${key.length + 3}`], `${key}: ${bad}`);
    assert.match(wrong.problems[0].message, new RegExp(`^'${key}' must be `));
    const right = validateSkillMd(ok(`${key}: ${good}`), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.deepEqual(right.problems, [], `${key}: ${good}`);
    const spec = validateSkillMd(ok(`${key}: ${bad}`), { profile: 'spec', folderName: FOLDER }, nodeFileSystem);
    assert.ok(spec.problems.every((p) => p.code !== 'field-invalid'), `${key} in spec`);
  }
});

test('metadata keys must be strings too', () => {
  const res = validateSkillMd(ok('metadata:\n  1: one\n  ok: fine'), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['metadata-invalid@5:3-5:4']);
  assert.match(res.problems[0].message, /keys must be strings \(1 is not\); quote it/);
});

test('the same skill under spec reports each Claude Code key once as unknown-key and nothing else', () => {
  const text = skill('name: my-skill\ndescription: d\nmodel: opus\neffort: low\ncontext: fork');
  const res = validateSkillMd(text, { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['unknown-key@4:1-4:6', 'unknown-key@5:1-5:7', 'unknown-key@6:1-6:8']);
  assert.ok(res.problems.every((p) => p.severity === 'error'));
});

test('name checks apply after trimming and NFKC', () => {
  const res = validateSkillMd(skill('name: "  my-skill "\ndescription: d'), { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  const fullwidth = validateSkillMd(skill('name: ＭＹ\ndescription: d'), { profile: 'spec', folderName: 'MY' }, nodeFileSystem);
  assert.deepEqual(fullwidth.problems.map((p) => p.code), ['name-case']);
});

test('the folder name is compared NFKC-normalised, both ways', () => {
  const res = validateSkillMd(skill('name: my-skill\ndescription: d'), { profile: 'spec', folderName: 'ｍｙ-ｓｋｉｌｌ' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
});

test('an empty folderName skips name-dir-mismatch', () => {
  const res = validateSkillMd(skill('name: anything\ndescription: d'), { profile: 'spec', folderName: '' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
});

test('a name can trip several name rules at once', () => {
  const res = validateSkillMd(skill('name: -My_Skill\ndescription: d'), { profile: 'claude-code', folderName: '-My_Skill' }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => p.code).sort(), ['name-case', 'name-charset', 'name-hyphen']);
  assert.ok(res.problems.every((p) => p.line === 2 && p.column === 7 && p.endColumn === 16));
});

test('description-length counts characters (code points), after trimming', () => {
  const emoji = '😀'.repeat(1024);
  const res = validateSkillMd(skill(`name: my-skill\ndescription: "  ${emoji}  "`), { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  const over = validateSkillMd(skill(`name: my-skill\ndescription: ${emoji}😀`), { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(over.problems.map((p) => p.message), ["'description' must be at most 1024 characters (it has 1025)"]);
});

test('listing-length also applies to a long description alone', () => {
  const res = validateSkillMd(skill(`name: my-skill\ndescription: ${'b'.repeat(1537)}`), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => p.code).sort(), ['description-length', 'listing-length']);
});

test('yaml errors suppress the key rules (no false name-missing)', () => {
  const res = validateSkillMd(skill('description: a: b'), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => p.code), ['yaml-syntax']);
});

test('a missing frontmatter still gets body checks', () => {
  const res = validateSkillMd('x\n'.repeat(600), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['frontmatter-missing@1:1-1:2', 'body-lines@501:1-501:2']);
});

test('body-lines: CRLF bodies count the same', () => {
  const text = skill('name: my-skill\ndescription: d', 'x\n'.repeat(501)).replace(/\n/g, '\r\n');
  const res = validateSkillMd(text, { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['body-lines@505:1-505:2']);
});

test('problems come sorted by position', () => {
  const res = validateSkillMd(skill('foo: 1\nname: My\nbar: 2'), { profile: 'claude-code', folderName: 'My' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['description-missing@1:1-1:4', 'unknown-key@2:1-2:4', 'name-case@3:7-3:9', 'unknown-key@4:1-4:4']);
});

test('estimateTokens is characters / 4 rounded up', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
});

test('suggestSkillName makes a valid kebab-case name', () => {
  assert.equal(suggestSkillName('My Skill'), 'my-skill');
  assert.equal(suggestSkillName('myCoolSkill'), 'my-cool-skill');
  assert.equal(suggestSkillName('--a__b--'), 'a-b');
  assert.equal(suggestSkillName('ｍｙ'), 'my');
  assert.equal(suggestSkillName('a'.repeat(70)).length, 64);
  assert.equal(suggestSkillName('!!!'), '');
});
