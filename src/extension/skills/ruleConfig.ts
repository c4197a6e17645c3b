/**
 * Rule configuration in the editor: the nearest `.skillflow.json` (read through the core, as the CLI does), the
 * `skillflow.validation.rules` setting on top of it, and each file's `skillflow-disable` comments. Fires
 * `onDidChange` when the setting or any `.skillflow.json` changes; problems of config files themselves are
 * published in their own `skillflow` collection on the `.skillflow.json`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import type { Problem, Profile } from '../../core/base/types';
import { PROFILES } from '../../core/base/types';
import { CONFIG_FILE_NAME, configureProblems, RuleConfigFinder, type RuleSetting, ruleSettingOverrides } from '../../core/config/ruleConfig';
import { toDiagnostic } from '../adapters/ranges';

export function readRuleOverrides(): Record<string, RuleSetting> {
  return ruleSettingOverrides(vscode.workspace.getConfiguration('skillflow').get<unknown>('validation.rules', {}));
}

export class EditorRuleConfig implements vscode.Disposable {
  readonly finder = new RuleConfigFinder(nodeFileSystem);
  private overrides = readRuleOverrides();
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires after the setting or a `.skillflow.json` changed (the finder's answers are fresh again). */
  readonly onDidChange = this.emitter.event;
  private readonly configDiagnostics = vscode.languages.createDiagnosticCollection('skillflow-config');
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: vscode.LogOutputChannel) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${CONFIG_FILE_NAME}`);
    const onFile = (uri: vscode.Uri) => { this.log.info(`rule configuration changed: ${uri.fsPath}`); this.reload(); };
    this.disposables.push(
      this.emitter,
      this.configDiagnostics,
      watcher, watcher.onDidCreate(onFile), watcher.onDidChange(onFile), watcher.onDidDelete(onFile),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('skillflow.validation.rules')) return;
        this.overrides = readRuleOverrides();
        this.emitter.fire();
      }),
    );
  }

  /** Forgets every config file read (after a change on disk) and tells the listeners. */
  reload(): void {
    this.finder.clear();
    this.emitter.fire();
  }

  /**
   * One file's problems with the rule configuration applied; an empty list when an `ignore` glob skips the file.
   * `text` is the open document's text; for a closed file it is read from disk when the file has problems.
   */
  apply(file: string, problems: readonly Problem[], text?: string): Problem[] {
    const readText = text !== undefined ? () => text : () => {
      try { return nodeFileSystem.readFile(file).toString('utf8'); } catch { return undefined; }
    };
    const out = configureProblems(this.finder, file, problems, { settingOverrides: this.overrides, readText }) ?? [];
    this.publishConfigProblems();
    return out;
  }

  /** The profile named by the `.skillflow.json` nearest the first workspace folder, if any. */
  workspaceProfile(): Profile | undefined {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const profile = folder ? this.finder.forDir(folder.uri.fsPath).profile : undefined;
    return profile && PROFILES.includes(profile) ? profile : undefined;
  }

  private published = '';

  private publishConfigProblems(): void {
    const configs = this.finder.configs();
    const signature = configs.map((c) => `${c.file}\n${c.problems.map((p) => `${p.line}:${p.column}:${p.message}`).join('\n')}`).join('\n\n');
    if (signature === this.published) return;
    this.published = signature;
    this.configDiagnostics.clear();
    for (const c of configs) {
      if (c.problems.length) this.configDiagnostics.set(vscode.Uri.file(c.file!), c.problems.map((p) => toDiagnostic(p)));
    }
  }

  /** The `.skillflow.json` a "Disable in this workspace" fix writes for `file`: the nearest one inside the file's workspace folder, else one at that folder's root. */
  workspaceConfigFor(file: string): vscode.Uri | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    const nearest = this.finder.forFile(file).file;
    const root = folder.uri.fsPath;
    if (nearest && !path.relative(root, nearest).startsWith('..') && !path.isAbsolute(path.relative(root, nearest))) return vscode.Uri.file(nearest);
    return vscode.Uri.joinPath(folder.uri, CONFIG_FILE_NAME);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
