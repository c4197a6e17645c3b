/**
 * Who Answers… (type `/x`, see who runs it, what it shadows and why, open either file) and Show What Claude Sees.
 */
import * as vscode from 'vscode';
import { builtinNames } from '../../core/claude/builtins';
import { normalizeCommand } from '../../core/claude/resolve';
import { explainResolve, type AnswerRow } from '../../core/claude/explain';
import type { ClaudeService } from './service';

const ICONS: Record<AnswerRow['kind'], string> = {
  winner: '$(pass-filled)', builtin: '$(terminal)', shadowed: '$(circle-slash)', note: '$(info)', nothing: '$(question)',
};

export interface AnswerItem extends vscode.QuickPickItem {
  row?: AnswerRow;
}

/** What Who Answers… last showed (for tests). */
export interface WhoAnswersShown {
  command: string;
  items: AnswerItem[];
}

export class ClaudeCommands {
  lastShown: WhoAnswersShown | undefined;
  /** The QuickPick showing the last result, while it is open. */
  resultPick: vscode.QuickPick<AnswerItem> | undefined;

  constructor(private readonly service: ClaudeService, private readonly log: vscode.LogOutputChannel, private readonly showPanel: () => unknown) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.commands.registerCommand('skillflow.whoAnswers', (command?: unknown) => this.whoAnswers(typeof command === 'string' ? command : undefined)),
      // An editor tab: a side bar pane opened from collapsed gets the workbench's minimum height (~140 px).
      vscode.commands.registerCommand('skillflow.showListing', () => { this.showPanel(); }),
    );
  }

  /** Asks for a command name (unless given), then shows who answers it. */
  async whoAnswers(command?: string): Promise<void> {
    if (!this.service.folders().length) {
      void vscode.window.showInformationMessage('Skillflow: open a folder to see who answers a command there.');
      return;
    }
    const typed = command ?? await this.askCommand();
    if (!typed?.trim()) return;
    this.showResult(normalizeCommand(typed));
  }

  /** The items for a command name: the result per workspace folder (a separator per folder when there are several). */
  items(command: string): AnswerItem[] {
    const results = this.service.resolve(command);
    const items: AnswerItem[] = [];
    for (const { folder, model, result } of results) {
      if (results.length > 1) items.push({ label: folder.name, kind: vscode.QuickPickItemKind.Separator });
      let shadowedHeader = false;
      for (const row of explainResolve(model, result, this.service.home)) {
        if (row.kind === 'shadowed' && !shadowedHeader) {
          shadowedHeader = true;
          if (results.length === 1) items.push({ label: 'shadowed', kind: vscode.QuickPickItemKind.Separator });
        }
        items.push({
          label: `${ICONS[row.kind]} ${row.label}`,
          ...(row.description ? { description: row.description } : {}),
          ...(row.detail ? { detail: row.detail } : {}),
          row,
        });
      }
    }
    return items;
  }

  private showResult(command: string): void {
    const items = this.items(command);
    this.lastShown = { command, items };
    this.log.info(`Who answers ${command}: ${items.filter((i) => i.row).map((i) => i.row?.label).join('; ')}`);
    this.resultPick?.dispose();
    const pick = vscode.window.createQuickPick<AnswerItem>();
    pick.title = `Who answers ${command}?`;
    pick.placeholder = 'Pick a file to open it; Escape closes';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = items;
    const first = items.find((i) => i.row?.path);
    if (first) pick.activeItems = [first];
    pick.onDidAccept(async () => {
      const file = pick.selectedItems[0]?.row?.path;
      if (!file) return;
      pick.hide();
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    });
    pick.onDidHide(() => { pick.dispose(); if (this.resultPick === pick) this.resultPick = undefined; });
    this.resultPick = pick;
    pick.show();
  }

  /** A QuickPick over every known command name; whatever is typed can be looked up too. */
  private askCommand(): Promise<string | undefined> {
    const known = this.service.knownCommands();
    const knownSet = new Set(known.map((k) => k.command));
    const base: vscode.QuickPickItem[] = [
      { label: 'skills and commands here', kind: vscode.QuickPickItemKind.Separator },
      ...known.map((k) => ({ label: k.command, description: k.description })),
      { label: "Claude Code's own", kind: vscode.QuickPickItemKind.Separator },
      ...builtinNames().filter((n) => !knownSet.has(`/${n}`)).sort().map((n) => ({ label: `/${n}`, description: 'Claude Code' })),
    ];
    return new Promise((resolve) => {
      const pick = vscode.window.createQuickPick();
      pick.title = 'Who answers…';
      pick.placeholder = 'Type a command, e.g. /deploy';
      pick.items = base;
      let done = false;
      pick.onDidChangeValue((value) => {
        const typed = value.trim() ? normalizeCommand(value) : '';
        const exact = typed && base.some((i) => i.label === typed);
        pick.items = typed && !exact ? [{ label: typed, description: 'look up this name' }, ...base] : base;
      });
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0]?.label ?? pick.activeItems[0]?.label ?? pick.value;
        done = true;
        pick.hide();
        resolve(chosen);
      });
      pick.onDidHide(() => { pick.dispose(); if (!done) resolve(undefined); });
      pick.show();
    });
  }
}
