import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { splitToolList, validateAgentMd } from '../../../../src/core/agents/agents';
import type { Problem } from '../../../../src/core/base/types';

const PATH = '/ws/.claude/agents/reviewer.md';
const KNOWN = new Set(['workflow-review', 'code-review']);

function agent(frontmatter: string, body = 'You review code.\n'): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

function summary(problems: Problem[]): string[] {
  return problems.map((p) => `${p.code}@${p.line}:${p.column}-${p.endLine}:${p.endColumn}`);
}

test('a complete agent: name, description, model, tools, skills, no problems', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: Reviews diffs.\ntools: Read, Grep, Bash(git diff:*)\nmodel: sonnet\nskills:\n  - workflow-review\n  - code-review\ncapabilities: [review]\nconstraints: [read-only]'), PATH, KNOWN);
  assert.deepEqual(a.problems, []);
  assert.equal(a.name, 'reviewer');
  assert.equal(a.description, 'Reviews diffs.');
  assert.equal(a.model, 'sonnet');
  assert.deepEqual(a.tools, ['Read', 'Grep', 'Bash(git diff:*)']);
  assert.deepEqual(a.skills, ['workflow-review', 'code-review']);
  assert.equal(a.path, PATH);
  assert.equal(a.scope, 'project');
});

test('agent-skill-missing: an error on exactly that list item', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: d\nskills:\n  - workflow-review\n  - workflow-nope\n  - code-review'), PATH, KNOWN);
  assert.deepEqual(summary(a.problems), ['agent-skill-missing@6:5-6:18']);
  assert.equal(a.problems[0].severity, 'error');
  assert.equal(a.problems[0].message, "skill 'workflow-nope' does not exist (no skill with that name was found)");
  assert.deepEqual(a.skills, ['workflow-review', 'workflow-nope', 'code-review']);
});

// alirezarezvani/claude-skills engineering/llm-wiki/agents/wiki-ingestor.md: `skills: engineering/llm-wiki`, a path to
// the plugin's folder, where the skill is `llm-wiki`.
test('agent-skill-missing: a path whose last folder is a loaded skill says which name was meant', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: d\nskills: [engineering/code-review, skills/workflow-review/SKILL.md, docs/ghost, code-review/]'), PATH, KNOWN);
  assert.deepEqual(a.problems.map((p) => p.message.replace(/^skill '[^']*' does not exist \(no skill with that name was found\)/, '')), [
    "; did you mean 'code-review'? ('skills' takes skill names, not paths)",
    "; did you mean 'workflow-review'? ('skills' takes skill names, not paths)",
    '', // no skill of that name
    '', // one segment: a name with a slash, not a path to another folder
  ]);
});

test('agent-skill-missing in a flow list points at the item', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: d\nskills: [code-review, ghost]'), PATH, KNOWN);
  assert.deepEqual(summary(a.problems), ['agent-skill-missing@4:23-4:28']);
});

test('without knownSkills, skills are listed but not checked', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: d\nskills: [ghost]'), PATH, undefined);
  assert.deepEqual(a.problems, []);
  assert.deepEqual(a.skills, ['ghost']);
});

test('a single skill name as a string is accepted and checked', () => {
  const a = validateAgentMd(agent('name: reviewer\ndescription: d\nskills: ghost'), PATH, KNOWN);
  assert.deepEqual(summary(a.problems), ['agent-skill-missing@4:9-4:14']);
  assert.deepEqual(a.skills, ['ghost']);
});

test('agent-skills-invalid: a map or a non-string entry', () => {
  const map = validateAgentMd(agent('name: r\ndescription: d\nskills: {a: b}'), PATH, KNOWN);
  assert.deepEqual(summary(map.problems), ['agent-skills-invalid@4:9-4:15']);
  const item = validateAgentMd(agent('name: r\ndescription: d\nskills:\n  - code-review\n  - 42'), PATH, KNOWN);
  assert.deepEqual(summary(item.problems), ['agent-skills-invalid@6:5-6:7']);
  assert.deepEqual(item.skills, ['code-review']);
});

test('a description is required; a file without `name` is documentation, not an agent (docs/sub-agents.md)', () => {
  // docs/sub-agents.md, "Subagent files Claude Code skips": "**No `name`**: Claude Code treats the file as documentation
  // kept beside your agents." and "**A `name` but no `description`**: Claude Code skips the file".
  const doc = validateAgentMd(agent('tools: Read'), PATH, KNOWN);
  assert.deepEqual([doc.documentation, doc.problems], [true, []]);
  const a = validateAgentMd(agent('name: reviewer\ntools: Read'), PATH, KNOWN);
  assert.deepEqual(summary(a.problems), ['description-missing@1:1-1:4']);
  assert.ok(a.problems.every((p) => p.severity === 'error'));
  assert.equal(a.documentation, undefined);
});

test("agent-name-invalid: a name with ':' or a leading '-' is skipped by Claude Code (docs/sub-agents.md)", () => {
  // docs/sub-agents.md: "**A `name` that starts with `-` or contains `:`**: Claude Code skips the file and writes an error
  // to the debug log."
  for (const name of ['my-plugin:reviewer', '-reviewer']) {
    const a = validateAgentMd(agent(`name: "${name}"\ndescription: d`), PATH, KNOWN);
    assert.deepEqual(a.problems.map((p) => [p.code, p.severity]), [['agent-name-invalid', 'error']], name);
    assert.match(a.problems[0].message, /Claude Code skips the file/);
  }
  // Near misses: a hyphen inside, a trailing hyphen.
  for (const name of ['code-reviewer', 'reviewer-']) assert.deepEqual(validateAgentMd(agent(`name: ${name}\ndescription: d`), PATH, KNOWN).problems, [], name);
});

test('name-type / description-type for non-strings', () => {
  const a = validateAgentMd(agent('name: 7\ndescription: [x]'), PATH, KNOWN);
  assert.deepEqual(summary(a.problems), ['name-type@2:7-2:8', 'description-type@3:14-3:17']);
});

test('model: every /model value passes (docs/sub-agents.md), a typo or another vendor warns, a non-name is agent-model-invalid', () => {
  // docs/sub-agents.md: "`sonnet`, `opus`, `haiku`, `fable`, a full model ID (for example, `claude-opus-5`), or `inherit`";
  // "Full model ID: … Accepts the same values as the `--model` flag".
  for (const model of ['sonnet', 'opus', 'haiku', 'fable', 'inherit', 'Sonnet', 'opusplan', 'sonnet[1m]', 'best', 'claude-sonnet-4-5-20250929', 'claude-opus-4-1', 'claude-3-5-haiku-20241022', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0']) {
    const a = validateAgentMd(agent(`name: r\ndescription: d\nmodel: ${model}`), PATH, KNOWN);
    assert.deepEqual(a.problems, [], model);
    assert.equal(a.model, model);
  }
  // docs/model-config.md serves only Claude models on the Anthropic API: a typo or gpt-4o is a warning (a gateway may serve it).
  for (const [model, hint] of [['gpt-4o', undefined], ['sonet', 'sonnet'], ['hiaku', 'haiku']] as const) {
    const a = validateAgentMd(agent(`name: r\ndescription: d\nmodel: ${model}`), PATH, KNOWN);
    assert.deepEqual(a.problems.map((p) => [p.code, p.severity]), [['model-unknown', 'warning']], model);
    if (hint) assert.match(a.problems[0].message, new RegExp(`did you mean '${hint}'`));
  }
  for (const model of ['3', '"two words"']) {
    const a = validateAgentMd(agent(`name: r\ndescription: d\nmodel: ${model}`), PATH, KNOWN);
    assert.deepEqual(a.problems.map((p) => p.code), ['agent-model-invalid'], model);
    assert.equal(a.model, undefined);
  }
});

test('tools: a string or a list of strings; anything else is agent-tools-invalid', () => {
  assert.deepEqual(validateAgentMd(agent('name: r\ndescription: d\ntools:\n  - Read\n  - Edit'), PATH, KNOWN).tools, ['Read', 'Edit']);
  const bad = validateAgentMd(agent('name: r\ndescription: d\ntools: {Read: true}'), PATH, KNOWN);
  assert.deepEqual(summary(bad.problems), ['agent-tools-invalid@4:8-4:20']);
  const empty = validateAgentMd(agent('name: r\ndescription: d\ntools: ""'), PATH, KNOWN);
  assert.deepEqual(summary(empty.problems), ['agent-tools-invalid@4:8-4:10']);
  const list = validateAgentMd(agent('name: r\ndescription: d\ntools: [Read, 3]'), PATH, KNOWN);
  assert.deepEqual(summary(list.problems), ['agent-tools-invalid@4:8-4:17']);
});

test('frontmatter problems are reported like for skills (CRLF, BOM, yaml, unclosed)', () => {
  const crlf = validateAgentMd('\uFEFF---\r\nname: r\r\ndescription: Use when: x\r\n---\r\n', PATH, KNOWN);
  assert.deepEqual(summary(crlf.problems), ['bom@1:1-1:2', 'yaml-syntax@3:14-3:25']);
  assert.equal(crlf.problems[0].severity, 'warning');
  // No frontmatter, so no `name`: documentation beside the agents (docs/sub-agents.md), e.g. .claude/agents/README.md.
  const readme = validateAgentMd('# Our agents\n\nEach file here is one agent.\n', '/ws/.claude/agents/README.md', KNOWN);
  assert.deepEqual([readme.documentation, readme.problems], [true, []]);
  assert.deepEqual(summary(validateAgentMd('---\nname: r\n', PATH, KNOWN).problems), ['frontmatter-unclosed@1:1-1:4']);
});

test('unknown agent keys are not reported (agents accept many Claude Code fields)', () => {
  const a = validateAgentMd(agent('name: r\ndescription: d\ncolor: blue\npermissionMode: plan\nmaxTurns: 5'), PATH, KNOWN);
  assert.deepEqual(a.problems, []);
});

test('splitToolList splits on commas and spaces outside parentheses', () => {
  assert.deepEqual(splitToolList('Read, Grep,Glob'), ['Read', 'Grep', 'Glob']);
  assert.deepEqual(splitToolList('Read Bash(git status:*) Bash(npm run test, lint)'), ['Read', 'Bash(git status:*)', 'Bash(npm run test, lint)']);
  assert.deepEqual(splitToolList('  '), []);
});

test('the name file stem is used when the name is not a string', () => {
  assert.equal(validateAgentMd(agent('name: [x]\ndescription: d'), '/a/b/My Agent.md', undefined).name, 'My Agent');
});

// anthropics/claude-plugins-official, plugins/pr-review-toolkit/agents/silent-failure-hunter.md has this shape: an
// unquoted `: ` in the description. Read as written (as for skills, changelog 2.1.69): a warning, the agent loads.
test('an unquoted `: ` in an agent description is a yaml-syntax warning and the fields are read', () => {
  const a = validateAgentMd('---\nname: hunter\ndescription: Use this agent when reviewing code. Examples: <example>Context: a PR</example>\nmodel: inherit\n---\nBody.\n', '/w/.claude/agents/hunter.md', new Set());
  assert.deepEqual(a.problems.map((p) => `${p.code}:${p.severity}`), ['yaml-syntax:warning']);
  assert.equal(a.name, 'hunter');
  assert.match(a.description ?? '', /^Use this agent when reviewing code\. Examples:/);
});

// anthropics/claude-code plugins/plugin-dev/agents/agent-creator.md: a description that ends in "Examples:" and runs on
// with `<example>` blocks at column 0 does not parse. docs/sub-agents.md: "YAML that doesn't parse: Claude Code reads no
// fields from the file, skips it"; "A plugin subagent whose frontmatter … doesn't parse still loads, under its filename."
test('a frontmatter that does not parse: the first error says what Claude Code does with the agent (skipped, or a plugin agent under its file name)', () => {
  const text = '---\nname: agent-creator\ndescription: Use this agent to create agents. Examples:\n\n<example>\nContext: a user\nuser: "make one"\n</example>\nmodel: sonnet\n---\nBody.\n';
  const project = validateAgentMd(text, '/w/.claude/agents/agent-creator.md', new Set());
  const errors = project.problems.filter((p) => p.severity === 'error');
  assert.ok(errors.length >= 1 && errors.every((p) => p.code === 'yaml-syntax'), JSON.stringify(project.problems));
  assert.match(errors[0].message, /; Claude Code skips an agent file whose frontmatter does not parse$/);
  assert.ok(errors.slice(1).every((p) => !p.message.includes('Claude Code skips')), 'said once');
  const plugin = validateAgentMd(text, '/w/plugins/plugin-dev/agents/agent-creator.md', new Set(), undefined, { plugin: 'plugin-dev' });
  assert.match(plugin.problems.find((p) => p.severity === 'error')!.message, /still loads a plugin agent whose frontmatter does not parse, as 'plugin-dev:agent-creator' \(its file name\), but reads none of its fields/);
  assert.equal(plugin.name, 'agent-creator');
  // Read anyway (an unquoted `: ` on one line): a warning, nothing about skipping.
  const colon = validateAgentMd('---\nname: hunter\ndescription: Use when: reviewing\n---\nBody.\n', '/w/.claude/agents/hunter.md', new Set());
  assert.deepEqual(colon.problems.map((p) => [p.severity, p.message.includes('Claude Code skips')]), [['warning', false]]);
});

// docs/sub-agents.md: "A plugin subagent whose frontmatter has no `name` or doesn't parse still loads, under its
// filename." alirezarezvani/claude-skills issue 977: plugin agents without a frontmatter show as "Agent from <plugin>
// plugin" and are never picked; getsentry/skills agents/code-simplifier.md has its frontmatter below an HTML comment.
test('a plugin agent without a name loads under its file name; without a description, a warning (not documentation)', () => {
  const opts = { plugin: 'p' };
  const noName = validateAgentMd('---\ndescription: Reviews code.\n---\nYou review.\n', '/w/p/agents/reviewer.md', new Set(), undefined, opts);
  assert.deepEqual([noName.documentation, noName.name, noName.description, noName.problems], [undefined, 'reviewer', 'Reviews code.', []]);
  const bare = validateAgentMd('# Devil\n\nYou argue.\n', '/w/p/agents/devils-advocate.md', new Set(), undefined, opts);
  assert.deepEqual([bare.documentation, bare.name], [undefined, 'devils-advocate']);
  assert.deepEqual(bare.problems.map((p) => `${p.code}:${p.severity}`), ['description-missing:warning']);
  assert.match(bare.problems[0].message, /^Claude Code loads this plugin agent as 'p:devils-advocate' \(its file name\) with no description of its own.*add a frontmatter/);
  const late = validateAgentMd('<!-- from upstream -->\n\n---\nname: s\ndescription: d\n---\nBody.\n', '/w/p/agents/s.md', new Set(), undefined, opts);
  assert.match(late.problems[0].message, /move the '---' frontmatter to the file's first line/);
  // A SKILL.md template further down the body is no frontmatter of this file (alirezarezvani skill-extractor.md).
  const template = validateAgentMd('# Extractor\n\nWrite:\n\n```markdown\n---\nname: {{skill-name}}\ndescription: d\n---\n```\n', '/w/p/agents/x.md', new Set(), undefined, opts);
  assert.match(template.problems[0].message, /add a frontmatter with a description/);
  const noDescription = validateAgentMd('---\nname: r\n---\nBody.\n', '/w/p/agents/r.md', new Set(), undefined, opts);
  assert.deepEqual(noDescription.problems.map((p) => `${p.code}:${p.severity}`), ['description-missing:warning']);
  // In .claude/agents the same files are documentation, or skipped for want of a description (an error).
  assert.equal(validateAgentMd('# Devil\n\nYou argue.\n', '/w/.claude/agents/devils-advocate.md', new Set()).documentation, true);
  assert.deepEqual(validateAgentMd('---\nname: r\n---\nBody.\n', '/w/.claude/agents/r.md', new Set()).problems.map((p) => `${p.code}:${p.severity}`), ['description-missing:error']);
});
