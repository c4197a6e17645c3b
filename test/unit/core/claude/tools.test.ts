// Claude Code's tool names and permission-rule grammar (tools.json, generated from the documentation mirror), the
// check of one tools-list entry, and tool-unknown / tool-rule-invalid / agent-tools-key on real public skills and
// agents (test/fixtures/tools, licences and commits in each SOURCE.md) through the CLI.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkToolEntry, claudeTool, toolEntryHover, claudeTools, formerTool, parseToolRule, suggestToolName, toolAliasOf, TOOLS_CLAUDE_CODE_VERSION, TOOLS_SOURCE } from '../../../../src/core/claude/tools';
import { splitToolListParts } from '../../../../src/core/skillmd/toolList';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { validateAgentMd } from '../../../../src/core/agents/agents';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { mdCode } from '../../../../src/core/base/markdown';
import { hoverAt } from '../../../../src/core/editor/features';
import { skill, summary } from '../../helpers/validation';
import { removeTree, tempTree } from '../../helpers/tempTree';

test('tools.json: the tools reference of the recorded Claude Code version and commit', () => {
  assert.match(TOOLS_CLAUDE_CODE_VERSION, /^2\.\d+\.\d+$/);
  assert.match(TOOLS_SOURCE, /ericbuess\/claude-code-docs .*tools-reference\.md.* at [0-9a-f]{40}$/);
  const names = claudeTools().map((t) => t.name);
  for (const n of ['Agent', 'Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Skill', 'WebFetch', 'WebSearch', 'Write', 'AskUserQuestion', 'TodoWrite', 'NotebookEdit']) assert.ok(names.includes(n), n);
  assert.equal(claudeTool('Bash')?.ruleFormat, 'command');
  assert.equal(claudeTool('Read')?.ruleFormat, 'path');
  assert.equal(claudeTool('WebFetch')?.ruleFormat, 'domain');
  assert.equal(claudeTool('Skill')?.ruleFormat, 'skill');
  assert.equal(toolAliasOf('Task'), 'Agent');
  assert.equal(toolAliasOf('KillShell'), 'TaskStop');
  assert.ok(formerTool('TeamCreate'));
  assert.equal(formerTool('Read'), undefined);
});

test('parseToolRule and splitting: parentheses keep spaces and commas inside', () => {
  assert.deepEqual(parseToolRule('Bash(git diff:*)'), { tool: 'Bash', specifier: 'git diff:*' });
  assert.deepEqual(parseToolRule('mcp__github'), { tool: 'mcp__github' });
  assert.equal(parseToolRule('Bash(ls'), undefined);
  assert.equal(parseToolRule('Bash(a)b'), undefined);
  assert.deepEqual(splitToolListParts('Read, Bash(git add *) Agent(worker, researcher)').map((p) => [p.text, p.offset]),
    [['Read', 0], ['Bash(git add *)', 6], ['Agent(worker, researcher)', 22]]);
});

test('did you mean: spellings, case and typos; nothing for unrelated names', () => {
  assert.equal(suggestToolName('web_fetch'), 'WebFetch');
  assert.equal(suggestToolName('bash'), 'Bash');
  assert.equal(suggestToolName('Grpe'), 'Grep');
  assert.equal(suggestToolName('read_file'), 'Read');
  assert.equal(suggestToolName('DesignMCP'), undefined);
  assert.equal(suggestToolName('chrome-mcp'), undefined);
});

test('checkToolEntry: true positives', () => {
  const find = (e: string, list: 'allow' | 'deny' = 'allow') => checkToolEntry(e, list);
  assert.deepEqual([find('web_fetch')?.code, find('web_fetch')?.replacement], ['tool-unknown', 'WebFetch']);
  assert.equal(find('bash(git status)')?.replacement, 'Bash(git status)');
  assert.equal(find('DesignMCP')?.code, 'tool-unknown');
  assert.match(find('DesignMCP')?.message ?? '', /mcp__<server>__<tool>/);
  assert.equal(find('"design*:*"')?.code, 'tool-rule-invalid');
  assert.equal(find('*')?.code, 'tool-rule-invalid');
  assert.equal(find('mcp__*')?.code, 'tool-rule-invalid');
  assert.equal(find('Bash(ls')?.code, 'tool-rule-invalid');
  assert.deepEqual([find('Write(docs/**)')?.code, find('Write(docs/**)')?.replacement], ['tool-rule-invalid', 'Edit(docs/**)']);
  assert.equal(find('Glob(src/**)')?.replacement, 'Read(src/**)');
  assert.equal(find('WebFetch(https://docs.example.com/page)')?.replacement, 'WebFetch(domain:docs.example.com)');
  assert.equal(find('WebFetch(example.com)')?.replacement, 'WebFetch(domain:example.com)');
  assert.deepEqual([find('TeamCreate')?.code, find('TeamCreate')?.variant], ['tool-unknown', 'former']);
  assert.equal(find('LS')?.variant, 'former');
  // Where the removal is recorded reads as one clause, not a parenthesis inside the message's own.
  assert.match(find('TeamCreate')?.message ?? '', /has no TeamCreate tool \(removed, says the changelog\)/);
  assert.match(find('MultiEdit')?.message ?? '', /\(legacy, says permissions\.md\)/);
});

test('checkToolEntry: look-alikes that stay quiet', () => {
  for (const e of ['Read', 'Bash', 'Bash(*)', 'Bash(git diff:*)', 'Bash(git add *)', 'Read(./src/**)', 'Edit(/src/**/*.ts)', 'WebFetch(domain:example.com)',
    'WebFetch(domain:*.example.com)', 'WebSearch', 'Skill(deploy *)', 'Agent(Explore)', 'Agent(worker, researcher)', 'Task', 'Task(Explore)', 'KillShell',
    'mcp__github', 'mcp__github__*', 'mcp__github__get_issue', 'mcp__plugin_asana_asana__*', 'mcp__meigen__generate_image', 'Write', 'Glob',
    'Workflow(claude-security:scan)', 'Bash(${CLAUDE_PLUGIN_ROOT}/scripts/setup.sh:*)', 'Edit(*)']) {
    assert.equal(checkToolEntry(e, 'allow'), undefined, e);
  }
  // Deny lists accept tool-name patterns and parameter rules.
  for (const e of ['*', 'mcp__*', 'mcp__*__write*', 'WebFetch(prompt:*)', 'Agent(model:opus)']) assert.equal(checkToolEntry(e, 'deny'), undefined, e);
});

test('MCP servers in reach: a typo of a configured server, a plugin\'s own server without its prefix; others accepted', () => {
  const reach = { configured: new Set(['github']), plugin: { name: 'my-plugin', servers: new Set(['db']) } };
  assert.equal(checkToolEntry('mcp__githb__get_issue', 'allow', reach)?.replacement, 'mcp__github__get_issue');
  assert.equal(checkToolEntry('mcp__db__query', 'allow', reach)?.replacement, 'mcp__plugin_my-plugin_db__query');
  assert.equal(checkToolEntry('mcp__db', 'deny', reach)?.replacement, 'mcp__plugin_my-plugin_db');
  for (const e of ['mcp__github__x', 'mcp__slack__post', 'mcp__plugin_my-plugin_db__query', 'mcp__linear']) assert.equal(checkToolEntry(e, 'allow', reach), undefined, e);
});

test('SKILL.md: each entry at its exact range, in a string, a quoted string and a list; claude-code only', () => {
  const text = skill('name: a\ndescription: d\nallowed-tools: Read, web_fetch Bash(git diff:*)\ndisallowed-tools:\n  - "bash"\n  - AskUserQuestion');
  const r = validateSkillMd(text, { profile: 'claude-code', folderName: 'a' }, nodeFileSystem);
  assert.deepEqual(summary(r.problems), ['tool-unknown@4:22-4:31', 'tool-unknown@6:6-6:10']);
  const quoted = validateSkillMd(skill('name: a\ndescription: d\nallowed-tools: "Read Grepp"'), { profile: 'claude-code', folderName: 'a' }, nodeFileSystem);
  assert.deepEqual(summary(quoted.problems), ['tool-unknown@4:22-4:27']);
  // Escapes: the source is not the value character for character, so the whole value is underlined.
  const escaped = validateSkillMd(skill('name: a\ndescription: d\nallowed-tools: "Read\\tGrepp"'), { profile: 'claude-code', folderName: 'a' }, nodeFileSystem);
  assert.deepEqual(summary(escaped.problems), ['tool-unknown@4:16-4:29']);
  for (const profile of ['spec', 'upload'] as const) {
    assert.deepEqual(validateSkillMd(text, { profile, folderName: 'a' }, nodeFileSystem).problems.filter((p) => p.code.startsWith('tool-')), []);
  }
});

test('SKILL.md: MCP servers from the project .mcp.json', () => {
  const dir = tempTree({ '.mcp.json': '{"mcpServers":{"github":{}}}', '.claude/skills/a/SKILL.md': skill('name: a\ndescription: d\nallowed-tools: mcp__githb__get_issue mcp__slack__post') });
  try {
    const r = validateSkillMd(skill('name: a\ndescription: d\nallowed-tools: mcp__githb__get_issue mcp__slack__post'), { profile: 'claude-code', folderName: 'a', skillDir: `${dir}/.claude/skills/a`, project: dir }, nodeFileSystem);
    assert.deepEqual(summary(r.problems), ['tool-unknown@4:16-4:37']);
    assert.match(r.problems[0].message, /mcp__github__get_issue/);
  } finally {
    removeTree(dir);
  }
});

test('agents: tools and disallowedTools checked; allowed-tools in an agent is agent-tools-key; an empty tools list is fine', () => {
  const a = validateAgentMd('---\nname: r\ndescription: d\ntools: Read, Grpe\ndisallowedTools: mcp__github, Wrte\n---\nBody\n', '/ws/.claude/agents/r.md', undefined);
  assert.deepEqual(summary(a.problems), ['tool-unknown@4:14-4:18', 'tool-unknown@5:31-5:35']);
  const key = validateAgentMd('---\nname: r\ndescription: d\nallowed-tools: Read, Grep\n---\nBody\n', '/ws/.claude/agents/r.md', undefined);
  assert.deepEqual(summary(key.problems), ['agent-tools-key@4:1-4:14']);
  assert.equal(key.problems[0].severity, 'error');
  assert.match(key.problems[0].message, /Rename 'allowed-tools' to 'tools'/);
  const both = validateAgentMd('---\nname: r\ndescription: d\ntools: Read\ndisallowed-tools: Bash\n---\nBody\n', '/ws/.claude/agents/r.md', undefined);
  assert.match(both.problems[0].message, /Rename 'disallowed-tools' to 'disallowedTools'/);
  const empty = validateAgentMd('---\nname: r\ndescription: d\ntools: []\n---\nBody\n', '/ws/.claude/agents/r.md', undefined);
  assert.deepEqual(empty.problems, []);
  assert.deepEqual(empty.tools, []);
});

async function validateFixture(dir: string): Promise<string[]> {
  let out = '';
  await main({ argv: ['validate', dir, '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  const json = JSON.parse(out) as { skills: { path: string; problems: { code: string; line: number; column: number; severity: string }[] }[]; agents?: { path: string; problems: { code: string; line: number; column: number; severity: string }[] }[] };
  const lines: string[] = [];
  for (const e of [...json.skills, ...(json.agents ?? [])]) for (const p of e.problems) if (p.code.startsWith('tool-') || p.code === 'agent-tools-key') lines.push(`${e.path.slice(dir.length + 1)} ${p.code}@${p.line}:${p.column}:${p.severity}`);
  return lines.sort();
}

test('real public agents and skills: plugin agents found, exactly these tool problems (look-alikes stay quiet)', async () => {
  const fixtures = 'test/fixtures/tools';
  assert.deepEqual(await validateFixture(`${fixtures}/voltagent-subagents`), [
    // Agent names and a plugin skill name listed as tools; no MCP tool is named that way.
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:110:warning',
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:122:warning',
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:147:warning',
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:55:warning',
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:74:warning',
    '.claude/agents/codebase-orchestrator.md tool-unknown@4:91:warning',
    // `chrome-mcp`, `computer-use`: MCP servers written as tool names.
    '.claude/agents/ui-ux-tester.md tool-unknown@4:56:warning',
    '.claude/agents/ui-ux-tester.md tool-unknown@4:68:warning',
    // scientific-literature-researcher: `mcp__bgpt__search_papers`, a server configured elsewhere: quiet.
  ]);
  assert.deepEqual(await validateFixture(`${fixtures}/wshobson-agents`), [
    // TeamCreate / TeamDelete: removed tools (info). meigen-ai-design's `mcp__meigen__*`: configured elsewhere, quiet.
    'plugins/agent-teams/agents/team-lead.md tool-unknown@4:39:info',
    'plugins/agent-teams/agents/team-lead.md tool-unknown@4:51:info',
  ]);
  assert.deepEqual(await validateFixture(`${fixtures}/claude-plugins-official`), [
    // LS and NotebookRead: tools of earlier releases (info). claude-security's `Workflow(claude-security:scan)`,
    // discord's `Bash(ls *)` entries: quiet.
    ...['code-architect', 'code-explorer', 'code-reviewer'].flatMap((a) => [`plugins/feature-dev/agents/${a}.md tool-unknown@4:20:info`, `plugins/feature-dev/agents/${a}.md tool-unknown@4:30:info`]),
  ].sort());
});

test('hovers show an entry or key from the file as code: a backtick cannot open an image or a link (fetched on hover)', () => {
  const entry = 'x`![](https://t.example/p.png)`';
  const hover = toolEntryHover(entry, 'allow');
  assert.ok(hover.includes(mdCode(entry)), hover);
  assert.ok(!hover.replace(mdCode(entry), '').includes('![]('), hover);
  const text = '---\nname: a\ndescription: b\nx`![](https://t.example/k.png)`: 1\n---\n';
  const key = hoverAt('skill', text, { line: 4, column: 2 });
  assert.ok(key);
  assert.ok(key.markdown.startsWith(`**${mdCode('x`![](https://t.example/k.png)`')}**`), key.markdown);
});
