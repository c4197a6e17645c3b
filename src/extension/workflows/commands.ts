/** The workflow commands: actions QuickPick, refresh, cancel / mark failed (confirmed, via the core), open artifact, reveal folder. */
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { type EndResult, type EndTarget, endActions, endWorkflow, whyCannotEnd } from '../../core/workflow/end';
import { PHASE_ICONS } from '../../core/workflow/present';
import type { WorkflowItem, WorkflowService } from './service';
import type { WorkflowNode } from './tree';

/**
 * What the cancel / mark-failed commands accept: a tree node, or `{ key, root?, confirm? }`.
 * `confirm: false` skips the modal; only callers that already asked the user (and tests) pass it.
 */
export interface EndArgs {
  key: string;
  root?: string;
  confirm?: boolean;
}

const WORDS: Record<EndTarget, { verb: string; button: string; done: string }> = {
  CANCELLED: { verb: 'cancel', button: 'Cancel Workflow', done: 'cancelled' },
  FAILED: { verb: 'mark as failed', button: 'Mark Failed', done: 'marked FAILED' },
};

function nameOf(item: WorkflowItem): string {
  return item.title || item.workName || item.key;
}

export class WorkflowCommands {
  constructor(private readonly service: WorkflowService, private readonly log: vscode.LogOutputChannel) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.commands.registerCommand('skillflow.workflow.showActions', () => this.showActions()),
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

  /** Status bar click: pick a workflow (when there are several), then an action. */
  async showActions(): Promise<void> {
    const wf = await this.pickWorkflow('Workflows — pick one for its actions');
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
    if (legal.cancel) actions.push({ label: '$(stop-circle) Cancel Workflow…', description: `${wf.phase} → CANCELLED, unregister`, run: () => this.end('CANCELLED', { key: wf.key, root: wf.root }) });
    if (legal.markFailed) actions.push({ label: '$(error) Mark Failed…', description: `${wf.phase} → FAILED, unregister`, run: () => this.end('FAILED', { key: wf.key, root: wf.root }) });
    if (!legal.cancel && !legal.markFailed) {
      actions.push({ label: '$(info) Why can\'t I cancel this?', run: () => vscode.window.showInformationMessage(whyCannotEnd(wf, 'CANCELLED') ?? '') });
    }
    const picked = await vscode.window.showQuickPick(actions, { title: `${nameOf(wf)} — ${wf.displayPhase ?? '?'} (${wf.mode})`, placeHolder: 'Pick an action' });
    await picked?.run();
  }

  /**
   * Cancel / mark failed: only where the mode's FSM allows it; otherwise explains why (and offers
   * "Mark Failed" where that is legal). Asks for confirmation, then the core writes both files.
   */
  async end(target: EndTarget, arg?: WorkflowNode | EndArgs): Promise<EndResult | undefined> {
    const interactive = !(arg && !('kind' in arg) && arg.confirm === false);
    const wf = arg ? this.resolve(arg) : await this.pickWorkflow(`Workflow to ${WORDS[target].verb}`, {
      test: (w) => whyCannotEnd(w, target) === undefined,
      none: target === 'CANCELLED'
        ? 'No registered workflow can be cancelled now: the FSM allows CANCELLED only from PLAN (full mode).'
        : 'No registered workflow can be marked failed now: the FSM allows FAILED only from WORK or REPORT (STRATEGY in strategy mode).',
    });
    if (!wf) {
      if (arg) {
        const message = `Workflow '${'kind' in arg ? ('item' in arg ? arg.item.key : '?') : arg.key}' is not registered (any more).`;
        void vscode.window.showWarningMessage(message);
        return { ok: false, message };
      }
      return undefined;
    }
    const why = whyCannotEnd(wf, target);
    if (why) {
      const message = `Can't ${WORDS[target].verb} "${nameOf(wf)}": ${why}`;
      const offerFail = target === 'CANCELLED' && whyCannotEnd(wf, 'FAILED') === undefined;
      if (!interactive) {
        void vscode.window.showInformationMessage(message);
        return { ok: false, message: why };
      }
      const choice = await vscode.window.showInformationMessage(message, ...(offerFail ? ['Mark Failed…'] : []));
      if (choice === 'Mark Failed…') return this.end('FAILED', { key: wf.key, root: wf.root });
      return { ok: false, message: why };
    }
    if (interactive) {
      const answer = await vscode.window.showWarningMessage(
        `${target === 'CANCELLED' ? 'Cancel' : 'Mark as failed'}: "${nameOf(wf)}"?`,
        {
          modal: true,
          detail: `Writes ${wf.phase} → ${target} to status.json and removes '${wf.key}' from .workflow/registry.json. An orchestrator still running this workflow will be refused its next transition.`,
        },
        WORDS[target].button,
      );
      if (answer !== WORDS[target].button) return undefined;
    }
    const result = endWorkflow(nodeFileSystem, wf.root, wf.key, target, { expectPhase: wf.phase });
    if (result.ok) {
      this.log.info(`workflow ${wf.key}: ${result.from} → ${target}, unregistered`);
      void vscode.window.showInformationMessage(`Workflow "${nameOf(wf)}" ${WORDS[target].done} and removed from the registry.`);
    } else {
      this.log.warn(`workflow ${wf.key}: ${target} refused: ${result.message}`);
      void vscode.window.showErrorMessage(`Could not ${WORDS[target].verb} "${nameOf(wf)}": ${result.message}`);
    }
    this.service.refresh();
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
