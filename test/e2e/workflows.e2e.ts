// Workflow scenario through the real workbench: the status bar follows an orchestrator writing .workflow/
// (INIT → PLAN → WORK → REPORT → COMPLETED, each within a second), its tooltip, the Workflows view with
// artifacts and history, a STALE workflow with the warning background, and a cancel from the row's context
// menu (through the real Keep Running / Cancel Run confirmation) that unregisters the workflow on disk, says what
// happened and keeps CANCELLED in the status bar for 10 s.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hoverWrapping, type ScenarioContext } from './lib';

const AUTH_KEY = '20261121-093000';
const NEW_KEY = '20261122-100000';
const NEW_DIR = `.workflow/${NEW_KEY}/login-form/implement`;
const STALE_KEY = '20261122-090000';
const STALE_DIR = `.workflow/${STALE_KEY}/security-audit/review`;
/** The status bar updates within a second of a write under .workflow/. */
const UPDATE_BUDGET_MS = 1000;

export async function scenario(t: ScenarioContext): Promise<void> {
  const item = t.statusBarItem('skillflow.workflow');
  const registryFile = t.path('.workflow', 'registry.json');
  const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
  const writeJson = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  };
  const itemText = async () => ((await item.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  /** Waits for the status bar text and returns how long it took (ms). */
  const expectStatus = async (text: string, ms = 10_000) => {
    const t0 = Date.now();
    for (;;) {
      if ((await itemText()) === text) return Date.now() - t0;
      if (Date.now() - t0 > ms) throw new Error(`status bar reads '${await itemText()}', expected '${text}'`);
      await t.page.waitForTimeout(25);
    }
  };
  const codicon = async () => (await item.locator('.codicon').first().getAttribute('class')) ?? '';

  // 1. The demo's workflow is in PLAN. The item exists under the id VS Code derives from publisher.name.itemId.
  await item.waitFor();
  assert.equal(await t.page.locator('[id="skillflow.skillflow.skillflow.workflow"]').count(), 1);
  await expectStatus('PLAN · implement');
  assert.match(await codicon(), /codicon-list-ordered/);
  await t.shot('status-bar-plan');
  // Show the Skillflow views now, so their first indexing is not counted in the update timings below.
  await t.openSidebar();
  await t.view('Workflows').waitFor();
  // The row leads with the phase, so the default sidebar width cuts the title, never the phase.
  const authRow = t.treeItem(/Refactor the auth middleware/, 'Workflows');
  await authRow.waitFor();
  const authLabel = authRow.locator('.label-name').first();
  assert.equal(((await authLabel.innerText()) ?? '').trim().slice(0, 7), 'PLAN · ', 'the row starts with the phase');
  const labelBox = await authLabel.boundingBox();
  const rowBox = await authRow.boundingBox();
  t.log(`Workflows row: label ${labelBox?.width.toFixed(0)} px of a ${rowBox?.width.toFixed(0)} px row`);
  assert.ok(labelBox && rowBox && labelBox.x + labelBox.width <= rowBox.x + rowBox.width, `the row's label (${labelBox?.width.toFixed(0)} px from x=${labelBox?.x.toFixed(0)}) runs past its ${rowBox?.width.toFixed(0)} px row`);
  assert.match(await authLabel.innerText(), /^PLAN · Refactor the auth .*…$/, 'a long title is cut in the label (whole in the tooltip)');
  assert.match((await authRow.innerText()).replace(/\s+/g, ' '), /full · .* ago · implementer|full · now · implementer/);
  assert.equal(await authRow.locator('.codicon-list-ordered').count(), 1, 'the PLAN codicon leads the row');
  await t.shot('workflows-view-plan');

  // Its tooltip: phase and title first, one relative time (the row's), the workDir verbatim in a code span.
  await authRow.hover();
  const rowTip = t.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'workDir' }).first();
  await rowTip.waitFor();
  const rowTipText = (await rowTip.innerText()).replace(/\s+/g, ' ');
  assert.ok(rowTipText.includes(`workDir: .workflow/${AUTH_KEY}/auth-refactor/implement`), `tooltip workDir: ${rowTipText}`);
  assert.doesNotMatch(rowTipText, /\\/, 'no escaping backslashes in the tooltip');
  assert.match(rowTipText, /PLAN · Refactor the auth middleware/);
  assert.match(rowTipText, /Last update (\d+ \w+ ago|now) \(/);
  assert.equal(await rowTip.locator('code', { hasText: `.workflow/${AUTH_KEY}/auth-refactor/implement` }).count(), 1);
  assert.deepEqual(await hoverWrapping(rowTip), { split: [], nbspBetweenWords: 0 }, 'the tooltip wraps between words');
  await t.shot('workflows-row-tooltip');
  await t.page.mouse.move(700, 300);

  // 2. One run in the status bar: a click goes straight to that run's actions.
  await item.click();
  await t.quickInput.waitForOpen();
  assert.match(await t.quickInput.title(), /^PLAN · Refactor the auth middleware/);
  await t.quickInput.option(/Cancel Run…/).waitFor();
  await t.shot('status-bar-click-actions');
  await t.page.keyboard.press('Escape');
  await t.quickInput.waitForClosed();

  // 3. Cancel from the row's context menu: a confirmation whose first, highlighted choice is Keep Running.
  const menuItem = t.page.locator('.context-view .action-item, .monaco-menu .action-item').filter({ hasText: 'Cancel Run…' }).first();
  const openRowMenu = async () => {
    await authRow.click({ button: 'right' });
    await menuItem.waitFor();
    await t.page.waitForTimeout(300); // the menu ignores a click right after it opens
  };
  await openRowMenu();
  assert.equal(await t.page.locator('.context-view .action-item, .monaco-menu .action-item').filter({ hasText: 'Mark Run Failed…' }).count(), 0, 'PLAN cannot be marked failed');
  await t.shot('workflow-row-context-menu');
  await menuItem.click();
  const keepRow = t.quickInput.option(/^Keep Running/);
  await keepRow.waitFor();
  assert.equal(await t.quickInput.title(), 'Cancel the run "Refactor the auth middleware into a token service"?');
  const rows = (await t.quickInput.widget.getByRole('option').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
  t.log(`cancel confirmation rows: ${JSON.stringify(rows)}`);
  assert.equal(rows.length, 2);
  assert.match(rows[0], /^Keep Running ?nothing is written$/);
  assert.match(rows[1], /^Cancel Run its orchestrator's next step is refused Writes PLAN → CANCELLED to status\.json; unregisters '20261121-093000'\.$/);
  // The detail fits the widget (no ellipsis).
  const detail = t.quickInput.widget.locator('.quick-input-list-label-meta').filter({ hasText: 'unregisters' }).first();
  const fits = await detail.evaluate((el) => {
    const text = document.createRange();
    text.selectNodeContents(el);
    const row = el.closest('.monaco-list-row') ?? el;
    return { textRight: text.getBoundingClientRect().right, rowRight: row.getBoundingClientRect().right };
  });
  assert.ok(fits.textRight <= fits.rowRight, `the detail is cut off: its text ends at ${fits.textRight} px, the row at ${fits.rowRight} px`);
  const cancelRow = t.quickInput.option(/Cancel Run/);
  assert.equal(await cancelRow.locator('.codicon-stop-circle').count(), 1, 'Cancel Run has its codicon');
  assert.equal(await cancelRow.locator('.codicon-warning').count(), 1, 'and a warning beside it');
  const focused = t.quickInput.widget.locator('.monaco-list-row.focused');
  assert.equal(await focused.count(), 1);
  assert.match(await focused.innerText(), /^Keep Running/, 'Keep Running is highlighted');
  await t.shot('cancel-confirmation');
  // Enter on the highlighted row keeps the run: nothing is written.
  await t.quickInput.accept();
  await t.quickInput.waitForClosed();
  await t.page.waitForTimeout(300);
  assert.ok(readJson(registryFile)[AUTH_KEY], 'Keep Running (Enter) leaves the run registered');
  assert.equal(readJson(t.path('.workflow', AUTH_KEY, 'auth-refactor', 'implement', 'status.json')).phase, 'PLAN');
  // Escape keeps it too.
  await openRowMenu();
  await menuItem.click();
  await keepRow.waitFor();
  await t.page.keyboard.press('Escape');
  await t.quickInput.waitForClosed();
  await t.page.waitForTimeout(300);
  assert.ok(readJson(registryFile)[AUTH_KEY], 'Escape leaves the run registered');
  // This time from the status bar: its one run's actions, Cancel Run…, then Cancel Run (Down, Enter).
  await item.click();
  await t.quickInput.pick(/Cancel Run…/);
  await keepRow.waitFor();
  await t.page.keyboard.press('ArrowDown');
  assert.match(await focused.innerText(), /Cancel Run/);
  await t.quickInput.accept();
  await t.waitForFile(registryFile, (text) => !text.includes(AUTH_KEY));
  assert.deepEqual(Object.keys(readJson(registryFile)), ['20261120-141500'], 'unregistered; the other entry kept');
  const cancelled = readJson(t.path('.workflow', AUTH_KEY, 'auth-refactor', 'implement', 'status.json'));
  assert.equal(cancelled.phase, 'CANCELLED');
  assert.deepEqual(cancelled.transitions.at(-1).from + '→' + cancelled.transitions.at(-1).to, 'PLAN→CANCELLED');
  assert.deepEqual(cancelled.linked_sessions, ['session-7f3a9c'], 'unknown fields kept');
  // Afterwards: what happened, with Open status.json; the status bar keeps CANCELLED for its 10 s.
  const cancelledAt = Date.now();
  const toast = t.page.locator('.notification-toast').filter({ hasText: 'Run "Refactor the auth middleware into a token service" cancelled: status.json now says CANCELLED (was PLAN)' }).first();
  await toast.getByRole('button', { name: 'Open status.json' }).waitFor();
  await expectStatus('CANCELLED · implement');
  assert.match(await codicon(), /codicon-circle-slash/);
  await t.page.waitForTimeout(400); // the toast's fade-in
  t.allowToast(/cancelled: status\.json now says CANCELLED/);
  await t.shot('after-cancel-message-and-status-bar');
  await toast.getByRole('button', { name: 'Open status.json' }).click();
  await t.page.locator('.monaco-editor').filter({ hasText: '"CANCELLED"' }).first().waitFor();
  await t.shot('after-cancel-status-json');
  await t.page.waitForTimeout(Math.max(0, 7_000 - (Date.now() - cancelledAt)));
  assert.equal(await itemText(), 'CANCELLED · implement', 'still CANCELLED 7 s after the cancel');
  await item.waitFor({ state: 'hidden', timeout: 10_000 });
  t.log(`CANCELLED left the status bar ${Date.now() - cancelledAt} ms after the cancel`);
  assert.ok(Date.now() - cancelledAt >= 9_500, 'shown for the promised 10 s');

  // 4a. An orchestrator starts a second run: init writes status.json + .context.json and registers it.
  const status = (extra: Record<string, unknown>) => ({
    phase: 'INIT', mode: 'full', command: 'implement', title: 'Add a login form', workName: 'login-form',
    created_at: new Date().toISOString(), updated_at: new Date().toISOString(), transitions: [] as unknown[], linked_sessions: [], ...extra,
  });
  writeJson(t.path(NEW_DIR, 'status.json'), status({}));
  writeJson(t.path(NEW_DIR, '.context.json'), { agent: 'init' });
  fs.mkdirSync(t.path(NEW_DIR, '.prompt'), { recursive: true });
  fs.writeFileSync(t.path(NEW_DIR, '.prompt', 'user_prompt.txt'), 'Add a login form with email and password.\n');
  writeJson(registryFile, { ...readJson(registryFile), [NEW_KEY]: NEW_DIR });
  await item.waitFor();
  await expectStatus('INIT · implement');
  assert.match(await codicon(), /codicon-circle-outline/);
  await t.shot('status-bar-new-run-init');

  // 4. The orchestrator drives the new run step by step, the way update_state.py writes (read, modify, write).
  const transitions: Array<{ from: string; to: string; at: string }> = [];
  const step = async (from: string, to: string, agent: string, expected: string, icon: string) => {
    const at = new Date().toISOString();
    transitions.push({ from, to, at });
    const file = t.path(NEW_DIR, 'status.json');
    writeJson(t.path(NEW_DIR, '.context.json'), { agent });
    const written = Date.now();
    writeJson(file, { ...readJson(file), phase: to, updated_at: at, transitions: [...transitions] });
    await expectStatus(expected);
    const took = Date.now() - written;
    t.log(`${from} → ${to}: the status bar showed it ${took} ms after the write`);
    assert.ok(took <= UPDATE_BUDGET_MS, `${to} showed only ${took} ms after the write`);
    assert.match(await codicon(), new RegExp(`codicon-${icon}`));
  };
  fs.writeFileSync(t.path(NEW_DIR, 'plan.md'), '# Plan: login form\n\n1. Form component\n2. Validation\n3. Tests\n');
  await step('INIT', 'PLAN', 'planner', 'PLAN · implement', 'list-ordered');
  await t.shot('status-bar-plan-new-run');
  fs.mkdirSync(t.path(NEW_DIR, 'work'), { recursive: true });
  fs.writeFileSync(t.path(NEW_DIR, 'work', 'skill-map.md'), '# Skill map\n');
  fs.writeFileSync(t.path(NEW_DIR, 'work', 'W01-form-component.md'), '# W01: form component\n');
  await step('PLAN', 'WORK', 'worker', 'WORK · implement', 'sync');
  await t.shot('status-bar-work');

  // The tooltip: title, registry key, mode, the phase path with WORK marked, last transition, agent.
  await item.hover();
  const hover = t.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Registry key' }).first();
  await hover.waitFor();
  const tip = (await hover.innerText()).replace(/\s+/g, ' ');
  for (const part of ['WORK · Add a login form', 'Last update now', `Registry key ${NEW_KEY}`, 'mode full', 'INIT → PLAN → ▶ WORK → REPORT → COMPLETED', 'Last transition: PLAN → WORK', 'Agent: worker']) {
    assert.ok(tip.includes(part), `tooltip lacks '${part}': ${tip}`);
  }
  assert.equal(await hover.locator('strong', { hasText: '▶ WORK' }).count(), 1, 'the current phase is bold');
  await t.shot('status-bar-tooltip');
  await t.page.mouse.move(700, 300);

  // The Workflows view: the entry with phase · mode · age · agent, its artifacts and history.
  // Collapse the Skills view so the Workflows pane has room for the artifacts and the history.
  // On its title: the middle of the header may be one of its action buttons (New Skill's "+").
  await t.view('Skills').locator('.pane-header h3.title').first().click();
  const entry = t.treeItem(/Add a login form/, 'Workflows');
  await entry.waitFor();
  assert.match((await entry.innerText()).replace(/\s+/g, ' '), /WORK · Add a login form ?full · now · worker/);
  if ((await entry.getAttribute('aria-expanded')) !== 'true') await entry.click();
  for (const name of ['.prompt/user_prompt.txt', 'plan.md', 'work/skill-map.md', 'work/W01-form-component.md']) await t.treeItem(name, 'Workflows').waitFor();
  const history = t.treeItem(/^History/, 'Workflows');
  await history.click();
  await t.treeItem(/PLAN → WORK/, 'Workflows').waitFor();
  // Workflows is the last pane, so the room Skills gave up is its own: every row shows, none clipped, while the
  // sidebar has space (it used to go to the Checkpoints pane below, empty under its one row).
  await t.page.waitForTimeout(300); // the panes' relayout
  const fit = await t.view('Workflows').evaluate((pane) => {
    const body = pane.querySelector('.pane-body')?.getBoundingClientRect();
    const rows = Array.from(pane.querySelectorAll('.monaco-list-row')).map((r) => r.getBoundingClientRect());
    const list = pane.querySelector('.monaco-list .monaco-scrollable-element');
    return { bodyBottom: body?.bottom ?? 0, lastRowBottom: Math.max(...rows.map((r) => r.bottom)), rows: rows.length, scroll: list ? list.scrollHeight - list.clientHeight : 0 };
  });
  t.log(`Workflows pane: ${fit.rows} rows, the last ends at ${fit.lastRowBottom.toFixed(0)} px, the pane at ${fit.bodyBottom.toFixed(0)} px`);
  assert.ok(fit.lastRowBottom <= fit.bodyBottom + 0.5, `the Workflows pane clips its rows: the last ends at ${fit.lastRowBottom} px, the pane at ${fit.bodyBottom} px`);
  await t.shot('workflows-view-artifacts');

  fs.writeFileSync(t.path(NEW_DIR, 'report.md'), '# Report: login form\n');
  await step('WORK', 'REPORT', 'reporter', 'REPORT · implement', 'output');
  await step('REPORT', 'COMPLETED', 'done', 'COMPLETED · implement', 'check');
  await t.shot('status-bar-completed');
  // Artifacts open from the tree. Wait until the tree shows the last write (COMPLETED), so a refresh does not
  // re-render the row under the click; if one still does (the click is then lost, as it would be for a user),
  // click again once and say so in the log.
  await t.view('Workflows').getByRole('treeitem', { name: /Add a login form/ }).filter({ hasText: 'COMPLETED' }).first().waitFor();
  const report = t.page.locator('.monaco-editor').filter({ hasText: 'Report: login form' }).first();
  await t.treeItem('report.md', 'Workflows').click();
  try {
    await report.waitFor({ timeout: 5_000 });
  } catch {
    t.log('report.md did not open after the first click (the tree re-rendered under it?); clicking again');
    await t.shot('artifact-first-click-lost');
    await t.treeItem('report.md', 'Workflows').click();
    await report.waitFor();
  }
  await t.shot('artifact-opened');
  // The done agent unregisters; the finished run leaves the status bar after its short display.
  writeJson(registryFile, { '20261120-141500': readJson(registryFile)['20261120-141500'] });
  await item.waitFor({ state: 'hidden', timeout: 15_000 });
  await t.shot('status-bar-hidden');

  // 5. A run nobody updated for three hours: STALE with the warning background.
  const threeHoursAgo = new Date(Date.now() - 3 * 3600_000).toISOString();
  writeJson(t.path(STALE_DIR, 'status.json'), {
    phase: 'WORK', mode: 'noplan', command: 'review', title: 'Security audit', workName: 'security-audit', created_at: threeHoursAgo, updated_at: threeHoursAgo,
    transitions: [{ from: 'INIT', to: 'WORK', at: threeHoursAgo }],
  });
  writeJson(t.path(STALE_DIR, '.context.json'), { agent: 'worker' });
  writeJson(registryFile, { ...readJson(registryFile), [STALE_KEY]: STALE_DIR });
  await item.waitFor();
  await expectStatus('STALE · review');
  assert.match(await codicon(), /codicon-warning/);
  const colours = await item.evaluate((el) => {
    const expected = getComputedStyle(el).getPropertyValue('--vscode-statusBarItem-warningBackground').trim()
      || getComputedStyle(document.body).getPropertyValue('--vscode-statusBarItem-warningBackground').trim();
    const probe = document.createElement('div');
    probe.style.backgroundColor = expected;
    document.body.appendChild(probe);
    const expectedRgb = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return { actual: getComputedStyle(el).backgroundColor, expected, expectedRgb, classes: el.className };
  });
  t.log(`STALE background ${colours.actual} (theme warning background ${colours.expected})`);
  assert.ok(colours.expected, 'the theme defines statusBarItem.warningBackground');
  assert.equal(colours.actual, colours.expectedRgb, `background ${colours.actual} is not the warning background ${colours.expectedRgb}`);
  assert.match(colours.classes, /warning-kind/);
  const staleEntry = t.treeItem(/Security audit/, 'Workflows');
  await staleEntry.waitFor();
  assert.match((await staleEntry.innerText()).replace(/\s+/g, ' '), /STALE · Security audit ?noplan · 3 hr\. ago · worker/);
  await t.shot('status-bar-stale-warning');
}
