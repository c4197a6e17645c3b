// Tools lists in a real extension host: tool-unknown / tool-rule-invalid at each entry's exact range, the hover on a
// tool name, completion of tool names and of the MCP servers in reach, the certain quick fixes, and a plugin agent
// (`<plugin>/agents/*.md`) validated as you open it, with the agent-tools-key rename.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClaudeApi } from '../../src/extension/claude';
import { getApi, quickFixes, waitFor, workspaceDir } from './util';

function diagnostics(uri: vscode.Uri, code: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'skillflow' && (d.code as { value: string }).value === code);
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
}

function labels(list: vscode.CompletionList): string[] {
  return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}

describe('tools lists', function () {
  this.timeout(60_000);
  const skillDir = () => path.join(workspaceDir(), '.claude', 'skills', 'tools-check');
  const pluginDir = () => path.join(workspaceDir(), 'tools-plugin');
  const mcpJson = () => path.join(workspaceDir(), '.mcp.json');

  before(async () => {
    await getApi();
    fs.writeFileSync(mcpJson(), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of [skillDir(), pluginDir(), mcpJson()]) fs.rmSync(p, { recursive: true, force: true });
  });

  it('reports each bad entry at its range, hovers a tool name, and fixes web_fetch to WebFetch', async () => {
    fs.mkdirSync(skillDir(), { recursive: true });
    const file = path.join(skillDir(), 'SKILL.md');
    fs.writeFileSync(file, '---\nname: tools-check\ndescription: Checks tools lists.\nallowed-tools: Read, web_fetch, Bash(git diff:*)\n---\n# Tools\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const [unknown] = await waitFor(() => { const d = diagnostics(doc.uri, 'tool-unknown'); return d.length ? d : undefined; }, 10_000, 'tool-unknown');
    assert.deepEqual([unknown.range.start.line, unknown.range.start.character, unknown.range.end.line, unknown.range.end.character], [3, 21, 3, 30]);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(unknown.message, /^Use 'WebFetch'/);
    assert.equal(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'skillflow').length, 1, 'Read and Bash(git diff:*) are fine');

    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(3, 34)));
    assert.match(hover, /\*\*`Bash`\*\*/);
    assert.match(hover, /Executes shell commands/);
    assert.match(hover, /`Bash\(npm run \*\)`/);
    const bad = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(3, 24)));
    assert.match(bad, /`tool-unknown`/);

    const actions = await quickFixes(doc.uri, unknown.range);
    const change = actions.find((a) => a.title === "Change to 'WebFetch'");
    assert.ok(change?.edit, actions.map((a) => a.title).join(', '));
    assert.ok(await vscode.workspace.applyEdit(change.edit));
    assert.equal(doc.lineAt(3).text, 'allowed-tools: Read, WebFetch, Bash(git diff:*)');
    await waitFor(() => diagnostics(doc.uri, 'tool-unknown').length === 0, 5_000, 'the warning goes with the fix');
    await doc.save();
  });

  it('completes tool names and the MCP servers of the .mcp.json in reach', async () => {
    const file = path.join(skillDir(), 'SKILL.md');
    fs.writeFileSync(file, '---\nname: tools-check\ndescription: Checks tools lists.\nallowed-tools: Read, We\ndisallowed-tools:\n  - mc\n---\n# Tools\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await waitFor(async () => (await vscode.workspace.openTextDocument(file)).lineAt(3).text.endsWith('We'), 5_000, 'the new text');
    const tools = labels(await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(3, 23)));
    assert.ok(['WebFetch', 'WebSearch', 'Bash', 'Read', 'mcp__github'].every((t) => tools.includes(t)), tools.join(','));
    const listed = labels(await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(5, 6)));
    assert.ok(listed.includes('mcp__github') && listed.includes('AskUserQuestion'), listed.join(','));
  });

  it('validates a plugin agent and renames its allowed-tools key to tools', async () => {
    fs.mkdirSync(path.join(pluginDir(), '.claude-plugin'), { recursive: true });
    fs.mkdirSync(path.join(pluginDir(), 'agents'), { recursive: true });
    fs.writeFileSync(path.join(pluginDir(), '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'tools-plugin' }));
    const file = path.join(pluginDir(), 'agents', 'reviewer.md');
    fs.writeFileSync(file, '---\nname: reviewer\ndescription: Reviews diffs.\nallowed-tools: Read, Grpe\n---\nYou review.\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const [key] = await waitFor(() => { const d = diagnostics(doc.uri, 'agent-tools-key'); return d.length ? d : undefined; }, 10_000, 'agent-tools-key on the plugin agent');
    assert.equal(key.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([key.range.start.line, key.range.start.character, key.range.end.character], [3, 0, 13]);
    const actions = await quickFixes(doc.uri, key.range);
    const rename = actions.find((a) => a.title === "Rename 'allowed-tools' to 'tools'");
    assert.ok(rename?.edit, actions.map((a) => a.title).join(', '));
    assert.ok(await vscode.workspace.applyEdit(rename.edit));
    // Now an agent tools list: the typo is reported, and fixed.
    const [typo] = await waitFor(() => { const d = diagnostics(doc.uri, 'tool-unknown'); return d.length ? d : undefined; }, 5_000, 'tool-unknown for Grpe');
    assert.deepEqual([typo.range.start.line, typo.range.start.character, typo.range.end.character], [3, 13, 17]);
    const fix = (await quickFixes(doc.uri, typo.range)).find((a) => a.title === "Change to 'Grep'");
    assert.ok(fix?.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.lineAt(3).text, 'tools: Read, Grep');
    await waitFor(() => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'skillflow').length === 0, 5_000, 'no problem left');
    await doc.save();
  });

  it('validates an agent in a subfolder of .claude/agents, with the duplicate name the index sees, and a plugin agent\'s ignored key', async () => {
    const agents = path.join(workspaceDir(), '.claude', 'agents');
    fs.mkdirSync(path.join(agents, 'sub-review'), { recursive: true });
    fs.writeFileSync(path.join(agents, 'sub-twin.md'), '---\nname: sub-twin\ndescription: Top level.\n---\nTwin.\n');
    const file = path.join(agents, 'sub-review', 'twin.md');
    fs.writeFileSync(file, '---\nname: sub-twin\ndescription: In a subfolder.\ntools: Read, Grpe\n---\nTwin.\n');
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      await waitFor(() => diagnostics(doc.uri, 'tool-unknown').length > 0, 10_000, 'tool-unknown in a subfolder agent');
      const [dup] = await waitFor(() => { const d = diagnostics(doc.uri, 'agent-duplicate-name'); return d.length ? d : undefined; }, 15_000, 'agent-duplicate-name from the index');
      assert.equal(dup.severity, vscode.DiagnosticSeverity.Error);
      assert.match(dup.message, /sub-twin\.md declares it too/);

      fs.mkdirSync(path.join(pluginDir(), '.claude-plugin'), { recursive: true });
      fs.mkdirSync(path.join(pluginDir(), 'agents', 'review'), { recursive: true });
      fs.writeFileSync(path.join(pluginDir(), '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'tools-plugin' }));
      const pluginAgent = path.join(pluginDir(), 'agents', 'review', 'planner.md');
      fs.writeFileSync(pluginAgent, '---\nname: planner\ndescription: Plans.\npermissionMode: plan\n---\nPlan.\n');
      const pdoc = await vscode.workspace.openTextDocument(pluginAgent);
      const [ignored] = await waitFor(() => { const d = diagnostics(pdoc.uri, 'agent-plugin-ignored'); return d.length ? d : undefined; }, 10_000, 'agent-plugin-ignored');
      assert.equal(pdoc.getText(ignored.range), 'permissionMode');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(path.join(agents, 'sub-review'), { recursive: true, force: true });
      fs.rmSync(path.join(agents, 'sub-twin.md'), { force: true });
    }
  });

  it('reports a misspelt hook event in a plugin\'s hooks.json as you type, and in a skill\'s hooks frontmatter', async () => {
    fs.mkdirSync(path.join(pluginDir(), '.claude-plugin'), { recursive: true });
    fs.mkdirSync(path.join(pluginDir(), 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(pluginDir(), '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'tools-plugin' }));
    fs.writeFileSync(path.join(pluginDir(), 'hooks', 'check.sh'), '#!/bin/sh\n');
    const file = path.join(pluginDir(), 'hooks', 'hooks.json');
    fs.writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/check.sh' }] }] } }, null, 2) + '\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'skillflow'), [], 'a valid hooks.json: no problem');
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('"PreToolUse"');
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + '"PreToolUse"'.length)), '"PreToolUsee"');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const [event] = await waitFor(() => { const d = diagnostics(doc.uri, 'hook-invalid'); return d.length ? d : undefined; }, 10_000, 'hook-invalid for the misspelt event');
    assert.equal(event.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(event.range), '"PreToolUsee"');
    assert.match(event.message, /^Rename 'PreToolUsee' to 'PreToolUse'/);
    await doc.save();

    fs.mkdirSync(skillDir(), { recursive: true });
    const skillFile = path.join(skillDir(), 'SKILL.md');
    fs.writeFileSync(skillFile, '---\nname: tools-check\ndescription: Checks hooks.\nhooks:\n  Stop:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo done\n---\n# Hooks\n');
    const skillDoc = await vscode.workspace.openTextDocument(skillFile);
    const [matcher] = await waitFor(() => { const d = diagnostics(skillDoc.uri, 'hook-matcher'); return d.length ? d : undefined; }, 10_000, 'hook-matcher for a matcher on Stop');
    assert.equal(skillDoc.getText(matcher.range), 'matcher');
    assert.match(matcher.message, /^Remove the matcher: Stop takes none/);
  });

  it('What Claude Sees lists two skills whose descriptions compete, with the phrases they share', async function () {
    this.timeout(60_000);
    const claude = (await getApi<{ claude: ClaudeApi }>()).claude;
    const description = 'Manage channel access - approve pairings, edit allowlists, set the DM and group policy for the bot.';
    for (const name of ['access-one', 'access-two']) {
      fs.mkdirSync(path.join(workspaceDir(), '.claude', 'skills', name), { recursive: true });
      fs.writeFileSync(path.join(workspaceDir(), '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
    }
    try {
      await claude.showListing();
      const vm = await waitFor(() => claude.lastViewModel?.overlaps.length ? claude.lastViewModel : undefined, 20_000, 'the competing pair in the view');
      const pair = vm.overlaps.find((o) => [o.a, o.b].sort().join() === '/access-one,/access-two');
      assert.ok(pair, JSON.stringify(vm.overlaps));
      assert.equal(pair.percent, 100);
      assert.ok(pair.shared.includes('approve pairing'), pair.shared.join(', '));
      assert.match(claude.listingView?.webview.html ?? '', /<script/);
    } finally {
      for (const name of ['access-one', 'access-two']) fs.rmSync(path.join(workspaceDir(), '.claude', 'skills', name), { recursive: true, force: true });
    }
  });
});
