/** F3: the active workflow's phase in the status bar (id `skillflow.workflow`); click for actions. */
import * as vscode from 'vscode';
import { statusBarView } from '../../core/workflow/present';
import type { WorkflowService } from './service';

export class WorkflowStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: WorkflowService) {
    this.item = vscode.window.createStatusBarItem('skillflow.workflow', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Skillflow Workflow';
    this.item.command = 'skillflow.workflow.showActions';
    this.subscription = service.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const view = statusBarView(this.service.workflows, Date.now(), this.service.justFinished);
    if (!view.visible) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    tooltip.isTrusted = false;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: view.text.replace(/\$\([^)]*\)\s*/g, '') + ' (Skillflow workflow)' };
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
