// Skills feature in a real extension host: tree, diagnostics, quick fixes, hovers, completion, links, live
// updates and the skills commands, asserted through the VS Code API on a fresh copy of examples/demo-workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsApi } from '../../src/extension/skills';
import type { ClaudeApi } from '../../src/extension/claude';
import type { SkillsNode } from '../../src/core/catalog/treeModel';
import { escapeHtml } from '../../src/webview/listingView';
import { getApi, quickFixes, settled, waitFor, workspaceDir } from './util';

type Node = SkillsNode;

async function skillsApi(): Promise<SkillsApi> {
  return (await getApi<{ skills: SkillsApi }>()).skills;
}

function skillsDir(...segments: string[]): string {
  return path.join(workspaceDir(), '.claude', 'skills', ...segments);
}

function label(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

async function childLabels(api: SkillsApi, node?: Node): Promise<string[]> {
  const nodes = await api.treeProvider.getChildren(node);
  return nodes.map((n) => label(api.treeProvider.getTreeItem(n)));
}

async function child(api: SkillsApi, parent: Node | undefined, name: string): Promise<Node> {
  const nodes = await api.treeProvider.getChildren(parent);
  const found = nodes.find((n) => label(api.treeProvider.getTreeItem(n)) === name);
  assert.ok(found, `no tree node "${name}" among ${nodes.map((n) => label(api.treeProvider.getTreeItem(n))).join(', ')}`);
  return found;
}

/** The entry row labelled `name` whose entry is a skill or a command. */
async function entryNode(api: SkillsApi, parent: Node, name: string, source: 'skill' | 'command' = 'skill'): Promise<Node> {
  const nodes = await api.treeProvider.getChildren(parent);
  const found = nodes.find((n) => n.kind === 'skill' && label(api.treeProvider.getTreeItem(n)) === name && api.service.index.skillByDir(n.dir)?.source === source);
  assert.ok(found, `no ${source} row "${name}" among ${nodes.map((n) => label(api.treeProvider.getTreeItem(n))).join(', ')}`);
  return found;
}

/** A tooltip's Markdown with the escapes MarkdownString.appendText adds removed. */
function plain(tooltip: vscode.TreeItem['tooltip']): string {
  return (tooltip as vscode.MarkdownString).value.replace(/\\([\\`*_{}[\]()#+\-.!~|<>])/g, '$1').replace(/&nbsp;/g, ' ');
}

function iconOf(item: vscode.TreeItem): { id: string; color?: string } {
  const icon = item.iconPath as vscode.ThemeIcon;
  return { id: icon.id, ...(icon.color ? { color: icon.color.id } : {}) };
}

/** The demo workspace's Project rows, in order: each entry by its command; commands beside skills; never-loaded last. */
const DEMO_PROJECT_ROWS = [
  '/broken-yaml', '/code-review', '/code-review', '/commit-message', '/deploy', '/explain-architecture', '/hello', '/mismatched-name',
  '/missing-reference', '/no-description', '/release-notes', '/unknown-key', '/workflow-implement', '/workflow-review', 'explain-regex',
];

/** The figures part of the Skills view description ("1,234 / 8,000 chars"). */
function budgetFiguresOf(description: string | undefined): string {
  return (description ?? '').split(' — ')[0];
}

function codes(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'skillflow')
    .map((d) => String(typeof d.code === 'object' ? d.code.value : d.code)).sort();
}

function writeSkill(dir: string, text: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  fs.writeFileSync(file, text);
  return file;
}

describe('skills feature', function () {
  this.timeout(60_000);
  let api: SkillsApi;

  const created = ['quick-fixes', 'bracket-hint', 'display-name', 'completion-skill', 'appeared-live', 'fresh-skill', 'portable', 'runner', 'remove-key', 'create-reference'];
  let brokenYaml = '';

  const budgetFigures = () => budgetFiguresOf(api.treeView.description);

  before(async () => {
    api = await skillsApi();
    brokenYaml = fs.readFileSync(skillsDir('broken-yaml', 'SKILL.md'), 'utf8');
  });

  // Later suites share this workspace copy: leave it as the demo was.
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of created) fs.rmSync(skillsDir(name), { recursive: true, force: true });
    fs.writeFileSync(skillsDir('broken-yaml', 'SKILL.md'), brokenYaml);
    await api.whenIdle();
  });

  it('indexes in the background after activation: Problems are filled before anything opens the Skills view', async () => {
    // No getChildren, no command: only the background load can have published these.
    await api.whenIdle();
    assert.equal(api.timings.loadedInBackground, true, 'the first index load came from the background task');
    assert.ok(api.timings.startupToDiagnosticsMs !== undefined, 'first diagnostics time recorded');
    console.log(`      first diagnostics ${api.timings.startupToDiagnosticsMs.toFixed(0)} ms after activate() started (index load ${api.timings.indexLoadMs?.toFixed(1)} ms)`);
    assert.deepEqual(codes(vscode.Uri.file(skillsDir('broken-yaml', 'SKILL.md'))), ['yaml-syntax']);
    assert.deepEqual(codes(vscode.Uri.file(path.join(workspaceDir(), '.claude', 'agents', 'reviewer.md'))), ['agent-skill-missing']);
    console.log(`      activate() took ${(await getApi<{ activationMs: number }>()).activationMs.toFixed(1)} ms`);
  });

  it('renders the demo entries grouped by Claude Code level, labelled by command, with agents and their bound skills', async () => {
    const top = await childLabels(api);
    assert.deepEqual(top, ['Project', 'Plugin · demo-plugin', 'Agents']);
    console.log(`      demo workspace: first index load ${api.timings.indexLoadMs?.toFixed(1)} ms, first tree render ${api.timings.firstRenderMs?.toFixed(1)} ms (incl. the load when it came first) for ${api.service.index.skills.length} skills`);
    assert.ok(api.timings.firstRenderMs !== undefined && api.timings.firstRenderMs > 0);

    const project = await child(api, undefined, 'Project');
    assert.deepEqual(await childLabels(api, project), DEMO_PROJECT_ROWS);
    const projectItem = api.treeProvider.getTreeItem(project);
    assert.equal(projectItem.contextValue, 'level.project');
    assert.match((projectItem.tooltip as vscode.MarkdownString).value, /^\*\*Project\*\* · 12 skills, 3 command files/);

    const plugin = await child(api, undefined, 'Plugin · demo-plugin');
    const lintFix = api.treeProvider.getTreeItem(await child(api, plugin, '/demo-plugin:lint-fix'));
    assert.equal(lintFix.contextValue, 'skill.skill.loaded');
    assert.deepEqual(iconOf(lintFix), { id: 'symbol-method' });

    const agents = await child(api, undefined, 'Agents');
    assert.deepEqual(await childLabels(api, agents), ['implementer', 'reviewer']);
    const reviewer = await child(api, agents, 'reviewer');
    const bound = await api.treeProvider.getChildren(reviewer);
    assert.deepEqual(bound.map((n) => [label(api.treeProvider.getTreeItem(n)), api.treeProvider.getTreeItem(n).description]), [
      ['workflow-review', api.treeProvider.getTreeItem(bound[0]).description],
      ['workflow-triage', 'missing skill'],
    ]);
  });

  it('shows badges, a markdown tooltip and the skill files as children', async () => {
    const command = await child(api, undefined, 'Project');
    const broken = api.treeProvider.getTreeItem(await child(api, command, '/broken-yaml'));
    // An unquoted `: ` in its description: Claude Code reads it (changelog 2.1.69), a warning in claude-code.
    assert.equal((broken.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(broken.contextValue, 'skill.skill.loaded.warning');
    const unknown = api.treeProvider.getTreeItem(await child(api, command, '/unknown-key'));
    assert.equal((unknown.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.deepEqual(iconOf(api.treeProvider.getTreeItem(await child(api, command, '/commit-message'))), { id: 'symbol-method' });
    assert.deepEqual(iconOf(api.treeProvider.getTreeItem(await child(api, command, '/workflow-review'))), { id: 'layers' });

    const reviewNode = await entryNode(api, command, '/code-review');
    const review = api.treeProvider.getTreeItem(reviewNode);
    // It replaces Claude Code's bundled /code-review (builtin-clash, a warning).
    assert.equal(review.contextValue, 'skill.skill.loaded.warning');
    assert.match(String(review.description), /^Review a pull request/);
    const tooltip = (review.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /`\/code-review`/);
    assert.match(tooltip, /~\d+ tokens/);
    assert.ok(tooltip.includes('$(file) `.claude/skills/code-review/SKILL.md`'), 'the path relative to the workspace folder');

    assert.deepEqual(await childLabels(api, reviewNode), ['SKILL.md', 'assets', 'references', 'scripts']);
    const scripts = await child(api, reviewNode, 'scripts');
    const [script] = await api.treeProvider.getChildren(scripts);
    const scriptItem = api.treeProvider.getTreeItem(script);
    assert.equal(scriptItem.contextValue, 'script');
    assert.equal(scriptItem.command?.command, 'vscode.open');
    assert.equal((scriptItem.command?.arguments?.[0] as vscode.Uri).fsPath, skillsDir('code-review', 'scripts', 'diff-stats.sh'));
    // A few words (a narrow header clips the rest, and its hover repeats the same text): the listing figures only.
    assert.match(api.treeView.description ?? '', /^[\d,]+ \/ [\d,]+ chars( ⚠ \d+ (dropped|truncated)(, \d+ truncated)?)?$/);
  });

  it("shows Claude Code's view: the command with its display name, a command shadowed by a skill, a skill that never loads", async () => {
    const project = await child(api, undefined, 'Project');

    const hello = api.treeProvider.getTreeItem(await child(api, project, '/hello'));
    assert.match(String(hello.description), /^hi · Greet the user/);
    assert.match((hello.tooltip as vscode.MarkdownString).value, /^\*\*`\/hello`\*\* · hi\n/);
    assert.equal(await vscode.commands.executeCommand('skillflow.copyInvocation', skillsDir('hello')), '/hello', 'the folder name, not `name: hi`');

    const commandFile = path.join(workspaceDir(), '.claude', 'commands', 'code-review.md');
    const shadowedNode = await entryNode(api, project, '/code-review', 'command');
    const shadowed = api.treeProvider.getTreeItem(shadowedNode);
    assert.deepEqual(iconOf(shadowed), { id: 'terminal', color: 'disabledForeground' });
    assert.match(String(shadowed.description), /^\(shadowed\) · Review the staged changes with the old/);
    // It loses /code-review to the skill, so it replaces nothing: no builtin-clash (the skill carries it).
    assert.equal(shadowed.contextValue, 'skill.command.shadowed');
    // Its label is greyed through a decoration on its own URI scheme (the file's problem colours stay off it).
    assert.equal(shadowed.resourceUri?.scheme, 'skillflow-entry');
    assert.equal(shadowed.collapsibleState, vscode.TreeItemCollapsibleState.None, 'a command has no files under it');
    assert.equal((shadowed.command?.arguments?.[0] as vscode.Uri).fsPath, commandFile, 'its row opens the command file');
    assert.equal(shadowed.accessibilityInformation?.label, '/code-review, command file, shadowed');
    const shadowTip = plain(shadowed.tooltip);
    assert.ok(shadowTip.includes('$(eye-closed) **Shadowed:** project skill /code-review at .claude/skills/code-review/SKILL.md wins'), shadowTip);
    assert.ok(shadowTip.includes('a skill wins over a command of the same name'), shadowTip);
    // The skill that shadows it sits right above it.
    const rows = await api.treeProvider.getChildren(project);
    assert.equal(rows.indexOf(shadowedNode) - 1, rows.findIndex((n) => n.kind === 'skill' && n.dir === skillsDir('code-review')));

    // A command with a problem keeps its terminal icon, in the problem's colour (explain-architecture's description is
    // longer than the listing keeps); one without keeps it uncoloured.
    const explain = api.treeProvider.getTreeItem(await entryNode(api, project, '/explain-architecture', 'command'));
    assert.deepEqual(iconOf(explain), { id: 'terminal', color: 'list.warningForeground' });
    assert.equal(explain.contextValue, 'skill.command.loaded.warning');
    assert.equal(explain.resourceUri?.scheme, 'file');
    const deploy = api.treeProvider.getTreeItem(await entryNode(api, project, '/deploy', 'command'));
    assert.equal(deploy.contextValue, 'skill.command.loaded');

    const neverNode = await child(api, project, 'explain-regex');
    const never = api.treeProvider.getTreeItem(neverNode);
    assert.deepEqual(iconOf(never), { id: 'symbol-method', color: 'disabledForeground' });
    assert.match(String(never.description), /^\(not loaded\) · Explain a regular expression/);
    assert.equal(never.contextValue, 'skill.skill.notLoaded', 'no Copy Invocation (package.json menus match loaded|shadowed)');
    assert.match(plain(never.tooltip), /\$\(circle-slash\) \*\*Not loaded:\*\* only direct children of .* are skills; drafts\/explain-regex\/SKILL\.md is deeper/);
    const deepDir = path.join(skillsDir('drafts', 'explain-regex'));
    assert.equal(await vscode.commands.executeCommand('skillflow.copyInvocation', deepDir), undefined, 'nothing to copy for an entry Claude Code never loads');

    // The built-in /release-notes command always wins over the demo skill of that name.
    const releaseNotes = api.treeProvider.getTreeItem(await child(api, project, '/release-notes'));
    assert.match(String(releaseNotes.description), /^\(shadowed\)/);
    assert.match(plain(releaseNotes.tooltip), /\/release-notes is a Claude Code built-in command, which always wins/);
  });

  it('publishes diagnostics with exact ranges, rule codes linked to their rendered rule section, for closed files too', async () => {
    await api.treeProvider.getChildren();
    const broken = vscode.Uri.file(skillsDir('broken-yaml', 'SKILL.md'));
    const diags = await waitFor(() => { const d = vscode.languages.getDiagnostics(broken); return d.length ? d : undefined; }, 10_000, 'broken-yaml diagnostics');
    assert.equal(diags.length, 1);
    const [d] = diags;
    assert.equal(d.source, 'skillflow');
    // An unquoted `: ` in the description: Claude Code reads it (changelog 2.1.69), a warning in claude-code.
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual([d.range.start.line, d.range.start.character], [2, 13]);
    const code = d.code as { value: string; target: vscode.Uri };
    assert.equal(code.value, 'yaml-syntax');
    // The link runs Show Rule (a command link; the workbench opens command targets of diagnostic codes).
    assert.equal(code.target.scheme, 'command');
    assert.equal(code.target.path, 'skillflow.showRule');
    const args = JSON.parse(decodeURIComponent(code.target.query)) as unknown[];
    assert.deepEqual(args, ['yaml-syntax']);
    await vscode.commands.executeCommand(code.target.path, ...args);
    const panel = await waitFor(() => api.rules.panel, 5_000, 'the rules page');
    assert.equal(panel.title, 'Rule: yaml-syntax');
    assert.equal(api.rules.code, 'yaml-syntax');
    const html = panel.webview.html;
    const section = html.slice(html.indexOf('<section class="rule"'), html.indexOf('</section>'));
    assert.match(section, /<h2[^>]*>yaml-syntax<\/h2>/, 'the section is rendered Markdown, not source');
    assert.match(section, /<strong>Fix:<\/strong>/);
    assert.match(section, /<td[^>]*>error<\/td>/, 'its severities per profile');
    assert.doesNotMatch(section, /## yaml-syntax/);
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.path.endsWith('/docs/rules.md')), 'no editor on the rules source');
    panel.dispose();

    assert.deepEqual(codes(vscode.Uri.file(skillsDir('mismatched-name', 'SKILL.md'))), ['name-dir-mismatch']);
    assert.deepEqual(codes(vscode.Uri.file(skillsDir('no-description', 'SKILL.md'))), ['description-missing']);
    assert.deepEqual(codes(vscode.Uri.file(skillsDir('missing-reference', 'SKILL.md'))), ['reference-missing']);
    assert.deepEqual(codes(vscode.Uri.file(path.join(workspaceDir(), '.claude', 'agents', 'reviewer.md'))), ['agent-skill-missing']);
    // It replaces Claude Code's bundled /code-review skill.
    assert.deepEqual(codes(vscode.Uri.file(skillsDir('code-review', 'SKILL.md'))), ['builtin-clash']);
  });

  it('applies the "quote the value" quick fix: the file changes on disk and the diagnostic goes away', async () => {
    const uri = vscode.Uri.file(skillsDir('broken-yaml', 'SKILL.md'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitFor(() => { const x = vscode.languages.getDiagnostics(uri); return x.length ? x : undefined; }, 10_000, 'diagnostic on open document');
    await api.whenIdle();
    const actions = await quickFixes(uri, d.range);
    const quote = actions.find((a) => a.title === 'Quote the value');
    assert.ok(quote, `no quote fix among: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(quote.isPreferred, true);
    assert.ok(quote.edit && await vscode.workspace.applyEdit(quote.edit));
    assert.match(doc.getText(), /^description: 'Summarise a log file: errors first, then warnings'$/m);
    // TextDocument.save() sometimes answers false while the workbench is busy; the Save command is what a user runs.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await waitFor(() => /^description: 'Summarise a log file: errors first, then warnings'$/m.test(fs.readFileSync(uri.fsPath, 'utf8')), 5_000, 'the fix saved to disk');
    await waitFor(() => vscode.languages.getDiagnostics(uri).length === 0, 5_000, 'yaml-syntax to disappear');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('quotes an argument-hint of two bracket groups ([a] [b], not one YAML value) with the same quick fix', async () => {
    const file = writeSkill(skillsDir('bracket-hint'), '---\nname: bracket-hint\ndescription: Create a pull request\nargument-hint: [to-branch] [from-branch]\n---\n# PR\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const d = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((x) => (x.code as { value: string }).value === 'yaml-syntax'), 5_000, 'yaml-syntax diagnostic');
    assert.match(d.message, /^Quote the value of 'argument-hint'/);
    const quote = (await quickFixes(doc.uri, d.range)).find((a) => a.title === 'Quote the value');
    assert.ok(quote?.edit && await vscode.workspace.applyEdit(quote.edit), 'no quote fix');
    assert.match(doc.getText(), /^argument-hint: '\[to-branch\] \[from-branch\]'$/m);
    await waitFor(() => vscode.languages.getDiagnostics(doc.uri).length === 0, 5_000, 'yaml-syntax to disappear');
    await doc.save();
  });

  it('offers the other quick fixes (folder name, kebab-case, angle brackets, description, open description)', async () => {
    const dir = skillsDir('quick-fixes');
    const longDescription = 'x'.repeat(1030);
    const file = writeSkill(dir, `---\nname: Quick_Fixes\ndescription: Tidy <things> up\n---\n# Q\n`);
    const doc = await vscode.workspace.openTextDocument(file);
    const fixesFor = async (code: string) => {
      const d = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((x) => (x.code as { value: string }).value === code), 5_000, `${code} diagnostic`);
      await api.whenIdle();
      return quickFixes(doc.uri, d.range);
    };
    const kebab = (await fixesFor('name-case')).find((a) => a.title.startsWith('Convert to kebab-case'));
    assert.equal(kebab?.title, `Convert to kebab-case: 'quick-fixes'`);
    const angle = (await fixesFor('description-angle-brackets')).find((a) => a.title === 'Remove angle brackets from the description');
    assert.ok(kebab?.edit && angle?.edit);
    await vscode.workspace.applyEdit(kebab.edit);
    await vscode.workspace.applyEdit(angle.edit);
    assert.equal(doc.getText(), `---\nname: quick-fixes\ndescription: Tidy things up\n---\n# Q\n`);
    await waitFor(() => codes(doc.uri).length === 0, 5_000, 'diagnostics to clear after the fixes (as you type)');

    // The diagnostic's suggestion is what the quick fix writes (one suggestion function): Café → cafe.
    const cafe = new vscode.WorkspaceEdit();
    cafe.replace(doc.uri, new vscode.Range(1, 6, 1, 17), 'Café');
    await vscode.workspace.applyEdit(cafe);
    const caseDiagnostic = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((x) => (x.code as { value: string }).value === 'name-case'), 5_000, 'name-case for Café');
    assert.match(caseDiagnostic.message, /^Rename to 'cafe': /);
    assert.deepEqual([caseDiagnostic.range.start.character, caseDiagnostic.range.end.character], [6, 10], 'the whole value is underlined');
    const cafeFix = (await fixesFor('name-case')).find((a) => a.title.startsWith('Convert to kebab-case'));
    assert.ok(cafeFix?.edit && await vscode.workspace.applyEdit(cafeFix.edit));
    assert.match(doc.getText(), /^name: cafe$/m);

    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), `---\nname: other-name\n---\n# Q\n`);
    await vscode.workspace.applyEdit(edit);
    const rename = (await fixesFor('name-dir-mismatch')).find((a) => a.title.startsWith('Rename to'));
    const add = (await fixesFor('description-missing')).find((a) => a.title === 'Add a description');
    assert.ok(rename?.edit && add?.edit);
    await vscode.workspace.applyEdit(rename.edit);
    await vscode.workspace.applyEdit(add.edit);
    assert.match(doc.getText(), /^---\nname: quick-fixes\ndescription: TODO [^\n]+\n---\n/);

    const edit2 = new vscode.WorkspaceEdit();
    edit2.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), `---\nname: quick-fixes\ndescription: ${longDescription}\n---\n# Q\n`);
    await vscode.workspace.applyEdit(edit2);
    const open = (await fixesFor('description-length')).find((a) => a.title.startsWith('Open description'));
    assert.ok(open && !open.edit, 'description-length is never trimmed automatically');
    assert.equal(open.command?.command, 'skillflow.selectRange');
    await vscode.commands.executeCommand(open.command.command, ...(open.command.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, file);
    assert.equal(editor?.document.getText(editor.selection), longDescription);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a display name (`name: Display Name`) is a warning saying what Claude Code does with it: a label, or in a plugin also the command', async () => {
    const file = writeSkill(skillsDir('display-name'), '---\nname: Display Name\ndescription: Shows a label. Use it in tests.\n---\n# D\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const nameCase = (uri: vscode.Uri, text: string) => vscode.languages.getDiagnostics(uri).find((x) => (x.code as { value: string }).value === 'name-case' && x.message.includes(text));
    const project = await waitFor(() => nameCase(doc.uri, 'label only'), 10_000, 'name-case for a project skill');
    assert.equal(project.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(project.message, /^Rename to 'display-name': .*Claude Code shows it as a label only in a personal or project skill \(the command is \/display-name\)/);
    await api.whenIdle();
    const kebab = (await quickFixes(doc.uri, project.range)).find((a) => a.title.startsWith('Convert to kebab-case'));
    assert.equal(kebab?.title, "Convert to kebab-case: 'display-name'");
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    const pluginSkill = path.join(workspaceDir(), 'plugins', 'demo-plugin', 'skills', 'display-plugin');
    try {
      const pluginDoc = await vscode.workspace.openTextDocument(writeSkill(pluginSkill, '---\nname: Display Plugin\ndescription: Shows a command. Use it in tests.\n---\n# P\n'));
      await vscode.window.showTextDocument(pluginDoc);
      // Typed, not saved: the message comes from the open document's own validation.
      const typed = new vscode.WorkspaceEdit();
      typed.replace(pluginDoc.uri, new vscode.Range(1, 6, 1, 20), 'Display Typed');
      await vscode.workspace.applyEdit(typed);
      const plugin = await waitFor(() => nameCase(pluginDoc.uri, '/demo-plugin:Display Typed'), 10_000, 'name-case for a plugin skill as typed');
      assert.equal(plugin.severity, vscode.DiagnosticSeverity.Warning);
      assert.match(plugin.message, /^Rename to 'display-typed': .*Claude Code also makes it the command \(\/demo-plugin:Display Typed\)/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      fs.rmSync(pluginSkill, { recursive: true, force: true });
      fs.rmSync(skillsDir('display-name'), { recursive: true, force: true });
      await api.whenIdle();
    }
  });

  it('a plugin skill\'s command that runs a script by its source-repository path: script-source-path, fixed to ${CLAUDE_SKILL_DIR}/…', async () => {
    const dir = path.join(workspaceDir(), 'plugins', 'demo-plugin', 'skills', 'run-script');
    try {
      fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'scripts', 'go.py'), 'print("go")\n');
      const doc = await vscode.workspace.openTextDocument(writeSkill(dir,
        '---\nname: run-script\ndescription: Runs a script. Use it in tests.\n---\n# Run\n\n```bash\npython3 plugins/demo-plugin/skills/run-script/scripts/go.py --fast\n```\n'));
      await vscode.window.showTextDocument(doc);
      const d = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((x) => (x.code as { value: string }).value === 'script-source-path'), 10_000, 'script-source-path diagnostic');
      assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.character], [7, 8, 59]);
      const write = (await quickFixes(doc.uri, d.range)).find((a) => a.title === "Write '${CLAUDE_SKILL_DIR}/scripts/go.py'");
      assert.ok(write?.edit && await vscode.workspace.applyEdit(write.edit), 'no Write fix');
      assert.match(doc.getText(), /^python3 \$\{CLAUDE_SKILL_DIR\}\/scripts\/go\.py --fast$/m);
      await waitFor(() => !codes(doc.uri).includes('script-source-path'), 5_000, 'script-source-path to clear as you type');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await api.whenIdle();
    }
  });

  it('validates an open command file as you type, with the index\'s cross-entry problems (a command shadowed by a skill)', async () => {
    const file = path.join(workspaceDir(), '.claude', 'commands', 'live-command.md');
    fs.writeFileSync(file, 'Summarise the [changes](docs/changes.md) of this branch.\n');
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      await waitFor(() => codes(doc.uri).join() === 'reference-missing', 10_000, `reference-missing only (no frontmatter-missing in a command), got ${codes(doc.uri).join()}`);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(0, 0), '---\nname: ship\n---\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const ignored = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((d) => (d.code as { value: string }).value === 'unknown-key'), 5_000, 'unknown-key for name, unsaved');
      assert.equal(ignored.message, 'Claude Code ignores `name` in a command file (the command is the file name)');
      assert.equal(ignored.range.start.line, 1);
      assert.deepEqual(codes(doc.uri), ['reference-missing', 'unknown-key']);
      // An open command that a skill shadows keeps the index's `shadowed` beside its own problems.
      const shadowedDoc = await vscode.workspace.openTextDocument(path.join(workspaceDir(), '.claude', 'commands', 'code-review.md'));
      await waitFor(() => codes(shadowedDoc.uri).includes('shadowed'), 5_000, 'shadowed on the open command');
      const undo = new vscode.WorkspaceEdit();
      undo.delete(doc.uri, new vscode.Range(0, 0, 3, 0));
      assert.ok(await vscode.workspace.applyEdit(undo));
      await doc.save();
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('hovers a frontmatter key with its documentation and profiles', async () => {
    const uri = vscode.Uri.file(skillsDir('code-review', 'SKILL.md'));
    await vscode.workspace.openTextDocument(uri);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(3, 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    assert.match(text, /\*\*`allowed-tools`\*\*/);
    assert.match(text, /Accepted by profiles: `claude-code`, `spec`, `upload`/);
    const argHover = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(4, 2));
    const argText = argHover.flatMap((h) => h.contents.map((c) => (c as vscode.MarkdownString).value)).join('\n');
    assert.match(argText, /Accepted by profiles: `claude-code`$/m);
  });

  it('completes missing keys at line start and enum values after a key', async () => {
    const file = writeSkill(skillsDir('completion-skill'), `---\nname: completion-skill\ndescription: Completes.\n\nmodel: \ncontext: \nbackground: \n---\n# C\n`);
    const uri = vscode.Uri.file(file);
    await vscode.workspace.openTextDocument(uri);
    const keys = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(3, 0));
    const keyLabels = keys.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(keyLabels.includes('allowed-tools') && keyLabels.includes('disable-model-invocation'), keyLabels.join(','));
    assert.ok(!keyLabels.includes('name') && !keyLabels.includes('description'), 'keys already present are not offered');
    const models = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(4, 7));
    const modelLabels = models.items.filter((i) => i.kind === vscode.CompletionItemKind.EnumMember).map((i) => String(i.label));
    // Every /model alias from Claude Code's value table, and inherit.
    assert.ok(['sonnet', 'opus', 'haiku', 'inherit', 'opusplan', 'sonnet[1m]', 'default', 'best'].every((m) => modelLabels.includes(m)), modelLabels.join(','));
    const booleans = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(6, 12));
    const booleanLabels = booleans.items.filter((i) => i.kind === vscode.CompletionItemKind.EnumMember).map((i) => String(i.label));
    assert.deepEqual(booleanLabels, ['true', 'false', 'yes', 'no', 'on', 'off', '1', '0']);
    const backgroundHover = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(6, 3));
    const backgroundText = backgroundHover.flatMap((h) => h.contents.map((c) => (c as vscode.MarkdownString).value)).join('\n');
    assert.match(backgroundText, /Only applies with `context: fork`/);
    assert.match(backgroundText, /This file has no `context: fork`: Claude Code ignores `background` here/);
    const contexts = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(5, 9));
    assert.deepEqual(contexts.items.filter((i) => i.kind === vscode.CompletionItemKind.EnumMember).map((i) => String(i.label)), ['fork']);
    const body = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(8, 3));
    assert.equal(body.items.filter((i) => i.kind === vscode.CompletionItemKind.Property).length, 0, 'no key completion in the body');
  });

  it('links references to files in the skill and in other skills', async () => {
    const uri = vscode.Uri.file(skillsDir('code-review', 'SKILL.md'));
    // Link providers run on documents the workbench knows (a document the API only names has no language yet).
    await vscode.workspace.openTextDocument(uri);
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri);
    const diffStats = links.find((l) => l.target?.fsPath.endsWith('diff-stats.sh'));
    assert.deepEqual([diffStats?.range.start.line, diffStats?.range.start.character, diffStats?.range.end.character], [10, 39, 60]);
    const targets = links.filter((l) => l.target?.scheme === 'file').map((l) => path.relative(skillsDir(), l.target!.fsPath)).sort();
    assert.deepEqual(targets, ['code-review/assets/review-template.md', 'code-review/references/checklist.md', 'code-review/scripts/diff-stats.sh', 'commit-message/references/conventional-commits.md']);
    await vscode.workspace.openTextDocument(vscode.Uri.file(skillsDir('missing-reference', 'SKILL.md')));
    const missing = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', vscode.Uri.file(skillsDir('missing-reference', 'SKILL.md')));
    assert.equal(missing.filter((l) => l.target?.fsPath.includes('api-docs-guide')).length, 0, 'a missing target is a diagnostic, not a link');
  });

  it('shows a skill folder created on disk in the tree without a refresh, listing only its level group again', async () => {
    const project = await child(api, undefined, 'Project');
    await childLabels(api, project);
    await api.whenIdle();
    // (The test before removes a command file; its watcher event may still be on the way: the tree settles first.)
    await settled(api.treeProvider.onDidChangeTreeData);
    await api.whenIdle();
    const refreshed: Array<Node | Node[] | undefined | null> = [];
    const times: { tree?: number; workbench?: number } = {};
    const listening = api.treeProvider.onDidChangeTreeData((e) => { refreshed.push(e); times.tree ??= Date.now(); });
    // The workbench's own file watcher (what createFileSystemWatcher gives an extension), timed for comparison: the
    // index watches the skills root itself and does not wait for it.
    const watcher = vscode.workspace.createFileSystemWatcher('**/appeared-live/SKILL.md');
    const seen = () => { times.workbench ??= Date.now(); };
    watcher.onDidCreate(seen);
    watcher.onDidChange(seen);
    try {
      const started = Date.now();
      writeSkill(skillsDir('appeared-live'), `---\nname: appeared-live\ndescription: Created by the test process.\n---\n# Live\n`);
      await waitFor(() => times.tree, 5_000, 'a tree refresh');
      await waitFor(async () => (await childLabels(api, project)).includes('/appeared-live'), 5_000, 'appeared-live in the tree');
      // Only printed for comparison: the workbench's watcher is not on our path, and under load it may report late.
      await waitFor(() => times.workbench, 5_000, "the workbench's file watcher event").catch(() => undefined);
      const workbench = times.workbench === undefined ? 'had not reported it after 5 s' : `reported it after ${times.workbench - started} ms`;
      console.log(`      live update: tree refreshed ${times.tree! - started} ms after the write; the workbench's file watcher ${workbench}`);
      // The Project group alone (its count and rows): not the whole tree, not the Agents group.
      assert.deepEqual(refreshed, [[project]]);
      refreshed.length = 0;
      fs.rmSync(skillsDir('appeared-live'), { recursive: true });
      await waitFor(async () => !(await childLabels(api, project)).includes('/appeared-live'), 5_000, 'appeared-live to leave the tree');
      assert.deepEqual(refreshed[0], [project]);
    } finally {
      listening.dispose();
      watcher.dispose();
    }
  });

  it('shows an agent in a subfolder of .claude/agents with its Markdown from the file escaped in the tooltip (no image fetched on hover, no link)', async () => {
    const dir = path.join(workspaceDir(), '.claude', 'agents', 'hostile');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'pixel.md');
    fs.writeFileSync(file, '---\nname: pixel-agent\ndescription: "![t](https://example.invalid/p.png) [click](https://example.invalid/x) $(zap) &amp; <b>"\nmodel: sonnet\ntools: "Read, [x](https://example.invalid/y)"\n---\nHi.\n');
    try {
      const agents = await child(api, undefined, 'Agents');
      await waitFor(async () => (await childLabels(api, agents)).includes('pixel-agent'), 10_000, 'the subfolder agent in the tree');
      const tip = (api.treeProvider.getTreeItem(await child(api, agents, 'pixel-agent')).tooltip as vscode.MarkdownString).value;
      // Every Markdown, HTML, entity and icon opener from the file is escaped (or inside a code span, which renders
      // as text): nothing renders as an image or a link.
      const md = tip.replace(/(`+)(?:(?!\1).)*\1/g, '');
      assert.doesNotMatch(md, /(^|[^\\])!\[/, tip);
      assert.doesNotMatch(md, /(^|[^\\])\]\(/, md);
      assert.doesNotMatch(md, /(^|[^\\])\$\(zap\)/, md);
      assert.doesNotMatch(md, /(^|[^\\])<b>/, md);
      assert.doesNotMatch(md, /(^|[^\\])&amp;/, md);
      assert.match(plain(api.treeProvider.getTreeItem(await child(api, agents, 'pixel-agent')).tooltip), /!\[t\]\(https:\/\/example\.invalid\/p\.png\)/, 'shown as text');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await waitFor(async () => !(await childLabels(api, await child(api, undefined, 'Agents'))).includes('pixel-agent'), 10_000, 'the agent to leave');
    }
  });

  it('Search Skills finds a skill by a word of its description', async () => {
    const picked = vscode.commands.executeCommand<string | undefined>('skillflow.searchSkills', { value: 'Conventional' });
    await new Promise((r) => setTimeout(r, 800));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await picked, skillsDir('commit-message'));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, skillsDir('commit-message', 'SKILL.md'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Search Skills lists the entry that answers a command before the one it shadows', async () => {
    // /code-review: the project skill wins over the project command of the same name.
    const picked = vscode.commands.executeCommand<string | undefined>('skillflow.searchSkills', { value: '/code-review' });
    await new Promise((r) => setTimeout(r, 800));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await picked, skillsDir('code-review'), 'the first row is the skill that answers /code-review');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, skillsDir('code-review', 'SKILL.md'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Copy Invocation copies /name and /plugin:name', async () => {
    assert.equal(await vscode.commands.executeCommand('skillflow.copyInvocation', skillsDir('code-review')), '/code-review');
    assert.equal(await vscode.env.clipboard.readText(), '/code-review');
    const plugin = path.join(workspaceDir(), 'plugins', 'demo-plugin', 'skills', 'lint-fix');
    assert.equal(await vscode.commands.executeCommand('skillflow.copyInvocation', plugin), '/demo-plugin:lint-fix');
  });

  it('New Skill scaffolds a folder, opens SKILL.md and indexes it', async () => {
    const dir = await vscode.commands.executeCommand<string>('skillflow.newSkill', { name: 'fresh-skill', parentDir: skillsDir() });
    assert.equal(dir, skillsDir('fresh-skill'));
    assert.ok(fs.existsSync(path.join(dir, 'SKILL.md')));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(dir, 'SKILL.md'));
    assert.equal(api.service.index.skillByDir(dir)?.name, 'fresh-skill');
    assert.equal(await vscode.commands.executeCommand('skillflow.newSkill', { name: 'Bad Name', parentDir: skillsDir() }), undefined);
    assert.equal(fs.existsSync(skillsDir('Bad Name')), false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('New Skill walks two steps with Back, reveals and selects the skill, and puts the cursor on its TODO description', async () => {
    const running = vscode.commands.executeCommand<string | undefined>('skillflow.newSkill');
    const step = (n: number) => waitFor(() => api.activeInput?.step === n && api.activeInput, 10_000, `New Skill step ${n}`);
    const nameBox = await step(1) as vscode.InputBox;
    assert.equal(nameBox.totalSteps, 2);
    assert.doesNotMatch(nameBox.prompt ?? '', /`/, 'no literal backticks in the prompt');
    nameBox.value = 'back-and-forth';
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const where = await step(2) as vscode.QuickPick<vscode.QuickPickItem>;
    assert.deepEqual(where.buttons, [vscode.QuickInputButtons.Back]);
    assert.doesNotMatch(`${where.title ?? ''} ${where.placeholder ?? ''}`, /`/);
    // Only folders whose skills Claude Code loads: not the demo's misplaced .claude/skills/drafts, not .agents/skills.
    assert.deepEqual(where.items.map((i) => i.label), ['$(root-folder) Project: .claude/skills', '$(account) Personal: ~/.claude/skills']);
    await vscode.commands.executeCommand('workbench.action.quickInputBack');
    const again = await waitFor(() => api.activeInput !== where && api.activeInput?.step === 1 && api.activeInput as vscode.InputBox, 10_000, 'back on step 1');
    assert.equal(again.value, 'back-and-forth', 'the name typed before Back is kept');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await step(2);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // the first row: Project .claude/skills
    const dir = await running;
    assert.equal(dir, skillsDir('back-and-forth'));
    created.push('back-and-forth');
    const selected = api.treeView.selection as Node[];
    assert.deepEqual(selected.map((n) => n.id), [`skill:${dir}`], 'the new skill is selected in the tree');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, path.join(dir as string, 'SKILL.md'));
    assert.equal(editor?.document.getText(editor.selection), 'TODO - say what this skill does and when Claude should use it, in one or two sentences.');
    await waitFor(() => codes(editor.document.uri).includes('description-placeholder'), 10_000, 'the TODO description is reported');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Package Skill refuses a TODO description before asking where to save', async () => {
    const dir = await vscode.commands.executeCommand<string>('skillflow.newSkill', { name: 'todo-package', parentDir: skillsDir() });
    created.push('todo-package');
    // No outDir given: a refusal must come before the "where" QuickPick, so this resolves without any answer.
    const refused = await vscode.commands.executeCommand<{ ok: boolean; message: string; problems: Array<{ code: string }> }>('skillflow.packageSkill', dir);
    assert.equal(refused?.ok, false);
    assert.deepEqual(refused?.problems.map((p) => p.code), ['description-placeholder']);
    assert.equal(api.activeInput, undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Package Skill writes <name>.skill, and refuses a skill with upload errors', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-pkg-'));
    const dir = skillsDir('portable');
    writeSkill(dir, `---\nname: portable\ndescription: Portable skill that passes the upload profile.\nlicense: MIT\n---\n# P\nSee [notes](references/notes.md).\n`);
    fs.mkdirSync(path.join(dir, 'references'));
    fs.writeFileSync(path.join(dir, 'references', 'notes.md'), '# Notes\n');
    await waitFor(() => api.service.index.skillByDir(dir), 5_000, 'portable indexed');
    const ok = await vscode.commands.executeCommand<{ ok: boolean; file?: string; entries?: string[]; message?: string }>('skillflow.packageSkill', dir, out);
    assert.equal(ok.ok, true, ok.message);
    assert.equal(ok.file, path.join(out, 'portable.skill'));
    assert.deepEqual([...(ok.entries ?? [])].sort(), ['portable/SKILL.md', 'portable/references/notes.md']);
    assert.ok(fs.statSync(ok.file).size > 100);
    // code-review uses `argument-hint`, a Claude Code key the upload profile rejects.
    const refused = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>('skillflow.packageSkill', skillsDir('code-review'), out);
    assert.equal(refused.ok, false);
    assert.match(refused.message ?? '', /upload/);
    assert.deepEqual(fs.readdirSync(out), ['portable.skill']);
    // The way forward it offers ("Package Without Them"): a copy of SKILL.md without the Claude Code keys.
    assert.deepEqual((refused as { claudeCodeKeys?: unknown }).claudeCodeKeys, { keys: ['argument-hint'], packagesWithout: true });
    const before = fs.readFileSync(skillsDir('code-review', 'SKILL.md'), 'utf8');
    const without = await vscode.commands.executeCommand<{ ok: boolean; file?: string; dropped?: string[]; message?: string }>('skillflow.packageSkill', skillsDir('code-review'), out, { withoutClaudeCodeKeys: true });
    assert.equal(without.ok, true, without.message);
    assert.deepEqual(without.dropped, ['argument-hint']);
    assert.deepEqual(fs.readdirSync(out).sort(), ['code-review.skill', 'portable.skill']);
    assert.equal(fs.readFileSync(skillsDir('code-review', 'SKILL.md'), 'utf8'), before, 'the skill keeps its keys');
  });

  it("offers \"Remove 'colour'\" on unknown-key (not preferred: Auto Fix and Fix all leave it) and removes the key with its value", async () => {
    const file = writeSkill(skillsDir('remove-key'), '---\nname: remove-key\ndescription: Removes a key. Use it in tests.\ncolour:\n  - red\n---\n# R\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const d = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((x) => (x.code as { value: string }).value === 'unknown-key'), 10_000, 'unknown-key diagnostic');
    await api.whenIdle();
    const remove = (await quickFixes(doc.uri, d.range)).find((a) => a.title === "Remove 'colour'");
    assert.ok(remove?.edit, 'the Remove fix');
    assert.notEqual(remove.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(remove.edit));
    assert.equal(doc.getText(), '---\nname: remove-key\ndescription: Removes a key. Use it in tests.\n---\n# R\n');
    await waitFor(() => codes(doc.uri).length === 0, 5_000, 'unknown-key to go away');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('offers "Create references/guide.md" on reference-missing: the file is created with a heading and the warning goes', async () => {
    const dir = skillsDir('create-reference');
    const file = writeSkill(dir, '---\nname: create-reference\ndescription: Links a guide. Use it in tests.\n---\nSee [the guide](references/guide.md).\n');
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const d = await waitFor(() => vscode.languages.getDiagnostics(uri).find((x) => (x.code as { value: string }).value === 'reference-missing'), 10_000, 'reference-missing diagnostic');
    await api.whenIdle();
    const create = (await quickFixes(uri, d.range)).find((a) => a.title === 'Create references/guide.md');
    assert.ok(create?.edit, 'the Create fix');
    assert.equal(create.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(create.edit));
    const target = path.join(dir, 'references', 'guide.md');
    await waitFor(() => fs.existsSync(target), 5_000, 'the file on disk');
    const created = vscode.workspace.textDocuments.find((t) => t.uri.fsPath === target);
    assert.equal(created ? created.getText() : fs.readFileSync(target, 'utf8'), '# guide\n');
    await waitFor(() => codes(uri).length === 0, 10_000, 'reference-missing to go away');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers "Change to \'references/guide.md\'" where the message names the path meant: the link is rewritten and the warning goes', async () => {
    const dir = skillsDir('meant-reference');
    const file = writeSkill(dir, '---\nname: meant-reference\ndescription: Links a guide. Use it in tests.\n---\nSee [the guide](reference/guide.md).\n');
    fs.mkdirSync(path.join(dir, 'references'));
    fs.writeFileSync(path.join(dir, 'references', 'guide.md'), '# guide\n');
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const d = await waitFor(() => vscode.languages.getDiagnostics(uri).find((x) => (x.code as { value: string }).value === 'reference-missing' && x.message.includes('did you mean')), 10_000, 'reference-missing with its hint');
    assert.match(d.message, /'reference\/guide\.md' does not exist in this skill; did you mean 'references\/guide\.md'\?/);
    await api.whenIdle();
    const titles = (await quickFixes(uri, d.range)).map((a) => a.title);
    const change = (await quickFixes(uri, d.range)).find((a) => a.title === "Change to 'references/guide.md'");
    assert.ok(change?.edit, `the Change fix among ${JSON.stringify(titles)}`);
    assert.ok(!titles.includes('Create reference/guide.md'), 'no Create fix beside a path that exists');
    assert.ok(await vscode.workspace.applyEdit(change.edit));
    assert.equal(doc.getText(), '---\nname: meant-reference\ndescription: Links a guide. Use it in tests.\n---\nSee [the guide](references/guide.md).\n');
    await waitFor(() => codes(uri).length === 0, 10_000, 'reference-missing to go away');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Run Script runs scripts/<file> from the skill folder in the Skillflow terminal (trusted workspace)', async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    const dir = skillsDir('runner');
    writeSkill(dir, `---\nname: runner\ndescription: Runs a script.\n---\n# R\n`);
    fs.mkdirSync(path.join(dir, 'scripts'));
    const marker = path.join(dir, 'ran.txt');
    fs.writeFileSync(path.join(dir, 'scripts', "mark it's.sh"), `pwd > ran.txt\n`);
    await api.whenIdle();
    await waitFor(() => api.service.index.skillByDir(dir), 5_000, 'runner indexed');
    const line = await vscode.commands.executeCommand<string>('skillflow.runScript', vscode.Uri.file(path.join(dir, 'scripts', "mark it's.sh")));
    assert.equal(line, `cd ${dir} && bash 'scripts/mark it'\\''s.sh'`);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'Skillflow'));
    const text = await waitFor(() => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8'), 20_000, 'the script to write ran.txt');
    assert.equal(text.trim(), fs.realpathSync(dir));
  });

  it("shows What Claude Sees' listing figures in the view description, live; where the budget comes from is in What Claude Sees", async () => {
    const claude = (await getApi<{ claude: ClaudeApi }>()).claude;
    await api.treeProvider.getChildren();
    await claude.whenIdle();
    const vm = claude.render();
    assert.ok(vm);
    assert.ok(vm.used > 0 && vm.budget > 0);
    const truncated = vm.rows.filter((r) => r.shown === 'truncated').length;
    const figuresOf = (v: typeof vm) => `${v.used.toLocaleString('en-US')} / ${v.budget.toLocaleString('en-US')} chars${truncated ? ` ⚠ ${truncated} truncated` : ''}`;
    assert.ok(vm.rows.every((r) => r.shown !== 'dropped'), 'the demo fits its budget');
    assert.equal(budgetFigures(), figuresOf(vm));
    assert.equal(api.treeView.description, figuresOf(vm), 'the figures only');
    for (const sentence of vm.budgetSources) assert.ok(claude.lastHtml?.includes(escapeHtml(sentence)), `What Claude Sees says "${sentence}"`);
    assert.equal(api.treeView.message, undefined, 'a message only when descriptions are dropped');

    // A 2k-token context window leaves a budget of a few dozen characters: descriptions are dropped.
    const config = vscode.workspace.getConfiguration('skillflow');
    await config.update('listing.contextWindow', '2k', vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => api.treeView.message?.includes('dropped'), 5_000, 'the dropped-descriptions warning');
      const small = claude.render();
      assert.ok(small && small.budget < vm.budget);
      const dropped = small.rows.filter((r) => r.shown === 'dropped').length;
      assert.ok(dropped > 0);
      assert.match(budgetFigures(), new RegExp(`^${small.used.toLocaleString('en-US')} / ${small.budget.toLocaleString('en-US')} chars ⚠ ${dropped} dropped`));
      assert.ok(claude.lastHtml?.includes('2k-token context window'), 'What Claude Sees says where the budget comes from');
    } finally {
      await config.update('listing.contextWindow', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await claude.whenIdle();
    const back = claude.render();
    assert.ok(back);
    assert.equal(back.budget, vm.budget);
    await waitFor(() => budgetFigures() === figuresOf(back), 5_000, `the figures back: "${budgetFigures()}", the view has ${figuresOf(back)}`);
    assert.equal((api.treeView as { message?: string }).message, undefined, 'no dropped warning');
  });

  it('applies the rule configuration to the row badges: a rule off in .skillflow.json removes the badge', async () => {
    const configFile = path.join(workspaceDir(), '.skillflow.json');
    const project = await child(api, undefined, 'Project');
    const row = async () => api.treeProvider.getTreeItem(await entryNode(api, project, '/unknown-key'));
    const before = await row();
    assert.equal(before.contextValue, 'skill.skill.loaded.warning');
    assert.deepEqual(iconOf(before), { id: 'warning', color: 'list.warningForeground' });
    assert.match(plain(before.tooltip), /\$\(warning\) `unknown-key`/);
    assert.deepEqual(api.service.index.skillByDir(skillsDir('unknown-key'))?.problems.map((p) => p.code), ['unknown-key'], 'the demo skill has this one problem');
    fs.writeFileSync(configFile, '{ "rules": { "unknown-key": "off" } }\n');
    try {
      await waitFor(async () => (await row()).contextValue === 'skill.skill.loaded', 10_000, 'the badge to go (watcher on .skillflow.json)');
      const after = await row();
      assert.deepEqual(iconOf(after), { id: 'symbol-method' });
      assert.doesNotMatch(plain(after.tooltip), /\$\(warning\)/);
      assert.doesNotMatch(after.accessibilityInformation?.label ?? '', /warning/);
    } finally {
      fs.rmSync(configFile, { force: true });
      api.ruleConfig.reload();
    }
    assert.equal((await row()).contextValue, 'skill.skill.loaded.warning');
  });

  it('a personal skill overrides the project skill of the same name: Personal first, the project row dimmed with the reason', async () => {
    const personalDir = path.join(os.homedir(), '.claude', 'skills', 'code-review');
    // The runners isolate HOME; never touch a real personal skill.
    assert.equal(fs.existsSync(personalDir), false, `${personalDir} already exists`);
    writeSkill(personalDir, `---\nname: code-review\ndescription: My personal review habits.\n---\n# Mine\n`);
    try {
      await vscode.commands.executeCommand('skillflow.refresh');
      assert.deepEqual(await childLabels(api), ['Personal', 'Project', 'Plugin · demo-plugin', 'Agents']);
      const personal = api.treeProvider.getTreeItem(await child(api, await child(api, undefined, 'Personal'), '/code-review'));
      assert.equal(personal.contextValue, 'skill.skill.loaded.warning');
      const node = await entryNode(api, await child(api, undefined, 'Project'), '/code-review');
      const item = api.treeProvider.getTreeItem(node);
      assert.equal(item.contextValue, 'skill.skill.shadowed');
      assert.deepEqual(iconOf(item), { id: 'symbol-method', color: 'disabledForeground' });
      assert.match(String(item.description), /^\(shadowed\) · Review a pull request/);
      const tip = plain(item.tooltip);
      assert.ok(tip.includes('**Shadowed:** personal skill /code-review at ~/.claude/skills/code-review/SKILL.md wins: managed > personal > project'), tip);
      await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(skillsDir('code-review', 'SKILL.md')))
        .some((d) => (d.code as { value: string }).value === 'shadowed' && d.severity === vscode.DiagnosticSeverity.Information), 5_000, 'the project skill reported shadowed');
    } finally {
      fs.rmSync(personalDir, { recursive: true, force: true });
      await vscode.commands.executeCommand('skillflow.refresh');
    }
    assert.deepEqual(await childLabels(api), ['Project', 'Plugin · demo-plugin', 'Agents']);
  });

  it('re-validates everything when skillflow.validation.profile changes', async () => {
    const uri = vscode.Uri.file(skillsDir('unknown-key', 'SKILL.md'));
    const severity = () => vscode.languages.getDiagnostics(uri).find((d) => (d.code as { value: string }).value === 'unknown-key')?.severity;
    assert.equal(severity(), vscode.DiagnosticSeverity.Warning);
    const config = vscode.workspace.getConfiguration('skillflow');
    await config.update('validation.profile', 'spec', vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => severity() === vscode.DiagnosticSeverity.Error, 5_000, 'unknown-key to become an error under spec');
      assert.deepEqual(codes(vscode.Uri.file(skillsDir('mismatched-name', 'SKILL.md'))), ['name-dir-mismatch']);
      assert.equal(vscode.languages.getDiagnostics(vscode.Uri.file(skillsDir('mismatched-name', 'SKILL.md'))).find((d) => (d.code as { value: string }).value === 'name-dir-mismatch')?.severity, vscode.DiagnosticSeverity.Error);
    } finally {
      await config.update('validation.profile', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => severity() === vscode.DiagnosticSeverity.Warning, 5_000, 'unknown-key back to a warning');
  });
});
