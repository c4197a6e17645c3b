/**
 * Workflow features (F3): the status bar item, the `skillflow.workflows` tree, diagnostics on the
 * workflow JSON files, and the workflow commands, all fed by one WorkflowService.
 */
import * as vscode from 'vscode';
import { WorkflowService, type WorkflowItem } from './service';
import { WorkflowStatusBar } from './statusBar';
import { WorkflowTreeProvider, type WorkflowNode } from './tree';
import { WorkflowDiagnostics } from './diagnostics';
import { WorkflowCommands, type WorkflowPrompts, activeConfirmation, vscodePrompts } from './commands';

/** Read-only handles for integration tests, and the one test hook (the dialogs' answers). */
export interface WorkflowsApi {
  service: WorkflowService;
  statusBarItem: vscode.StatusBarItem;
  treeProvider: WorkflowTreeProvider;
  treeView: vscode.TreeView<WorkflowNode>;
  diagnostics: vscode.DiagnosticCollection;
  getWorkflows(): readonly WorkflowItem[];
  /** Re-reads `.workflow/` now. */
  refresh(): void;
  /** Resolves when no debounced re-read is pending. */
  whenIdle(): Promise<void>;
  /**
   * Test hook: answers the workflow commands' dialogs (the Cancel Run / Mark Failed confirmation, the messages
   * after it) instead of VS Code showing them; the ones not given stay VS Code's; `undefined` restores them all.
   */
  setPrompts(prompts: Partial<WorkflowPrompts> | undefined): void;
  /** The Keep Running / Cancel Run confirmation QuickPick while it is on screen. */
  activeConfirmation(): vscode.QuickPick<vscode.QuickPickItem> | undefined;
}

export function registerWorkflowFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): WorkflowsApi {
  const service = new WorkflowService(log);
  const statusBar = new WorkflowStatusBar(service);
  const treeProvider = new WorkflowTreeProvider(service);
  const treeView = vscode.window.createTreeView('skillflow.workflows', { treeDataProvider: treeProvider, showCollapseAll: true });
  const diagnostics = new WorkflowDiagnostics(service);
  let prompts: WorkflowPrompts = vscodePrompts;
  const commands = new WorkflowCommands(service, log, () => prompts);

  context.subscriptions.push(service, statusBar, treeProvider, treeView, diagnostics, commands.register());

  return {
    service,
    statusBarItem: statusBar.item,
    treeProvider,
    treeView,
    diagnostics: diagnostics.collection,
    getWorkflows: () => service.workflows,
    refresh: () => service.refresh(),
    whenIdle: () => service.whenIdle(),
    setPrompts: (p) => { prompts = { ...vscodePrompts, ...p }; },
    activeConfirmation,
  };
}
