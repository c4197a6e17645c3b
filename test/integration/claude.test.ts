// What Claude Sees and Who Answers… in a real extension host, on a fresh copy of examples/demo-workspace: the view's
// webview loads its script (it asks for the listing), the view model for the demo, quick actions that write
// `.claude/settings.local.json` and SKILL.md frontmatter (the view follows), live updates from files written on
// disk, a half-written settings file refused untouched, and who answers a shadowed name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClaudeApi } from '../../src/extension/claude';
import type { ListingRow } from '../../src/webview/listingView';
import { getApi, waitFor, workspaceDir } from './util';

function file(...segments: string[]): string {
  return path.join(workspaceDir(), ...segments);
}

describe('What Claude Sees and Who Answers', () => {
  let api: ClaudeApi;
  const localSettings = () => file('.claude', 'settings.local.json');
  const commitMessage = () => file('.claude', 'skills', 'commit-message', 'SKILL.md');
  let commitMessageOriginal: Buffer;

  const row = (invocation: string, kind: 'skill' | 'command' = 'skill'): ListingRow | undefined =>
    api.lastViewModel?.rows.find((r) => r.invocation === invocation && r.kind === kind);

  before(async () => {
    api = (await getApi<{ claude: ClaudeApi }>()).claude;
    commitMessageOriginal = fs.readFileSync(commitMessage());
  });

  after(async () => {
    api.closeWhoAnswers();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Later suites share this workspace copy: leave it as it was.
    fs.rmSync(localSettings(), { force: true });
    fs.writeFileSync(commitMessage(), commitMessageOriginal);
    await api.whenIdle();
  });

  it('the view opens in the Skillflow container, its script asks for the listing, and the demo listing is shown', async function () {
    this.timeout(60_000);
    await api.showListing();
    const view = await waitFor(() => api.listingView, 20_000, 'the What Claude Sees view to resolve');
    const vm = await waitFor(() => api.lastViewModel, 20_000, 'the webview to be ready and the listing rendered');
    assert.equal(view.visible, true);

    assert.equal(vm.budget, 8000, '1% of a 200k-token window at 4 characters per token');
    assert.ok(vm.used > 0 && vm.used <= vm.budget, `${vm.used}/${vm.budget}`);
    assert.match(vm.budgetSources[0], /skillListingBudgetFraction 0\.01 \(default\) of a 200k-token context window/);
    // At risk first: the command whose description is longer than the listing keeps.
    assert.equal(vm.rows[0].invocation, '/explain-architecture');
    assert.equal(vm.rows[0].shown, 'truncated');
    assert.equal(vm.rows[0].group, 'at-risk');
    assert.match(vm.rows[0].reason ?? '', /1572 characters; the listing keeps 1536/);
    assert.equal(row('/code-review')?.shown, 'full');
    assert.equal(row('/code-review', 'command')?.shown, 'absent');
    assert.match(row('/code-review', 'command')?.reason ?? '', /shadowed: project skill \/code-review .* a skill wins over a command of the same name/);
    assert.equal(row('/deploy', 'command')?.shown, 'absent');
    assert.match(row('/deploy', 'command')?.reason ?? '', /disable-model-invocation: true/);
    assert.equal(row('/mismatched-name')?.displayName, 'renamed-skill', 'the folder is the command; name is only the label');
    // Claude Code has a built-in /release-notes: the demo skill of that name never answers and is not listed.
    assert.equal(row('/release-notes')?.shown, 'absent');
    assert.match(row('/release-notes')?.reason ?? '', /\/release-notes is a Claude Code built-in command, which always wins/);
    // Nothing is dropped (the plugin in plugins/ counts as loaded, as with --plugin-dir: the CLI's model too).
    assert.equal(vm.counts.dropped, 0);
    assert.equal(view.description, `${vm.used.toLocaleString('en-US')} / 8,000 chars`);

    // The webview: strict CSP, one external script with the nonce, no inline handlers; rows named by id only.
    const html = view.webview.html;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    assert.ok(csp.startsWith("default-src 'none';"), csp);
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]{16,})'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp), csp);
    assert.match(html, new RegExp(`<script nonce="${nonce}" src="[^"]+/dist/webview/listing\\.js"></script>`));
    assert.ok(!/\son[a-z]+=/i.test(html));
    assert.ok(api.lastHtml?.includes(`data-id="${api.idOf(file('.claude', 'skills', 'workflow-implement', 'SKILL.md'))}"`));
    assert.ok(!api.lastHtml?.includes('data-path'));

    // "Trim description" only where the listing shows a description: not on a shadowed or an absent entry.
    assert.ok(row('/code-review')?.actions.includes('trim'), 'the listed skill offers Trim description');
    assert.ok(!row('/code-review', 'command')?.actions.includes('trim'), 'not the shadowed command');
    assert.ok(!row('/deploy', 'command')?.actions.includes('trim'), 'not an absent entry (disable-model-invocation)');
    assert.ok(!row('/release-notes')?.actions.includes('trim'), 'not a skill a built-in shadows');

    const ms = api.lastRenderMs ?? Infinity;
    console.log(`      What Claude Sees render (view model + HTML, in the extension host): ${ms.toFixed(1)} ms for ${vm.rows.length} entries`);
    assert.ok(ms < 500, `${ms} ms`);
  });

  it('Show What Claude Sees opens the listing in an editor tab (its full height), kept up to date beside the view', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('skillflow.showListing');
    const panel = await waitFor(() => api.listingPanel, 10_000, 'the What Claude Sees editor tab');
    assert.equal(panel.viewType, 'skillflow.claudeListingPanel');
    assert.equal(panel.title, 'What Claude Sees');
    await waitFor(() => panel.visible && panel.viewColumn !== undefined, 10_000, 'the tab to show');
    assert.equal(panel.viewColumn, vscode.ViewColumn.One, 'in the editor area');
    assert.match(panel.webview.html, /<body class="in-editor">/);
    assert.match(panel.webview.html, /dist\/webview\/listing\.js/);
    // Its script asks for the listing: a render follows the tab's ready message.
    const before = api.renderCount;
    await waitFor(() => api.renderCount > before || (api.lastViewModel && panel.visible), 20_000, 'the tab to be rendered');
    // The same command again reveals the open tab, it does not open a second one.
    await vscode.commands.executeCommand('skillflow.showListing');
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === 'What Claude Sees');
    assert.equal(tabs.length, 1);
    panel.dispose();
    await waitFor(() => api.listingPanel === undefined, 5_000, 'the tab to close');
  });

  it("'name-only' writes .claude/settings.local.json (created) and the view shows the entry name only; Reset removes it", async () => {
    const wi = () => row('/workflow-implement');
    await waitFor(() => api.lastViewModel, 20_000, 'the listing');
    const before = api.renderCount;
    const id = api.idOf(file('.claude', 'skills', 'workflow-implement', 'SKILL.md'));
    assert.equal(fs.existsSync(localSettings()), false);
    await api.handleMessage({ type: 'action', id, action: 'name-only' });
    assert.equal(api.lastAction?.ok, true, api.lastAction?.message);
    assert.deepEqual(JSON.parse(fs.readFileSync(localSettings(), 'utf8')), { skillOverrides: { 'workflow-implement': 'name-only' } });
    await waitFor(() => api.renderCount > before && wi()?.shown === 'name-only', 10_000, 'the view to show /workflow-implement name-only');
    assert.equal(wi()?.override, 'name-only');
    assert.equal(wi()?.overrideFrom, '.claude/settings.local.json');
    assert.ok(wi()?.actions.includes('on'));

    // A second override keeps the first and the file's layout.
    await api.handleMessage({ type: 'action', id: api.idOf(file('.claude', 'skills', 'code-review', 'SKILL.md')), action: 'off' });
    assert.equal(fs.readFileSync(localSettings(), 'utf8'), '{\n  "skillOverrides": {\n    "workflow-implement": "name-only",\n    "code-review": "off"\n  }\n}\n');
    await waitFor(() => row('/code-review')?.shown === 'absent', 10_000, '/code-review absent');

    await api.handleMessage({ type: 'action', id, action: 'on' });
    await api.handleMessage({ type: 'action', id: api.idOf(file('.claude', 'skills', 'code-review', 'SKILL.md')), action: 'on' });
    assert.equal(fs.readFileSync(localSettings(), 'utf8'), '{\n}\n', 'the emptied skillOverrides goes too');
    await waitFor(() => wi()?.shown === 'full' && row('/code-review')?.shown === 'full', 10_000, 'both listed in full again');
  });

  it('with the settings file open in an editor, the file is written and the editor shows it; other keys stay', async () => {
    fs.writeFileSync(localSettings(), '{\n\t"model": "opus"\n}\n');
    const doc = await vscode.workspace.openTextDocument(localSettings());
    await vscode.window.showTextDocument(doc);
    const id = api.idOf(file('.claude', 'skills', 'workflow-review', 'SKILL.md'));
    await api.handleMessage({ type: 'action', id, action: 'off' });
    assert.equal(api.lastAction?.ok, true, api.lastAction?.message);
    const expected = '{\n\t"model": "opus",\n\t"skillOverrides": {\n\t\t"workflow-review": "off"\n\t}\n}\n';
    assert.equal(fs.readFileSync(localSettings(), 'utf8'), expected);
    await waitFor(() => doc.getText() === expected, 10_000, 'the open editor to show the new text');
    assert.equal(doc.isDirty, false);
    await waitFor(() => row('/workflow-review')?.shown === 'absent', 10_000, '/workflow-review absent');

    // Unsaved changes in the editor are the user's: the edit goes into the document, which stays unsaved.
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('"opus"');
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 6)), '"sonnet"');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(doc.isDirty, true);
    await api.handleMessage({ type: 'action', id, action: 'on' });
    assert.equal(api.lastAction?.ok, true, api.lastAction?.message);
    assert.match(api.lastAction?.message ?? '', /unsaved: the file had unsaved changes; save it to apply/);
    assert.equal(doc.getText(), '{\n\t"model": "sonnet"\n}\n');
    assert.equal(doc.isDirty, true);
    assert.equal(fs.readFileSync(localSettings(), 'utf8'), expected, 'the file on disk is untouched');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(localSettings());
    await waitFor(() => row('/workflow-review')?.shown === 'full', 10_000, '/workflow-review listed again');
  });

  it('a half-written settings file is refused and left byte for byte; the view reports the problem', async () => {
    const half = '{\n  "skillOverrides": {\n    "workflow-implement": "off"\n';
    fs.writeFileSync(localSettings(), half);
    await waitFor(() => api.lastViewModel?.problems.some((p) => p.includes('settings.local.json') && p.includes('not valid JSON')), 10_000, 'the settings problem in the view');
    await api.handleMessage({ type: 'action', id: api.idOf(file('.claude', 'skills', 'workflow-implement', 'SKILL.md')), action: 'name-only' });
    assert.equal(api.lastAction?.ok, false);
    assert.match(api.lastAction?.message ?? '', /settings\.local\.json: the file is not valid JSON .*Skillflow does not rewrite a file it cannot read/);
    assert.equal(fs.readFileSync(localSettings(), 'utf8'), half);
    fs.rmSync(localSettings());
    await waitFor(() => !api.lastViewModel?.problems.length, 10_000, 'the problem to go with the file');
  });

  it('the view updates live when a settings file or a command is written on disk', async () => {
    fs.writeFileSync(localSettings(), JSON.stringify({ skillOverrides: { 'commit-message': 'off' } }));
    await waitFor(() => row('/commit-message')?.shown === 'absent', 10_000, '/commit-message absent after the settings file changed');
    fs.rmSync(localSettings());
    await waitFor(() => row('/commit-message')?.shown === 'full', 10_000, '/commit-message listed again');
    const cmd = file('.claude', 'commands', 'standup.md');
    fs.writeFileSync(cmd, '---\ndescription: Summarise yesterday\'s commits for the stand-up.\n---\nList them.\n');
    await waitFor(() => row('/standup', 'command')?.shown === 'full', 10_000, 'the new command /standup listed');
    fs.rmSync(cmd);
    await waitFor(() => !row('/standup', 'command'), 10_000, '/standup gone');
  });

  it("'disable-model-invocation' sets the key in the frontmatter (one line, the rest unchanged) and the entry leaves the listing", async () => {
    const original = fs.readFileSync(commitMessage(), 'utf8');
    await api.handleMessage({ type: 'action', id: api.idOf(commitMessage()), action: 'disable-model-invocation' });
    assert.equal(api.lastAction?.ok, true, api.lastAction?.message);
    const text = await waitFor(() => { const t = fs.readFileSync(commitMessage(), 'utf8'); return t !== original && t; }, 10_000, 'the saved file');
    // The demo file says `disable-model-invocation: false`: the value is replaced where it stands, nothing else moves.
    assert.ok(original.includes('\ndisable-model-invocation: false\n'));
    assert.equal(text, original.replace('\ndisable-model-invocation: false\n', '\ndisable-model-invocation: true\n'));
    await waitFor(() => row('/commit-message')?.shown === 'absent', 10_000, '/commit-message absent');
    assert.match(row('/commit-message')?.reason ?? '', /disable-model-invocation/);
    assert.ok(!row('/commit-message')?.actions.includes('disable-model-invocation'));
  });

  it("'trim' opens the file with the description selected", async () => {
    const target = file('.claude', 'commands', 'explain-architecture.md');
    await api.handleMessage({ type: 'action', id: api.idOf(target), action: 'trim' });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === target && vscode.window.activeTextEditor, 10_000, 'the editor');
    const selected = editor.document.getText(editor.selection);
    assert.equal(selected.length, 1572);
    assert.ok(selected.startsWith('Explain the architecture of this repository'));
  });

  it('Who Answers… /code-review: the project skill wins; the command of the same name and the bundled skill are shadowed, with reasons', async () => {
    await vscode.commands.executeCommand('skillflow.whoAnswers', '/code-review');
    const shown = await waitFor(() => api.lastWhoAnswers?.command === '/code-review' && api.lastWhoAnswers, 10_000, 'the result');
    const rows = shown.items.filter((i) => i.row).map((i) => i.row);
    assert.equal(rows[0]?.kind, 'winner');
    assert.equal(rows[0]?.label, '/code-review runs the project skill');
    assert.equal(rows[0]?.path, file('.claude', 'skills', 'code-review', 'SKILL.md'));
    const command = rows.find((r) => r?.path === file('.claude', 'commands', 'code-review.md'));
    assert.equal(command?.kind, 'shadowed');
    assert.match(command?.detail ?? '', /a skill wins over a command of the same name/);
    assert.ok(rows.some((r) => r?.kind === 'shadowed' && /bundled skill/.test(r.label)), 'the bundled /code-review is replaced');
    api.closeWhoAnswers();

    await api.whoAnswers('/help');
    assert.equal(api.lastWhoAnswers?.items.find((i) => i.row)?.row?.kind, 'builtin');
    api.closeWhoAnswers();
    await api.whoAnswers('no-such-command');
    assert.deepEqual(api.lastWhoAnswers?.items.map((i) => i.row?.label), ['Nothing answers /no-such-command']);
    api.closeWhoAnswers();
  });
});
