// Rule configuration in the real workbench: "Disable <code> for this file" (the skillflow-disable comment, the
// squiggle gone), "Disable <code> in this workspace" (.skillflow.json written, the problem gone from Problems) and
// the "Fix all Skillflow problems" source action from the Command Palette's "Source Action...".
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page } = t;
  const editor = page.locator('.editor-instance .monaco-editor').first();

  /** Opens the action widget with `keys` (retrying: it can race a diagnostics refresh), focuses `title`, screenshots, applies it. */
  async function pickAction(keys: () => Promise<void>, title: string, shot: string): Promise<void> {
    const widget = page.locator('.action-widget');
    const row = widget.getByText(title);
    for (let attempt = 1; ; attempt++) {
      await keys();
      try {
        await row.waitFor({ timeout: 6_000 });
        break;
      } catch (err) {
        if (attempt === 5) throw err;
        t.log(`action "${title}" not shown (attempt ${attempt}); asking again`);
        // A widget that opens late would take the next Ctrl+. as "apply": close it for sure before asking again.
        await page.keyboard.press('Escape');
        await widget.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
        await page.waitForTimeout(1_000);
        if (await widget.isVisible()) await page.keyboard.press('Escape');
      }
    }
    // A pointer-block overlay swallows clicks in the action widget: move the focus with the keyboard.
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 12 && !(await focused.innerText().catch(() => '')).includes(title); i++) await page.keyboard.press('ArrowDown');
    assert.match(await focused.innerText(), new RegExp(title));
    await t.shot(shot);
    await page.keyboard.press('Enter');
  }

  async function goToLine(line: number, column: number): Promise<void> {
    await page.keyboard.press('Control+G');
    await t.quickInput.submit(`:${line}:${column}`);
  }

  // The Skills view loads the index, which publishes the problems of files that are not open.
  await t.openSidebar();
  await t.treeItem(/^\/missing-reference/, 'Skills').waitFor();

  // 1. Disable reference-missing for one file: the comment goes in after the frontmatter, the warning goes.
  const missing = '.claude/skills/missing-reference/SKILL.md';
  await t.openFile(missing);
  await editor.locator('.view-line', { hasText: 'the documentation guide' }).waitFor();
  await goToLine(7, 10);
  await page.locator('.editor-instance .squiggly-warning').first().waitFor();
  await pickAction(() => page.keyboard.press('Control+.'), 'Disable reference-missing for this file', 'disable-for-file-menu');
  await page.keyboard.press('Control+S');
  const text = await t.waitForFile(missing, (s) => s.includes('<!-- skillflow-disable reference-missing -->'));
  assert.match(text, /^---\n[\s\S]*?\n---\n<!-- skillflow-disable reference-missing -->\n# Missing reference/);
  await page.locator('.editor-instance .squiggly-warning').first().waitFor({ state: 'detached' });
  await editor.locator('.view-line', { hasText: 'skillflow-disable reference-missing' }).waitFor();
  await t.shot('disabled-for-file');

  // 2. Disable unknown-key in the workspace: .skillflow.json is created, the warning leaves the Problems panel. The
  // panel is filtered to the rule's code, so the check does not depend on which rows its virtualised list renders.
  await t.runCommand('Problems: Focus on Problems View');
  const markers = page.locator('.markers-panel');
  const problemsFilter = page.getByPlaceholder(/^Filter \(e\.g\. text, \*\*\/\*\.ts/);
  await problemsFilter.fill('unknown-key');
  await markers.getByText("Remove 'colour'").first().waitFor();
  await t.openFile(t.path('.claude', 'skills', 'unknown-key', 'SKILL.md'));
  await editor.locator('.view-line', { hasText: 'colour: blue' }).waitFor();
  await goToLine(4, 2);
  await page.locator('.editor-instance .squiggly-warning').first().waitFor();
  await pickAction(() => page.keyboard.press('Control+.'), 'Disable unknown-key in this workspace', 'disable-in-workspace-menu');
  const config = await t.waitForFile('.skillflow.json', (s) => s.includes('unknown-key'));
  assert.deepEqual(JSON.parse(config), { rules: { 'unknown-key': 'off' } });
  await page.locator('.editor-instance .squiggly-warning').first().waitFor({ state: 'detached' });
  await t.openFile('.skillflow.json');
  await editor.locator('.view-line', { hasText: '"unknown-key": "off"' }).waitFor();
  await t.runCommand('Problems: Focus on Problems View');
  await markers.getByText('No results found with provided filter criteria.').waitFor();
  assert.equal(await markers.getByText("Remove 'colour'").count(), 0, 'unknown-key left the Problems panel');
  await t.shot('disabled-in-workspace');
  await problemsFilter.fill('');

  // 3. Fix all: fixable warnings (upper-case name, angle brackets) fixed by one source action.
  const fixDir = t.path('.claude', 'skills', 'rules-fix-all');
  fs.mkdirSync(fixDir, { recursive: true });
  fs.writeFileSync(`${fixDir}/SKILL.md`, '---\nname: Rules_Fix_All\ndescription: Tidy <things> up. Use it when a skill needs tidying.\n---\n# Fix all\n');
  await t.treeItem(/^\/rules-fix-all/, 'Skills').waitFor();
  await t.openFile(t.path('.claude', 'skills', 'rules-fix-all', 'SKILL.md'));
  await editor.locator('.view-line', { hasText: 'Rules_Fix_All' }).waitFor();
  await page.locator('.editor-instance .squiggly-warning').first().waitFor();
  await pickAction(() => t.runCommand('Source Action...'), 'Fix all Skillflow problems', 'fix-all-menu');
  await page.keyboard.press('Control+S');
  await t.waitForFile('.claude/skills/rules-fix-all/SKILL.md', (s) => s === '---\nname: rules-fix-all\ndescription: Tidy things up. Use it when a skill needs tidying.\n---\n# Fix all\n');
  await page.locator('.editor-instance .squiggly-warning').first().waitFor({ state: 'detached' });
  await editor.locator('.view-line', { hasText: 'name: rules-fix-all' }).waitFor();
  await t.shot('fix-all-applied');
}
