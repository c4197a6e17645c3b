/**
 * Finds and watches AWAIT context files (`skillflow.checkpoints.glob` in every workspace folder), keeps a
 * parsed summary of each, and reports files with unanswered questions that appear or change.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { CHECKPOINT_MESSAGES, loadCheckpoint, type LoadedCheckpoint } from '../../core/checkpoint/checkpoint';
import { unansweredQuestions } from '../../core/checkpoint/context';
import { DebouncedWork } from '../util/idle';

export const DEFAULT_GLOB = '.agent/tmp/*-context.md';
const WATCH_DEBOUNCE_MS = 100;

/** One context file as the view and the notification see it. */
export interface CheckpointInfo {
  uri: vscode.Uri;
  folder: vscode.WorkspaceFolder;
  /** Workspace-relative, `/`-separated. */
  relPath: string;
  skill?: string;
  args?: string;
  created?: string;
  progressSummary: string;
  questions: Array<{ id: string; text: string; answer: string }>;
  answered: number;
  total: number;
  unanswered: string[];
  /** False when the file is an `Invalid context format` (or could not be read). */
  valid: boolean;
  problems: string[];
  mtimeMs: number;
  /** sha1 of the bytes: a notification is shown once per file and content. */
  hash: string;
}

export function globSetting(folder?: vscode.WorkspaceFolder): string {
  const value = vscode.workspace.getConfiguration('skillflow', folder?.uri).get<string>('checkpoints.glob', DEFAULT_GLOB);
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_GLOB;
}

/** Summarises a loaded checkpoint for the view. */
export function toInfo(cp: LoadedCheckpoint, uri: vscode.Uri, folder: vscode.WorkspaceFolder, mtimeMs: number): CheckpointInfo {
  const { parsed } = cp;
  const unanswered = unansweredQuestions(parsed);
  return {
    uri,
    folder,
    relPath: cp.relPath,
    skill: parsed.skill,
    args: parsed.args,
    created: parsed.created,
    progressSummary: parsed.progressSummary,
    questions: parsed.questions.map((q) => ({ id: q.id, text: q.text, answer: q.answer })),
    answered: parsed.questions.length - unanswered.length,
    total: parsed.questions.length,
    unanswered,
    valid: parsed.valid,
    problems: parsed.problems.map((p) => `line ${p.line}: ${p.message}`),
    mtimeMs,
    hash: createHash('sha1').update(cp.bytes).digest('hex'),
  };
}

/** A context file that is refused before it is read (a path that leaves the workspace, a control character in its name). */
function refusedInfo(uri: vscode.Uri, folder: vscode.WorkspaceFolder, message: string): CheckpointInfo {
  return {
    uri, folder, relPath: path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/'), progressSummary: '', questions: [],
    answered: 0, total: 0, unanswered: [], valid: false, problems: [message], mtimeMs: 0, hash: '',
  };
}

export class CheckpointStore implements vscode.Disposable {
  private readonly entries = new Map<string, CheckpointInfo>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly attentionEmitter = new vscode.EventEmitter<CheckpointInfo>();
  /** Fires after the set of checkpoints or one of them changed. */
  readonly onDidChange = this.changeEmitter.event;
  /** Fires when a context file with unanswered questions appears or changes to content not reported before. */
  readonly onNeedsAttention = this.attentionEmitter.event;
  readonly work = new DebouncedWork();
  private watchers: vscode.Disposable[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly reported = new Set<string>();
  /** Files whose Answer flow is running: their own writes must not notify. */
  private readonly quiet = new Set<string>();
  private generation = 0;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      this.changeEmitter,
      this.attentionEmitter,
      vscode.workspace.onDidChangeWorkspaceFolders(() => { this.rewatch(); void this.refresh(); }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillflow.checkpoints.glob')) { this.rewatch(); void this.refresh(); }
      }),
    );
    this.rewatch();
  }

  /** Every known context file, those waiting for answers first, then newest first. */
  list(): CheckpointInfo[] {
    return [...this.entries.values()].sort((a, b) =>
      Number(b.valid && b.unanswered.length > 0) - Number(a.valid && a.unanswered.length > 0) || b.mtimeMs - a.mtimeMs || a.relPath.localeCompare(b.relPath));
  }

  get(uri: vscode.Uri): CheckpointInfo | undefined {
    return this.entries.get(uri.toString());
  }

  /** Number of valid context files with unanswered questions. */
  get pendingCount(): number {
    return [...this.entries.values()].filter((e) => e.valid && e.unanswered.length > 0).length;
  }

  /** Re-scans every workspace folder for the glob. */
  refresh(): Promise<void> {
    const generation = ++this.generation;
    return this.work.track((async () => {
      const found = new Map<string, CheckpointInfo>();
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        if (folder.uri.scheme !== 'file') continue;
        let uris: vscode.Uri[] = [];
        try {
          uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, globSetting(folder)), null, 500);
        } catch (e) {
          this.log.warn(`checkpoints: findFiles failed in ${folder.uri.fsPath}: ${String(e)}`);
        }
        for (const uri of uris) {
          const info = this.read(uri, folder);
          if (info) found.set(uri.toString(), info);
        }
      }
      if (generation !== this.generation) return;
      this.entries.clear();
      for (const [k, v] of found) this.entries.set(k, v);
      this.log.debug(`checkpoints: ${found.size} context file(s)`);
      this.changeEmitter.fire();
    })());
  }

  /** Takes the checkpoint the Answer flow just wrote as the file's current state (no second read). */
  update(uri: vscode.Uri, folder: vscode.WorkspaceFolder, checkpoint: LoadedCheckpoint): void {
    this.entries.set(uri.toString(), toInfo(checkpoint, uri, folder, nodeFileSystem.stat(checkpoint.realPath)?.mtimeMs ?? Date.now()));
    this.changeEmitter.fire();
  }

  /** While `uri` is being answered, its changes do not notify. */
  setQuiet(uri: vscode.Uri, quiet: boolean): void {
    if (quiet) this.quiet.add(uri.toString());
    else this.quiet.delete(uri.toString());
  }

  /** Marks the file's current content as reported (e.g. the user already acted on it). */
  markReported(info: CheckpointInfo): void {
    this.reported.add(`${info.uri.toString()}#${info.hash}`);
  }

  private read(uri: vscode.Uri, folder: vscode.WorkspaceFolder): CheckpointInfo | undefined {
    const loaded = loadCheckpoint(nodeFileSystem, folder.uri.fsPath, uri.fsPath);
    if (!loaded.ok) return loaded.message === CHECKPOINT_MESSAGES.notFound ? undefined : refusedInfo(uri, folder, loaded.message);
    const st = nodeFileSystem.stat(loaded.checkpoint.realPath);
    return toInfo(loaded.checkpoint, uri, folder, st?.mtimeMs ?? 0);
  }

  private rewatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, globSetting(folder)));
      const onEvent = (uri: vscode.Uri) => this.work.schedule(uri.toString(), WATCH_DEBOUNCE_MS, () => this.onFileEvent(uri, folder));
      this.watchers.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
    }
  }

  private onFileEvent(uri: vscode.Uri, folder: vscode.WorkspaceFolder): void {
    const key = uri.toString();
    const info = this.read(uri, folder);
    if (info) this.entries.set(key, info);
    else this.entries.delete(key);
    this.changeEmitter.fire();
    if (!info || !info.valid || info.unanswered.length === 0 || this.quiet.has(key)) return;
    const reportKey = `${key}#${info.hash}`;
    if (this.reported.has(reportKey)) return;
    this.reported.add(reportKey);
    this.log.info(`checkpoints: ${info.relPath} waits for answers (${info.unanswered.join(', ')})`);
    this.attentionEmitter.fire(info);
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    this.work.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
