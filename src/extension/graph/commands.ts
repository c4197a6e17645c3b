/** Reference graph commands: Show Reference Graph opens (or reveals) the panel. */
import * as vscode from 'vscode';
import type { GraphPanelController } from './panel';

export function registerGraphCommands(panel: GraphPanelController): vscode.Disposable {
  return vscode.commands.registerCommand('skillflow.showReferenceGraph', () => { panel.show(); });
}
