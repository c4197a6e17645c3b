/** "Handle Skill Output" (a STATUS block from the selection or the clipboard) and `CONTEXT_PATH: <path>` terminal links. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findContextPathLinks, parseStatusBlock, type StatusBlock } from '../../core/checkpoint/status';
import type { CheckpointController } from './controller';

export type HandledOutput =
  | { status: 'none' }
  | { status: 'AWAIT'; contextPath?: string }
  | { status: 'SUCCESS'; paths: string[] }
  | { status: 'ERROR'; message: string };

/** Where a terminal's shell started, when known. */
function terminalFolder(terminal: vscode.Terminal): vscode.WorkspaceFolder | undefined {
  const cwd = terminal.shellIntegration?.cwd ?? (terminal.creationOptions as vscode.TerminalOptions).cwd;
  const uri = typeof cwd === 'string' ? vscode.Uri.file(cwd) : cwd;
  return uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
}

export class SkillOutputHandler {
  constructor(private readonly controller: CheckpointController, private readonly log: vscode.LogOutputChannel) {}

  /** Reads the active editor's selection, else the clipboard, and acts on its STATUS block. */
  async handleSkillOutput(text?: string): Promise<HandledOutput> {
    const editor = vscode.window.activeTextEditor;
    let source = 'text';
    if (text === undefined && editor && !editor.selection.isEmpty) {
      text = editor.document.getText(editor.selection);
      source = 'selection';
    }
    if (text === undefined || !parseStatusBlock(text)) {
      const clip = await vscode.env.clipboard.readText();
      if (text === undefined || parseStatusBlock(clip)) { text = clip; source = 'clipboard'; }
    }
    const block = parseStatusBlock(text ?? '');
    if (!block) {
      void vscode.window.showWarningMessage('No skill output found: select a STATUS block (STATUS: SUCCESS | AWAIT | ERROR) or copy it to the clipboard.');
      return { status: 'none' };
    }
    this.log.info(`handle skill output: STATUS: ${block.status} from the ${source}`);
    const folder = editor ? vscode.workspace.getWorkspaceFolder(editor.document.uri) : undefined;
    return this.act(block, folder);
  }

  private async act(block: StatusBlock, folder: vscode.WorkspaceFolder | undefined): Promise<HandledOutput> {
    if (block.status === 'ERROR') {
      void vscode.window.showErrorMessage(`Skill failed: ${block.message || '(no message)'}`);
      return { status: 'ERROR', message: block.message };
    }
    if (block.status === 'AWAIT') {
      if (!block.contextPath) {
        void vscode.window.showErrorMessage('STATUS: AWAIT without a CONTEXT_PATH: nothing to answer.');
        return { status: 'AWAIT' };
      }
      void this.controller.answer(block.contextPath, folder);
      return { status: 'AWAIT', contextPath: block.contextPath };
    }
    const paths = block.outputs.filter((o) => /_PATH$/i.test(o.key) && o.value).map((o) => o.value);
    const summary = block.outputs.map((o) => `${o.key}: ${o.value}`).join(', ');
    const message = `Skill succeeded${summary ? ` — ${summary}` : block.outputText ? ` — ${block.outputText}` : ''}`;
    if (!paths.length) {
      void vscode.window.showInformationMessage(message);
      return { status: 'SUCCESS', paths };
    }
    void vscode.window.showInformationMessage(message, paths.length === 1 ? 'Open' : 'Open…').then(async (choice) => {
      if (!choice) return;
      const chosen = paths.length === 1 ? paths : (await vscode.window.showQuickPick(paths, { title: 'Open skill output', canPickMany: true })) ?? [];
      for (const p of chosen) await this.openOutput(p, folder);
    });
    return { status: 'SUCCESS', paths };
  }

  /** Opens an output file (relative paths resolve against the workspace folder). */
  async openOutput(file: string, folder?: vscode.WorkspaceFolder): Promise<void> {
    const base = folder ?? vscode.workspace.workspaceFolders?.[0];
    const uri = path.isAbsolute(file) || !base ? vscode.Uri.file(file) : vscode.Uri.joinPath(base.uri, ...file.split(/[\\/]/));
    try {
      await vscode.window.showTextDocument(uri, { preview: false });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cannot open ${file}: ${String((e as Error)?.message ?? e)}`);
    }
  }
}

interface ContextPathLink extends vscode.TerminalLink {
  contextPath: string;
  terminal: vscode.Terminal;
}

export class ContextPathLinkProvider implements vscode.TerminalLinkProvider<ContextPathLink> {
  constructor(private readonly controller: CheckpointController) {}

  provideTerminalLinks(context: vscode.TerminalLinkContext): ContextPathLink[] {
    return findContextPathLinks(context.line).map((l) => ({
      startIndex: l.startIndex,
      length: l.length,
      tooltip: 'Answer this checkpoint (Skillflow)',
      contextPath: l.contextPath,
      terminal: context.terminal,
    }));
  }

  handleTerminalLink(link: ContextPathLink): void {
    void this.controller.answer(link.contextPath, terminalFolder(link.terminal));
  }
}
