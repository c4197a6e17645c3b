/** Reference graph feature (F5 "Show Reference Graph"): the command and its webview panel. */
import * as vscode from 'vscode';
import type { ReferenceGraph } from '../../core/references/graph';
import type { SkillsService } from '../skills/service';
import { GraphPanelController } from './panel';

/** Read-only handles for integration tests. */
export interface GraphApi {
  /** Runs what the command runs: opens (or reveals) the panel. */
  show(): vscode.WebviewPanel;
  /** The open panel, if any. */
  readonly panel: vscode.WebviewPanel | undefined;
  /** The graph last posted to the webview. */
  readonly lastPosted: ReferenceGraph | undefined;
  /** Handles a message as if the webview had posted it (`{ type: 'open', id }` opens that skill's SKILL.md). */
  handleMessage(message: unknown): Promise<void>;
}

export function registerGraphFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, skills: SkillsService): GraphApi {
  const controller = new GraphPanelController(context.extensionUri, skills, log);
  context.subscriptions.push(
    controller,
    vscode.commands.registerCommand('skillflow.showReferenceGraph', () => { controller.show(); }),
  );
  return {
    show: () => controller.show(),
    get panel() { return controller.panel; },
    get lastPosted() { return controller.lastPosted; },
    handleMessage: (message) => controller.handleMessage(message),
  };
}
