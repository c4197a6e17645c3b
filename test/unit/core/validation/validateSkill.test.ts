import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { PROFILES, type Profile, type Range, type Severity } from '../../../../src/core/base/types';
import { estimateTokens } from '../../../../src/core/base/text';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { validateAgentMd } from '../../../../src/core/agents/agents';
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
  { title: 'no frontmatter', code: 'frontmatter-missing', text: 'Just text\n', severities: ['warning', 'error', 'error'],
    range: r(1, 1, 1, 10), message: /^Start the file with a '---' line/, nearMiss: ok() },
  { title: 'no closing fence', code: 'frontmatter-unclosed', text: '---\nname: my-skill\ndescription: d\n', severities: ['error', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /^Add a closing '---' line/, nearMiss: '---\nname: my-skill\ndescription: d\n---\n' },
  // changelog 2.1.69: "Fixed skill descriptions with colons (e.g., "Triggers include: X, Y, Z") failing to load from SKILL.md frontmatter".
  { title: 'unquoted `: ` in a value', code: 'yaml-syntax', text: skill('name: my-skill\ndescription: Use when: asked'), severities: ['warning', 'error', 'error'],
    range: r(3, 14, 3, 29), message: /^Quote the description: it contains ': '/, nearMiss: skill('name: my-skill\ndescription: "Use when: asked"') },
  { title: 'a list as frontmatter', code: 'frontmatter-not-mapping', text: skill('- name\n- description'), severities: ['error', 'error', 'error'],
    range: r(2, 1, 3, 14), message: /^Write the frontmatter as `key: value` lines/, nearMiss: ok() },
  { title: 'UTF-8 BOM', code: 'bom', text: '\uFEFF' + ok(), severities: ['warning', 'warning', 'error'],
    range: r(1, 1, 1, 2), message: /^Save the file as UTF-8 without a byte order mark/, nearMiss: ok() },
  { title: 'no name', code: 'name-missing', text: skill('description: d'), severities: ['warning', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /^Add 'name: my-skill': it is missing \(Claude Code uses the folder name/, nearMiss: ok() },
  { title: 'no description', code: 'description-missing', text: skill('name: my-skill'), severities: ['warning', 'error', 'error'],
    range: r(1, 1, 1, 4), message: /^Add a 'description'.*first paragraph/, nearMiss: ok() },
  // changelog 2.1.47: "a skill's `name` or `description` … is a bare number (e.g., `name: 3000`) — the value is now properly coerced to a string".
  { title: 'numeric name', code: 'name-type', text: skill('name: 123\ndescription: d'), folderName: '123', severities: [undefined, 'error', 'error'],
    range: r(2, 7, 2, 10), message: /^Give 'name' a non-empty string value \(it is the number 123\)/, nearMiss: skill('name: "123"\ndescription: d'), nearMissFolder: '123' },
  { title: 'empty name', code: 'name-type', text: skill('name: ""\ndescription: d'), severities: ['error', 'error', 'error'],
    range: r(2, 7, 2, 9), message: /it is empty/, nearMiss: ok() },
  { title: 'name without a value', code: 'name-type', text: skill('name:\ndescription: d'), severities: ['error', 'error', 'error'],
    range: r(2, 1, 2, 5), message: /it is empty/, nearMiss: ok() },
  { title: 'list description', code: 'description-type', text: skill('name: my-skill\ndescription: [a, b]'), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 20), message: /it is a list/, nearMiss: ok() },
  { title: 'whitespace description', code: 'description-type', text: skill('name: my-skill\ndescription: "   "'), severities: ['error', 'error', 'error'],
    range: r(3, 14, 3, 19), message: /it is empty/, nearMiss: ok() },
  { title: '65-character name', code: 'name-length', text: skill(`name: ${long(65)}\ndescription: d`), folderName: long(65), severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 72), message: /^Shorten the name to at most 64 characters \(it has 65\)/, nearMiss: skill(`name: ${long(64)}\ndescription: d`), nearMissFolder: long(64) },
  { title: 'upper-case name', code: 'name-case', text: skill('name: My-Skill\ndescription: d'), folderName: 'My-Skill', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /^Rename to 'my-skill': 'name' (must be lower-case|has upper-case letters) \(found 'M', 'S'\)/, nearMiss: skill('name: my-skill\ndescription: d') },
  { title: 'underscore in name', code: 'name-charset', text: skill('name: my_skill\ndescription: d'), folderName: 'my_skill', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /^Rename to 'my-skill': 'name' (may only contain|has characters other than) a-z, 0-9 and '-' \(found '_'\)/, nearMiss: ok() },
  { title: 'space in name', code: 'name-charset', text: skill('name: my skill\ndescription: d'), folderName: 'my skill', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 15), message: /found space/, nearMiss: ok() },
  { title: 'accented name (a non-ASCII lower-case letter: the reference validator accepts it)', code: 'name-charset', text: skill('name: café\ndescription: d'), folderName: 'café', severities: ['warning', 'warning', 'error'],
    range: r(2, 7, 2, 11), message: /^Rename to 'cafe' to be portable: .*found 'é'/, nearMiss: skill('name: cafe\ndescription: d'), nearMissFolder: 'cafe' },
  { title: 'leading hyphen', code: 'name-hyphen', text: skill('name: -my-skill\ndescription: d'), folderName: '-my-skill', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /^Rename to 'my-skill': .*starts with '-'/, nearMiss: ok() },
  { title: 'double hyphen', code: 'name-hyphen', text: skill('name: my--skill\ndescription: d'), folderName: 'my--skill', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /contains '--'/, nearMiss: ok() },
  { title: 'trailing hyphen', code: 'name-hyphen', text: skill('name: my-skill-\ndescription: d'), folderName: 'my-skill-', severities: ['warning', 'error', 'error'],
    range: r(2, 7, 2, 16), message: /ends with '-'/, nearMiss: ok() },
  { title: 'name differs from folder', code: 'name-dir-mismatch', text: skill('name: template-skill\ndescription: d'), folderName: 'template', severities: ['warning', 'error', 'warning'],
    range: r(2, 7, 2, 21), message: /^Rename to 'template' to match the folder \(name is 'template-skill'\)/, nearMiss: skill('name: "  template  "\ndescription: d'), nearMissFolder: 'template' },
  { title: 'full-width name vs ASCII folder (NFKC-equal)', code: 'name-dir-mismatch', text: skill('name: other\ndescription: d'), severities: ['warning', 'error', 'warning'],
    range: r(2, 7, 2, 12), message: /^Rename to 'my-skill' to match the folder \(name is 'other'\)/, nearMiss: skill('name: ｍｙ-ｓｋｉｌｌ\ndescription: d') },
  { title: 'reserved word claude', code: 'name-reserved', text: skill('name: claude-helper\ndescription: d'), folderName: 'claude-helper', severities: [undefined, undefined, 'error'],
    range: r(2, 7, 2, 20), message: /^Remove 'claude' from the name/, nearMiss: skill('name: cloud-helper\ndescription: d'), nearMissFolder: 'cloud-helper' },
  { title: 'reserved word anthropic', code: 'name-reserved', text: skill('name: my-anthropic\ndescription: d'), folderName: 'my-anthropic', severities: [undefined, undefined, 'error'],
    range: r(2, 7, 2, 19), message: /^Remove 'anthropic' from the name/, nearMiss: ok() },
  { title: '1025-character description', code: 'description-length', text: skill(`name: my-skill\ndescription: ${long(1025)}`), severities: ['warning', 'error', 'error'],
    range: r(3, 14, 3, 1039), message: /^Shorten the description to at most 1024 characters \(it has 1025\)/, nearMiss: skill(`name: my-skill\ndescription: ${long(1024)}`) },
  { title: 'angle brackets in description', code: 'description-angle-brackets', text: skill('name: my-skill\ndescription: Wraps <b> tags'), severities: ['warning', 'warning', 'error'],
    range: r(3, 14, 3, 28), message: /^Remove '<' and '>' from the description/, nearMiss: skill('name: my-skill\ndescription: Wraps b tags') },
  { title: 'description + when_to_use over 1536', code: 'listing-length', text: skill(`name: my-skill\ndescription: ${long(1000)}\nwhen_to_use: ${long(537)}`), severities: ['warning', undefined, undefined],
    range: r(3, 14, 3, 1014), message: /^Put the trigger words first or shorten: .*\(1537 characters\) at 1536/, nearMiss: skill(`name: my-skill\ndescription: ${long(1000)}\nwhen_to_use: ${long(536)}`) },
  { title: 'empty compatibility', code: 'compatibility-invalid', text: ok('compatibility: ""'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 18), message: /^Write 'compatibility' as a string of 1–500 characters \(it is empty\)/, nearMiss: ok('compatibility: Requires git and network access') },
  { title: '501-character compatibility', code: 'compatibility-invalid', text: ok(`compatibility: ${long(501)}`), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 517), message: /\(it has 501\)/, nearMiss: ok(`compatibility: ${long(500)}`) },
  { title: 'numeric compatibility', code: 'compatibility-invalid', text: ok('compatibility: 3'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 17), message: /the number 3/, nearMiss: ok('compatibility: "3"') },
  { title: 'metadata value that is a number (the reference validator reads it as a string: a warning)', code: 'metadata-invalid', text: ok('metadata:\n  author: me\n  version: 1.0'), severities: ['warning', 'warning', 'warning'],
    range: r(6, 12, 6, 15), message: /^Quote it: "1.0" \('metadata.version' must be a string/, nearMiss: ok('metadata:\n  author: me\n  version: "1.0"') },
  { title: 'metadata that is a list', code: 'metadata-invalid', text: ok('metadata: [a]'), severities: ['warning', 'error', 'error'],
    range: r(4, 11, 4, 14), message: /^Write 'metadata' as a map of string keys to string values \(it is a list\)/, nearMiss: ok('metadata: {a: b}') },
  { title: 'metadata with a nested map', code: 'metadata-invalid', text: ok('metadata:\n  nested:\n    x: y'), severities: ['warning', 'error', 'error'],
    range: r(6, 5, 6, 9), message: /^Write 'metadata.nested' as a string \(it is a map\)/, nearMiss: ok('metadata:\n  nested: "x: y"') },
  { title: 'allowed-tools as a YAML list (Claude Code only)', code: 'allowed-tools-invalid', text: ok('allowed-tools: [Read, Grep]'), severities: [undefined, 'error', 'error'],
    range: r(4, 16, 4, 28), message: /^Write 'allowed-tools' as a space-separated string: allowed-tools: Read Grep \(the (spec|upload) profile/, nearMiss: ok('allowed-tools: Read Grep') },
  { title: 'allowed-tools as a number', code: 'allowed-tools-invalid', text: ok('allowed-tools: 5'), severities: ['error', 'error', 'error'],
    range: r(4, 16, 4, 17), message: /^Write 'allowed-tools' as a space-separated string of tool names/, nearMiss: ok('allowed-tools: Bash(git status:*) Read') },
  { title: 'model that is no model name', code: 'field-invalid', text: ok('model: sonnet 4'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 16), message: /^Use a \/model value .* for 'model' \(it is "sonnet 4"\)/, nearMiss: ok('model: opusplan') },
  { title: 'model as a list (sonnet[1m] is a /model value)', code: 'field-invalid', text: ok('model: [sonnet]'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 16), message: /for 'model' \(it is a list\)/, nearMiss: ok('model: sonnet[1m]') },
  { title: 'boolean word Claude Code does not read', code: 'field-invalid', text: ok('disable-model-invocation: maybe'), severities: ['error', undefined, undefined],
    range: r(4, 27, 4, 32), message: /^Use true or false .* for 'disable-model-invocation' \(it is "maybe"\)/, nearMiss: ok('disable-model-invocation: yes') },
  { title: 'context other than fork', code: 'field-invalid', text: ok('context: spawn'), severities: ['error', undefined, undefined],
    range: r(4, 10, 4, 15), message: /^Use fork .* for 'context'/, nearMiss: ok('context: fork') },
  { title: 'effort out of range', code: 'field-invalid', text: ok('effort: extreme'), severities: ['error', undefined, undefined],
    range: r(4, 9, 4, 16), message: /^Use one of low, medium, high, xhigh, max for 'effort'/, nearMiss: ok('effort: xhigh') },
  { title: 'user-invocable as a number other than 1/0', code: 'field-invalid', text: ok('user-invocable: 2'), severities: ['error', undefined, undefined],
    range: r(4, 17, 4, 18), message: /for 'user-invocable' \(it is the number 2\)/, nearMiss: ok('user-invocable: 0') },
  { title: 'paths as a map', code: 'field-invalid', text: ok('paths: {a: b}'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 14), message: /^Use a glob string or a list of globs for 'paths'/, nearMiss: ok('paths:\n  - "src/**/*.ts"') },
  { title: 'shell not bash/powershell', code: 'field-invalid', text: ok('shell: zsh'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 11), message: /^Use one of bash, powershell for 'shell'/, nearMiss: ok('shell: powershell') },
  { title: 'hooks as a string', code: 'field-invalid', text: ok('hooks: run.sh'), severities: ['error', undefined, undefined],
    range: r(4, 8, 4, 14), message: /^Use a map of hook events for 'hooks'/, nearMiss: ok('hooks:\n  PreToolUse: []') },
  { title: 'background without context: fork (Claude Code ignores it)', code: 'field-invalid', text: ok('background: false'), severities: ['error', undefined, undefined],
    range: r(4, 1, 4, 18), message: /^Add 'context: fork' or remove 'background': Claude Code ignores 'background' without 'context: fork'/, nearMiss: ok('context: fork\nbackground: false') },
  { title: 'agent without context: fork (Claude Code ignores it)', code: 'field-invalid', text: ok('agent: Explore'), severities: ['error', undefined, undefined],
    range: r(4, 1, 4, 15), message: /^Add 'context: fork' or remove 'agent'/, nearMiss: ok('agent: Explore\ncontext: fork') },
  { title: 'an unknown key', code: 'unknown-key', text: ok('allowed_tools: Read'), severities: ['warning', 'error', 'error'],
    range: r(4, 1, 4, 20), message: /^Rename 'allowed_tools' to 'allowed-tools' or remove it: /, nearMiss: ok('allowed-tools: Read') },
  { title: 'a Claude Code key outside claude-code', code: 'unknown-key', text: ok('model: sonnet'), severities: [undefined, 'error', 'error'],
    range: r(4, 1, 4, 14), message: /^Remove 'model' or use the claude-code profile: it is a Claude Code key, and the (spec|upload) profile accepts only name, description, license, compatibility, metadata, allowed-tools/, nearMiss: ok('license: MIT') },
  { title: 'body over 500 lines', code: 'body-lines', text: skill('name: my-skill\ndescription: d', 'x\n'.repeat(501)), severities: ['warning', 'warning', 'warning'],
    range: r(505, 1, 505, 2), message: /^Move detail into references\/ files: the body has 501 lines, over the recommended 500/, nearMiss: skill('name: my-skill\ndescription: d', 'x\n'.repeat(500)) },
  { title: 'body over 5000 tokens', code: 'body-tokens', text: skill('name: my-skill\ndescription: d', '\n' + 'y'.repeat(20001)), severities: ['warning', 'warning', 'warning'],
    range: r(6, 1, 6, 20002), message: /^Move detail into references\/ files: the body is about 5001 tokens/, nearMiss: skill('name: my-skill\ndescription: d', 'y'.repeat(20000)) },
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
    'paths: "src/**"', 'shell: bash',
  ].join('\n'));
  const res = validateSkillMd(text, { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  assert.equal(res.parsed.data?.effort, 'high');
});

test('version: is no documented key (docs/skills.md frontmatter reference): unknown-key, pointing to metadata', () => {
  // docs/skills.md lists name … metadata, license, compatibility; `version` is not among them. `metadata` is "Free-form
  // YAML map for your own key-value data".
  const res = validateSkillMd(ok('version: 1.2'), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => [p.code, p.severity]), [['unknown-key', 'warning']]);
  assert.match(res.problems[0].message, /^Move 'version' under 'metadata' or remove it/);
  assert.deepEqual(validateSkillMd(ok('metadata:\n  version: "1.2"'), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem).problems, []);
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
    "Remove 'descripton_extra': Claude Code does not use it",
    "Remove 'colour': Claude Code does not use it",
  ]);
  const typo = validateSkillMd(ok('licence: MIT'), { profile: 'upload', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(typo.problems.map((p) => p.message), [
    "Rename 'licence' to 'license' or remove it: the upload profile accepts only name, description, license, compatibility, metadata, allowed-tools",
  ]);
  // A near key is named only when the value would be right for it: `agents:` listing the tools a skill is written
  // for (alirezarezvani/claude-skills) is no misspelt `agent` (one sub-agent type, a string).
  const message = (line: string) => validateSkillMd(ok(line), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem).problems.map((p) => p.message);
  assert.deepEqual(message('agents:\n  - claude-code\n  - codex-cli'), ["Remove 'agents': Claude Code does not use it"]);
  assert.deepEqual(message('agents: Explore'), ["Rename 'agents' to 'agent' or remove it: Claude Code does not use it"]);
  assert.deepEqual(message('user_invocable: false'), ["Rename 'user_invocable' to 'user-invocable' or remove it: Claude Code does not use it"]);
  assert.deepEqual(message('user_invocable: [a]'), ["Remove 'user_invocable': Claude Code does not use it"]);
});

test('field-invalid: every Claude Code key rejects a wrong shape and accepts a right one', () => {
  const cases: Array<[string, string, string]> = [
    ['when_to_use', '[a]', 'When asked.'],
    ['argument-hint', '{a: b}', '""'],
    ['arguments', '3', 'issue branch'],
    ['disable-model-invocation', 'maybe', 'YES'],
    ['user-invocable', '"nope"', '"false"'],
    ['background', 'null', 'true'],
    ['disallowed-tools', '{Bash: true}', '[Bash, Write]'],
    ['model', '"two words"', 'opusplan'],
    ['effort', 'High', 'xhigh'],
    ['context', 'true', 'fork'],
    ['agent', '""', 'Explore'],
    ['hooks', '[a]', '{}'],
    ['paths', '7', '"*.md"'],
    ['shell', 'cmd', 'bash'],
  ];
  for (const [key, bad, good] of cases) {
    // agent and background only apply with context: fork (else they are reported as ignored).
    const fork = key === 'agent' || key === 'background' ? '\ncontext: fork' : '';
    const wrong = validateSkillMd(ok(`${key}: ${bad}${fork}`), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.deepEqual(wrong.problems.map((p) => `${p.code}@${p.line}:${p.column}`), [`field-invalid@4:${key.length + 3}`], `${key}: ${bad}`);
    assert.match(wrong.problems[0].message, new RegExp(`^Use .* for '${key}' \\(`));
    const right = validateSkillMd(ok(`${key}: ${good}${fork}`), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.deepEqual(right.problems, [], `${key}: ${good}`);
    const spec = validateSkillMd(ok(`${key}: ${bad}`), { profile: 'spec', folderName: FOLDER }, nodeFileSystem);
    assert.ok(spec.problems.every((p) => p.code !== 'field-invalid'), `${key} in spec`);
  }
});

test('metadata keys must be strings too', () => {
  const res = validateSkillMd(ok('metadata:\n  1: one\n  ok: fine'), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['metadata-invalid@5:3-5:4']);
  assert.match(res.problems[0].message, /^Quote the metadata key 1: keys must be strings/);
});

test('the same skill under spec reports each Claude Code key once as unknown-key and nothing else', () => {
  const text = skill('name: my-skill\ndescription: d\nmodel: opus\neffort: low\ncontext: fork');
  const res = validateSkillMd(text, { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['unknown-key@4:1-4:12', 'unknown-key@5:1-5:12', 'unknown-key@6:1-6:14']);
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

test('name format rules in claude-code: warnings that say Claude Code shows a project skill\'s name as a label only', () => {
  const res = validateSkillMd(skill('name: Agent Development\ndescription: d'), { profile: 'claude-code', folderName: 'agent-development' }, nodeFileSystem);
  const note = "Claude Code shows it as a label only in a personal or project skill (the command is /agent-development); the Agent Skills spec, claude.ai uploads and packaging refuse it";
  assert.deepEqual(res.problems.map((p) => [p.code, p.severity, p.message]), [
    ['name-case', 'warning', `Rename to 'agent-development': 'name' has upper-case letters (found 'A', 'D'); ${note}`],
    ['name-charset', 'warning', `Rename to 'agent-development': 'name' has characters other than a-z, 0-9 and '-' (found space); ${note}`],
    ['name-dir-mismatch', 'warning', "Rename to 'agent-development' to match the folder (name is 'Agent Development')"],
  ]);
  const hyphen = validateSkillMd(skill('name: my--skill\ndescription: d'), { profile: 'claude-code', folderName: 'my--skill' }, nodeFileSystem);
  assert.deepEqual(hyphen.problems.map((p) => [p.severity, p.message]), [
    ['warning', "Rename to 'my-skill': 'name' contains '--'; Claude Code shows it as a label only in a personal or project skill (the command is /my--skill); the Agent Skills spec, claude.ai uploads and packaging refuse it"],
  ]);
  const long = validateSkillMd(skill(`name: ${'a'.repeat(65)}\ndescription: d`), { profile: 'claude-code', folderName: '' }, nodeFileSystem);
  assert.deepEqual(long.problems.map((p) => [p.severity, p.message]), [
    ['warning', 'Shorten the name to at most 64 characters (it has 65); Claude Code shows it as a label only in a personal or project skill (the command is the folder name); the Agent Skills spec, claude.ai uploads and packaging refuse it'],
  ]);
});

test('name format rules in claude-code: in a plugin skill the message says the name is also the command', () => {
  const ctx = { profile: 'claude-code' as const, folderName: 'agent-development', plugin: 'plugin-dev' };
  const res = validateSkillMd(skill('name: Agent Development\ndescription: d'), ctx, nodeFileSystem);
  const note = 'Claude Code also makes it the command (/plugin-dev:Agent Development); the Agent Skills spec, claude.ai uploads and packaging refuse it';
  assert.deepEqual(res.problems.filter((p) => p.code !== 'name-dir-mismatch').map((p) => [p.code, p.severity, p.message]), [
    ['name-case', 'warning', `Rename to 'agent-development': 'name' has upper-case letters (found 'A', 'D'); ${note}`],
    ['name-charset', 'warning', `Rename to 'agent-development': 'name' has characters other than a-z, 0-9 and '-' (found space); ${note}`],
  ]);
  // A long name is cut in the message (at 40 characters, never inside a surrogate pair).
  const long = validateSkillMd(skill(`name: ${'😀'.repeat(65)}\ndescription: d`), { ...ctx, folderName: '' }, nodeFileSystem);
  const length = long.problems.find((p) => p.code === 'name-length')!;
  assert.equal(length.message, `Shorten the name to at most 64 characters (it has 65); Claude Code also makes it the command (/plugin-dev:${'😀'.repeat(40)}…); the Agent Skills spec, claude.ai uploads and packaging refuse it`);
});

test('name format rules outside claude-code: errors with the spec wording, whatever the plugin', () => {
  for (const profile of ['spec', 'upload'] as const) {
    for (const plugin of [undefined, 'plugin-dev']) {
      const res = validateSkillMd(skill('name: Agent Development\ndescription: d'), { profile, folderName: 'agent-development', plugin }, nodeFileSystem);
      assert.deepEqual(res.problems.filter((p) => p.code !== 'name-dir-mismatch').map((p) => [p.code, p.severity, p.message]), [
        ['name-case', 'error', "Rename to 'agent-development': 'name' must be lower-case (found 'A', 'D')"],
        ['name-charset', 'error', "Rename to 'agent-development': 'name' may only contain a-z, 0-9 and '-' (found space)"],
      ], `${profile} ${plugin}`);
    }
    const hyphen = validateSkillMd(skill('name: -my-skill\ndescription: d'), { profile, folderName: '-my-skill' }, nodeFileSystem);
    assert.deepEqual(hyphen.problems.map((p) => [p.severity, p.message]), [['error', "Rename to 'my-skill': 'name' must not start or end with '-' or contain '--' (it starts with '-')"]]);
  }
});

test('a non-string name stays an error in every profile (Claude Code ignores it)', () => {
  for (const profile of PROFILES) {
    const res = validateSkillMd(skill('name: [Agent, Development]\ndescription: d'), { profile, folderName: 'agent-development', plugin: 'plugin-dev' }, nodeFileSystem);
    assert.deepEqual(res.problems.map((p) => [p.code, p.severity]), [['name-type', 'error']], profile);
  }
});

test('description-length counts characters (code points), after trimming', () => {
  const emoji = '😀'.repeat(1024);
  const res = validateSkillMd(skill(`name: my-skill\ndescription: "  ${emoji}  "`), { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  const over = validateSkillMd(skill(`name: my-skill\ndescription: ${emoji}😀`), { profile: 'spec', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(over.problems.map((p) => p.message), ['Shorten the description to at most 1024 characters (it has 1025); the spec and claude.ai uploads refuse longer ones']);
});

test('listing-length also applies to a long description alone', () => {
  const res = validateSkillMd(skill(`name: my-skill\ndescription: ${'b'.repeat(1537)}`), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => p.code).sort(), ['description-length', 'listing-length']);
});

test('yaml errors suppress the key rules (no false name-missing)', () => {
  const res = validateSkillMd(skill('description: [a, b'), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(res.problems.map((p) => p.code), ['yaml-syntax']);
  // An unquoted `: ` is read the way Claude Code reads it (changelog 2.1.69), so the key rules run on what it reads.
  const colon = validateSkillMd(skill('description: a: b'), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.deepEqual(colon.problems.map((p) => [p.code, p.severity]), [['name-missing', 'warning'], ['yaml-syntax', 'warning']]);
});

// docs/skills.md: "If the frontmatter YAML is malformed, Claude Code loads the skill body with empty metadata"; measured
// for a command (cathrynlavery/diagram-design, Claude Code 2.1.232): "continues with frontmatter = {}. The command still
// loads and runs."
test('a frontmatter that does not parse: the first error says what Claude Code does (claude-code only), once', () => {
  const text = skill('name: my-skill\ndescription: Does x.\nargument-hint: [a] [b]\nmodel: [x');
  const messages = (profile: Profile, command?: boolean) => validateSkillMd(text, { profile, folderName: 'my-skill', command }, nodeFileSystem).problems
    .filter((p) => p.code === 'yaml-syntax').map((p) => p.message);
  const skillSays = "; Claude Code then loads the skill with empty metadata: the folder's name, the body's first paragraph as the description, none of the other keys";
  const commandSays = '; Claude Code then runs the command with none of its frontmatter: no description, argument-hint or allowed-tools';
  const inSkill = messages('claude-code');
  assert.ok(inSkill.length >= 1 && inSkill[0].endsWith(skillSays), JSON.stringify(inSkill));
  assert.ok(inSkill.slice(1).every((m) => !m.includes('Claude Code then')), 'said once');
  assert.ok(messages('claude-code', true)[0].endsWith(commandSays));
  for (const profile of ['spec', 'upload'] as const) assert.ok(messages(profile).every((m) => !m.includes('Claude Code then')), profile);
  // Read anyway (an unquoted `: `): a warning, nothing more said.
  const colon = validateSkillMd(skill('name: my-skill\ndescription: Use when: asked'), { profile: 'claude-code', folderName: 'my-skill' }, nodeFileSystem);
  assert.ok(colon.problems.every((p) => !p.message.includes('Claude Code then')));
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

test('body-lines and body-tokens in a command file: make it a skill first (a command has no folder for references/)', () => {
  const ctx = { profile: 'claude-code' as const, folderName: 'deploy', command: true };
  const lines = validateSkillMd(skill('description: d', 'x\n'.repeat(501)), ctx, nodeFileSystem).problems.filter((p) => p.code.startsWith('body-'));
  assert.deepEqual(lines.map((p) => p.code), ['body-lines']);
  assert.match(lines[0].message, /^Make it a skill \(a folder with SKILL\.md\) and move detail into references\/ files: the body has 501 lines/);
  const tokens = validateSkillMd(skill('description: d', 'y'.repeat(20004)), ctx, nodeFileSystem).problems;
  assert.match(tokens.find((p) => p.code === 'body-tokens')?.message ?? '', /^Make it a skill .*: the body is about 5001 tokens/);
});

test('problems come sorted by position', () => {
  const res = validateSkillMd(skill('foo: 1\nname: My\nbar: 2'), { profile: 'claude-code', folderName: 'My' }, nodeFileSystem);
  assert.deepEqual(summary(res.problems), ['description-missing@1:1-1:4', 'unknown-key@2:1-2:7', 'name-case@3:7-3:9', 'unknown-key@4:1-4:7']);
});

test('estimateTokens is characters / 4 rounded up', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
});

test('values Claude Code accepts are clean under the default profile (booleans, /model values, effort levels)', () => {
  const accepted = [
    'disable-model-invocation: yes', 'disable-model-invocation: No', 'disable-model-invocation: ON', 'disable-model-invocation: off',
    'disable-model-invocation: 1', 'disable-model-invocation: 0', 'user-invocable: "false"', 'model: opusplan', 'model: sonnet[1m]',
    'model: default', 'model: best', 'model: inherit', 'model: claude-opus-4-8[1m]', 'model: claude-sonnet-4-5-20250929',
    'effort: xhigh', 'effort: max', 'argument-hint: ""', 'argument-hint: [topic]', 'allowed-tools: Read, Grep',
  ];
  for (const line of accepted) {
    const res = validateSkillMd(ok(line), { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.deepEqual(res.problems, [], line);
  }
});

test('Claude Code defaults: a SKILL.md with no name, no description, even no frontmatter has warnings only in claude-code, errors in spec/upload', () => {
  for (const text of [skill('description: d'), skill('name: my-skill'), skill('license: MIT'), '# Title\n\nFirst paragraph.\n']) {
    const cc = validateSkillMd(text, { profile: 'claude-code', folderName: FOLDER }, nodeFileSystem);
    assert.ok(cc.problems.length > 0 && cc.problems.every((p) => p.severity === 'warning'), JSON.stringify(cc.problems));
    for (const profile of ['spec', 'upload'] as const) {
      const other = validateSkillMd(text, { profile, folderName: FOLDER }, nodeFileSystem);
      assert.ok(other.problems.some((p) => p.severity === 'error'), `${profile}: ${JSON.stringify(other.problems)}`);
    }
  }
});

test('in an agent file, a missing description stays an error; no name (or no frontmatter) is documentation (docs/sub-agents.md)', () => {
  const path = '/ws/.claude/agents/reviewer.md';
  // docs/sub-agents.md: "**No `name`**: Claude Code treats the file as documentation kept beside your agents."
  const noName = validateAgentMd('---\ndescription: d\n---\n', path, undefined);
  assert.deepEqual([noName.documentation, noName.problems], [true, []]);
  const noDescription = validateAgentMd('---\nname: reviewer\n---\n', path, undefined);
  assert.deepEqual(noDescription.problems.map((p) => [p.code, p.severity]), [['description-missing', 'error']]);
  const none = validateAgentMd('Just text\n', path, undefined);
  assert.deepEqual([none.documentation, none.problems], [true, []]);
  // A frontmatter that does not parse is no documentation: Claude Code skips the file ("YAML that doesn't parse").
  const broken = validateAgentMd('---\ndescription: [a\n---\n', path, undefined);
  assert.deepEqual([broken.documentation, broken.problems.map((p) => [p.code, p.severity])], [undefined, [['yaml-syntax', 'error']]]);
});

test('every message starts with a capital letter (it leads with the fix)', () => {
  const texts = CASES.map((c) => [c.text, c.folderName ?? FOLDER] as const);
  for (const [text, folderName] of texts) {
    for (const profile of PROFILES) {
      for (const p of validateSkillMd(text, { profile, folderName }, nodeFileSystem).problems) assert.match(p.message, /^[A-Z]/, `${p.code}: ${p.message}`);
    }
  }
});
