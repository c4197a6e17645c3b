/** Checkpoint commands: Answer (from a row, a URI, a path, the active editor or a pick), Open, Refresh, Handle Skill Output; and the "waiting for answers" notification. */
import * as vscode from 'vscode';
import type { AnswerOutcome, CheckpointController } from './controller';
import type { SkillOutputHandler } from './output';
import type { CheckpointInfo, CheckpointStore } from './store';

function isInfo(arg: unknown): arg is CheckpointInfo {
  return !!arg && typeof arg === 'object' && 'uri' in arg && 'relPath' in arg && (arg as CheckpointInfo).uri instanceof vscode.Uri;
}

export class CheckpointCommands {
  constructor(private readonly store: CheckpointStore, private readonly controller: CheckpointController, private readonly output: SkillOutputHandler) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('skillflow.checkpoint.answer', (arg?: unknown) => this.answer(arg)),
      vscode.commands.registerCommand('skillflow.checkpoint.open', (arg?: unknown) => this.open(arg)),
      vscode.commands.registerCommand('skillflow.checkpoint.refresh', () => this.store.refresh()),
      vscode.commands.registerCommand('skillflow.handleSkillOutput', (text?: unknown) => this.output.handleSkillOutput(typeof text === 'string' ? text : undefined)),
    ];
  }

  /** Answer: a Checkpoints row, a URI or a path; else the context file in the active editor; else the one (or a picked one) waiting. */
  async answer(arg?: unknown): Promise<AnswerOutcome | undefined> {
    if (isInfo(arg)) return this.controller.answer(arg.uri, arg.folder);
    if (arg instanceof vscode.Uri) return this.controller.answer(arg);
    if (typeof arg === 'string' && arg) return this.controller.answer(arg);
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && this.store.get(active)) return this.controller.answer(active);
    await this.store.refresh();
    const pending = this.store.list().filter((c) => c.valid && c.unanswered.length);
    if (pending.length === 0) {
      void vscode.window.showInformationMessage('No checkpoint is waiting for answers.');
      return undefined;
    }
    const picked = pending.length === 1 ? pending[0] : (await vscode.window.showQuickPick(
      pending.map((c) => ({ label: c.skill ?? c.relPath, description: c.relPath, detail: `${c.answered}/${c.total} answered`, info: c })),
      { title: 'Answer which checkpoint?' },
    ))?.info;
    return picked ? this.controller.answer(picked.uri, picked.folder) : undefined;
  }

  async open(arg?: unknown): Promise<void> {
    const uri = isInfo(arg) ? arg.uri : arg instanceof vscode.Uri ? arg : undefined;
    if (uri) await vscode.window.showTextDocument(uri, { preview: false });
  }

  /** The notification for a context file that waits for answers: Answer / Open File. */
  notifyWaiting(info: CheckpointInfo): void {
    const n = info.unanswered.length;
    void vscode.window.showInformationMessage(
      `${info.skill} is waiting for your answer${n === 1 ? '' : 's'} (${n} question${n === 1 ? '' : 's'}) — ${info.relPath}`, 'Answer', 'Open File',
    ).then((choice) => {
      if (choice === 'Answer') void this.controller.answer(info.uri, info.folder);
      else if (choice === 'Open File') void vscode.window.showTextDocument(info.uri);
    });
  }
}
