// The runtime's editor features in the core, as the VS Code extension and the language server both get them: plugin
// agents and hooks files as document kinds, tools-list hovers and completion (with the MCP servers in reach), and
// the certain tool fixes (tool-unknown, tool-rule-invalid, agent-tools-key) that Fix all and `validate --fix` apply.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { SKILL_DOCUMENT_PATTERNS, skillDocKind, validateDocumentText } from '../../../../src/core/editor/documents';
import { completionsAt, CROSS_SKILL_CODES, hoverAt } from '../../../../src/core/editor/features';
import { applyTextEdits, fixAllEdits, skillFixes } from '../../../../src/core/fixes/skillFixes';

const roots: string[] = [];
after(() => { for (const r of roots) fs.rmSync(r, { recursive: true, force: true }); });

/** A plugin with an agent, a hooks file and its own MCP server `db`, next to a project agent. */
function plugin(): { root: string; agent: string; hooks: string; projectAgent: string; notAgent: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-editor-tools-'));
  roots.push(root);
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('p/.claude-plugin/plugin.json', JSON.stringify({ name: 'kit' }));
  write('p/.mcp.json', JSON.stringify({ mcpServers: { db: { command: 'db-server' } } }));
  write('p/hooks/hooks.json', '{}');
  write('docs/agents/readme.md', '# not an agent\n');
  return {
    root,
    agent: path.join(root, 'p/agents/reviewer.md'),
    hooks: path.join(root, 'p/hooks/hooks.json'),
    projectAgent: path.join(root, '.claude/agents/helper.md'),
    notAgent: path.join(root, 'docs/agents/readme.md'),
  };
}

const AGENT = '---\nname: reviewer\ndescription: Reviews changes\ntools: Read, web_fetch\ndisallowed-tools: Bash\n---\nReview.\n';

test('document kinds: a plugin\'s agents and hooks.json with fs; an `agents` folder outside a plugin is not an agent', () => {
  const p = plugin();
  assert.equal(skillDocKind(p.agent, nodeFileSystem), 'agent');
  assert.equal(skillDocKind(p.agent), undefined, 'without fs a plugin cannot be told');
  assert.equal(skillDocKind(p.hooks, nodeFileSystem), 'hooks');
  assert.equal(skillDocKind(p.notAgent, nodeFileSystem), undefined);
  assert.equal(skillDocKind(p.projectAgent), 'agent');
  // Claude Code scans agents folders recursively (docs/sub-agents.md): a subfolder's file is an agent too.
  assert.equal(skillDocKind(path.join(p.root, '.claude/agents/review/deep/helper.md')), 'agent');
  assert.equal(skillDocKind(path.join(p.root, 'p/agents/review/sec.md'), nodeFileSystem), 'agent');
  assert.equal(skillDocKind(path.join(p.root, 'docs/agents/sub/readme.md'), nodeFileSystem), undefined);
  assert.ok(SKILL_DOCUMENT_PATTERNS.includes('**/agents/**/*.md'));
  assert.ok(CROSS_SKILL_CODES.has('mention-unknown'));
  // A plugin agent's problems: the skill key (agent-tools-key) and the tool name (tool-unknown); a hooks file's own.
  const agent = validateDocumentText(p.agent, AGENT, 'claude-code', nodeFileSystem, undefined, p.root)!;
  assert.deepEqual(agent.problems.map((x) => x.code).sort(), ['agent-tools-key', 'tool-unknown']);
  const hooks = validateDocumentText(p.hooks, '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/missing.sh"}]}]}}', 'claude-code', nodeFileSystem, undefined, p.root)!;
  assert.equal(hooks.kind, 'hooks');
  assert.ok(hooks.problems.some((x) => x.code === 'hook-script-missing'), JSON.stringify(hooks.problems));
  assert.deepEqual(validateDocumentText(p.hooks, '{"hooks": {}}', 'claude-code', nodeFileSystem, undefined, p.root)!.problems, []);
});

test('hover on a tools-list entry: the tool, or what is wrong with the entry; keys keep their hover', () => {
  const text = '---\nname: a\ndescription: d\nallowed-tools: Read, web_fetch\n---\n';
  const read = hoverAt('skill', text, { line: 4, column: 17 })!;
  assert.match(read.markdown, /^\*\*`Read`\*\*/);
  assert.deepEqual(read.range, { line: 4, column: 16, endLine: 4, endColumn: 20 });
  assert.match(hoverAt('command', text, { line: 4, column: 24 })!.markdown, /Use 'WebFetch'.*tool-unknown/s);
  assert.match(hoverAt('skill', text, { line: 4, column: 2 })!.markdown, /^\*\*`allowed-tools`\*\*/);
  // An agent's `tools`; its `allowed-tools` is a key hover (the agent reads `tools`).
  const agent = '---\nname: a\ndescription: d\ntools: Grep\n---\n';
  assert.match(hoverAt('agent', agent, { line: 4, column: 9 })!.markdown, /^\*\*`Grep`\*\*/);
  assert.match(hoverAt('agent', agent, { line: 4, column: 2 })!.markdown, /\(agent\)/);
  assert.equal(hoverAt('hooks', '{}', { line: 1, column: 1 }), undefined);
});

test('completion in tools lists of skills, commands and agents, with the plugin\'s own MCP server in reach', () => {
  const p = plugin();
  const labels = (kind: 'skill' | 'agent' | 'command', text: string, line: number, column: number, file?: string) =>
    completionsAt(kind, text, { line, column }, 'claude-code', file ? { file, fs: nodeFileSystem, workspaceFolder: p.root } : undefined)?.map((c) => `${c.label}@${c.range.column}`);
  const agent = '---\nname: a\ndescription: d\ntools: Read, m\n---\n';
  const got = labels('agent', agent, 4, 15, p.agent)!;
  assert.ok(got.includes('Grep@14') && got.includes('mcp__plugin_kit_db@14'), JSON.stringify(got));
  const items = completionsAt('agent', agent, { line: 4, column: 15 }, 'claude-code', { file: p.agent, fs: nodeFileSystem, workspaceFolder: p.root })!;
  assert.equal(items.find((i) => i.label === 'mcp__plugin_kit_db')!.kind, 'server');
  assert.equal(items.find((i) => i.label === 'Read')!.kind, 'tool');
  // After `m` the servers sort first.
  assert.equal([...items].sort((a, b) => (a.sortText < b.sortText ? -1 : 1))[0].label, 'mcp__plugin_kit_db');
  assert.ok(!labels('agent', agent, 4, 15)!.some((l) => l.startsWith('mcp__')), 'no place: no servers');
  // A list item under `disallowedTools`, inside a specifier nothing, an agent's other keys nothing.
  assert.ok(labels('agent', '---\ndisallowedTools:\n  - Ba\n---\n', 3, 7)!.includes('Bash@5'));
  assert.equal(labels('skill', '---\nallowed-tools: Bash(gi\n---\n', 2, 23)?.length ?? 0, 0);
  assert.equal(labels('agent', '---\nname: Re\n---\n', 2, 9), undefined);
  assert.ok(labels('command', '---\nallowed-tools: Read,Gr\n---\n', 2, 23)!.includes('Grep@21'));
});

test('fixes: tool names replaced and the agent key renamed, certain, so Fix all applies them in skills, commands and agents', () => {
  const p = plugin();
  const agentProblems = validateDocumentText(p.agent, AGENT, 'claude-code', nodeFileSystem, undefined, p.root)!.problems;
  const fixes = skillFixes(AGENT, p.agent, agentProblems, { fs: nodeFileSystem, workspaceFolder: p.root });
  assert.deepEqual(fixes.map((f) => [f.code, f.title, f.certain, f.preferred]), [
    ['tool-unknown', "Change to 'WebFetch'", true, true],
    ['agent-tools-key', "Rename 'disallowed-tools' to 'disallowedTools'", true, true],
  ]);
  assert.equal(applyTextEdits(AGENT, fixAllEdits(AGENT, p.agent, agentProblems, { fs: nodeFileSystem })), AGENT.replace('web_fetch\ndisallowed-tools:', 'WebFetch\ndisallowedTools:'));
  // Without fs a plugin's agent file is not known as one: no fixes rather than a SKILL.md's.
  assert.deepEqual(skillFixes(AGENT, p.agent, agentProblems.filter((x) => x.code === 'agent-tools-key')).map((f) => f.code), []);
  // With `tools` present too the skill key is only removed by hand: no rename.
  const both = '---\nname: r\ndescription: d\ntools: Read\nallowed-tools: Grep\n---\n';
  const bothProblems = validateDocumentText(p.agent, both, 'claude-code', nodeFileSystem, undefined, p.root)!.problems;
  assert.deepEqual(skillFixes(both, p.agent, bothProblems, { fs: nodeFileSystem }).map((f) => f.code), []);
  // A SKILL.md's path rule Claude Code never consults, and a command's typo.
  const skillFile = path.join(p.root, '.claude/skills/a/SKILL.md');
  const skill = '---\nname: a\ndescription: d\nallowed-tools: Glob(src/**) Grepp\n---\n';
  const skillProblems = validateDocumentText(skillFile, skill, 'claude-code', nodeFileSystem, undefined, p.root)!.problems;
  assert.equal(applyTextEdits(skill, fixAllEdits(skill, skillFile, skillProblems, { fs: nodeFileSystem })), skill.replace('Glob(src/**) Grepp', 'Read(src/**) Grep'));
  const command = path.join(p.root, '.claude/commands/ship.md');
  const cmd = '---\ndescription: Ship\nallowed-tools: bash(git status)\n---\nShip it.\n';
  const cmdProblems = validateDocumentText(command, cmd, 'claude-code', nodeFileSystem, undefined, p.root)!.problems;
  assert.equal(applyTextEdits(cmd, fixAllEdits(cmd, command, cmdProblems)), cmd.replace('bash(git status)', 'Bash(git status)'));
  // A command gets no SKILL.md fixes (its name is the file's, not a key to rename).
  assert.deepEqual(skillFixes('---\nname: Ship It\n---\n', command, [{ code: 'name-case', severity: 'warning', message: 'x', line: 2, column: 7, endLine: 2, endColumn: 14 }]), []);
});
