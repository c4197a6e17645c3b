/**
 * The Answer command end to end: load the context file (refusing paths outside the workspace), ask the
 * unanswered questions, write the answers atomically unless the file changed on disk (then reload and
 * ask again), validate, and resume.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { CHECKPOINT_MESSAGES, loadCheckpoint, type LoadedCheckpoint, saveAnswers, unansweredQuestions, validateCheckpoint } from '../../core/checkpoint';
import { type ActiveStep, askQuestions } from './answerFlow';
import { resumeSkill, type ResumeOutcome } from './resume';
import type { CheckpointStore } from './store';

export type AnswerOutcome =
  | { result: 'resumed'; resume: ResumeOutcome; answers: Record<string, string> }
  | { result: 'cancelled' }
  | { result: 'error'; message: string };

/** How many times a file that keeps changing on disk is reloaded before giving up. */
const MAX_RELOADS = 3;

export class CheckpointController {
  private step: ActiveStep | undefined;
  private last: ResumeOutcome | undefined;
  private readonly running = new Set<string>();

  constructor(private readonly store: CheckpointStore, private readonly log: vscode.LogOutputChannel) {}

  /** The question on screen, if an Answer flow is running (for tests). */
  get activeStep(): ActiveStep | undefined { return this.step; }
  get lastResume(): ResumeOutcome | undefined { return this.last; }

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
    const loaded = loadCheckpoint(nodeFileSystem, folder.uri.fsPath, given);
    if (!loaded.ok) return this.fail(`${loaded.message}: ${given}`);
    const uri = vscode.Uri.file(loaded.checkpoint.absPath);
    const key = uri.toString();
    if (this.running.has(key)) return this.fail(`An Answer flow for ${loaded.checkpoint.relPath} is already open.`);
    this.running.add(key);
    this.store.setQuiet(uri, true);
    try {
      return await this.answerLoaded(loaded.checkpoint, folder, uri);
    } finally {
      this.running.delete(key);
      this.store.setQuiet(uri, false);
      this.store.reload(uri);
    }
  }

  private async answerLoaded(first: LoadedCheckpoint, folder: vscode.WorkspaceFolder, uri: vscode.Uri): Promise<AnswerOutcome> {
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
        const asked = await askQuestions(parsed.skill, questions, initial, { onDidShowStep: (s) => { this.step = s; } });
        if (!asked) {
          this.log.info(`checkpoint: answering ${checkpoint.relPath} cancelled; nothing written`);
          return { result: 'cancelled' };
        }
        answers = asked;
        kept = { ...kept, ...asked };
        const saved = saveAnswers(nodeFileSystem, checkpoint, answers);
        if (!saved.ok) {
          if ('changed' in saved && attempt < MAX_RELOADS) {
            this.log.warn(`checkpoint: ${checkpoint.relPath} changed on disk while answering; reloading`);
            void vscode.window.showWarningMessage(`Changed on disk — nothing was written; reloaded, please answer again (${checkpoint.relPath}).`);
            const again = loadCheckpoint(nodeFileSystem, folder.uri.fsPath, checkpoint.relPath);
            if (!again.ok) return this.fail(`${again.message}: ${checkpoint.relPath}`, uri);
            checkpoint = again.checkpoint;
            continue;
          }
          return this.fail(`${saved.message}: ${checkpoint.relPath}`, uri);
        }
        checkpoint = saved.checkpoint;
        this.log.info(`checkpoint: wrote ${Object.keys(answers).join(', ')} into ${checkpoint.relPath}`);
      }
      const valid = validateCheckpoint(checkpoint);
      if (!valid.ok) {
        // New questions may have appeared on a reload: ask those too.
        if (attempt < MAX_RELOADS && unansweredQuestions(checkpoint.parsed).length) continue;
        return this.fail(valid.message, uri);
      }
      const resume = await resumeSkill(valid.invocation, folder, this.log);
      this.last = resume;
      if (resume.mode === 'terminal') void vscode.window.showInformationMessage(`Resumed ${valid.invocation.skill} in the Skillflow terminal.`);
      return { result: 'resumed', resume, answers };
    }
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
