// Smoke suite: the extension is loaded in a real extension host, activates, registers its commands, and the
// harness plumbing (workspace copy, stand-in `claude` on the terminal's PATH) is in place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, contributedCommands, fakeClaudeLogPath, getApi, getExtension, waitFor, workspaceDir } from './util';

describe('smoke', () => {
  it('loads the Skillflow extension from this repository', () => {
    const ext = getExtension();
    assert.equal(ext.id, EXTENSION_ID);
    assert.equal((ext.packageJSON as { name: string }).name, 'skillflow');
  });

  it('activates and returns one API object per feature', async () => {
    const api = await getApi<Record<string, unknown>>();
    assert.equal(getExtension().isActive, true);
    for (const feature of ['checkpoints', 'skills', 'workflows']) assert.equal(typeof api[feature], 'object', feature);
    assert.equal(typeof api.activationMs, 'number');
    console.log(`      activate() took ${(api.activationMs as number).toFixed(1)} ms`);
  });

  it('registers every command it contributes', async () => {
    await getApi();
    const contributed = contributedCommands();
    assert.ok(contributed.includes('skillflow.refresh') && contributed.includes('skillflow.newSkill'), 'package.json lost its commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('opens a copy of examples/demo-workspace', () => {
    const dir = workspaceDir();
    assert.equal(path.basename(dir), 'demo-workspace');
    assert.ok(fs.existsSync(path.join(dir, '.claude', 'skills')), `${dir} has no .claude/skills`);
    assert.ok(fs.existsSync(path.join(dir, '.workflow', 'registry.json')), `${dir} has no .workflow/registry.json`);
    assert.ok(!dir.startsWith(path.resolve(__dirname, '..', '..', '..', 'examples')), 'tests must not run on the checked-in example');
  });

  it('puts the stand-in claude first on the integrated terminal PATH', async () => {
    const logFile = fakeClaudeLogPath();
    const marker = `smoke-${process.pid}-${Date.now()}`;
    const terminal = vscode.window.createTerminal({ name: 'skillflow-smoke' });
    try {
      terminal.show(true);
      const pid = await waitFor(() => terminal.processId, 20_000, 'the terminal process to start');
      assert.ok(pid > 0);
      terminal.sendText(`claude ${marker} 'two words'`);
      const text = await waitFor(() => {
        const content = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
        return content.includes(marker) && content;
      }, 20_000, `fake claude to log ${marker} in ${logFile}`);
      const lines = text.split('\n');
      const at = lines.indexOf(marker);
      assert.deepEqual(lines.slice(at, at + 3), [marker, 'two words', '---']);
    } finally {
      terminal.dispose();
    }
  });
});
