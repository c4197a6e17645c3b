/**
 * Keeps the workflows of every workspace folder (the folder holding `.workflow/`) up to date:
 * a watcher on `.workflow/**` per folder with a ~100 ms debounce, a periodic re-check so staleness
 * shows without writes, and tolerance for half-written status.json (keep the last good state, re-read).
 */
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { isPhase, isTerminal } from '../../core/workflow/fsm';
import { parseJson } from '../../core/workflow/json';
import { DEFAULT_STALE_AFTER_MINUTES, scanWorkflows, type WorkflowInfo, type WorkflowProblem } from '../../core/workflow/scan';
import { DebouncedWork } from '../util/idle';
import { watchFiles } from '../util/watch';

/** A workflow plus the workspace folder it belongs to. */
export interface WorkflowItem extends WorkflowInfo {
  /** The folder holding `.workflow/` (a workspace folder). */
  root: string;
  folderName: string;
  /** True while a half-written status.json is being waited out (the last good state is shown). */
  pending?: boolean;
}

export interface RootProblems {
  root: string;
  folderName: string;
  registryPath: string;
  problems: WorkflowProblem[];
}

const DEBOUNCE_MS = 100;
const HALF_WRITTEN_RETRY_MS = 300;
const PERIODIC_MS = 30_000;
/** File watchers can miss events (seen in remote hosts and on busy machines); a cheap stat poll backs them up. */
const POLL_MS = 500;
/** How long a workflow that just finished (COMPLETED, CANCELLED, or FAILED and unregistered) stays in the status bar. */
export const FINISHED_VISIBLE_MS = 10_000;

export class WorkflowService implements vscode.Disposable {
  private items: WorkflowItem[] = [];
  private rootProblems: RootProblems[] = [];
  private readonly retried = new Set<string>();
  private finished: { item: WorkflowItem; until: number } | undefined;
  /** The shared keyed debounce (one key: the re-read), with its idle signal. */
  private readonly work = new DebouncedWork();
  private finishedTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly periodic: ReturnType<typeof setInterval>;
  private readonly poll: ReturnType<typeof setInterval>;
  private lastFingerprint = '';
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  /** Called on every change (status bar, tree, diagnostics). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      this.emitter,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        this.schedule(0);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillflow.workflow.staleAfterMinutes')) this.schedule(0);
      }),
    );
    this.watch();
    this.periodic = setInterval(() => this.schedule(0), PERIODIC_MS);
    this.poll = setInterval(() => {
      if (this.work.idle && this.fingerprint() !== this.lastFingerprint) this.schedule(0);
    }, POLL_MS);
    this.refresh();
  }

  /** Every registered workflow of every workspace folder, in registry order. */
  get workflows(): readonly WorkflowItem[] {
    return this.items;
  }

  /** Problems with registry.json itself, per folder that has a `.workflow/` folder. */
  get registryProblems(): readonly RootProblems[] {
    return this.rootProblems;
  }

  /** A workflow that reached COMPLETED or CANCELLED in the last few seconds (for the status bar). */
  get justFinished(): WorkflowItem | undefined {
    return this.finished && this.finished.until > Date.now() ? this.finished.item : undefined;
  }

  get staleAfterMinutes(): number {
    const value = vscode.workspace.getConfiguration('skillflow.workflow').get<number>('staleAfterMinutes', DEFAULT_STALE_AFTER_MINUTES);
    return typeof value === 'number' && value > 0 ? value : DEFAULT_STALE_AFTER_MINUTES;
  }

  find(root: string | undefined, key: string): WorkflowItem | undefined {
    return this.items.find((w) => w.key === key && (root === undefined || w.root === root));
  }

  /** Resolves once no refresh is scheduled (tests use it after writing files). */
  whenIdle(): Promise<void> {
    return this.work.whenIdle();
  }

  /** Re-reads after `delay` ms, coalescing bursts of events into one read. */
  schedule(delay = DEBOUNCE_MS): void {
    this.work.schedule('refresh', delay, () => this.refresh());
  }

  /** mtime + size of the files a change shows in: registry.json and, per workflow, its folder, status.json, .context.json and work/. */
  private fingerprint(): string {
    const parts: string[] = [];
    const add = (path: string) => {
      const st = nodeFileSystem.stat(path);
      parts.push(st ? `${st.mtimeMs}:${st.size}` : '-');
    };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme === 'file') add(nodePath.join(folder.uri.fsPath, '.workflow', 'registry.json'));
    }
    for (const wf of this.items) {
      if (!wf.workDirPath) continue;
      add(wf.workDirPath);
      add(nodePath.join(wf.workDirPath, 'status.json'));
      add(nodePath.join(wf.workDirPath, '.context.json'));
      add(nodePath.join(wf.workDirPath, 'work'));
    }
    return parts.join('|');
  }

  /** Reads every folder's `.workflow/` now. */
  refresh(): void {
    const started = performance.now();
    // Taken before reading, so a write during the read still differs next time.
    const fingerprintBefore = this.fingerprint();
    const now = Date.now();
    const previous = new Map(this.items.map((w) => [`${w.root}\0${w.key}`, w]));
    const items: WorkflowItem[] = [];
    const rootProblems: RootProblems[] = [];
    let retry = false;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const root = folder.uri.fsPath;
      // A folder without `.workflow/` simply has no workflows; with one, a missing registry is a problem.
      if (!nodeFileSystem.stat(nodePath.join(root, '.workflow'))?.isDirectory) continue;
      const scan = scanWorkflows(nodeFileSystem, root, { staleAfterMinutes: this.staleAfterMinutes, now });
      if (scan.problems.length) rootProblems.push({ root, folderName: folder.name, registryPath: scan.registryPath, problems: scan.problems });
      for (const wf of scan.workflows) {
        const id = `${root}\0${wf.key}`;
        const before = previous.get(id);
        const halfWritten = wf.problems.some((p) => p.code === 'status-invalid');
        if (halfWritten && before && !before.problems.some((p) => p.code === 'status-invalid') && !this.retried.has(id)) {
          // Probably caught mid-write: keep showing the last good state and look again shortly.
          this.log.info(`workflow ${wf.key}: ${wf.problems.find((p) => p.code === 'status-invalid')?.message}; keeping the last good state and reading again`);
          this.retried.add(id);
          retry = true;
          items.push({ ...before, pending: true });
          continue;
        }
        if (!halfWritten) this.retried.delete(id);
        const item: WorkflowItem = { ...wf, root, folderName: folder.name };
        items.push(item);
        if (before && isPhase(before.phase) && !isTerminal(before.phase) && (wf.phase === 'COMPLETED' || wf.phase === 'CANCELLED')) {
          this.noteFinished(item);
        }
      }
    }
    // A workflow that left the registry (cancelled or marked failed here, or unregistered by its orchestrator)
    // stays in the status bar for a few seconds with the phase its status.json now has.
    const kept = new Set(items.map((w) => `${w.root}\0${w.key}`));
    for (const [id, before] of previous) {
      if (kept.has(id) || !isPhase(before.phase) || isTerminal(before.phase)) continue;
      const phase = this.phaseOnDisk(before);
      if (phase === 'COMPLETED' || phase === 'CANCELLED' || phase === 'FAILED') this.noteFinished({ ...before, phase, displayPhase: phase, stale: false, pending: false });
    }
    this.items = items;
    this.rootProblems = rootProblems;
    // The item list may have changed (new workflows): fingerprint what was read, unless it changed meanwhile.
    this.lastFingerprint = this.fingerprint() === fingerprintBefore ? fingerprintBefore : '';
    if (retry) this.schedule(HALF_WRITTEN_RETRY_MS);
    this.log.trace(`workflows: read ${items.length} in ${(performance.now() - started).toFixed(1)} ms`);
    this.emitter.fire();
  }

  /** The phase a workflow's status.json has now (undefined when it cannot be read). */
  private phaseOnDisk(item: WorkflowItem): string | undefined {
    if (!item.statusPath) return undefined;
    let text: string;
    try { text = nodeFileSystem.readFile(item.statusPath).toString('utf8'); } catch { return undefined; }
    const parsed = parseJson(text);
    const phase = parsed.ok ? (parsed.value as Record<string, unknown> | null)?.phase : undefined;
    return typeof phase === 'string' ? phase : undefined;
  }

  private noteFinished(item: WorkflowItem): void {
    this.finished = { item, until: Date.now() + FINISHED_VISIBLE_MS };
    if (this.finishedTimer) clearTimeout(this.finishedTimer);
    this.finishedTimer = setTimeout(() => {
      this.finishedTimer = undefined;
      this.emitter.fire();
    }, FINISHED_VISIBLE_MS + 50);
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => watchFiles(new vscode.RelativePattern(folder, '.workflow/**'), () => this.schedule()));
  }

  dispose(): void {
    clearInterval(this.periodic);
    clearInterval(this.poll);
    this.work.dispose();
    if (this.finishedTimer) clearTimeout(this.finishedTimer);
    for (const d of [...this.watchers, ...this.disposables]) d.dispose();
  }
}
