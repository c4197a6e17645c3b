// Show Reference Graph in the real workbench: the command from the palette opens the webview, the demo skills are
// drawn as labelled nodes with the cross-skill links, clicking a node opens that skill's SKILL.md beside it, and a
// reference to a missing file written on disk shows up live as a dashed link.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page } = t;

  // 1. The Skills view's title bar offers the command.
  await t.openSidebar();
  await t.view('Skills').locator('.pane-header').hover();
  await t.view('Skills').getByRole('button', { name: 'Show Reference Graph' }).waitFor();
  await page.mouse.move(900, 450);

  // 2. Run it from the palette; the webview (an iframe holding the content iframe) shows the graph.
  await t.runCommand('Skillflow: Show Reference Graph');
  await page.locator('.tab', { hasText: 'Skill Reference Graph' }).waitFor();
  const graph = page.frameLocator('iframe.webview.ready:not([src*="purpose=webviewView"])').frameLocator('iframe#active-frame'); // the panel, not the What Claude Sees view
  const summary = graph.locator('#summary');
  await summary.filter({ hasText: /skills/ }).waitFor();
  assert.equal((await summary.innerText()).trim(), '13 skills, 2 cross-skill links');
  // Nodes are labelled as the Skills tree labels its rows: by command (`/hello`, whose name is `hi`).
  for (const label of ['/code-review', '/commit-message', '/release-notes', '/workflow-implement', '/demo-plugin:lint-fix', '/broken-yaml', '/hello', '/mismatched-name', 'explain-regex']) {
    await graph.locator('.node text', { hasText: new RegExp(`^${label}$`) }).waitFor({ state: 'visible' });
  }
  const labels = await graph.locator('.node text').allInnerTexts();
  for (const name of ['hi', 'renamed-skill']) assert.ok(!labels.includes(name), `a node is labelled '${name}' (its name), not by its command: ${labels.join(', ')}`);
  assert.equal(await graph.locator('.node').count(), 13);
  assert.equal(await graph.locator('.edge').count(), 2);
  assert.equal(await graph.locator('.node.warning', { hasText: 'broken-yaml' }).count(), 1, 'broken-yaml is drawn as a warning node');
  assert.equal(await graph.locator('.node.workflow', { hasText: 'workflow-implement' }).count(), 1);
  // The theme reaches the webview: labels are drawn in the theme's foreground colour, not the SVG default black.
  const fill = await graph.locator('.node.ok text').first().evaluate((el) => getComputedStyle(el).fill);
  assert.notEqual(fill, 'rgb(0, 0, 0)', `label fill ${fill}`);
  await t.shot('reference-graph');

  // 3. Hovering a node highlights its links; clicking it opens its SKILL.md in the other editor group.
  const commitMessage = graph.locator('.node', { has: graph.locator('text', { hasText: /^\/commit-message$/ }) });
  await commitMessage.hover();
  await graph.locator('.edge.active').nth(1).waitFor();
  assert.equal(await graph.locator('.edge.active').count(), 2);
  await commitMessage.click();
  const editor = page.locator('.editor-instance .monaco-editor').filter({ has: page.locator('.view-line', { hasText: 'name: commit-message' }) });
  await editor.first().waitFor();
  const activeGroup = page.locator('.editor-group-container.active');
  await activeGroup.locator('.tab.active', { hasText: 'SKILL.md' }).waitFor();
  await activeGroup.locator('.breadcrumbs-control', { hasText: 'commit-message' }).waitFor();
  // The graph stays open in its own group.
  await page.locator('.tab', { hasText: 'Skill Reference Graph' }).waitFor();
  await t.shot('skill-opened-from-graph');

  // 4. A reference to a missing file in another skill, written on disk, appears live as a dashed link.
  const reviewMd = t.path('.claude', 'skills', 'workflow-review', 'SKILL.md');
  fs.appendFileSync(reviewMd, '\nAlso apply code-review/references/security.md.\n');
  await graph.locator('.edge.missing').waitFor();
  await summary.filter({ hasText: '3 cross-skill links (1 with a missing target)' }).waitFor();
  assert.equal(await graph.locator('.edge').count(), 3);
  await t.shot('missing-target-link');
}
