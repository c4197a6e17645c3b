// Checkpoints through the real workbench: the view, the notification for a new context file, answering a single,
// a multi, a text and a confirm question in the real QuickPick/InputBox (step counter 1/5 … 4/5, with Back), the last
// step "Write 4 answers and resume …?" (Resume / Write Only / Back), the file on disk, the resume command in the
// `Skillflow` terminal (stand-in claude) and the "Resumed…" message with Show Terminal, a `CONTEXT_PATH:` terminal
// link starting the flow, and a file changed on disk mid-flow not being overwritten.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Locator } from 'playwright-core';
import type { ScenarioContext } from './lib';

const NEW_CONTEXT = `---
skill: release-notes
args: "VERSION=2.0"
status: AWAIT
created: 2026-11-21T09:00:00Z
---
# Checkpoint: release-notes

## Progress Summary
Collected 41 merged pull requests and grouped them by label.

## Partial Outputs
- .agent/tmp/notes-draft.md

## Questions

### Q1: Which release channel?
Type: single
Options:
- stable
- beta
Answer:

### Q2: Which sections should the notes have?
Type: multi
Options:
- Features
- Fixes
- Breaking changes
Answer:

### Q3: Who should be thanked?
Type: text
Answer:

### Q4: Publish the notes right away?
Type: confirm
Answer:
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The width of an input's placeholder text (in its own font) and the room its box leaves for text, in px. */
async function placeholderFit(input: Locator): Promise<{ text: number; room: number }> {
  return input.evaluate((el) => {
    const box = el as HTMLInputElement;
    const style = getComputedStyle(box);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) throw new Error('no canvas');
    context.font = style.font;
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: context.measureText(box.placeholder).width, room };
  });
}

/** Viewport coordinates of `needle` inside the terminal output row that contains `rowText` (DOM renderer). */
async function terminalTextPoint(t: ScenarioContext, rowText: string, needle: string): Promise<{ x: number; y: number }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const point = await t.page.evaluate(({ rowText, needle }) => {
      const norm = (s: string) => s.replace(/\u00a0/g, ' ');
      const rows = Array.from(document.querySelectorAll('.terminal-wrapper.active .xterm-rows > div, .xterm-rows > div'));
      const row = rows.reverse().find((r) => norm(r.textContent ?? '').includes(rowText) && !norm(r.textContent ?? '').includes('echo'));
      if (!row) return undefined;
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = norm(node.textContent ?? '').indexOf(needle);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at + 2);
        range.setEnd(node, at + 8);
        const rect = range.getBoundingClientRect();
        return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
      }
      return undefined;
    }, { rowText, needle });
    if (point) return point;
    if (Date.now() > deadline) throw new Error(`terminal row with "${rowText}" not found`);
    await sleep(250);
  }
}

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page, quickInput } = t;
  // Rows of a canSelectMany QuickPick are checkboxes, not options.
  const row = (name: string) => quickInput.widget.locator('.monaco-list-row').filter({ hasText: name }).first();
  // The DOM renderer keeps terminal text in the page, so the link can be located and clicked.
  fs.mkdirSync(t.path('.vscode'), { recursive: true });
  fs.writeFileSync(t.path('.vscode', 'settings.json'), JSON.stringify({ 'terminal.integrated.gpuAcceleration': 'off' }, null, 2));

  // 1. The Checkpoints view lists the demo checkpoint.
  await t.openSidebar();
  const view = t.view('Checkpoints');
  await view.waitFor();
  const demoRow = t.treeItem(/code-review/, 'Checkpoints');
  await demoRow.waitFor();
  assert.match(await demoRow.innerText(), /0\/4 answered/);
  await t.shot('checkpoints-view');

  // 2. A new context file appears: a notification with an "Answer" button.
  fs.writeFileSync(t.path('.agent', 'tmp', 'release-notes-context.md'), NEW_CONTEXT);
  const toast = page.locator('.notification-toast').filter({ hasText: 'release-notes is waiting for your answers' });
  await toast.waitFor({ timeout: 15_000 });
  assert.match(await toast.innerText(), /4 questions\) — \.agent\/tmp\/release-notes-context\.md/);
  await t.treeItem(/release-notes/, 'Checkpoints').waitFor();
  // The messages this scenario brings up, which may still be sliding out at a later screenshot.
  t.allowToast(/is waiting for your answers/);
  t.allowToast(/^(Source: Skillflow )?.*Resumed \S+ in the Skillflow terminal/);
  t.allowToast(/Changed on disk — nothing was written/);
  await t.shot('notification-new-context-file');
  await toast.getByRole('button', { name: 'Answer' }).click();

  // 3. Q1 single choice: step 1 of 5 (four questions and the last step); the placeholder says how to answer.
  await quickInput.waitForOpen();
  await quickInput.option('stable').waitFor();
  assert.equal(await quickInput.title(), 'release-notes · Q1: Which release channel? (1/5)');
  assert.equal(await quickInput.input.getAttribute('placeholder'), 'Choose one answer');
  await t.shot('q1-single-step-counter');
  await quickInput.pick('beta');

  // 4. Q2 multi choice (2/5): check two rows, then Enter.
  await row('Breaking changes').waitFor();
  assert.equal(await quickInput.title(), 'release-notes · Q2: Which sections should the notes have? (2/5)');
  assert.equal(await quickInput.input.getAttribute('placeholder'), 'Choose one or more (Space toggles)');
  await row('Features').click();
  await row('Breaking changes').click();
  await t.shot('q2-multi-checked');
  await page.keyboard.press('Enter');

  // 5. Q3 free text (3/5) in an InputBox.
  await t.page.waitForFunction(() => document.querySelector('.quick-input-title')?.textContent?.includes('(3/5)'));
  assert.equal(await quickInput.input.getAttribute('placeholder'), 'Type your answer');
  const thanks = `Ada & "Grace"; it's $(whoami) \`and\` you`;
  await quickInput.input.fill(thanks);
  // One set of instructions under the input: the workbench's own, not ours beside it.
  const message = (await quickInput.widget.locator('.quick-input-message').innerText()).trim();
  t.log(`Q3 message: ${message}`);
  assert.equal(message.match(/Enter/g)?.length, 1, `one instruction for Enter, got "${message}"`);
  await t.shot('q3-text');
  await page.keyboard.press('Enter');

  // 6. Q4 confirm (4/5); Back returns to Q3 with the answer kept.
  await quickInput.option('Yes').waitFor();
  assert.equal(await quickInput.title(), 'release-notes · Q4: Publish the notes right away? (4/5)');
  assert.equal(await quickInput.input.getAttribute('placeholder'), 'Choose Yes or No');
  await quickInput.widget.locator('.codicon-quick-input-back').click();
  await t.page.waitForFunction(() => document.querySelector('.quick-input-title')?.textContent?.includes('(3/5)'));
  assert.equal(await quickInput.input.inputValue(), thanks);
  await t.shot('back-to-q3-answer-kept');
  await page.keyboard.press('Enter');
  await quickInput.option('No').waitFor();
  await t.shot('q4-confirm');
  await quickInput.pick('Yes');

  // 7. The last step (5/5): nothing is written until Resume or Write Only.
  await quickInput.option('Write Only').waitFor();
  assert.equal(await quickInput.title(), 'Write 4 answers and resume release-notes? (5/5)');
  const rows = quickInput.widget.locator('.monaco-list-row');
  assert.deepEqual((await rows.locator('.label-name').allInnerTexts()).map((r) => r.trim()), ['Resume', 'Write Only', 'Back']);
  assert.deepEqual((await rows.locator('.label-description').allInnerTexts()).map((r) => r.trim()), [
    'write the answers, then run the resume command in the Skillflow terminal', 'write the answers; resume later', 'change the last answer',
  ]);
  assert.equal(fs.readFileSync(t.path('.agent', 'tmp', 'release-notes-context.md'), 'utf8'), NEW_CONTEXT);
  await t.shot('last-step-write-and-resume');
  await quickInput.pick('Resume');

  // 8. The file on disk: only the Answer fields changed.
  const expected = NEW_CONTEXT
    .replace('- beta\nAnswer:\n', '- beta\nAnswer: beta\n')
    .replace('- Breaking changes\nAnswer:\n', '- Breaking changes\nAnswer: Features, Breaking changes\n')
    .replace('Type: text\nAnswer:\n', `Type: text\nAnswer: ${thanks}\n`)
    .replace('Type: confirm\nAnswer:\n', 'Type: confirm\nAnswer: yes\n');
  const onDisk = await t.waitForFile('.agent/tmp/release-notes-context.md', (text) => text !== NEW_CONTEXT);
  assert.equal(onDisk, expected);

  // 9. The resume command arrives in the Skillflow terminal (the stand-in claude records its arguments), and
  // "Resumed…" offers Show Terminal.
  const resumed = page.locator('.notification-toast').filter({ hasText: 'Resumed release-notes in the Skillflow terminal.' });
  await resumed.waitFor({ timeout: 15_000 });
  const showTerminal = resumed.getByRole('button', { name: 'Show Terminal' });
  await showTerminal.waitFor();
  await t.page.waitForFunction(() => !!document.querySelector('.terminal-tab, .single-terminal-tab'), undefined, { timeout: 15_000 }).catch(() => undefined);
  const deadline = Date.now() + 20_000;
  while (!t.fakeClaudeCalls().length && Date.now() < deadline) await sleep(200);
  assert.deepEqual(t.fakeClaudeCalls(), [['/release-notes resume CONTEXT_PATH=.agent/tmp/release-notes-context.md']]);
  await sleep(500);
  await t.shot('resumed-message-show-terminal');
  await showTerminal.click();
  await resumed.waitFor({ state: 'hidden', timeout: 10_000 });
  await sleep(300);
  // The line was sent once the shell was ready: it follows the first prompt, it is not echoed above it.
  const terminalText = await page.evaluate(() => Array.from(document.querySelectorAll('.terminal-wrapper.active .xterm-rows > div'))
    .map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ')).join('\n'));
  t.log(`Skillflow terminal:\n${terminalText.trim()}`);
  const firstPrompt = terminalText.search(/[#$] /);
  const firstCommand = terminalText.indexOf("claude '/release-notes resume");
  assert.ok(firstCommand >= 0, 'the resume command is in the terminal');
  assert.ok(firstPrompt >= 0 && firstPrompt < firstCommand, `the command was typed before the shell's first prompt:\n${terminalText}`);
  await t.shot('resumed-in-skillflow-terminal');
  await t.openFile('.agent/tmp/release-notes-context.md');
  await t.shot('answered-file');

  // 10. A `CONTEXT_PATH:` line printed in a terminal is a link that starts the Answer flow.
  await t.runCommand('Terminal: Create New Terminal');
  await sleep(1500);
  await page.keyboard.type('echo "CONTEXT_PATH: .agent/tmp/code-review-context.md"');
  await page.keyboard.press('Enter');
  const point = await terminalTextPoint(t, 'CONTEXT_PATH: .agent/tmp/code-review-context.md', '.agent/tmp/code-review-context.md');
  await page.mouse.move(point.x, point.y);
  await sleep(1200);
  await t.shot('terminal-link-hover');
  await page.keyboard.down('Control');
  await page.mouse.click(point.x, point.y);
  await page.keyboard.up('Control');
  await quickInput.option('develop').waitFor();
  assert.equal(await quickInput.title(), 'code-review · Q1: Which branch should the review compare against? (1/5)');
  await t.shot('flow-started-from-terminal-link');

  // 11. A question changes on disk mid-flow (the skill rewrote it): nothing is written, the file is reloaded and asked
  // again. (A change outside the questions, such as the progress summary, is kept and the answers land beside it:
  // guardedWrite, unit-tested in checkpoint tests.)
  const contextFile = t.path('.agent', 'tmp', 'code-review-context.md');
  const original = fs.readFileSync(contextFile, 'utf8');
  await quickInput.pick('main');
  await row('security').waitFor();
  // Q2 allows Other…: its longer placeholder still fits beside the checkbox, the count and OK.
  assert.equal(await quickInput.input.getAttribute('placeholder'), 'Choose one or more, or Other… (Space toggles)');
  const fit = await placeholderFit(quickInput.input);
  t.log(`Q2 placeholder: ${fit.text.toFixed(0)} px of text in a ${fit.room.toFixed(0)} px input`);
  assert.ok(fit.text <= fit.room, `the placeholder is clipped: ${fit.text.toFixed(0)} px of text, ${fit.room.toFixed(0)} px of room`);
  await t.shot('q2-other-placeholder-fits');
  const changed = original.replace('### Q3: Anything to skip?', '### Q3: Anything to skip (paths or globs)?');
  assert.notEqual(changed, original);
  fs.writeFileSync(contextFile, changed);
  await row('tests').click();
  await page.keyboard.press('Enter');
  await t.page.waitForFunction(() => document.querySelector('.quick-input-title')?.textContent?.includes('(3/5)'));
  await quickInput.input.fill('vendor/');
  await page.keyboard.press('Enter');
  await quickInput.option('No').waitFor();
  await quickInput.pick('No');
  await quickInput.option('Write Only').waitFor();
  await quickInput.pick('Resume');
  const warning = page.locator('.notification-toast').filter({ hasText: 'Changed on disk — nothing was written; reloaded, please answer again (.agent/tmp/code-review-context.md).' });
  await warning.waitFor({ timeout: 15_000 });
  assert.equal(fs.readFileSync(contextFile, 'utf8'), changed);
  // The flow starts again on the reloaded file, with the answers given so far pre-selected.
  await quickInput.option('develop').waitFor();
  assert.match(await quickInput.title(), /\(1\/5\)$/);
  await sleep(800); // let the warning toast finish sliding in
  await t.shot('changed-on-disk-warning-and-reask');
  await page.keyboard.press('Enter'); // main (kept)
  await row('security').waitFor();
  assert.equal(await row('tests').getAttribute('aria-checked'), 'true');
  await page.keyboard.press('Enter'); // tests (kept)
  await t.page.waitForFunction(() => document.querySelector('.quick-input-title')?.textContent?.includes('(3/5)'));
  assert.equal(await quickInput.input.inputValue(), 'vendor/');
  await page.keyboard.press('Enter');
  await quickInput.option('No').waitFor();
  await quickInput.pick('No');
  await quickInput.option('Write Only').waitFor();
  await quickInput.pick('Resume');
  const final = await t.waitForFile(contextFile, (text) => text !== changed);
  assert.equal(final, changed
    .replace('- develop\nAnswer:\n', '- develop\nAnswer: main\n')
    .replace('- style\nAllow-Other: yes\nAnswer:\n', '- style\nAllow-Other: yes\nAnswer: tests\n')
    .replace('Type: text\nAnswer:\n', 'Type: text\nAnswer: vendor/\n')
    .replace('Type: confirm\nAnswer:\n', 'Type: confirm\nAnswer: no\n'));
  const deadline2 = Date.now() + 20_000;
  while (t.fakeClaudeCalls().length < 2 && Date.now() < deadline2) await sleep(200);
  assert.deepEqual(t.fakeClaudeCalls()[1], ['/code-review resume CONTEXT_PATH=.agent/tmp/code-review-context.md']);
  await sleep(500);
  await t.shot('second-resume');
}
