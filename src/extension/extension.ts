import * as vscode from 'vscode';
import { registerSkillsFeatures } from './skills';
import { registerWorkflowFeatures } from './workflows';
import { registerCheckpointFeatures } from './checkpoints';
import { registerGraphFeatures } from './graph';
import { registerClaudeFeatures } from './claude';

/**
 * Activation stays light (under 50 ms, logged): features register providers and watchers; the skills index loads in
 * a background task right after `activate()` returns.
 */
export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Skillflow', { log: true });
  context.subscriptions.push(log);

  const marks: string[] = [];
  const timed = <T>(name: string, register: () => T): T => {
    const t0 = performance.now();
    const api = register();
    marks.push(`${name} ${(performance.now() - t0).toFixed(1)}`);
    return api;
  };
  const skills = timed('skills', () => registerSkillsFeatures(context, log, started));
  const workflows = timed('workflows', () => registerWorkflowFeatures(context, log));
  const checkpoints = timed('checkpoints', () => registerCheckpointFeatures(context, log));
  const graph = timed('graph', () => registerGraphFeatures(context, log, skills.service));
  const claude = timed('claude', () => registerClaudeFeatures(context, log, skills.service));
  // The Skills header shows the listing of the claude service's model.
  skills.treeProvider.useListing(claude.service);

  const activationMs = performance.now() - started;
  log.info(`activate() took ${activationMs.toFixed(1)} ms (${marks.join(', ')} ms)`);
  if (process.env.SKILLFLOW_DEMO === '1') void showDemoStart(log);
  // Returned for integration tests (and other extensions): read-only access to each feature's state.
  return { skills, workflows, checkpoints, graph, claude, activationMs };
}

/**
 * `npm run demo` sets SKILLFLOW_DEMO=1 for its code-server: the window starts on the Skillflow views with the demo
 * workspace's README rendered beside them, so a first-time visitor sees where to look.
 */
async function showDemoStart(log: vscode.LogOutputChannel): Promise<void> {
  try {
    await vscode.commands.executeCommand('workbench.view.extension.skillflow');
    const folder = vscode.workspace.workspaceFolders?.[0];
    // Locked: a dynamic preview follows the active editor, so opening a SKILL.md would replace the guide with it.
    if (folder) await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(folder.uri, 'README.md'), undefined, { locked: true });
  } catch (err) {
    log.warn(`demo start: ${String(err)}`);
  }
}

export function deactivate() {
  // Everything is disposed through context.subscriptions.
}
