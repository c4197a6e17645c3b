/** Reference graph feature wiring ("Show Reference Graph"): the service (graph data), the panel (view) and the command. */
import type * as vscode from 'vscode';
import type { ReferenceGraph } from '../../core/references/graph';
import type { SkillsService } from '../skills/service';
import { registerGraphCommands } from './commands';
import { GraphPanelController } from './panel';
import { ReferenceGraphService } from './service';

/** The graph feature's test API: read-only handles. */
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
  const controller = new GraphPanelController(context.extensionUri, new ReferenceGraphService(skills), log);
  context.subscriptions.push(controller, registerGraphCommands(controller));
  return {
    show: () => controller.show(),
    get panel() { return controller.panel; },
    get lastPosted() { return controller.lastPosted; },
    handleMessage: (message) => controller.handleMessage(message),
  };
}
