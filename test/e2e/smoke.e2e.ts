// Smoke scenario: the Skillflow container opens with its three views and the palette runs a Skillflow command.
import * as assert from 'node:assert/strict';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const sidebar = await t.openSidebar();
  for (const title of ['Skills', 'Workflows', 'Checkpoints']) await t.view(title).waitFor();
  assert.equal((await sidebar.locator('.composite.title h2').innerText()).trim().toLowerCase(), 'skillflow');
  await t.shot('skillflow-container');

  await t.runCommand('Skillflow: Refresh Skills');
  // A refresh that fails (e.g. "command 'skillflow.refresh' not found") shows an error notification.
  const errors = t.page.locator('.notification-toast .codicon-error');
  await t.page.waitForTimeout(500);
  assert.equal(await errors.count(), 0, 'running Skillflow: Refresh Skills raised an error notification');
  await t.shot('after-refresh');

  await t.openFile('.claude/skills/code-review/SKILL.md');
  await t.shot('skill-md-open');
}
