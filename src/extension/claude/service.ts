/**
 * Owns the Claude Code model inside VS Code: one model per workspace folder (the folder is the start folder, the
 * user's home gives personal skills and user settings, `skillflow.skills.additionalDirectories` stands for
 * `--add-dir`), built when first asked and dropped when a skill, command or settings file changes.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildClaudeModel, type ClaudeModel } from '../../core/claude/load';
import { claudeConfigDir, defaultManagedDir } from '../../core/claude/settings';
import { computeListing, type Listing } from '../../core/claude/listing';
import { resolveCommand, type ResolveResult } from '../../core/claude/resolve';
import { nodeFileSystem } from '../../core/base/fs';
import { parseContextWindow, type ContextWindow } from '../../webview/listingView';
import { DebouncedWork } from '../util/idle';
import { watchFiles } from '../util/watch';

/** File events are batched this long before the models are dropped and the views rebuild. */
const CHANGE_BATCH_MS = 120;

export interface FolderModel {
  folder: vscode.WorkspaceFolder;
  model: ClaudeModel;
  listing: Listing;
  contextWindow: ContextWindow;
  /** Model build + listing, in ms. */
  buildMs: number;
}

export function readContextWindow(): ContextWindow {
  return parseContextWindow(vscode.workspace.getConfiguration('skillflow').get<unknown>('listing.contextWindow'));
}

/** `skillflow.skills.additionalDirectories` for a folder: strings only, relative ones against the folder. */
export function readAdditionalDirs(folder: vscode.WorkspaceFolder): string[] {
  const value = vscode.workspace.getConfiguration('skillflow', folder.uri).get<unknown>('skills.additionalDirectories');
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => path.resolve(folder.uri.fsPath, v.trim()));
}

export class ClaudeService implements vscode.Disposable {
  readonly work = new DebouncedWork();
  private readonly models = new Map<string, FolderModel>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires (batched) after a skill, command or settings file changed, or a setting that shapes the model. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private outsideWatchers: vscode.Disposable[] = [];

  constructor(private readonly log: vscode.LogOutputChannel, readonly home: string = os.homedir()) {
    this.disposables.push(this.changeEmitter, this.watch('**/.claude/**'));
    this.watchOutside();
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => { this.watchOutside(); this.changed('workspace folders'); }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillflow.skills.additionalDirectories')) { this.watchOutside(); this.changed('additional directories'); }
        if (e.affectsConfiguration('skillflow.listing.contextWindow')) this.changed('context window');
      }),
    );
  }

  /** The workspace folders on disk, in order. */
  folders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  /** The model and listing of a folder (built now when not cached). */
  get(folder: vscode.WorkspaceFolder): FolderModel {
    const key = folder.uri.toString();
    const cached = this.models.get(key);
    if (cached) return cached;
    const started = performance.now();
    const model = buildClaudeModel(nodeFileSystem, {
      startDir: folder.uri.fsPath,
      home: this.home,
      additionalDirs: readAdditionalDirs(folder),
      env: process.env,
    });
    const contextWindow = readContextWindow();
    const listing = computeListing(model.entries, model.settings, { contextWindowTokens: contextWindow.tokens, env: model.env });
    const built: FolderModel = { folder, model, listing, contextWindow, buildMs: performance.now() - started };
    this.models.set(key, built);
    this.log.info(`Claude Code model for ${folder.name}: ${model.entries.length} entries, listing ${listing.used}/${listing.budget} characters, built in ${built.buildMs.toFixed(1)} ms`);
    return built;
  }

  /** Who answers `command` in each workspace folder. */
  resolve(command: string): Array<{ folder: vscode.WorkspaceFolder; result: ResolveResult; model: ClaudeModel }> {
    return this.folders().map((folder) => {
      const { model } = this.get(folder);
      return { folder, model, result: resolveCommand(model, command) };
    });
  }

  /** Every command name the loaded entries answer to, across the folders (sorted, no duplicates). */
  knownCommands(): Array<{ command: string; description: string }> {
    const seen = new Map<string, string>();
    for (const folder of this.folders()) {
      for (const e of this.get(folder).model.entries) {
        if (!e.loaded) continue;
        for (const c of [e.invocation, e.bareInvocation]) {
          if (c && !seen.has(c)) seen.set(c, `${e.level} ${e.kind}${e.shadowedBy ? ' (shadowed)' : ''}`);
        }
      }
    }
    return [...seen].map(([command, description]) => ({ command, description })).sort((a, b) => a.command.localeCompare(b.command));
  }

  /** Drops the models now (after Skillflow wrote a file itself) and tells the views. */
  refreshNow(): void {
    this.models.clear();
    this.changeEmitter.fire();
  }

  private changed(why: string): void {
    this.work.schedule('claude-model', CHANGE_BATCH_MS, () => {
      this.log.debug(`Claude Code model: rebuild (${why})`);
      this.refreshNow();
    });
  }

  private watch(pattern: vscode.GlobPattern): vscode.Disposable {
    return watchFiles(pattern, (uri) => this.changed(uri.fsPath));
  }

  /** Folders outside the workspace the model reads: the user's Claude folder, the managed folder, `--add-dir` folders. */
  private watchOutside(): void {
    for (const d of this.outsideWatchers) d.dispose();
    const config = claudeConfigDir(this.home, process.env);
    const managed = defaultManagedDir(process.platform);
    const patterns = [
      new vscode.RelativePattern(vscode.Uri.file(config), '{settings.json,skills/**,commands/**}'),
      new vscode.RelativePattern(vscode.Uri.file(managed), '{managed-settings.json,managed-settings.d/*.json,.claude/skills/**,.claude/commands/**}'),
    ];
    for (const folder of this.folders()) {
      for (const dir of readAdditionalDirs(folder)) patterns.push(new vscode.RelativePattern(vscode.Uri.file(dir), '.claude/**'));
    }
    this.outsideWatchers = patterns.map((p) => this.watch(p));
  }

  dispose(): void {
    this.work.dispose();
    for (const d of this.outsideWatchers) d.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
