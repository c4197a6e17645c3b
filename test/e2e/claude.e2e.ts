// Who Answers… and What Claude Sees in the real workbench: the palette command resolves /code-review to the project
// skill with the same-named command shadowed; Show What Claude Sees opens the listing in an editor tab (the same
// webview as the view in the Skillflow container) with the budget bar and the entries, at risk first; it updates in place when a skill changes on disk (the focused row and
// button and the scroll position stay); pressing "Name only" on /workflow-implement (from the keyboard) writes
// .claude/settings.local.json and the row turns "name only".
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page } = t;

  // 1. Who Answers…: type the name, see the winner and what it shadows.
  await t.runCommand('Skillflow: Who Answers…');
  await t.quickInput.waitForOpen();
  await t.quickInput.option('/release-notes').waitFor();
  await t.quickInput.input.fill('/code-review');
  await t.quickInput.option(/^\/code-review/).first().waitFor();
  await t.quickInput.accept();
  await t.quickInput.option(/runs the project skill/).waitFor();
  assert.match(await t.quickInput.title(), /Who answers \/code-review\?/);
  await t.quickInput.option(/shadowed: project command/).waitFor();
  const widget = await t.quickInput.widget.innerText();
  assert.match(widget, /\.claude\/skills\/code-review\/SKILL\.md/);
  assert.match(widget, /\.claude\/commands\/code-review\.md/);
  assert.match(widget, /a skill wins over a command of the same name/);
  await t.shot('who-answers-code-review');
  // Picking the shadowed command opens it.
  await t.quickInput.pick(/shadowed: project command/);
  await page.locator('.tab.active', { hasText: 'code-review.md' }).waitFor();
  await page.keyboard.press('Escape');

  // 2. Show What Claude Sees opens the listing in an editor tab: the editor's height, not a side bar pane opened from
  // collapsed at the workbench's minimum (~140 px).
  await t.openSidebar();
  await t.runCommand('Skillflow: Show What Claude Sees');
  await page.locator('.tab.active', { hasText: 'What Claude Sees' }).waitFor();
  const tabFrame = page.locator('iframe.webview.ready:not([src*="purpose=webviewView"])').last();
  const frame = page.frameLocator('iframe.webview.ready:not([src*="purpose=webviewView"])').last().frameLocator('iframe#active-frame'); // the tab, not the view
  await frame.locator('#budget-meter').waitFor();
  const box = await tabFrame.boundingBox();
  t.log(`What Claude Sees: ${box?.width.toFixed(0)} × ${box?.height.toFixed(0)} px`);
  assert.ok(box && box.height >= 500, `What Claude Sees is ${box?.height.toFixed(0)} px tall (at least 500 px expected)`);
  const figures = frame.locator('.figures');
  const before = (await figures.innerText()).trim();
  assert.match(before, /^[\d,]+ \/ 8,000 characters \(\d+%\)$/);
  // At risk first: the command whose description is longer than the listing keeps.
  const first = frame.locator('li.entry').first();
  assert.equal(await first.getAttribute('aria-label'), '/explain-architecture, truncated');
  await frame.locator('li[aria-label="/deploy, absent"]').waitFor();
  assert.match(await frame.locator('li[aria-label="/deploy, absent"] .reason').innerText(), /disable-model-invocation: true/);
  // Theme colours reach the webview (not the browser default black text).
  const colour = await frame.locator('.cmd').first().evaluate((el) => getComputedStyle(el).color);
  assert.notEqual(colour, 'rgb(0, 0, 0)');
  await page.mouse.move(900, 450);
  await t.shot('what-claude-sees-before');

  // 2b. The same listing in the side bar view below Skills (the other views collapsed so it has room); the tab stays open.
  for (const title of ['Skills', 'Workflows', 'Checkpoints']) {
    const header = t.view(title).locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) === 'true') {
      // A click event on the title: the header's middle holds its toolbar, and the webview's frame moves over the
      // other headers while the panes animate.
      await header.locator('h3.title').dispatchEvent('click');
      await t.view(title).locator('.pane-header[aria-expanded="false"]').waitFor();
    }
  }
  const listingHeader = t.view('What Claude Sees').locator('.pane-header');
  if ((await listingHeader.getAttribute('aria-expanded')) !== 'true') await listingHeader.locator('h3.title').dispatchEvent('click');
  const viewFrame = page.frameLocator('iframe.webview.ready[src*="purpose=webviewView"]').frameLocator('iframe#active-frame');
  await viewFrame.locator('li[aria-label="/workflow-implement, full"]').waitFor();
  await page.mouse.move(900, 450);
  await t.shot('what-claude-sees-in-side-bar');

  // 3. The view updates in place: another skill's description changes on disk, the view re-renders live, and the
  // /workflow-implement row, its focused "Name only" button and the scroll position stay as they were (the same
  // elements: a mark set on the row survives).
  const row = frame.locator('li[aria-label="/workflow-implement, full"]');
  const button = row.locator('button[data-action="name-only"]');
  await row.scrollIntoViewIfNeeded();
  assert.equal(await button.innerText(), 'Name only');
  await button.focus();
  await row.evaluate((el) => { (el as HTMLElement & { mark?: string }).mark = 'kept'; });
  const state = () => frame.locator('#root').evaluate((root) => ({
    renders: Number(root.getAttribute('data-renders')),
    scrollTop: document.scrollingElement?.scrollTop ?? 0,
    focused: `${document.activeElement?.closest('li')?.getAttribute('aria-label')} ${document.activeElement?.getAttribute('data-action')}`,
    mark: (document.querySelector('li[aria-label^="/workflow-implement,"]') as (HTMLElement & { mark?: string }) | null)?.mark,
  }));
  const beforeUpdate = await state();
  assert.equal(beforeUpdate.focused, '/workflow-implement, full name-only');
  const commitMd = t.path('.claude', 'skills', 'commit-message', 'SKILL.md');
  fs.writeFileSync(commitMd, fs.readFileSync(commitMd, 'utf8').replace('from the staged diff.', 'from the staged diff, with a scope.'));
  await figures.filter({ hasNotText: before }).waitFor();
  const afterUpdate = await state();
  assert.ok(afterUpdate.renders > beforeUpdate.renders, 'the view re-rendered');
  assert.deepEqual({ ...afterUpdate, renders: 0 }, { ...beforeUpdate, renders: 0 }, 'the row, its focused button and the scroll position are kept');
  await t.shot('what-claude-sees-updated-in-place');
  const beforeAction = (await figures.innerText()).trim();

  // 4. "Name only" on /workflow-implement, from the keyboard: the focused button, Enter.
  await page.keyboard.press('Enter');
  const text = await t.waitForFile('.claude/settings.local.json', (s) => s.includes('workflow-implement'));
  assert.deepEqual(JSON.parse(text), { skillOverrides: { 'workflow-implement': 'name-only' } });
  const after = frame.locator('li[aria-label="/workflow-implement, name only"]');
  await after.waitFor();
  assert.match(await after.locator('.override').innerText(), /skillOverrides: "name-only" in \.claude\/settings\.local\.json/);
  await frame.locator('#status', { hasText: 'set to "name-only" in .claude/settings.local.json' }).waitFor();
  await figures.filter({ hasNotText: beforeAction }).waitFor();
  const used = (s: string) => Number(/^([\d,]+)/.exec(s)?.[1].replace(/,/g, ''));
  assert.ok(used(await figures.innerText()) < used(beforeAction), 'the listing got shorter');
  // The row changed in place (still the marked element); its "Name only" button is gone, so the focus went to the
  // row's first control.
  const afterAction = await state();
  assert.equal(afterAction.mark, 'kept', 'the changed row is the same element');
  assert.match(afterAction.focused, /^\/workflow-implement, name only \S+$/);
  await after.scrollIntoViewIfNeeded();
  await t.shot('what-claude-sees-after-name-only');
}
