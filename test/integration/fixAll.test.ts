// `skillflow validate --fix` and the editor's "Fix all Skillflow problems" are one core computation (core/fixes): on
// the demo workspace the CLI's fixed files are, byte for byte, what Fix all makes of each open SKILL.md.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsApi } from '../../src/extension/skills';
import { main } from '../../src/cli/main';
import { nodeFileSystem } from '../../src/core/base/fs';
import { getApi, getExtension, workspaceDir } from './util';

function skillFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory() && e.name !== '.workflow') out.push(...skillFiles(dir, r));
    else if (e.isFile() && e.name === 'SKILL.md') out.push(r);
  }
  return out.sort();
}

/** The Fix all action of a document; asked again for up to `patience` ms while there is none (the editor may still be opening it). */
async function fixAllAction(uri: vscode.Uri, patience: number): Promise<vscode.CodeAction | undefined> {
  const deadline = Date.now() + patience;
  for (;;) {
    let found: vscode.CodeAction | undefined;
    try {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.skillflow');
      found = actions.find((a) => a.title === 'Fix all Skillflow problems');
    } catch (err) {
      if (!/Canceled/.test(String(err))) throw err;
    }
    if (found || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('validate --fix and Fix all', function () {
  this.timeout(120_000);

  it('validate --fix on a copy of the demo workspace writes exactly what Fix all makes of each SKILL.md in the editor', async () => {
    const api = (await getApi<{ skills: SkillsApi }>()).skills;
    await api.whenIdle();
    const demo = path.join(getExtension().extensionPath, 'examples', 'demo-workspace');
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-fixall-')));
    const copy = path.join(tmp, 'ws');
    fs.cpSync(demo, copy, { recursive: true });
    fs.mkdirSync(path.join(tmp, 'home'));
    try {
      let err = '';
      const code = await main({ argv: ['validate', '--fix'], cwd: copy, fs: nodeFileSystem, env: {}, home: path.join(tmp, 'home'), managedDir: null, out: () => undefined, err: (t) => { err += t; } });
      assert.match(err, /applied \d+ fix(es)? in \d+ files?/, err);
      assert.ok(code === 0 || code === 1, err);
      let changed = 0;
      for (const rel of skillFiles(demo)) {
        const original = fs.readFileSync(path.join(demo, rel), 'utf8');
        const byCli = fs.readFileSync(path.join(copy, rel), 'utf8');
        const uri = vscode.Uri.file(path.join(workspaceDir(), rel));
        assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), original, `${rel}: the test workspace still holds the demo's file`);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc);
        const fixAll = await fixAllAction(uri, byCli === original ? 1_000 : 10_000);
        if (byCli === original) {
          assert.equal(fixAll, undefined, `${rel}: the CLI changed nothing, the editor offers Fix all`);
          continue;
        }
        changed++;
        assert.ok(fixAll?.edit, `${rel}: the CLI fixed it, the editor offers no Fix all`);
        assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
        assert.equal(doc.getText(), byCli, rel);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        assert.equal(doc.getText(), original, `${rel} reverted`);
      }
      assert.equal(changed, 3, 'broken-yaml, hello and mismatched-name have certain fixes');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
