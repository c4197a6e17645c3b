// Show Reference Graph in a real extension host: the command opens the webview panel, the host posts the demo's
// graph, the HTML carries a strict CSP with a script nonce, and an `open` message opens that skill's SKILL.md.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GraphApi } from '../../src/extension/graph';
import type { SkillsApi } from '../../src/extension/skills';
import { getApi, waitFor, workspaceDir } from './util';

function skillDir(name: string): string {
  return path.join(workspaceDir(), '.claude', 'skills', name);
}

describe('Reference graph', () => {
  let graph: GraphApi;
  let skills: SkillsApi;

  before(async () => {
    const api = await getApi<{ graph: GraphApi; skills: SkillsApi }>();
    graph = api.graph;
    skills = api.skills;
  });

  after(async () => {
    graph.panel?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Show Reference Graph opens the panel and posts the demo skills and the cross-skill links', async () => {
    const pkg = vscode.extensions.getExtension('skillflow.skillflow')?.packageJSON as { contributes: { commands: Array<{ command: string; icon?: string }> } };
    assert.equal(pkg.contributes.commands.find((c) => c.command === 'skillflow.showReferenceGraph')?.icon, '$(type-hierarchy)');

    await vscode.commands.executeCommand('skillflow.showReferenceGraph');
    const panel = await waitFor(() => graph.panel, 10_000, 'the graph panel');
    assert.equal(panel.viewType, 'skillflow.referenceGraph');
    assert.equal(panel.title, 'Skill Reference Graph');
    // The graph is posted when the webview script says it is ready: proof that the bundled script loaded and ran.
    const posted = await waitFor(() => graph.lastPosted, 15_000, 'the webview to be ready and receive the graph');

    const names = posted.nodes.map((n) => n.name);
    for (const name of ['code-review', 'commit-message', 'release-notes', 'workflow-implement', 'lint-fix', 'renamed-skill']) {
      assert.ok(names.includes(name), `no node ${name} in ${names.join(', ')}`);
    }
    // Labelled as the tree labels them: by the command it answers (`name: hi` in hello/ answers /hello).
    assert.equal(posted.nodes.find((n) => n.name === 'hi')?.label, '/hello');
    assert.equal(posted.nodes.find((n) => n.name === 'renamed-skill')?.label, '/mismatched-name');
    assert.equal(posted.nodes.length, skills.service.index.skills.filter((s) => s.source === 'skill').length, 'every skill folder is a node (commands are not)');
    assert.deepEqual(posted.edges.map((e) => [path.basename(e.from), path.basename(e.to), e.count, e.missing]), [
      ['code-review', 'commit-message', 1, false],
      ['release-notes', 'commit-message', 1, false],
    ]);
    assert.equal(posted.edges[0].from, skillDir('code-review'));
  });

  it('the webview HTML has a strict CSP with a nonce, and every script carries that nonce', async () => {
    await vscode.commands.executeCommand('skillflow.showReferenceGraph');
    const panel = await waitFor(() => graph.panel, 10_000, 'the graph panel');
    const html = panel.webview.html;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(csp, 'no CSP meta tag');
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]{16,})'/.exec(csp)?.[1];
    assert.ok(nonce, `no script nonce in ${csp}`);
    assert.ok(csp.startsWith("default-src 'none';"), csp);
    assert.ok(csp.includes(`style-src ${panel.webview.cspSource};`), csp);
    assert.ok(!/unsafe-inline|unsafe-eval|https?:/.test(csp.replace(panel.webview.cspSource, '')), csp);

    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0][1].includes(`nonce="${nonce}"`), scripts[0][0]);
    assert.equal(scripts[0][2].trim(), '', 'the script is external, not inline');
    assert.match(scripts[0][1], /src="[^"]+\/dist\/webview\/graph\.js"/);
    assert.match(html, /<link rel="stylesheet" href="[^"]+\/media\/graph\.css">/);
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');

    const extensionPath = vscode.extensions.getExtension('skillflow.skillflow')?.extensionUri.path;
    assert.deepEqual((panel.webview.options.localResourceRoots ?? []).map((u) => u.path), [`${extensionPath}/dist/webview`, `${extensionPath}/media`]);

    // A second run reveals the same panel instead of opening another one.
    const again = graph.show();
    assert.equal(again, panel);
  });

  it("an 'open' message opens that skill's SKILL.md; unknown ids and paths open nothing", async () => {
    await vscode.commands.executeCommand('skillflow.showReferenceGraph');
    await waitFor(() => graph.panel, 10_000, 'the graph panel');
    const target = path.join(skillDir('commit-message'), 'SKILL.md');

    await graph.handleMessage({ type: 'open', id: path.join(workspaceDir(), 'README.md') });
    await graph.handleMessage({ type: 'open', id: 42 });
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.fsPath, target);
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === path.join(workspaceDir(), 'README.md')));

    await graph.handleMessage({ type: 'open', id: skillDir('commit-message') });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === target && vscode.window.activeTextEditor, 10_000, 'SKILL.md editor');
    assert.notEqual(editor.viewColumn, graph.panel?.viewColumn, 'SKILL.md opens beside the graph');
    assert.ok(graph.panel, 'the graph panel stays open');
  });

  it('an index change posts the updated graph', async () => {
    await vscode.commands.executeCommand('skillflow.showReferenceGraph');
    await waitFor(() => graph.lastPosted, 15_000, 'a posted graph');
    const file = path.join(skillDir('workflow-review'), 'SKILL.md');
    const uri = vscode.Uri.file(file);
    const original = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    try {
      await vscode.workspace.fs.writeFile(uri, Buffer.from(`${original}\nAlso read code-review/references/checklist.md.\n`, 'utf8'));
      skills.service.notifyChanged([file]);
      const posted = await waitFor(() => graph.lastPosted?.edges.some((e) => e.from === skillDir('workflow-review')) && graph.lastPosted, 10_000, 'the new edge');
      assert.deepEqual(posted.edges.find((e) => e.from === skillDir('workflow-review')), {
        from: skillDir('workflow-review'), to: skillDir('code-review'), count: 1, targets: ['code-review/references/checklist.md'], missing: false,
      });
    } finally {
      await vscode.workspace.fs.writeFile(uri, Buffer.from(original, 'utf8'));
      skills.service.notifyChanged([file]);
    }
    await waitFor(() => !graph.lastPosted?.edges.some((e) => e.from === skillDir('workflow-review')), 10_000, 'the edge to go away');
  });
});
