// The language server over stdio (`skillflow lsp --stdio`), driven by a JSON-RPC client as an editor drives it:
// initialize, open, change, diagnostics (push and pull), hover, completion, code actions, executeCommand, links,
// definition, watched files, shutdown. Diagnostics are compared with `skillflow validate --format json`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildServer, LspClient, uriOf, workspace } from './client';

const SKILL = '---\nname: demo\ndescription: Deploys the app: use it when asked to ship\n---\n\nRun the steps. See [ref](missing.md) and [notes](notes.md).\n';
const AGENT = '---\nname: helper\ndescription: Helps with shipping\nskills:\n  - demo\n---\nRun /demo when asked.\n';
const FILES = {
  '.claude/skills/demo/SKILL.md': SKILL,
  '.claude/skills/demo/notes.md': 'notes\n',
  '.claude/agents/helper.md': AGENT,
};

interface Action { title: string; kind: string; isPreferred?: boolean; edit?: { changes: Record<string, Array<{ range: unknown; newText: string }>> }; command?: { command: string; arguments: unknown[] } }

function applyChanges(text: string, edits: Array<{ range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }>): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const off = (p: { line: number; character: number }) => starts[p.line] + p.character;
  for (const e of [...edits].sort((a, b) => off(b.range.start) - off(a.range.start))) text = text.slice(0, off(e.range.start)) + e.newText + text.slice(off(e.range.end));
  return text;
}

test('push model: diagnostics as the CLI has them, updated on change; hover, completion, quick fixes, commands, links, definition, shutdown', async () => {
  const ws = workspace(FILES);
  const client = new LspClient({ HOME: ws.home });
  try {
    const init = await client.initialize(ws.root, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } });
    const caps = init.capabilities;
    assert.ok(caps.hoverProvider && caps.completionProvider && caps.codeActionProvider && caps.documentLinkProvider && caps.definitionProvider);
    assert.equal(caps.diagnosticProvider, undefined, 'a client that cannot pull gets pushed diagnostics');
    const skill = ws.file('.claude/skills/demo/SKILL.md');
    await client.open(skill, SKILL);
    const diags = await client.waitFor(skill, (d) => d.length > 0);

    // The same codes, ranges and severities as `skillflow validate --format json` (from the same build).
    const cli = spawnSync(process.execPath, [path.join(buildServer(), 'skillflow.js'), 'validate', '--format', 'json', '--home', ws.home, ws.root], { encoding: 'utf8' });
    const fromCli = (JSON.parse(cli.stdout) as { skills: Array<{ problems: Array<{ code: string; severity: string; line: number; column: number; endLine: number; endColumn: number }> }> }).skills[0].problems;
    const sev = ['', 'error', 'warning', 'info'];
    assert.deepEqual(diags.map((d) => [d.code, sev[d.severity], d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1, d.range.end.character + 1]),
      fromCli.map((p) => [p.code, p.severity, p.line, p.column, p.endLine, p.endColumn]));
    assert.deepEqual(diags.map((d) => d.code).sort(), ['reference-missing', 'yaml-syntax']);
    assert.ok(diags.every((d) => d.source === 'skillflow'));

    // As you type: the reference is fixed, its warning goes.
    const typed = SKILL.replace('missing.md', 'notes.md');
    await client.change(skill, typed, 2);
    await client.waitFor(skill, (d) => !d.some((x) => x.code === 'reference-missing'));

    // Hover on a key and on its value.
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uriOf(skill) }, position: { line: 1, character: 2 } });
    assert.match(hover.contents.value, /\*\*`name`\*\*/);
    const onValue = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: uriOf(skill) }, position: { line: 1, character: 8 } });
    assert.match(onValue.contents.value, /`name`/);
    assert.equal(await client.request('textDocument/hover', { textDocument: { uri: uriOf(skill) }, position: { line: 5, character: 2 } }), null);

    // Completion of keys on an empty frontmatter line, and of values after `model: `.
    await client.change(skill, typed.replace('---\n\n', '---\n\n').replace('name: demo\n', 'name: demo\nmodel: \n'), 3);
    const values = await client.request<Array<{ label: string }>>('textDocument/completion', { textDocument: { uri: uriOf(skill) }, position: { line: 2, character: 7 } });
    assert.ok(values.some((v) => v.label === 'sonnet') && values.some((v) => v.label === 'inherit'), JSON.stringify(values.map((v) => v.label)));
    await client.change(skill, typed.replace('name: demo\n', 'name: demo\n\n'), 4);
    const keys = await client.request<Array<{ label: string; textEdit: { newText: string } }>>('textDocument/completion', { textDocument: { uri: uriOf(skill) }, position: { line: 2, character: 0 } });
    assert.ok(keys.some((k) => k.label === 'allowed-tools' && k.textEdit.newText === 'allowed-tools: '));
    assert.ok(!keys.some((k) => k.label === 'name'), 'a key already present is not offered');

    // Code actions: the quick fix (preferred), disable for this file / workspace; fix all as source.fixAll.skillflow.
    await client.change(skill, typed, 5);
    const now = await client.waitFor(skill, (d) => d.length === 1 && d[0].code === 'yaml-syntax');
    const actions = await client.request<Action[]>('textDocument/codeAction', { textDocument: { uri: uriOf(skill) }, range: now[0].range, context: { diagnostics: now } });
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Disable yaml-syntax for this file') && titles.includes('Disable yaml-syntax in this workspace'), titles.join(', '));
    const quick = actions.find((a) => a.isPreferred)!;
    const fixed = applyChanges(typed, quick.edit!.changes[uriOf(skill)] as never);
    assert.match(fixed, /^description: 'Deploys the app: use it when asked to ship'$/m);
    const disable = actions.find((a) => a.title === 'Disable yaml-syntax for this file')!;
    assert.match(applyChanges(typed, disable.edit!.changes[uriOf(skill)] as never), /^---\n<!-- skillflow-disable yaml-syntax -->\n/m);
    const fixAll = await client.request<Action[]>('textDocument/codeAction', { textDocument: { uri: uriOf(skill) }, range: now[0].range, context: { diagnostics: [], only: ['source.fixAll.skillflow'] } });
    assert.deepEqual(fixAll.map((a) => [a.title, a.kind]), [['Fix all Skillflow problems', 'source.fixAll.skillflow']]);
    assert.equal(applyChanges(typed, fixAll[0].edit!.changes[uriOf(skill)] as never), fixed);

    // executeCommand: "Disable in this workspace" writes .skillflow.json and the diagnostic goes.
    const inWs = actions.find((a) => a.title === 'Disable yaml-syntax in this workspace')!;
    assert.equal(await client.request('workspace/executeCommand', { command: inWs.command!.command, arguments: inWs.command!.arguments }), true);
    assert.deepEqual(JSON.parse(fs.readFileSync(ws.file('.skillflow.json'), 'utf8')), { rules: { 'yaml-syntax': 'off' } });
    await client.waitFor(skill, (d) => d.length === 0);

    // Document links for references that exist; definition from an agent's skills: entry and from a /command mention.
    const links = await client.request<Array<{ target: string }>>('textDocument/documentLink', { textDocument: { uri: uriOf(skill) } });
    assert.deepEqual(links.map((l) => l.target), [uriOf(ws.file('.claude/skills/demo/notes.md')), uriOf(ws.file('.claude/skills/demo/notes.md'))]);
    const agent = ws.file('.claude/agents/helper.md');
    await client.open(agent, AGENT);
    const fromEntry = await client.request<Array<{ uri: string }>>('textDocument/definition', { textDocument: { uri: uriOf(agent) }, position: { line: 4, character: 5 } });
    assert.deepEqual(fromEntry.map((l) => l.uri), [uriOf(skill)]);
    const fromMention = await client.request<Array<{ uri: string }>>('textDocument/definition', { textDocument: { uri: uriOf(agent) }, position: { line: 6, character: 6 } });
    assert.deepEqual(fromMention.map((l) => l.uri), [uriOf(skill)]);

    // Watched files: a personal skill /demo created elsewhere shadows the open one.
    const personal = path.join(ws.home, '.claude', 'skills', 'demo', 'SKILL.md');
    fs.mkdirSync(path.dirname(personal), { recursive: true });
    fs.writeFileSync(personal, '---\nname: demo\ndescription: Another demo\n---\nx\n');
    await client.rpc.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(personal), type: 1 }] });
    await client.waitFor(skill, (d) => d.some((x) => x.code === 'shadowed'));

    assert.equal(await client.shutdown(), 0);
  } finally {
    client.child.kill();
    ws.cleanup();
  }
});

test('pull model: textDocument/diagnostic for open and closed files, workspace/diagnostic for files not open', async () => {
  const ws = workspace(FILES);
  const client = new LspClient({ HOME: ws.home });
  try {
    const init = await client.initialize(ws.root, { textDocument: { diagnostic: { dynamicRegistration: false } } });
    assert.deepEqual(init.capabilities.diagnosticProvider, { identifier: 'skillflow', interFileDependencies: true, workspaceDiagnostics: true });
    const skill = ws.file('.claude/skills/demo/SKILL.md');
    const closed = await client.request<{ kind: string; items: Array<{ code: string }> }>('textDocument/diagnostic', { textDocument: { uri: uriOf(skill) } });
    assert.deepEqual(closed.items.map((d) => d.code).sort(), ['reference-missing', 'yaml-syntax']);
    const all = await client.request<{ items: Array<{ uri: string; items: Array<{ code: string }> }> }>('workspace/diagnostic', { previousResultIds: [] });
    assert.deepEqual(all.items.find((i) => i.uri === uriOf(skill))?.items.map((d) => d.code).sort(), ['reference-missing', 'yaml-syntax']);
    await client.open(skill, SKILL.replace('Deploys the app: use', "'Deploys the app: use").replace('ship\n', "ship'\n"));
    const open = await client.request<{ items: Array<{ code: string }> }>('textDocument/diagnostic', { textDocument: { uri: uriOf(skill) } });
    assert.deepEqual(open.items.map((d) => d.code), ['reference-missing']);
    assert.equal(client.diagnostics.size, 0, 'nothing is pushed to a pulling client');
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.child.kill();
    ws.cleanup();
  }
});

test('rule configuration: .skillflow.json and initializationOptions apply as in the CLI; a broken .skillflow.json gets its own problem', async () => {
  const ws = workspace({ ...FILES, '.skillflow.json': '{ "rules": { "reference-missing": "error" } }\n' });
  const client = new LspClient({ HOME: ws.home });
  try {
    await client.initialize(ws.root, {}, { rules: { 'yaml-syntax': 'off' } });
    const skill = ws.file('.claude/skills/demo/SKILL.md');
    await client.open(skill, SKILL);
    const d = await client.waitFor(skill, (x) => x.length > 0);
    assert.deepEqual(d.map((x) => [x.code, x.severity]), [['reference-missing', 1]]);
    const config = ws.file('.skillflow.json');
    await client.open(config, '{ "rules": { "no-such-rule": "off" } }\n');
    const c = await client.waitFor(config, (x) => x.length > 0);
    assert.deepEqual(c.map((x) => x.code), ['config-invalid']);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.child.kill();
    ws.cleanup();
  }
});

test('plugin agents, hooks files and tools lists: diagnostics, tool hover, tool and MCP completion, tool fixes and Fix all', async () => {
  const agentText = '---\nname: reviewer\ndescription: Reviews changes\ntools: Read, web_fetch\ndisallowed-tools: Bash\n---\nReview.\n';
  const ws = workspace({
    ...FILES,
    'kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit' }),
    'kit/.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'db-server' } } }),
    'kit/agents/reviewer.md': agentText,
    'kit/hooks/hooks.json': '{}\n',
  });
  const client = new LspClient({ HOME: ws.home });
  try {
    await client.initialize(ws.root, {});
    const agent = ws.file('kit/agents/reviewer.md');
    await client.open(agent, agentText);
    const diags = await client.waitFor(agent, (d) => d.length >= 2);
    assert.deepEqual(diags.map((d) => d.code).sort(), ['agent-tools-key', 'tool-unknown']);
    const uri = uriOf(agent);
    // Hover on `Read` in `tools:`.
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 8 } });
    assert.match(hover.contents.value, /^\*\*`Read`\*\*/);
    // Completion after `tools: Read, `: Claude Code's tools and the plugin's own server.
    await client.change(agent, agentText.replace('Read, web_fetch', 'Read, m'), 2);
    const items = await client.request<Array<{ label: string }>>('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 14 } });
    assert.ok(items.some((i) => i.label === 'Grep') && items.some((i) => i.label === 'mcp__plugin_kit_db'), JSON.stringify(items.map((i) => i.label)));
    await client.change(agent, agentText, 3);
    const now = await client.waitFor(agent, (d) => d.length >= 2);
    // The quick fixes (preferred) and Fix all.
    const actions = await client.request<Action[]>('textDocument/codeAction', { textDocument: { uri }, range: now[0].range, context: { diagnostics: now } });
    const titles = actions.filter((a) => a.isPreferred).map((a) => a.title).sort();
    assert.deepEqual(titles, ["Change to 'WebFetch'", "Rename 'disallowed-tools' to 'disallowedTools'"]);
    const all = await client.request<Action[]>('textDocument/codeAction', { textDocument: { uri }, range: now[0].range, context: { diagnostics: [], only: ['source.fixAll'] } });
    const fixAll = all.find((a) => a.title === 'Fix all Skillflow problems')!;
    assert.equal(applyChanges(agentText, fixAll.edit!.changes[uri] as never), agentText.replace('web_fetch\ndisallowed-tools:', 'WebFetch\ndisallowedTools:'));
    // The plugin's hooks.json, validated as you type.
    const hooks = ws.file('kit/hooks/hooks.json');
    await client.open(hooks, '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/missing.sh"}]}]}}\n');
    const h = await client.waitFor(hooks, (d) => d.length > 0);
    assert.ok(h.some((d) => d.code === 'hook-script-missing'), JSON.stringify(h));
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.child.kill();
    ws.cleanup();
  }
});

test('`skillflow lsp` without --stdio is a usage error, not a hang', () => {
  const r = spawnSync(process.execPath, [path.join(buildServer(), 'skillflow.js'), 'lsp'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /skillflow lsp --stdio/);
});

test('"Create missing.md" for reference-missing: a CreateFile and its content for a client that applies resource operations, none for one that does not', async () => {
  for (const canCreate of [true, false]) {
    const ws = workspace(FILES);
    const client = new LspClient({ HOME: ws.home });
    try {
      await client.initialize(ws.root, canCreate ? { workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } } } : {});
      const skill = ws.file('.claude/skills/demo/SKILL.md');
      await client.open(skill, SKILL);
      const diags = await client.waitFor(skill, (d) => d.some((x) => x.code === 'reference-missing'));
      const missing = diags.filter((d) => d.code === 'reference-missing');
      const actions = await client.request<Array<Action & { edit?: { documentChanges?: unknown[] } }>>('textDocument/codeAction', { textDocument: { uri: uriOf(skill) }, range: missing[0].range, context: { diagnostics: missing } });
      const create = actions.find((a) => a.title === 'Create missing.md');
      if (!canCreate) {
        assert.equal(create, undefined, actions.map((a) => a.title).join(', '));
        continue;
      }
      const target = uriOf(ws.file('.claude/skills/demo/missing.md'));
      assert.equal(create?.isPreferred, true);
      assert.deepEqual(create?.edit?.documentChanges, [
        { kind: 'create', uri: target, options: { overwrite: false, ignoreIfExists: false } },
        { textDocument: { uri: target, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# missing\n' }] },
      ]);
    } finally {
      client.child.kill();
      ws.cleanup();
    }
  }
});
