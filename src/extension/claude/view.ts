/**
 * What Claude Sees: the listing the model gets for one workspace folder, rebuilt when the Claude Code model changes,
 * with quick actions that write real files. Two hosts show the same page: the webview view in the Skillflow container
 * (below Skills; the workbench opens a collapsed pane at its minimum height, ~140 px) and an editor tab, which Show What
 * Claude Sees opens so the listing gets the editor's height.
 */
import * as vscode from 'vscode';
import type { ClaudeEntry } from '../../core/claude/types';
import { isListingWebviewMessage, type ListingAction, type ListingHostMessage } from '../../webview/listingProtocol';
import { buildListingViewModel, renderListingHtml, type ListingViewModel } from '../../webview/listingView';
import { disableModelInvocation, openDescription, openEntry, setOverride, type ActionResult } from './actions';
import type { ClaudeService } from './service';
import { webviewHtml } from '../util/webviewHtml';

export const LISTING_VIEW_ID = 'skillflow.claudeListing';
export const LISTING_PANEL_TYPE = 'skillflow.claudeListingPanel';

/** A webview showing the listing (the view or the editor tab), and whether its script said it is ready. */
interface Host {
  webview: vscode.Webview;
  ready: boolean;
  visible(): boolean;
}

export class ListingViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private readonly hosts = new Set<Host>();
  private dirty = true;
  private readonly ids = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** What the view last showed, and how long building it from the model took (view model + HTML), in ms. */
  lastViewModel: ListingViewModel | undefined;
  lastHtml: string | undefined;
  lastRenderMs: number | undefined;
  renderCount = 0;
  /** The last quick action's outcome. */
  lastAction: ActionResult | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: ClaudeService,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(service.onDidChange(() => { this.dirty = true; if (this.shownAnywhere()) this.render(); }));
  }

  get webviewView(): vscode.WebviewView | undefined { return this.view; }
  /** The editor tab, while open. */
  get webviewPanel(): vscode.WebviewPanel | undefined { return this.panel; }

  /** A host that is ready and on screen. */
  private shownAnywhere(): boolean {
    return [...this.hosts].some((h) => h.ready && h.visible());
  }

  /** The id the webview uses for an entry's file (stable for the session). */
  idOf(file: string): string {
    let id = this.ids.get(file);
    if (!id) {
      id = `e${this.ids.size + 1}`;
      this.ids.set(file, id);
      this.paths.set(id, file);
    }
    return id;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.attach(view.webview, () => view.visible, view.onDidChangeVisibility, view.onDidDispose, 'view', () => { if (this.view === view) this.view = undefined; });
  }

  /** Opens What Claude Sees in an editor tab (or reveals the open one): the whole editor height for the listing. */
  showPanel(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(LISTING_PANEL_TYPE, 'What Claude Sees', vscode.ViewColumn.Active, { retainContextWhenHidden: false });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'skillflow.svg');
    this.panel = panel;
    this.attach(panel.webview, () => panel.visible, panel.onDidChangeViewState, panel.onDidDispose, 'editor', () => { if (this.panel === panel) this.panel = undefined; });
    return panel;
  }

  /** Shows the page in a webview; it renders once its script says it is ready, and again when shown while out of date. */
  private attach(webview: vscode.Webview, visible: () => boolean, onDidChangeVisibility: vscode.Event<unknown>, onDidDispose: vscode.Event<void>, where: 'view' | 'editor', forget: () => void): void {
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const mediaRoot = vscode.Uri.joinPath(this.extensionUri, 'media');
    webview.options = { enableScripts: true, localResourceRoots: [webviewRoot, mediaRoot] };
    const host: Host = { webview, ready: false, visible };
    this.hosts.add(host);
    this.dirty = true;
    const subscriptions = [
      webview.onDidReceiveMessage((message: unknown) => this.handleMessage(message, host)),
      onDidChangeVisibility(() => { if (visible() && this.dirty && host.ready) this.render(); }),
      onDidDispose(() => {
        for (const d of subscriptions) d.dispose();
        this.hosts.delete(host);
        forget();
      }),
    ];
    webview.html = this.skeleton(webview, webviewRoot, mediaRoot, where);
  }

  /** Builds the view model and HTML from the model (built too when needed) and posts it. Returns the view model. */
  render(): ListingViewModel | undefined {
    const folder = this.service.listingFolder();
    if (!folder) {
      this.post({ type: 'render', html: '<p>Open a folder to see the skill listing Claude Code would give the model.</p>' });
      return undefined;
    }
    const fm = this.service.get(folder);
    const started = performance.now();
    const folders = this.service.folders().map((f) => ({ id: String(f.index), name: f.name }));
    const vm = buildListingViewModel({
      home: this.service.home,
      model: fm.model, listing: fm.listing, contextWindow: fm.contextWindow,
      idOf: (file) => this.idOf(file), folders, folderId: String(folder.index),
    });
    const html = renderListingHtml(vm);
    this.lastRenderMs = performance.now() - started;
    this.lastViewModel = vm;
    this.lastHtml = html;
    this.renderCount++;
    this.dirty = false;
    this.log.info(`What Claude Sees: ${vm.rows.length} entries rendered in ${this.lastRenderMs.toFixed(1)} ms (model ${fm.buildMs.toFixed(1)} ms)`);
    if (this.view) {
      this.view.description = `${vm.used.toLocaleString('en-US')} / ${vm.budget.toLocaleString('en-US')} chars`;
      const atRisk = vm.rows.filter((r) => r.group === 'at-risk').length;
      this.view.badge = atRisk ? { value: atRisk, tooltip: `${atRisk} ${atRisk === 1 ? 'entry' : 'entries'} at risk in the skill listing` } : undefined;
    }
    this.post({ type: 'render', html });
    return vm;
  }

  private post(message: ListingHostMessage): void {
    for (const host of this.hosts) if (host.ready) void host.webview.postMessage(message);
  }

  /** The loaded model's entry for an id, in the folder shown. */
  entryFor(id: string): ClaudeEntry | undefined {
    const file = this.paths.get(id);
    const folder = this.service.listingFolder();
    if (!file || !folder) return undefined;
    return this.service.get(folder).model.entries.find((e) => e.path === file);
  }

  /** Runs one quick action on an entry (what the webview's buttons ask for). */
  async runAction(id: string, action: ListingAction): Promise<ActionResult> {
    const folder = this.service.listingFolder();
    const entry = this.entryFor(id);
    if (!folder || !entry) return this.report({ ok: false, message: `no entry '${id}' in the listing shown` });
    const model = this.service.get(folder).model;
    let result: ActionResult;
    try {
      switch (action) {
        case 'name-only': case 'off': case 'on': result = await setOverride(model, entry, action); break;
        case 'disable-model-invocation': result = await disableModelInvocation(entry); break;
        case 'trim': result = await openDescription(entry); break;
        case 'open': result = await openEntry(entry); break;
      }
    } catch (e) {
      result = { ok: false, message: `${entry.invocation ?? entry.name}: ${(e as Error).message}` };
    }
    // Files written: rebuild at once rather than waiting for the file watcher.
    if (result.ok && action !== 'trim' && action !== 'open') this.service.refreshNow();
    return this.report(result);
  }

  private report(result: ActionResult): ActionResult {
    this.lastAction = result;
    if (result.ok) {
      this.log.info(`What Claude Sees: ${result.message}`);
      this.post({ type: 'status', text: result.message });
    } else {
      this.log.warn(`What Claude Sees: ${result.message}`);
      this.post({ type: 'status', text: `Not changed: ${result.message}` });
      void vscode.window.showErrorMessage(`Skillflow: ${result.message}`);
    }
    return result;
  }

  /** Answers one message from a webview (exposed so tests can drive it like the webview does). */
  async handleMessage(message: unknown, from?: Host): Promise<void> {
    if (!isListingWebviewMessage(message)) {
      this.log.warn('What Claude Sees: ignored an unknown message from the webview');
      return;
    }
    switch (message.type) {
      case 'ready': if (from) from.ready = true; this.render(); return;
      case 'settings': await vscode.commands.executeCommand('workbench.action.openSettings', 'skillflow.listing.contextWindow'); return;
      case 'folder': {
        const folder = this.service.folders().find((f) => String(f.index) === message.id);
        if (folder) this.service.pickFolder(folder);
        return;
      }
      case 'action': await this.runAction(message.id, message.action); return;
    }
  }

  private skeleton(webview: vscode.Webview, webviewRoot: vscode.Uri, mediaRoot: vscode.Uri, where: 'view' | 'editor'): string {
    return webviewHtml(webview, {
      bodyClass: `in-${where}`,
      script: vscode.Uri.joinPath(webviewRoot, 'listing.js'),
      style: vscode.Uri.joinPath(mediaRoot, 'listing.css'),
      title: 'What Claude Sees',
      body: `<div id="status" class="status" role="status" aria-live="polite"></div>
<main id="root" aria-busy="true" aria-label="The skill listing Claude Code gives the model"><p>Reading skills, commands and settings…</p></main>`,
    });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
