/**
 * The Show Reference Graph webview panel: one at a time; it gets the graph when its script is ready and again
 * whenever the skills index changes, and opens a skill's SKILL.md when the webview asks.
 */
import * as vscode from 'vscode';
import { webviewHtml } from '../util/webviewHtml';
import type { ReferenceGraph } from '../../core/references/graph';
import { isWebviewMessage, type HostMessage } from '../../webview/protocol';
import type { ReferenceGraphService } from './service';

export const GRAPH_VIEW_TYPE = 'skillflow.referenceGraph';

export class GraphPanelController implements vscode.Disposable {
  private current: vscode.WebviewPanel | undefined;
  private posted: ReferenceGraph | undefined;
  private postedJson: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: ReferenceGraphService,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(service.onDidChange(() => { if (this.current) this.post(false); }));
  }

  /** The open panel, if any. */
  get panel(): vscode.WebviewPanel | undefined { return this.current; }

  /** The graph last sent to the webview. */
  get lastPosted(): ReferenceGraph | undefined { return this.posted; }

  /** Opens the panel (or reveals the open one) and returns it. */
  show(): vscode.WebviewPanel {
    if (this.current) {
      this.current.reveal();
      return this.current;
    }
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, 'Skill Reference Graph', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [webviewRoot, mediaRoot],
    });
    panel.iconPath = vscode.Uri.joinPath(mediaRoot, 'skillflow.svg');
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => this.handleMessage(message)),
      panel.onDidDispose(() => {
        for (const d of subscriptions) d.dispose();
        if (this.current === panel) { this.current = undefined; this.postedJson = undefined; }
      }),
    ];
    panel.webview.html = this.html(panel.webview, webviewRoot, mediaRoot);
    this.current = panel;
    return panel;
  }

  /** Answers one message from the webview (exposed so tests can drive it like the webview does). */
  async handleMessage(message: unknown): Promise<void> {
    if (!isWebviewMessage(message)) {
      this.log.warn(`reference graph: ignored an unknown message from the webview`);
      return;
    }
    if (message.type === 'ready') { this.post(true); return; }
    // Only ids of indexed skills open anything: the webview never names a path of its own.
    const skill = this.service.skillById(message.id);
    if (!skill) { this.log.warn(`reference graph: no indexed skill '${message.id}'`); return; }
    // Beside the graph: the other of the first two columns; Beside the active group (the graph, which sent the
    // message) when the extension host does not know the panel's column (its tab model can lag behind the workbench).
    const at = this.current?.viewColumn;
    const column = at === undefined ? vscode.ViewColumn.Beside : at === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(vscode.Uri.file(skill.skillMdPath), { viewColumn: column, preview: false });
  }

  /** Sends the current graph; unchanged graphs are not re-sent unless the webview just (re)loaded. */
  private post(force: boolean): void {
    const panel = this.current;
    if (!panel) return;
    const graph = this.service.graph();
    const json = JSON.stringify(graph);
    if (!force && json === this.postedJson) return;
    this.posted = graph;
    this.postedJson = json;
    const message: HostMessage = { type: 'graph', graph };
    void panel.webview.postMessage(message);
  }

  private html(webview: vscode.Webview, webviewRoot: vscode.Uri, mediaRoot: vscode.Uri): string {
    return webviewHtml(webview, {
      script: vscode.Uri.joinPath(webviewRoot, 'graph.js'),
      style: vscode.Uri.joinPath(mediaRoot, 'graph.css'),
      title: 'Skill Reference Graph',
      body: `<header>
<span id="summary">Loading skills…</span>
<span class="legend">circle: command skill · square: workflow skill · <span class="error">red</span>: errors · <span class="warning">yellow</span>: warnings · dashed link: missing target · click a skill to open it</span>
</header>
<main id="canvas"></main>`,
    });
  }

  dispose(): void {
    this.current?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
