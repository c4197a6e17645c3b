// Demo start: `npm run demo` starts code-server with SKILLFLOW_DEMO=1, and the window opens on the Skillflow views
// with the demo workspace's README rendered beside them, without a click. This scenario gets a code-server of its own
// with that environment (`serverEnv`); the other scenarios' server starts without it and opens neither.
import * as assert from 'node:assert/strict';
import type { ScenarioContext } from './lib';

export const serverEnv = { SKILLFLOW_DEMO: '1' };

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page } = t;
  // Nothing is clicked: the extension opened the Skillflow container itself.
  const sidebar = page.locator('[id="workbench.parts.sidebar"]');
  await sidebar.locator('.composite.title h2', { hasText: /skillflow/i }).waitFor({ timeout: 30_000 });
  for (const title of ['Skills', 'Workflows', 'Checkpoints']) await t.view(title).waitFor();
  await t.treeItem(/^\/code-review/).waitFor();
  const activityTab = page.locator('[id="workbench.parts.activitybar"]').getByRole('tab', { name: /^Skillflow/ });
  assert.equal(await activityTab.getAttribute('aria-selected'), 'true', 'the Skillflow activity-bar tab is selected');

  // The README is open as a rendered Markdown preview (read-only), not as its source.
  // A locked preview ("[Preview] README.md"): it stays on the README when another Markdown file is opened.
  const previewTab = page.locator('.editor-group-container .tab', { hasText: /\[Preview\] README\.md/ });
  await previewTab.waitFor({ timeout: 30_000 });
  const preview = page.frameLocator('iframe.webview.ready:not([src*="purpose=webviewView"])').frameLocator('iframe#active-frame');
  await preview.getByRole('heading', { name: 'Skillflow demo workspace' }).waitFor({ timeout: 30_000 });
  await preview.getByText('renamed-skill', { exact: true }).first().waitFor();
  assert.equal(await page.locator('.editor-group-container .tab', { hasText: /^README\.md/ }).count(), 0, 'the README source is not opened');
  await page.mouse.move(5, 400); // no hover in the screenshot
  await t.shot('demo-start');

  // Opening a skill (a Markdown file) leaves the guide where it is: the preview is locked to the README.
  await t.treeItem(/^\/code-review/).click();
  await t.treeItem(/^SKILL\.md/).click();
  await page.locator('.editor-instance .view-line', { hasText: 'Review a pull request' }).first().waitFor();
  await previewTab.click();
  await preview.getByRole('heading', { name: 'Skillflow demo workspace' }).waitFor();
  assert.equal(await page.locator('.editor-group-container .tab', { hasText: /Preview SKILL\.md/ }).count(), 0, 'no preview of the SKILL.md');
  await page.mouse.move(5, 400);
  await t.shot('readme-kept-after-opening-a-skill');
}
