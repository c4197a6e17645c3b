/** The workflow commands: actions QuickPick, refresh, cancel / mark failed (confirmed, via the core), open artifact, reveal folder. */
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { type EndResult, type EndTarget, endActions, endWorkflow, whyCannotEnd } from '../../core/workflow/end';
import { PHASE_ICONS } from '../../core/workflow/present';
import type { WorkflowItem, WorkflowService } from './service';
import type { WorkflowNode } from './tree';

/** What the workflow commands accept besides a tree node: `{ key, root? }`. */
export interface EndArgs {
  key: string;
  root?: string;
}

/** The confirmation's safe choice: first, so Enter keeps the run; Escape and clicking away keep it too. */
export const KEEP_RUNNING = 'Keep Running';
export const OPEN_STATUS = 'Open status.json';
const WORDS: Record<EndTarget, { verb: string; title: (name: string) => string; choice: string; icon: string; done: string }> = {
  CANCELLED: { verb: 'cancel', title: (name) => `Cancel the run "${name}"?`, choice: 'Cancel Run', icon: 'stop-circle', done: 'cancelled' },
  FAILED: { verb: 'mark as failed', title: (name) => `Mark the run "${name}" as failed?`, choice: 'Mark Failed', icon: 'error', done: 'marked FAILED' },
};

/** What the confirmation asks: keep the run (the default) or end it. */
export interface EndQuestion {
  /** The question, e.g. `Cancel the run "Refactor the auth…"?`. */
  title: string;
  placeholder: string;
  /** The safe choice's label (first and highlighted). */
  keep: string;
  keepDescription: string;
  /** The destructive choice's label (without its icon), its codicon, the warning beside it and the detail under it. */
  end: string;
  endIcon: string;
  endWarning: string;
  endDetail: string;
}

/**
 * The dialogs the workflow commands show. Production uses VS Code's; integration tests swap in answers
 * through the API `registerWorkflowFeatures` returns (nothing on the commands themselves).
 */
export interface WorkflowPrompts {
  /** Resolves to true only when the user chose to end the run; Enter on the default, Escape or clicking away keep it. */
  confirm(question: EndQuestion): Thenable<boolean>;
  info(message: string, ...actions: string[]): Thenable<string | undefined>;
  error(message: string): Thenable<unknown>;
}

type EndItem = vscode.QuickPickItem & { end: boolean };

/** The confirmation on screen, if any (read by integration tests, which drive it with the workbench's own commands). */
let confirmation: vscode.QuickPick<EndItem> | undefined;
export function activeConfirmation(): vscode.QuickPick<vscode.QuickPickItem> | undefined {
  return confirmation;
}

/**
 * A QuickPick, not a modal: VS Code 1.100's modal message always focuses its first non-close-affordance
 * button, so a two-button modal ("Keep Running" as the close affordance) focuses the destructive one, and
 * making "Keep Running" the first button adds a third "Cancel" button. Here the safe item comes first and is
 * active, so Enter keeps the run.
 */
function confirmInQuickPick(question: EndQuestion): Promise<boolean> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<EndItem>();
    qp.title = question.title;
    qp.placeholder = question.placeholder;
    const keep: EndItem = { label: question.keep, description: question.keepDescription, end: false };
    const end: EndItem = { label: `$(${question.endIcon}) ${question.end}`, description: `$(warning) ${question.endWarning}`, detail: question.endDetail, end: true };
    qp.items = [keep, end];
    qp.activeItems = [keep];
    let ended = false;
    qp.onDidAccept(() => {
      ended = (qp.selectedItems[0] ?? qp.activeItems[0])?.end === true;
      qp.hide();
    });
    qp.onDidHide(() => {
      if (confirmation === qp) confirmation = undefined;
      qp.dispose();
      resolve(ended);
    });
    confirmation = qp;
    qp.show();
  });
}

export const vscodePrompts: WorkflowPrompts = {
  confirm: confirmInQuickPick,
  info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  error: (message) => vscode.window.showErrorMessage(message),
};

function nameOf(item: WorkflowItem): string {
  return item.title || item.workName || item.key;
}

export class WorkflowCommands {
  /** `dialogs` gives the dialogs in use: VS Code's, or a test's answers (swapped through the test API only). */
  constructor(private readonly service: WorkflowService, private readonly log: vscode.LogOutputChannel, private readonly dialogs: () => WorkflowPrompts = () => vscodePrompts) {}

  private get prompts(): WorkflowPrompts {
    return this.dialogs();
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.commands.registerCommand('skillflow.workflow.showActions', (arg?: WorkflowNode | EndArgs) => this.showActions(arg)),
      vscode.commands.registerCommand('skillflow.workflow.refresh', () => this.service.refresh()),
      vscode.commands.registerCommand('skillflow.workflow.cancel', (arg?: WorkflowNode | EndArgs) => this.end('CANCELLED', arg)),
      vscode.commands.registerCommand('skillflow.workflow.markFailed', (arg?: WorkflowNode | EndArgs) => this.end('FAILED', arg)),
      vscode.commands.registerCommand('skillflow.workflow.openArtifact', (arg?: WorkflowNode | vscode.Uri | string) => this.openArtifact(arg)),
      vscode.commands.registerCommand('skillflow.workflow.revealFolder', (arg?: WorkflowNode | EndArgs) => this.revealFolder(arg)),
    );
  }

  /** The workflow an argument names; re-reads `.workflow/` once when it is not (yet) known. */
  private resolve(arg: WorkflowNode | EndArgs | undefined): WorkflowItem | undefined {
    const found = this.lookup(arg);
    if (found || !arg) return found;
    this.service.refresh();
    return this.lookup(arg);
  }

  private lookup(arg: WorkflowNode | EndArgs | undefined): WorkflowItem | undefined {
    if (!arg) return undefined;
    if ('kind' in arg) return 'item' in arg ? this.service.find(arg.item.root, arg.item.key) : undefined;
    if (typeof arg.key === 'string') return this.service.find(arg.root, arg.key);
    return undefined;
  }

  /** A workflow that just finished and left the registry (the status bar still shows it for a few seconds). */
  private finishedFor(arg: WorkflowNode | EndArgs | undefined): WorkflowItem | undefined {
    const done = this.service.justFinished;
    if (!done || !arg) return undefined;
    const key = 'kind' in arg ? ('item' in arg ? arg.item.key : undefined) : arg.key;
    return done.key === key ? done : undefined;
  }

  private async pickWorkflow(placeHolder: string, filter?: { test: (w: WorkflowItem) => boolean; none: string }): Promise<WorkflowItem | undefined> {
    const all = this.service.workflows;
    const candidates = filter ? all.filter(filter.test) : all;
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage(all.length && filter ? filter.none : 'No workflows are registered in .workflow/registry.json.');
      return undefined;
    }
    if (candidates.length === 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(
      candidates.map((w) => ({
        label: `$(${(PHASE_ICONS[w.displayPhase ?? ''] ?? 'question')}) ${nameOf(w)}`,
        description: `${w.displayPhase ?? '?'} · ${w.mode}${w.agent ? ` · ${w.agent}` : ''}`,
        detail: `${w.key} · ${w.workDir}`,
        item: w,
      })),
      { placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.item;
  }

  /** Status bar click: the actions of the workflow it names (the status bar passes the one it shows), else pick one first. */
  async showActions(arg?: WorkflowNode | EndArgs): Promise<void> {
    const wf = arg ? (this.resolve(arg) ?? this.finishedFor(arg)) : await this.pickWorkflow('Workflows — pick one for its actions');
    if (!wf) return;
    type Action = vscode.QuickPickItem & { run: () => unknown };
    const actions: Action[] = [];
    const open = (rel: string) => () => this.openArtifact(vscode.Uri.file(nodePath.join(wf.workDirPath!, rel)));
    if (wf.workDirPath) {
      for (const rel of wf.artifacts) {
        const label = rel === 'plan.md' ? 'Open Plan' : rel === 'report.md' ? 'Open Report' : rel.startsWith('work/W') ? `Open Work Log ${rel.slice(5)}` : `Open ${rel}`;
        actions.push({ label: `$(go-to-file) ${label}`, description: rel, run: open(rel) });
      }
      if (wf.statusPath && nodeFileSystem.stat(wf.statusPath)) actions.push({ label: '$(json) Open status.json', run: open('status.json') });
      actions.push({ label: '$(folder-opened) Reveal Folder', description: wf.workDir, run: () => this.revealFolder({ key: wf.key, root: wf.root }) });
    }
    const legal = endActions(wf);
    if (legal.cancel) actions.push({ label: '$(stop-circle) Cancel Run…', description: `${wf.phase} → CANCELLED, unregister`, run: () => this.end('CANCELLED', { key: wf.key, root: wf.root }) });
    if (legal.markFailed) actions.push({ label: '$(error) Mark Failed…', description: `${wf.phase} → FAILED, unregister`, run: () => this.end('FAILED', { key: wf.key, root: wf.root }) });
    if (!legal.cancel && !legal.markFailed) {
      actions.push({ label: '$(info) Why can\'t I cancel this?', run: () => vscode.window.showInformationMessage(whyCannotEnd(wf, 'CANCELLED') ?? '') });
    }
    const picked = await vscode.window.showQuickPick(actions, { title: `${wf.displayPhase ?? '?'} · ${nameOf(wf)} (${wf.mode})`, placeHolder: 'Pick an action' });
    await picked?.run();
  }

  /**
   * Cancel / mark failed: only where the mode's FSM allows it; otherwise explains why (and offers
   * "Mark Failed" where that is legal). Asks for confirmation, then the core writes both files.
   */
  async end(target: EndTarget, arg?: WorkflowNode | EndArgs): Promise<EndResult | undefined> {
    const wf = arg ? this.resolve(arg) : await this.pickWorkflow(`Workflow to ${WORDS[target].verb}`, {
      test: (w) => whyCannotEnd(w, target) === undefined,
      none: target === 'CANCELLED'
        ? 'No registered workflow can be cancelled now: the FSM allows CANCELLED only from PLAN (full mode).'
        : 'No registered workflow can be marked failed now: the FSM allows FAILED only from WORK or REPORT (STRATEGY in strategy mode).',
    });
    if (!wf) {
      if (arg) {
        const message = `Workflow '${'kind' in arg ? ('item' in arg ? arg.item.key : '?') : arg.key}' is not registered (any more).`;
        void this.prompts.error(message);
        return { ok: false, message };
      }
      return undefined;
    }
    const why = whyCannotEnd(wf, target);
    if (why) {
      const message = `Can't ${WORDS[target].verb} "${nameOf(wf)}": ${why}`;
      const offerFail = target === 'CANCELLED' && whyCannotEnd(wf, 'FAILED') === undefined;
      const choice = await this.prompts.info(message, ...(offerFail ? ['Mark Failed…'] : []));
      if (choice === 'Mark Failed…') return this.end('FAILED', { key: wf.key, root: wf.root });
      return { ok: false, message: why };
    }
    const confirmed = await this.prompts.confirm({
      title: WORDS[target].title(nameOf(wf)),
      placeholder: `Enter keeps the run; pick ${WORDS[target].choice} to end it`,
      keep: KEEP_RUNNING,
      keepDescription: 'nothing is written',
      end: WORDS[target].choice,
      endIcon: WORDS[target].icon,
      endWarning: 'its orchestrator\'s next step is refused',
      endDetail: wf.phase === target ? `status.json already says ${target}; unregisters '${wf.key}' (finishing an earlier end).` : `Writes ${wf.phase} → ${target} to status.json; unregisters '${wf.key}'.`,
    });
    if (!confirmed) return undefined;
    const result = endWorkflow(nodeFileSystem, wf.root, wf.key, target, { expectPhase: wf.phase });
    this.service.refresh();
    if (result.ok) {
      this.log.info(`workflow ${wf.key}: ${result.from} → ${target}, unregistered`);
      // Not awaited: the command resolves now, the message stays until the user acts on it.
      void this.prompts.info(`Run "${nameOf(wf)}" ${WORDS[target].done}: status.json now says ${target} (was ${result.from}), and '${wf.key}' was removed from .workflow/registry.json.`, OPEN_STATUS)
        .then((choice) => (choice === OPEN_STATUS ? this.openArtifact(vscode.Uri.file(result.statusPath)) : undefined));
    } else {
      this.log.warn(`workflow ${wf.key}: ${target} refused: ${result.message}`);
      void this.prompts.error(`Could not ${WORDS[target].verb} "${nameOf(wf)}": ${result.message}`);
    }
    return result;
  }

  async openArtifact(arg?: WorkflowNode | vscode.Uri | string): Promise<void> {
    let uri: vscode.Uri | undefined;
    if (arg instanceof vscode.Uri) uri = arg;
    else if (typeof arg === 'string') uri = vscode.Uri.file(arg);
    else if (arg?.kind === 'artifact' && arg.item.workDirPath) uri = vscode.Uri.file(nodePath.join(arg.item.workDirPath, arg.rel));
    if (!uri) return;
    await vscode.window.showTextDocument(uri, { preview: true });
  }

  async revealFolder(arg?: WorkflowNode | EndArgs): Promise<void> {
    const wf = arg ? this.resolve(arg) : await this.pickWorkflow('Workflow folder to reveal');
    if (!wf?.workDirPath) return;
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(wf.workDirPath));
  }
}
