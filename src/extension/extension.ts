import * as vscode from 'vscode';
import { registerSkillsFeatures } from './skills';
import { registerWorkflowFeatures } from './workflows';
import { registerCheckpointFeatures } from './checkpoints';
import { registerGraphFeatures } from './graph';
import { registerClaudeFeatures } from './claude';

/** Activation stays light: features register providers and watchers; indexing happens when a view or editor first asks. */
export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Skillflow', { log: true });
  context.subscriptions.push(log);

  const skills = registerSkillsFeatures(context, log);
  const workflows = registerWorkflowFeatures(context, log);
  const checkpoints = registerCheckpointFeatures(context, log);
  const graph = registerGraphFeatures(context, log, skills.service);
  const claude = registerClaudeFeatures(context, log);

  const activationMs = performance.now() - started;
  log.info(`activate() took ${activationMs.toFixed(1)} ms`);
  // Returned for integration tests (and other extensions): read-only access to each feature's state.
  return { skills, workflows, checkpoints, graph, claude, activationMs };
}

export function deactivate() {
  // Everything is disposed through context.subscriptions.
}
