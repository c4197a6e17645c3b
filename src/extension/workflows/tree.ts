/** The `skillflow.workflows` view: registry entries with phase, mode, age and agent; artifacts, history and problems as children. */
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { endActions } from '../../core/workflow/end';
import { PHASE_COLORS, PHASE_ICONS, relativeTime, treeDescription, treeLabel, treeLabelFull, workflowTooltipMarkdown } from '../../core/workflow/present';
import type { WorkflowProblem, WorkflowTransition } from '../../core/workflow/scan';
import { toVsRange } from '../adapters/ranges';
import type { RootProblems, WorkflowItem, WorkflowService } from './service';

export type WorkflowNode =
  | { kind: 'registry-problem'; root: RootProblems; problem: WorkflowProblem }
  | { kind: 'workflow'; item: WorkflowItem }
  | { kind: 'artifact'; item: WorkflowItem; rel: string }
  | { kind: 'history'; item: WorkflowItem }
  | { kind: 'transition'; item: WorkflowItem; transition: WorkflowTransition }
  | { kind: 'problem'; item: WorkflowItem; problem: WorkflowProblem };

function problemIcon(p: WorkflowProblem): vscode.ThemeIcon {
  return p.severity === 'error'
    ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
    : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
}

/** The context value the package.json menus match: `workflow[ cancellable][ failable]`. */
export function contextValueOf(item: WorkflowItem): string {
  const actions = endActions(item);
  return ['workflow', actions.cancel ? 'cancellable' : '', actions.markFailed ? 'failable' : ''].filter(Boolean).join(' ');
}

export class WorkflowTreeProvider implements vscode.TreeDataProvider<WorkflowNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<WorkflowNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: WorkflowService) {
    this.subscription = service.onDidChange(() => this.emitter.fire());
  }

  getChildren(node?: WorkflowNode): WorkflowNode[] {
    if (!node) {
      const roots: WorkflowNode[] = [];
      for (const root of this.service.registryProblems) for (const problem of root.problems) roots.push({ kind: 'registry-problem', root, problem });
      for (const item of this.service.workflows) roots.push({ kind: 'workflow', item });
      return roots;
    }
    if (node.kind === 'workflow') {
      const { item } = node;
      const children: WorkflowNode[] = item.problems.map((problem) => ({ kind: 'problem' as const, item, problem }));
      for (const rel of item.artifacts) children.push({ kind: 'artifact', item, rel });
      if (item.transitions.length) children.push({ kind: 'history', item });
      return children;
    }
    if (node.kind === 'history') return node.item.transitions.map((transition) => ({ kind: 'transition' as const, item: node.item, transition }));
    return [];
  }

  getTreeItem(node: WorkflowNode): vscode.TreeItem {
    const now = Date.now();
    switch (node.kind) {
      case 'registry-problem': {
        const t = new vscode.TreeItem(`registry.json: ${node.problem.message}`, vscode.TreeItemCollapsibleState.None);
        t.id = `registry:${node.root.root}:${node.problem.code}`;
        t.iconPath = problemIcon(node.problem);
        t.description = node.root.folderName;
        t.tooltip = `${node.problem.code}: ${node.problem.message}`;
        t.contextValue = 'workflowRegistryProblem';
        if (node.problem.code !== 'registry-missing') {
          t.command = { command: 'vscode.open', title: 'Open registry.json', arguments: [vscode.Uri.file(node.root.registryPath)] };
        }
        return t;
      }
      case 'workflow': {
        const { item } = node;
        const hasChildren = item.problems.length + item.artifacts.length + item.transitions.length > 0;
        // Phase first: a narrow sidebar cuts the end of the label, not the phase.
        const t = new vscode.TreeItem(treeLabel(item), hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        t.id = `workflow:${item.root}:${item.key}`;
        const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
        const format = { locale: vscode.env.language };
        t.description = treeDescription(item, now, format) + (multiRoot ? ` · ${item.folderName}` : '') + (item.pending ? ' · updating…' : '');
        const worst = item.problems.find((p) => p.severity === 'error') ?? item.problems[0];
        if (worst) t.iconPath = problemIcon(worst);
        else {
          const phase = item.displayPhase ?? '';
          const color = PHASE_COLORS[phase];
          t.iconPath = new vscode.ThemeIcon((PHASE_ICONS[phase] ?? 'question').replace('~spin', ''), color ? new vscode.ThemeColor(color) : undefined);
        }
        t.tooltip = new vscode.MarkdownString(workflowTooltipMarkdown(item, now, format), true);
        // The label may be cut to fit the row; a screen reader gets the whole title.
        t.accessibilityInformation = { label: `${treeLabelFull(item)}, ${t.description}` };
        t.contextValue = contextValueOf(item);
        return t;
      }
      case 'artifact': {
        const t = new vscode.TreeItem(node.rel, vscode.TreeItemCollapsibleState.None);
        const uri = vscode.Uri.file(nodePath.join(node.item.workDirPath!, node.rel));
        t.id = `artifact:${node.item.root}:${node.item.key}:${node.rel}`;
        t.resourceUri = uri;
        t.iconPath = vscode.ThemeIcon.File;
        t.tooltip = uri.fsPath;
        t.contextValue = 'workflowArtifact';
        t.command = { command: 'skillflow.workflow.openArtifact', title: 'Open', arguments: [node] };
        return t;
      }
      case 'history': {
        const illegal = node.item.transitions.filter((x) => !x.legal).length;
        const t = new vscode.TreeItem('History', vscode.TreeItemCollapsibleState.Collapsed);
        t.id = `history:${node.item.root}:${node.item.key}`;
        t.description = `${node.item.transitions.length} transition${node.item.transitions.length === 1 ? '' : 's'}${illegal ? `, ${illegal} illegal` : ''}`;
        t.iconPath = illegal ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')) : new vscode.ThemeIcon('history');
        t.contextValue = 'workflowHistory';
        return t;
      }
      case 'transition': {
        const x = node.transition;
        const t = new vscode.TreeItem(`${x.from ?? '∅'} → ${x.to}`, vscode.TreeItemCollapsibleState.None);
        t.id = `transition:${node.item.root}:${node.item.key}:${x.index}`;
        t.description = x.at && !Number.isNaN(Date.parse(x.at)) ? relativeTime(Date.parse(x.at), now, { locale: vscode.env.language }, 'short') : x.at ?? '';
        t.iconPath = x.legal ? new vscode.ThemeIcon('arrow-right') : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        t.tooltip = x.legal ? `${x.from ?? '∅'} → ${x.to} at ${x.at ?? 'unknown time'}` : `Illegal: ${x.problem ?? ''}`;
        t.contextValue = x.legal ? 'workflowTransition' : 'workflowTransition illegal';
        return t;
      }
      case 'problem': {
        const t = new vscode.TreeItem(node.problem.message, vscode.TreeItemCollapsibleState.None);
        t.id = `problem:${node.item.root}:${node.item.key}:${node.problem.code}:${node.item.problems.indexOf(node.problem)}`;
        t.iconPath = problemIcon(node.problem);
        t.description = node.problem.code;
        t.tooltip = `${node.problem.code}: ${node.problem.message}`;
        t.contextValue = 'workflowProblem';
        if (node.problem.file) {
          const uri = vscode.Uri.file(node.problem.file);
          const selection = node.problem.range ? toVsRange(node.problem.range) : undefined;
          t.command = { command: 'vscode.open', title: 'Open', arguments: [uri, { selection }] };
        }
        return t;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
