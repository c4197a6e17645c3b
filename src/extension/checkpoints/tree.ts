/** The `skillflow.checkpoints` view: one row per context file with skill, answered/total and age; a click starts the Answer flow. */
import { mdCode, mdText } from '../../core/base/markdown';
import * as vscode from 'vscode';
import type { CheckpointInfo, CheckpointStore } from './store';

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function age(fromMs: number, nowMs: number = Date.now()): string {
  const s = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

function since(info: CheckpointInfo): number {
  const created = info.created ? Date.parse(info.created) : NaN;
  return Number.isFinite(created) && created <= Date.now() ? created : info.mtimeMs;
}


export class CheckpointsTreeProvider implements vscode.TreeDataProvider<CheckpointInfo>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CheckpointInfo | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: CheckpointStore) {
    this.subscription = store.onDidChange(() => this.emitter.fire(undefined));
  }

  getChildren(element?: CheckpointInfo): CheckpointInfo[] {
    return element ? [] : this.store.list();
  }

  getTreeItem(info: CheckpointInfo): vscode.TreeItem {
    const item = new vscode.TreeItem(info.skill ?? info.relPath.split('/').pop() ?? info.relPath, vscode.TreeItemCollapsibleState.None);
    item.id = info.uri.toString();
    item.resourceUri = info.uri;
    item.contextValue = 'checkpoint';
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const where = multiRoot ? ` · ${info.folder.name}` : '';
    if (!info.valid) {
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      item.description = `invalid context file · ${age(since(info))}${where}`;
      item.command = { command: 'skillflow.checkpoint.open', title: 'Open Context File', arguments: [info] };
    } else {
      const pending = info.unanswered.length > 0;
      item.iconPath = new vscode.ThemeIcon(pending ? 'comment-unresolved' : 'pass', pending ? new vscode.ThemeColor('notificationsInfoIcon.foreground') : new vscode.ThemeColor('testing.iconPassed'));
      item.description = `${info.answered}/${info.total} answered · ${age(since(info))}${where}`;
      item.command = { command: 'skillflow.checkpoint.answer', title: 'Answer Checkpoint', arguments: [info] };
    }
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendMarkdown(`**${mdText(info.skill ?? '(no skill)')}** — ${mdCode(info.relPath)}\n\n`);
    if (info.args) md.appendMarkdown(`Args: \`${info.args.replace(/`/g, "'")}\`\n\n`);
    if (info.created) md.appendMarkdown(`Created: ${mdText(info.created)}\n\n`);
    if (info.progressSummary) md.appendMarkdown(`${mdText(info.progressSummary.slice(0, 500))}\n\n`);
    for (const q of info.questions.slice(0, 20)) {
      md.appendMarkdown(`- ${q.answer ? '$(check)' : '$(circle-large-outline)'} **${mdText(q.id)}** ${mdText(q.text.slice(0, 120))}${q.answer ? ` — ${mdText(q.answer.slice(0, 80))}` : ''}\n`);
    }
    if (!info.valid) md.appendMarkdown(`\n\n$(warning) Invalid context format:\n\n${info.problems.map((p) => `- ${mdText(p)}`).join('\n')}`);
    item.tooltip = md;
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
