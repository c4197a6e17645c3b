/**
 * AWAIT checkpoints (F4) wiring: the Checkpoints view, the notification when a context file waits for
 * answers, the Answer flow, resume, "Handle Skill Output" and `CONTEXT_PATH:` terminal links.
 */
import * as vscode from 'vscode';
import type { ActiveStep } from './answerFlow';
import { CheckpointCommands } from './commands';
import { type AnswerOutcome, CheckpointController } from './controller';
import { ContextPathLinkProvider, type HandledOutput, SkillOutputHandler } from './output';
import type { ResumeOutcome } from './resume';
import { type CheckpointInfo, CheckpointStore } from './store';
import { CheckpointsTreeProvider } from './tree';

/** What the feature exposes to integration tests: its state and what it showed, gathered here rather than on the classes. */
export interface CheckpointsApi {
  getCheckpoints(): CheckpointInfo[];
  refresh(): Promise<void>;
  /** Runs the Answer flow (the real QuickPick/InputBox) for a context file URI or path. */
  answer(target: vscode.Uri | string): Promise<AnswerOutcome>;
  /** The step on screen while an Answer flow runs. */
  activeStep(): ActiveStep | undefined;
  lastResume(): ResumeOutcome | undefined;
  /** Information messages the Answer flow showed, with their buttons, in order. */
  messages(): Array<{ message: string; buttons: string[] }>;
  handleSkillOutput(text?: string): Promise<HandledOutput>;
  /** Context files that raised the "waiting for answers" notification, in order. */
  notified(): CheckpointInfo[];
  treeView: vscode.TreeView<CheckpointInfo>;
  whenIdle(): Promise<void>;
}

export function registerCheckpointFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): CheckpointsApi {
  const seen: { step?: ActiveStep; resume?: ResumeOutcome; messages: Array<{ message: string; buttons: string[] }>; notified: CheckpointInfo[] } = { messages: [], notified: [] };
  const store = new CheckpointStore(log);
  const controller = new CheckpointController(store, log, {
    onDidShowStep: (step) => { seen.step = step; },
    onDidResume: (outcome) => { seen.resume = outcome; },
    onDidShowMessage: (message, buttons) => { seen.messages.push({ message, buttons }); },
  });
  const output = new SkillOutputHandler(controller, log);
  const commands = new CheckpointCommands(store, controller, output);
  const tree = new CheckpointsTreeProvider(store);
  const treeView = vscode.window.createTreeView('skillflow.checkpoints', { treeDataProvider: tree });

  const updateBadge = () => {
    const n = store.pendingCount;
    treeView.badge = n ? { value: n, tooltip: `${n} checkpoint${n === 1 ? '' : 's'} waiting for answers` } : undefined;
  };

  context.subscriptions.push(
    store,
    tree,
    treeView,
    store.onDidChange(updateBadge),
    store.onNeedsAttention((info) => {
      seen.notified.push(info);
      commands.notifyWaiting(info);
    }),
    ...commands.register(),
    vscode.window.registerTerminalLinkProvider(new ContextPathLinkProvider(controller)),
  );

  // The first scan runs after activation returns (findFiles is asynchronous anyway).
  void store.refresh();

  return {
    getCheckpoints: () => store.list(),
    refresh: () => store.refresh(),
    answer: (target) => controller.answer(target),
    activeStep: () => seen.step,
    lastResume: () => seen.resume,
    messages: () => [...seen.messages],
    handleSkillOutput: (text) => output.handleSkillOutput(text),
    notified: () => [...seen.notified],
    treeView,
    whenIdle: () => store.work.whenIdle(),
  };
}
