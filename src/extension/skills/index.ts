import type * as vscode from 'vscode';

/** Placeholder until its issue lands. */
export function registerSkillsFeatures(_context: vscode.ExtensionContext, _log: vscode.LogOutputChannel) {
  return {};
}
