/**
 * What Claude Code does with the workspace's skills: the What Claude Sees view (the listing the model gets, with
 * quick actions) and Who Answers… (who runs a typed `/command`). Models are built when a view or command asks.
 */
import * as vscode from 'vscode';
import type { ListingViewModel } from '../../webview/listingView';
import type { ActionResult } from './actions';
import { ClaudeCommands, type WhoAnswersShown } from './commands';
import { ClaudeService } from './service';
import type { SkillsService } from '../skills/service';
import { LISTING_VIEW_ID, ListingViewProvider } from './view';

/** Read-only handles for integration tests. */
export interface ClaudeApi {
  service: ClaudeService;
  /** Focuses the What Claude Sees view in the side bar (resolving its webview). */
  showListing(): Promise<void>;
  /** The view's webview, once resolved. */
  readonly listingView: vscode.WebviewView | undefined;
  /** The What Claude Sees editor tab (Show What Claude Sees opens it), while open. */
  readonly listingPanel: vscode.WebviewPanel | undefined;
  /** What the view last rendered, the HTML and how long building both from the model took (ms); how many renders. */
  readonly lastViewModel: ListingViewModel | undefined;
  readonly lastHtml: string | undefined;
  readonly lastRenderMs: number | undefined;
  readonly renderCount: number;
  /** Renders now (builds the model when needed) and returns the view model. */
  render(): ListingViewModel | undefined;
  /** The id the webview uses for a file's entry. */
  idOf(file: string): string;
  /** Handles a message as if the webview had posted it (`{ type: 'action', id, action: 'name-only' }`). */
  handleMessage(message: unknown): Promise<void>;
  readonly lastAction: ActionResult | undefined;
  /** Runs Who Answers… for a command (no input step). */
  whoAnswers(command: string): Promise<void>;
  readonly lastWhoAnswers: WhoAnswersShown | undefined;
  /** Closes the Who Answers result, if open. */
  closeWhoAnswers(): void;
  /** Resolves when no file-change batch is pending. */
  whenIdle(): Promise<void>;
}

export function registerClaudeFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, skills: SkillsService): ClaudeApi {
  const service = new ClaudeService(log, skills);
  const view = new ListingViewProvider(context.extensionUri, service, log);
  const commands = new ClaudeCommands(service, log, () => view.showPanel());
  context.subscriptions.push(
    service,
    view,
    vscode.window.registerWebviewViewProvider(LISTING_VIEW_ID, view),
    commands.register(),
  );
  return {
    service,
    showListing: async () => { await vscode.commands.executeCommand(`${LISTING_VIEW_ID}.focus`); },
    get listingView() { return view.webviewView; },
    get listingPanel() { return view.webviewPanel; },
    get lastViewModel() { return view.lastViewModel; },
    get lastHtml() { return view.lastHtml; },
    get lastRenderMs() { return view.lastRenderMs; },
    get renderCount() { return view.renderCount; },
    render: () => view.render(),
    idOf: (file) => view.idOf(file),
    handleMessage: (message) => view.handleMessage(message),
    get lastAction() { return view.lastAction; },
    whoAnswers: (command) => commands.whoAnswers(command),
    get lastWhoAnswers() { return commands.lastShown; },
    closeWhoAnswers: () => commands.resultPick?.hide(),
    whenIdle: () => service.work.whenIdle(),
  };
}
