/** F3: the active workflow's phase in the status bar (id `skillflow.workflow`); click for actions. */
import * as vscode from 'vscode';
import { statusBarView, withoutIcons } from '../../core/workflow/present';
import type { WorkflowItem, WorkflowService } from './service';

export class WorkflowStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: WorkflowService) {
    this.item = vscode.window.createStatusBarItem('skillflow.workflow', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Skillflow Workflow';
    this.subscription = service.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const view = statusBarView(this.service.workflows, Date.now(), this.service.justFinished, { locale: vscode.env.language });
    if (!view.visible) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    // With one workflow shown, a click goes straight to its actions.
    const only = view.shown.length === 1 ? view.shown[0] as WorkflowItem : undefined;
    this.item.command = only
      ? { command: 'skillflow.workflow.showActions', title: 'Workflow actions', arguments: [{ key: only.key, root: only.root }] }
      : { command: 'skillflow.workflow.showActions', title: 'Workflow actions' };
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    tooltip.isTrusted = false;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: withoutIcons(view.text) + ' (Skillflow workflow)' };
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
