/**
 * The Answer command end to end: load the context file once (refusing paths outside the workspace or with
 * control characters), ask the unanswered questions, write the answers atomically unless the file changed
 * on disk (then reload and ask again), validate, and resume.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { CHECKPOINT_MESSAGES, loadCheckpoint, type LoadedCheckpoint, reloadCheckpoint, saveAnswers, validateCheckpoint } from '../../core/checkpoint/checkpoint';
import { unansweredQuestions } from '../../core/checkpoint/context';
import { chooseResumeMode } from '../../core/checkpoint/resume';
import { showControlChars, shellKindFor } from '../../core/base/shell';
import { TERMINAL_NAME } from '../util/terminal';
import { type ActiveStep, askQuestions, type FinishStep } from './answerFlow';
import { resumeSkill, type ResumeOutcome } from './resume';
import type { CheckpointStore } from './store';

export type AnswerOutcome =
  | { result: 'resumed'; resume: ResumeOutcome; answers: Record<string, string> }
  | { result: 'written'; answers: Record<string, string> }
  | { result: 'cancelled' }
  | { result: 'error'; message: string };

/** What the controller reports as it goes (the feature's test API listens). */
export interface ControllerHooks {
  onDidShowStep?(step: ActiveStep | undefined): void;
  onDidResume?(outcome: ResumeOutcome): void;
  /** An information message and its buttons, as shown. */
  onDidShowMessage?(message: string, buttons: string[]): void;
}

/** How many times a file that keeps changing on disk is reloaded before giving up. */
const MAX_RELOADS = 3;

export class CheckpointController {
  private readonly running = new Set<string>();

  constructor(private readonly store: CheckpointStore, private readonly log: vscode.LogOutputChannel, private readonly hooks: ControllerHooks = {}) {}

  /** Picks the workspace folder a CONTEXT_PATH belongs to: the folder of an absolute path, else the preferred folder, else the one holding the file. */
  folderFor(contextPath: string, preferred?: vscode.WorkspaceFolder): vscode.WorkspaceFolder | undefined {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    if (path.isAbsolute(contextPath)) return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(contextPath)) ?? preferred ?? folders[0];
    if (preferred) return preferred;
    return folders.find((f) => nodeFileSystem.stat(path.join(f.uri.fsPath, contextPath))?.isFile) ?? folders[0];
  }

  /** Runs the Answer flow for a context file given as a URI or a (workspace-relative or absolute) path. */
  async answer(target: vscode.Uri | string, preferredFolder?: vscode.WorkspaceFolder): Promise<AnswerOutcome> {
    const given = typeof target === 'string' ? target : target.fsPath;
    const folder = typeof target === 'string' ? this.folderFor(target, preferredFolder) : vscode.workspace.getWorkspaceFolder(target) ?? this.folderFor(target.fsPath, preferredFolder);
    if (!folder) return this.fail('Open a workspace folder to answer a checkpoint.');
    // The one load: everything after works on this checkpoint and its resolved paths.
    const loaded = loadCheckpoint(nodeFileSystem, folder.uri.fsPath, given);
    if (!loaded.ok) return this.fail(`${loaded.message}: ${showControlChars(given)}`);
    const checkpoint = loaded.checkpoint;
    const uri = vscode.Uri.file(checkpoint.absPath);
    if (this.running.has(checkpoint.realPath)) return this.fail(`An Answer flow for ${checkpoint.relPath} is already open.`);
    this.running.add(checkpoint.realPath);
    this.store.setQuiet(uri, true);
    const written: { checkpoint?: LoadedCheckpoint } = {};
    try {
      return await this.answerLoaded(checkpoint, uri, (cp) => { written.checkpoint = cp; });
    } finally {
      this.running.delete(checkpoint.realPath);
      this.store.setQuiet(uri, false);
      // What was just written is what the file holds: the view shows it without reading the file again.
      if (written.checkpoint) this.store.update(uri, folder, written.checkpoint);
    }
  }

  private finishStep(checkpoint: LoadedCheckpoint): FinishStep {
    const config = vscode.workspace.getConfiguration('skillflow', vscode.Uri.file(checkpoint.workspaceFolder));
    const { mode } = chooseResumeMode(config.get<string>('resume.mode', 'terminal'), vscode.workspace.isTrusted, shellKindFor(vscode.env.shell));
    return { resumeDetail: mode === 'terminal' ? `run the resume command in the ${TERMINAL_NAME} terminal` : 'copy the resume command to the clipboard' };
  }

  private async answerLoaded(first: LoadedCheckpoint, uri: vscode.Uri, onWritten: (cp: LoadedCheckpoint) => void): Promise<AnswerOutcome> {
    let checkpoint = first;
    let kept: Record<string, string> = {};
    for (let attempt = 0; ; attempt++) {
      const { parsed } = checkpoint;
      if (!parsed.valid || !parsed.skill) {
        const details = parsed.problems.filter((p) => p.fatal).map((p) => p.message).join('; ');
        return this.fail(`${CHECKPOINT_MESSAGES.invalid}: ${checkpoint.relPath}${details ? ` (${details})` : ''}`, uri);
      }
      let ids = unansweredQuestions(parsed);
      if (ids.length === 0 && attempt === 0) {
        const choice = await vscode.window.showInformationMessage(
          `All ${parsed.questions.length} questions in ${checkpoint.relPath} are answered.`, 'Resume', 'Change Answers');
        if (choice === undefined) return { result: 'cancelled' };
        if (choice === 'Change Answers') ids = parsed.questions.map((q) => q.id);
      }
      const questions = parsed.questions.filter((q) => ids.includes(q.id));
      let answers: Record<string, string> = {};
      if (questions.length) {
        const initial: Record<string, string> = {};
        for (const q of questions) initial[q.id] = kept[q.id] ?? q.answer;
        const asked = await askQuestions(parsed.skill, questions, initial, this.finishStep(checkpoint), { onDidShowStep: (s) => this.hooks.onDidShowStep?.(s) });
        if (!asked) {
          this.log.info(`checkpoint: answering ${checkpoint.relPath} cancelled; nothing written`);
          return { result: 'cancelled' };
        }
        answers = asked.answers;
        kept = { ...kept, ...answers };
        const saved = saveAnswers(nodeFileSystem, checkpoint, answers);
        if (!saved.ok) {
          if ('changed' in saved && attempt < MAX_RELOADS) {
            this.log.warn(`checkpoint: ${checkpoint.relPath} changed on disk while answering; reloading`);
            void vscode.window.showWarningMessage(`Changed on disk — nothing was written; reloaded, please answer again (${checkpoint.relPath}).`);
            const again = reloadCheckpoint(nodeFileSystem, checkpoint);
            if (!again.ok) return this.fail(`${again.message}: ${checkpoint.relPath}`, uri);
            checkpoint = again.checkpoint;
            continue;
          }
          return this.fail(`${saved.message}: ${checkpoint.relPath}`, uri);
        }
        checkpoint = saved.checkpoint;
        onWritten(checkpoint);
        this.log.info(`checkpoint: wrote ${Object.keys(answers).join(', ')} into ${checkpoint.relPath}`);
        if (asked.action === 'write') {
          const n = Object.keys(answers).length;
          void this.inform(`Wrote ${n} answer${n === 1 ? '' : 's'} into ${checkpoint.relPath}; resume it later from the Checkpoints view.`, []);
          return { result: 'written', answers };
        }
      }
      const valid = validateCheckpoint(checkpoint);
      if (!valid.ok) {
        // New questions may have appeared on a reload: ask those too.
        if (attempt < MAX_RELOADS && unansweredQuestions(checkpoint.parsed).length) continue;
        return this.fail(valid.message, uri);
      }
      const resumed = await resumeSkill(checkpoint, valid.invocation, this.log);
      if (!resumed.ok) return this.fail(`${resumed.message}: ${checkpoint.relPath}`, uri);
      this.hooks.onDidResume?.(resumed.outcome);
      const { terminal } = resumed;
      if (terminal) {
        void this.inform(`Resumed ${valid.invocation.skill} in the ${TERMINAL_NAME} terminal.`, ['Show Terminal']).then((choice) => {
          if (choice === 'Show Terminal') terminal.show(false);
        });
      }
      return { result: 'resumed', resume: resumed.outcome, answers };
    }
  }

  private inform(message: string, buttons: string[]): Thenable<string | undefined> {
    this.hooks.onDidShowMessage?.(message, buttons);
    return vscode.window.showInformationMessage(message, ...buttons);
  }

  private fail(message: string, uri?: vscode.Uri): AnswerOutcome {
    this.log.warn(`checkpoint: ${message}`);
    const open = uri ? 'Open Context File' : undefined;
    void vscode.window.showErrorMessage(message, ...(open ? [open] : [])).then((choice) => {
      if (choice && uri) void vscode.window.showTextDocument(uri);
    });
    return { result: 'error', message };
  }
}
