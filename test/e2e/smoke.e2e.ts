// Smoke scenario: the Skillflow container opens with its views (Skills the largest on first open, What Claude Sees
// collapsed) and the palette runs a Skillflow command.
import * as assert from 'node:assert/strict';
import type { ScenarioContext } from './lib';

export async function scenario(t: ScenarioContext): Promise<void> {
  const sidebar = await t.openSidebar();
  for (const title of ['Skills', 'Workflows', 'Checkpoints']) await t.view(title).waitFor();
  assert.equal((await sidebar.locator('.composite.title h2').innerText()).trim().toLowerCase(), 'skillflow');
  // Initial sizes (package.json initialSize 5 : 1 : 1 : 3 for Skills, What Claude Sees, Checkpoints, Workflows): Skills
  // gets most of the side bar on the first open. The workbench shares the side bar by these weights before it collapses
  // What Claude Sees to its header and gives the rest of that share to the view below it (Checkpoints): a large weight
  // there would starve Skills. Workflows is last, so the room a collapsed view gives up goes to its runs.
  const height = async (title: string) => (await t.view(title).boundingBox())?.height ?? 0;
  const [skills, workflows, checkpoints] = [await height('Skills'), await height('Workflows'), await height('Checkpoints')];
  t.log(`view heights: Skills ${skills}px, Workflows ${workflows}px, Checkpoints ${checkpoints}px`);
  assert.ok(skills > 1.5 * workflows && skills > 1.5 * checkpoints, `Skills (${skills}px) is the largest view (Workflows ${workflows}px, Checkpoints ${checkpoints}px)`);
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
