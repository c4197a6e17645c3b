// Who Answers… and What Claude Sees in the real workbench: the palette command resolves /code-review to the project
// skill with the same-named command shadowed; the What Claude Sees view (a webview in the Skillflow container) shows
// the budget bar and the entries, at risk first; pressing "Name only" on /workflow-implement (from the keyboard) writes
// .claude/settings.local.json and the row turns "name only".
import * as assert from 'node:assert/strict';
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

  // 2. What Claude Sees: the view below Skills; the other views collapsed so it has room.
  await t.openSidebar();
  await t.runCommand('Skillflow: Show What Claude Sees');
  const frame = page.frameLocator('iframe.webview.ready[src*="purpose=webviewView"]').frameLocator('iframe#active-frame'); // the view, not a webview panel
  await frame.locator('#budget-meter').waitFor();
  for (const title of ['Skills', 'Workflows', 'Checkpoints']) {
    const header = t.view(title).locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) === 'true') {
      // A click event on the title: the header's middle holds its toolbar, and the webview's frame moves over the
      // other headers while the panes animate.
      await header.locator('h3.title').dispatchEvent('click');
      await t.view(title).locator('.pane-header[aria-expanded="false"]').waitFor();
    }
  }
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

  // 3. "Name only" on /workflow-implement, from the keyboard: focus the button, press Enter.
  const row = frame.locator('li[aria-label="/workflow-implement, full"]');
  const button = row.locator('button[data-action="name-only"]');
  // The view re-renders live (the background index settling rebuilds the model): a row replaced under the pointer is
  // found again after the update settles, at most 5 times.
  for (let attempt = 1; ; attempt++) {
    try {
      await row.scrollIntoViewIfNeeded({ timeout: 5_000 });
      assert.equal(await button.innerText(), 'Name only');
      await button.focus({ timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt === 5) throw err;
      t.log(`row re-rendered (attempt ${attempt}): ${String((err as Error).message).split('\n')[0]}`);
      await page.waitForTimeout(1_000); // let the live update settle before looking for the row again
    }
  }
  await page.keyboard.press('Enter');
  const text = await t.waitForFile('.claude/settings.local.json', (s) => s.includes('workflow-implement'));
  assert.deepEqual(JSON.parse(text), { skillOverrides: { 'workflow-implement': 'name-only' } });
  const after = frame.locator('li[aria-label="/workflow-implement, name only"]');
  await after.waitFor();
  assert.match(await after.locator('.override').innerText(), /skillOverrides: "name-only" in \.claude\/settings\.local\.json/);
  await frame.locator('#status', { hasText: 'set to "name-only" in .claude/settings.local.json' }).waitFor();
  await figures.filter({ hasNotText: before }).waitFor();
  const used = (s: string) => Number(/^([\d,]+)/.exec(s)?.[1].replace(/,/g, ''));
  assert.ok(used(await figures.innerText()) < used(before), 'the listing got shorter');
  // Focus stays in the row (on its first control) after the view re-rendered.
  assert.equal(await frame.locator(':focus').evaluate((el) => el.closest('li')?.getAttribute('aria-label')), '/workflow-implement, name only');
  await after.scrollIntoViewIfNeeded();
  await t.shot('what-claude-sees-after-name-only');
}
