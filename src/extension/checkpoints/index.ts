/**
 * AWAIT checkpoints (F4): the Checkpoints view, a notification when a context file waits for answers,
 * the Answer flow, resume, "Handle Skill Output" and `CONTEXT_PATH:` terminal links.
 */
import * as vscode from 'vscode';
import { CheckpointController, type AnswerOutcome } from './controller';
import type { ActiveStep } from './answerFlow';
import type { ResumeOutcome } from './resume';
import { type CheckpointInfo, CheckpointStore } from './store';
import { CheckpointsTreeProvider } from './tree';
import { ContextPathLinkProvider, type HandledOutput, SkillOutputHandler } from './output';

/** Handles for integration tests. */
export interface CheckpointsApi {
  getCheckpoints(): CheckpointInfo[];
  refresh(): Promise<void>;
  /** Runs the Answer flow (the real QuickPick/InputBox) for a context file URI or path. */
  answer(target: vscode.Uri | string): Promise<AnswerOutcome>;
  /** The question on screen while an Answer flow runs. */
  activeStep(): ActiveStep | undefined;
  lastResume(): ResumeOutcome | undefined;
  handleSkillOutput(text?: string): Promise<HandledOutput>;
  /** Context files that raised the "waiting for answers" notification, in order. */
  notified(): CheckpointInfo[];
  treeView: vscode.TreeView<CheckpointInfo>;
  whenIdle(): Promise<void>;
}

function isInfo(arg: unknown): arg is CheckpointInfo {
  return !!arg && typeof arg === 'object' && 'uri' in arg && 'relPath' in arg && (arg as CheckpointInfo).uri instanceof vscode.Uri;
}

export function registerCheckpointFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): CheckpointsApi {
  const store = new CheckpointStore(log);
  const controller = new CheckpointController(store, log);
  const output = new SkillOutputHandler(controller, log);
  const tree = new CheckpointsTreeProvider(store);
  const treeView = vscode.window.createTreeView('skillflow.checkpoints', { treeDataProvider: tree });
  const notified: CheckpointInfo[] = [];

  const updateBadge = () => {
    const n = store.pendingCount;
    treeView.badge = n ? { value: n, tooltip: `${n} checkpoint${n === 1 ? '' : 's'} waiting for answers` } : undefined;
  };

  const answer = async (arg?: unknown): Promise<AnswerOutcome | undefined> => {
    if (isInfo(arg)) return controller.answer(arg.uri, arg.folder);
    if (arg instanceof vscode.Uri) return controller.answer(arg);
    if (typeof arg === 'string' && arg) return controller.answer(arg);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && store.get(active)) return controller.answer(active);
    await store.refresh();
    const pending = store.list().filter((c) => c.valid && c.unanswered.length);
    if (pending.length === 0) {
      void vscode.window.showInformationMessage('No checkpoint is waiting for answers.');
      return undefined;
    }
    const picked = pending.length === 1 ? pending[0] : (await vscode.window.showQuickPick(
      pending.map((c) => ({ label: c.skill ?? c.relPath, description: c.relPath, detail: `${c.answered}/${c.total} answered`, info: c })),
      { title: 'Answer which checkpoint?' },
    ))?.info;
    return picked ? controller.answer(picked.uri, picked.folder) : undefined;
  };

  context.subscriptions.push(
    store,
    tree,
    treeView,
    store.onDidChange(updateBadge),
    store.onNeedsAttention((info) => {
      notified.push(info);
      const n = info.unanswered.length;
      void vscode.window.showInformationMessage(
        `${info.skill} is waiting for your answer${n === 1 ? '' : 's'} (${n} question${n === 1 ? '' : 's'}) — ${info.relPath}`, 'Answer', 'Open File',
      ).then((choice) => {
        if (choice === 'Answer') void controller.answer(info.uri, info.folder);
        else if (choice === 'Open File') void vscode.window.showTextDocument(info.uri);
      });
    }),
    vscode.commands.registerCommand('skillflow.checkpoint.answer', answer),
    vscode.commands.registerCommand('skillflow.checkpoint.open', async (arg?: unknown) => {
      const uri = isInfo(arg) ? arg.uri : arg instanceof vscode.Uri ? arg : undefined;
      if (uri) await vscode.window.showTextDocument(uri, { preview: false });
    }),
    vscode.commands.registerCommand('skillflow.checkpoint.refresh', () => store.refresh()),
    vscode.commands.registerCommand('skillflow.handleSkillOutput', (text?: unknown) => output.handleSkillOutput(typeof text === 'string' ? text : undefined)),
    vscode.window.registerTerminalLinkProvider(new ContextPathLinkProvider(controller)),
  );

  // The first scan runs after activation returns (findFiles is asynchronous anyway).
  void store.refresh();

  return {
    getCheckpoints: () => store.list(),
    refresh: () => store.refresh(),
    answer: (target) => controller.answer(target),
    activeStep: () => controller.activeStep,
    lastResume: () => controller.lastResume,
    handleSkillOutput: (text) => output.handleSkillOutput(text),
    notified: () => [...notified],
    treeView,
    whenIdle: () => store.work.whenIdle(),
  };
}
