// Rule configuration in a real extension host: the disable quick fixes write the right files, the
// skillflow.validation.rules setting changes a diagnostic's severity, and "Fix all Skillflow problems" applies
// several fixes at once. Every test cleans up what it wrote (.skillflow.json, the setting, its skill folders).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsApi } from '../../src/extension/skills';
import { getApi, waitFor, workspaceDir } from './util';

async function skillsApi(): Promise<SkillsApi> {
  return (await getApi<{ skills: SkillsApi }>()).skills;
}

function writeSkill(name: string, text: string): vscode.Uri {
  const dir = path.join(workspaceDir(), '.claude', 'skills', name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

function codeOf(d: vscode.Diagnostic): string {
  return String(typeof d.code === 'object' ? d.code.value : d.code);
}

function find(uri: vscode.Uri, code: string): vscode.Diagnostic | undefined {
  return vscode.languages.getDiagnostics(uri).find((d) => d.source === 'skillflow' && codeOf(d) === code);
}

async function codeActions(uri: vscode.Uri, range: vscode.Range, kind: string): Promise<vscode.CodeAction[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, kind);
      if (actions.length || Date.now() > deadline) return actions;
    } catch (err) {
      if (Date.now() > deadline || !/Canceled/.test(String(err))) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Saves an edited document as a user does (the Save command) and waits for the disk to show it. */
async function save(doc: vscode.TextDocument, saved: (text: string) => boolean): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.files.save');
  await waitFor(() => saved(fs.readFileSync(doc.uri.fsPath, 'utf8')), 5_000, `${doc.uri.fsPath} saved`);
}

const MISSING = (name: string) => `---\nname: ${name}\ndescription: A skill for rule configuration tests. Use it in tests.\n---\n# ${name}\n\nSee [the guide](references/guide.md).\n`;

describe('rule configuration', function () {
  this.timeout(60_000);
  let api: SkillsApi;
  const configFile = () => path.join(workspaceDir(), '.skillflow.json');
  const made: string[] = [];

  before(async () => {
    api = await skillsApi();
    api.service.ensureLoaded();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('skillflow').update('validation.rules', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(configFile(), { force: true });
    const removed: string[] = [];
    for (const name of made.splice(0)) {
      const dir = path.join(workspaceDir(), '.claude', 'skills', name);
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir, path.join(dir, 'SKILL.md'));
    }
    // Applied now rather than when the watcher reports it, so the next suite sees the demo skills only.
    api.service.notifyChanged(removed);
    api.ruleConfig.reload();
    await api.whenIdle();
  });

  it('"Disable <code> for this file" inserts the comment after the frontmatter and the diagnostic goes', async () => {
    made.push('rules-file');
    const uri = writeSkill('rules-file', MISSING('rules-file'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const d = await waitFor(() => find(uri, 'reference-missing'), 10_000, 'reference-missing diagnostic');
    await api.whenIdle();
    const actions = await codeActions(uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Disable reference-missing in this workspace'), titles.join(', '));
    const disable = actions.find((a) => a.title === 'Disable reference-missing for this file');
    assert.ok(disable?.edit, titles.join(', '));
    assert.ok(await vscode.workspace.applyEdit(disable.edit));
    assert.equal(doc.getText(), MISSING('rules-file').replace('---\n# rules-file', '---\n<!-- skillflow-disable reference-missing -->\n# rules-file'));
    await waitFor(() => !find(uri, 'reference-missing'), 5_000, 'reference-missing to disappear');
    assert.ok(!fs.existsSync(configFile()), 'the file fix writes no .skillflow.json');
    await save(doc, (text) => text.includes('<!-- skillflow-disable reference-missing -->'));
  });

  it('"Disable <code> in this workspace" creates .skillflow.json, then edits it in place keeping its layout', async () => {
    made.push('rules-ws');
    const uri = writeSkill('rules-ws', MISSING('rules-ws').replace('description:', 'colour: blue\ndescription:'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const d = await waitFor(() => find(uri, 'unknown-key'), 10_000, 'unknown-key diagnostic');
    await api.whenIdle();
    const action = (await codeActions(uri, d.range, vscode.CodeActionKind.QuickFix.value)).find((a) => a.title === 'Disable unknown-key in this workspace');
    assert.ok(action?.command);
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
    assert.equal(fs.readFileSync(configFile(), 'utf8'), '{\n  "rules": {\n    "unknown-key": "off"\n  }\n}\n');
    await waitFor(() => !find(uri, 'unknown-key'), 5_000, 'unknown-key to disappear');
    assert.ok(find(uri, 'reference-missing'), 'other rules stay');

    // An existing file keeps its indentation, comments-free layout and other keys.
    fs.writeFileSync(configFile(), '{\n    "ignore": ["no-such-folder"],\n    "profile":"claude-code"\n}\n');
    api.ruleConfig.reload();
    const d2 = await waitFor(() => find(uri, 'unknown-key'), 5_000, 'unknown-key back after the rewrite');
    const again = (await codeActions(uri, d2.range, vscode.CodeActionKind.QuickFix.value)).find((a) => a.title === 'Disable unknown-key in this workspace');
    await vscode.commands.executeCommand(again!.command!.command, ...(again!.command!.arguments ?? []));
    const d3 = await waitFor(() => find(uri, 'reference-missing'), 5_000, 'reference-missing');
    const third = (await codeActions(uri, d3.range, vscode.CodeActionKind.QuickFix.value)).find((a) => a.title === 'Disable reference-missing in this workspace');
    await vscode.commands.executeCommand(third!.command!.command, ...(third!.command!.arguments ?? []));
    assert.equal(fs.readFileSync(configFile(), 'utf8'), '{\n    "rules": {\n        "unknown-key": "off",\n        "reference-missing": "off"\n    },\n    "ignore": ["no-such-folder"],\n    "profile":"claude-code"\n}\n');
    await waitFor(() => vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'skillflow').length === 0, 5_000, 'both rules off');
  });

  it('never rewrites a .skillflow.json it cannot parse', async () => {
    made.push('rules-broken');
    const uri = writeSkill('rules-broken', MISSING('rules-broken'));
    fs.writeFileSync(configFile(), '{"rules": {');
    api.ruleConfig.reload();
    await vscode.workspace.openTextDocument(uri);
    await waitFor(() => find(uri, 'reference-missing'), 10_000, 'reference-missing diagnostic (defaults used)');
    const broken = await waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(configFile())).find((x) => codeOf(x) === 'config-invalid'), 5_000, 'config-invalid on .skillflow.json');
    assert.match(broken.message, /half-written/);
    const ok = await vscode.commands.executeCommand<boolean>('skillflow.disableRuleInWorkspace', uri, 'reference-missing');
    assert.equal(ok, false);
    assert.equal(fs.readFileSync(configFile(), 'utf8'), '{"rules": {');
  });

  it('the skillflow.validation.rules setting wins over .skillflow.json for a diagnostic\'s severity', async () => {
    made.push('rules-setting');
    const uri = writeSkill('rules-setting', MISSING('rules-setting'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitFor(() => find(uri, 'reference-missing')?.severity === vscode.DiagnosticSeverity.Warning, 10_000, 'the default: warning');
    fs.writeFileSync(configFile(), '{"rules": {"reference-missing": "info"}}\n');
    api.ruleConfig.reload();
    await waitFor(() => find(uri, 'reference-missing')?.severity === vscode.DiagnosticSeverity.Information, 5_000, '.skillflow.json: info');
    await vscode.workspace.getConfiguration('skillflow').update('validation.rules', { 'reference-missing': 'error' }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => find(uri, 'reference-missing')?.severity === vscode.DiagnosticSeverity.Error, 5_000, 'the setting: error');
    await vscode.workspace.getConfiguration('skillflow').update('validation.rules', { 'reference-missing': 'off' }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !find(uri, 'reference-missing'), 5_000, 'the setting: off');
  });

  it('"Fix all Skillflow problems" applies every auto-fixable fix of the file in one edit', async () => {
    made.push('rules-fix-all');
    const uri = writeSkill('rules-fix-all', '---\nname: Rules_Fix_All\ndescription: Tidy <things> up. Use it in tests.\n---\n# R\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor(() => find(uri, 'name-case') && find(uri, 'description-angle-brackets'), 10_000, 'name-case and description-angle-brackets');
    await api.whenIdle();
    const actions = await codeActions(uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.skillflow');
    const fixAll = actions.find((a) => a.title === 'Fix all Skillflow problems');
    assert.ok(fixAll?.edit, actions.map((a) => a.title).join(', '));
    assert.equal(fixAll.kind?.value, 'source.fixAll.skillflow');
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
    assert.equal(doc.getText(), '---\nname: rules-fix-all\ndescription: Tidy things up. Use it in tests.\n---\n# R\n');
    await save(doc, (text) => text.startsWith('---\nname: rules-fix-all\n'));
    await waitFor(() => vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'skillflow').length === 0, 5_000, 'no problem left');
    assert.deepEqual(await codeActions(uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.skillflow').then((a) => a.filter((x) => x.title === 'Fix all Skillflow problems')), [], 'nothing left to fix');
  });

  it('Fix all runs on save with editor.codeActionsOnSave {"source.fixAll.skillflow": "explicit"}', async () => {
    made.push('rules-on-save');
    const editorConfig = vscode.workspace.getConfiguration('editor');
    await editorConfig.update('codeActionsOnSave', { 'source.fixAll.skillflow': 'explicit' }, vscode.ConfigurationTarget.Workspace);
    try {
      const uri = writeSkill('rules-on-save', '---\nname: rules-on-save\ndescription: Keep <tags> out. Use it in tests.\n---\n# S\n');
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await waitFor(() => find(uri, 'description-angle-brackets'), 10_000, 'description-angle-brackets');
      await editor.edit((e) => e.insert(new vscode.Position(5, 0), '\nMore.\n'));
      await save(doc, (text) => text.includes('More.'));
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), '---\nname: rules-on-save\ndescription: Keep tags out. Use it in tests.\n---\n# S\n\nMore.\n');
    } finally {
      await editorConfig.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
