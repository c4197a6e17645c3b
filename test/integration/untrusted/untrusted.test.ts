// Restricted mode (capabilities.untrustedWorkspaces "limited"): in an UNTRUSTED workspace Skillflow still
// indexes and validates, but opens no terminal, runs no script and does not execute a resume — the resume command
// goes to the clipboard. Runs only under `npm run test:untrusted`, where code-server starts with workspace trust on
// and the demo workspace copy is left untrusted (no trust prompt).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointsApi } from '../../../src/extension/checkpoints';
import type { SkillsApi } from '../../../src/extension/skills';
import type { WorkflowsApi } from '../../../src/extension/workflows';
import { contributedCommands, fakeClaudeLogPath, getApi, getExtension, sleep, waitFor, workspaceDir } from '../util';

interface Api { skills: SkillsApi; workflows: WorkflowsApi; checkpoints: CheckpointsApi }

const CONTEXT = `---
skill: deploy
created: 2026-11-21T10:00:00Z
---
# Checkpoint: deploy

## Questions

### Q1: Which environment?
Type: single
Options:
- staging
- production
Answer:
`;

/** A workspace settings file a hostile repository could ship: the restricted settings must not apply while untrusted. */
const HOSTILE_SETTINGS = {
  'skillflow.resume.mode': 'terminal',
  'skillflow.resume.command': 'touch PWNED-BY-SETTINGS && claude ${prompt}',
  // Not restricted: shows that this file was read at all.
  'skillflow.listing.contextWindow': '123k',
};

const skillflowTerminals = () => vscode.window.terminals.filter((t) => t.name === 'Skillflow');
const fakeClaudeLog = () => (fs.existsSync(fakeClaudeLogPath()) ? fs.readFileSync(fakeClaudeLogPath(), 'utf8') : '');

function label(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

function codes(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'skillflow')
    .map((d) => String(typeof d.code === 'object' ? d.code.value : d.code)).sort();
}

describe('untrusted workspace (restricted mode)', function () {
  this.timeout(60_000);
  let api: Api;
  let root: string;
  const cleanup: string[] = [];

  before(async () => {
    api = await getApi<Api>();
    root = workspaceDir();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    for (const p of cleanup) fs.rmSync(p, { recursive: true, force: true });
  });

  it('the window is untrusted and Skillflow is active in limited mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(getExtension().isActive, true);
    for (const feature of ['checkpoints', 'skills', 'workflows']) assert.ok(feature in api, `activate() returned no ${feature}`);
    const caps = (getExtension().packageJSON as { capabilities: { untrustedWorkspaces: { supported: string } } }).capabilities;
    assert.equal(caps.untrustedWorkspaces.supported, 'limited');
    assert.ok(contributedCommands().includes('skillflow.runScript'));
    assert.deepEqual(skillflowTerminals(), []);
  });

  it('indexes the demo skills and publishes their diagnostics', async () => {
    const top = await api.skills.treeProvider.getChildren();
    assert.deepEqual(top.map((n) => label(api.skills.treeProvider.getTreeItem(n))), ['Project', 'Plugin · demo-plugin', 'Agents']);
    const names = api.skills.service.index.skills.map((s) => s.name);
    for (const name of ['broken-yaml', 'code-review', 'commit-message', 'lint-fix', 'workflow-implement']) assert.ok(names.includes(name), `${name} not indexed: ${names.join(', ')}`);

    const broken = vscode.Uri.file(path.join(root, '.claude', 'skills', 'broken-yaml', 'SKILL.md'));
    const diags = await waitFor(() => { const d = vscode.languages.getDiagnostics(broken); return d.length ? d : undefined; }, 10_000, 'broken-yaml diagnostics');
    assert.equal(diags.length, 1);
    assert.equal(diags[0].source, 'skillflow');
    assert.equal(diags[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.equal((diags[0].code as { value: string }).value, 'yaml-syntax');
    assert.deepEqual([diags[0].range.start.line, diags[0].range.start.character], [2, 13]);
    assert.deepEqual(codes(vscode.Uri.file(path.join(root, '.claude', 'skills', 'no-description', 'SKILL.md'))), ['description-missing']);
    assert.deepEqual(codes(vscode.Uri.file(path.join(root, '.claude', 'agents', 'reviewer.md'))), ['agent-skill-missing']);
  });

  it('validates live: a new broken skill gets its diagnostic', async () => {
    const dir = path.join(root, '.claude', 'skills', 'untrusted-new');
    cleanup.push(dir);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: untrusted-new\n---\n# No description\n');
    const file = vscode.Uri.file(path.join(dir, 'SKILL.md'));
    await waitFor(() => codes(file).includes('description-missing'), 10_000, 'description-missing on the new skill');
    assert.deepEqual(codes(file), ['description-missing']);
  });

  it('Run Script opens no terminal and runs nothing', async () => {
    const dir = path.join(root, '.claude', 'skills', 'untrusted-runner');
    cleanup.push(dir);
    fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: untrusted-runner\ndescription: Runs a script.\n---\n# R\n');
    const marker = path.join(dir, 'ran.txt');
    const script = path.join(dir, 'scripts', 'mark.sh');
    fs.writeFileSync(script, 'pwd > ran.txt\n');
    await api.skills.whenIdle();
    await waitFor(() => api.skills.service.index.skillByDir(dir), 10_000, 'untrusted-runner indexed');

    const terminalsBefore = vscode.window.terminals.length;
    const line = await vscode.commands.executeCommand<string | undefined>('skillflow.runScript', vscode.Uri.file(script));
    assert.equal(line, undefined);
    // With the script open in the editor (the command palette path) it refuses too.
    await vscode.window.showTextDocument(vscode.Uri.file(script));
    assert.equal(await vscode.commands.executeCommand<string | undefined>('skillflow.runScript'), undefined);
    await sleep(2_000);
    assert.deepEqual(skillflowTerminals(), []);
    assert.equal(vscode.window.terminals.length, terminalsBefore);
    assert.equal(fs.existsSync(marker), false, 'the script ran');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the Answer flow writes the answer and puts the resume command on the clipboard; no terminal, no claude', async () => {
    // Workspace settings asking for a terminal and a different command: restricted, so ignored while untrusted.
    const settingsFile = path.join(root, '.vscode', 'settings.json');
    cleanup.push(path.join(root, '.vscode'));
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify(HOSTILE_SETTINGS, null, 2));
    await waitFor(() => vscode.workspace.getConfiguration('skillflow').get('listing.contextWindow') === '123k', 10_000, 'the workspace settings to load');
    assert.equal(vscode.workspace.getConfiguration('skillflow').get('resume.command'), 'claude ${prompt}');

    const rel = '.agent/tmp/untrusted-context.md';
    const file = path.join(root, ...rel.split('/'));
    cleanup.push(file);
    fs.writeFileSync(file, CONTEXT);
    await api.checkpoints.refresh();
    const listed = api.checkpoints.getCheckpoints().find((c) => c.relPath === rel);
    assert.deepEqual([listed?.skill, listed?.answered, listed?.total], ['deploy', 0, 1]);

    await vscode.env.clipboard.writeText('clipboard before the flow');
    const done = api.checkpoints.answer(rel);
    const step = await waitFor(() => { const s = api.checkpoints.activeStep(); return s?.questionId === 'Q1' && s; }, 10_000, 'Q1 on screen');
    const pick = step.input as vscode.QuickPick<vscode.QuickPickItem>;
    assert.deepEqual(pick.items.map((i) => i.label), ['staging', 'production']);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => pick.activeItems[0]?.label === 'production', 5_000, 'production to become active');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    // The last step says that Resume copies here (untrusted), then Resume (the active item).
    const last = await waitFor(() => { const s = api.checkpoints.activeStep(); return s?.kind === 'finish' && s; }, 10_000, 'the last step');
    assert.equal((last.input as vscode.QuickPick<vscode.QuickPickItem>).items[0].description, 'write the answers, then copy the resume command to the clipboard');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

    const outcome = await done;
    assert.equal(outcome.result, 'resumed', JSON.stringify(outcome));
    assert.ok(outcome.result === 'resumed');
    const expected = `claude '/deploy resume CONTEXT_PATH=${rel}'`;
    assert.deepEqual(outcome.resume, { mode: 'clipboard', command: expected, reason: 'the workspace is not trusted' });
    assert.equal(await vscode.env.clipboard.readText(), expected);
    assert.equal(fs.readFileSync(file, 'utf8'), CONTEXT.replace('- production\nAnswer:\n', '- production\nAnswer: production\n'));
    await sleep(2_000);
    assert.deepEqual(skillflowTerminals(), []);
    assert.equal(fakeClaudeLog(), '');
    assert.equal(fs.existsSync(path.join(root, 'PWNED-BY-SETTINGS')), false);
  });

  it('the workflow status bar still shows and follows the active workflow', async () => {
    const wf = api.workflows;
    wf.refresh();
    assert.deepEqual(wf.getWorkflows().map((w) => [w.key, w.phase]), [['20261121-093000', 'PLAN'], ['20261120-141500', 'COMPLETED']]);
    assert.match(wf.statusBarItem.text, /^\$\((list-ordered|warning)\) (PLAN|STALE) · implement$/);
    const statusFile = path.join(root, '.workflow', '20261121-093000', 'auth-refactor', 'implement', 'status.json');
    const original = fs.readFileSync(statusFile, 'utf8');
    try {
      const status = JSON.parse(original) as Record<string, unknown>;
      fs.writeFileSync(statusFile, `${JSON.stringify({ ...status, phase: 'WORK', updated_at: new Date().toISOString() }, null, 2)}\n`);
      await waitFor(() => wf.statusBarItem.text === '$(sync~spin) WORK · implement', 10_000, `status bar to read WORK (it reads '${wf.statusBarItem.text}')`);
    } finally {
      fs.writeFileSync(statusFile, original);
    }
    await waitFor(() => wf.getWorkflows()[0]?.phase === 'PLAN', 10_000, 'the workflow back in PLAN');
    assert.deepEqual(skillflowTerminals(), []);
    assert.equal(fakeClaudeLog(), '');
  });
});
