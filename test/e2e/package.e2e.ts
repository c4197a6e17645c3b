// Package Skill in the real workbench: a refusal is a modal dialog (the reasons in its detail) that is closed before
// anything else happens, so a later "Packaged" message never sits beside a stale "Not packaged" error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const { page } = t;
  const dialog = page.locator('.monaco-dialog-box');

  // 1. code-review uses Claude Code-only keys the upload profile refuses: a modal says why and offers the way forward.
  await t.openFile('.claude/skills/code-review/SKILL.md');
  await t.runCommand('Skillflow: Package Skill');
  await dialog.filter({ hasText: 'Not packaged' }).waitFor();
  const text = (await dialog.innerText()).replace(/\s+/g, ' ');
  t.log(`refusal: ${text}`);
  assert.match(text, /Package Skill: Not packaged: 'code-review'/);
  assert.match(text, /argument-hint|allowed-tools|upload/, 'the detail names the reasons');
  await dialog.getByRole('button', { name: 'Open SKILL.md' }).waitFor();
  await t.shot('refusal-dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // 1b. Refused only for its Claude Code keys: the dialog's "Package Without Them" packages a copy without them.
  await t.runCommand('Skillflow: Package Skill');
  await dialog.filter({ hasText: 'Not packaged' }).waitFor();
  await dialog.getByRole('button', { name: 'Package Without Them' }).click();
  await dialog.waitFor({ state: 'detached' });
  await t.quickInput.pick(/Workspace folder/);
  const without = page.locator('.notification-toast').filter({ hasText: /Packaged code-review\.skill .*without the Claude Code key/ });
  await without.waitFor();
  await t.waitForFile('code-review.skill');
  assert.match(fs.readFileSync(t.path('.claude/skills/code-review/SKILL.md'), 'utf8'), /argument-hint/, 'the SKILL.md keeps its keys');
  t.allowToast(/Packaged code-review\.skill/);
  await t.shot('packaged-without-claude-code-keys');
  await page.keyboard.press('Escape');

  // 2. A skill that packages: the "Packaged" message is alone; no "Not packaged" error is left on screen.
  await t.openFile('.claude/skills/hello/SKILL.md');
  await t.runCommand('Skillflow: Package Skill');
  await t.quickInput.pick(/Workspace folder/);
  const packaged = page.locator('.notification-toast').filter({ hasText: /Packaged hello\.skill/ });
  await packaged.waitFor();
  await t.waitForFile('hello.skill');
  assert.ok(fs.statSync(t.path('hello.skill')).size > 0);
  await page.waitForTimeout(400); // the toast's fade-in
  assert.equal(await page.locator('.notification-toast').filter({ hasText: 'Not packaged' }).count(), 0, 'no stale "Not packaged" error');
  assert.equal(await dialog.count(), 0);
  t.allowToast(/Packaged hello\.skill/);
  await t.shot('packaged-alone');
}
