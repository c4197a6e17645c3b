/**
 * Claude Code's model inside VS Code: one model per workspace folder (the folder is the start folder, the user's home
 * gives personal skills, user settings and installed plugins, `skillflow.skills.additionalDirectories` stands for
 * `--add-dir`). The models are the skills index's (the same discovery the CLI's `resolve` and `listing` run, plugins
 * and nested levels included), so the tree, What Claude Sees and Who Answers… read one model; this service adds the
 * listing and watches the files outside the workspace the model reads.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClaudeModel } from '../../core/claude/load';
import { claudeConfigDir, defaultManagedDir } from '../../core/claude/settings';
import { computeListing, type Listing } from '../../core/claude/listing';
import { resolveCommand, type ResolveResult } from '../../core/claude/resolve';
import { parseContextWindow, type ContextWindow } from '../../webview/listingView';
import { DebouncedWork } from '../util/idle';
import { watchFiles } from '../util/watch';
import type { SkillsService } from '../skills/service';

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

  constructor(private readonly log: vscode.LogOutputChannel, private readonly skills: SkillsService, readonly home: string = os.homedir()) {
    this.disposables.push(this.changeEmitter);
    this.watchOutside();
    this.disposables.push(
      // The index re-reads workspace files and settings itself; its change is the model's change.
      skills.onDidChange(() => this.changed('skills index')),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watchOutside()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillflow.skills.additionalDirectories')) this.watchOutside();
        if (e.affectsConfiguration('skillflow.listing.contextWindow')) this.changed('context window');
      }),
    );
  }

  /** The workspace folders on disk, in order. */
  folders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  /** The folder picked in What Claude Sees (its uri), if any. */
  pickedFolder: string | undefined;

  /**
   * The folder the listing is shown for (What Claude Sees and the Skills header): the one picked in the view, else
   * the active editor's, else the first.
   */
  listingFolder(): vscode.WorkspaceFolder | undefined {
    const folders = this.folders();
    const picked = folders.find((f) => f.uri.toString() === this.pickedFolder);
    if (picked) return picked;
    const active = vscode.window.activeTextEditor?.document.uri;
    return (active && folders.find((f) => f === vscode.workspace.getWorkspaceFolder(active))) ?? folders[0];
  }

  /** The model and listing of the folder the listing is shown for (built now when not cached). */
  shownListing(): FolderModel | undefined {
    const folder = this.listingFolder();
    return folder && this.get(folder);
  }

  /** Picks the folder What Claude Sees shows; the views follow through `onDidChange`. */
  pickFolder(folder: vscode.WorkspaceFolder): void {
    this.pickedFolder = folder.uri.toString();
    this.changeEmitter.fire();
  }

  /** The model and listing of a folder (built now when not cached). */
  get(folder: vscode.WorkspaceFolder): FolderModel {
    const key = folder.uri.toString();
    const model = this.modelOf(folder);
    const cached = this.models.get(key);
    // The index may have applied a change whose batched event has not reached this service yet.
    if (cached?.model === model) return cached;
    const started = performance.now();
    const contextWindow = readContextWindow();
    const listing = computeListing(model.entries, model.settings, { contextWindowTokens: contextWindow.tokens, env: model.env });
    const built: FolderModel = { folder, model, listing, contextWindow, buildMs: performance.now() - started };
    this.models.set(key, built);
    this.log.info(`Claude Code listing for ${folder.name}: ${model.entries.length} entries, ${listing.used}/${listing.budget} characters, computed in ${built.buildMs.toFixed(1)} ms`);
    return built;
  }

  /** The index's model for a folder (the index loads now when nobody asked before). */
  private modelOf(folder: vscode.WorkspaceFolder): ClaudeModel {
    this.skills.ensureLoaded();
    const index = this.skills.index;
    const at = index.options.workspaceFolders.indexOf(folder.uri.fsPath);
    const model = at >= 0 ? index.models[at] : undefined;
    if (model) return model;
    // A folder the index does not know yet (folders changed, its event not applied): read again.
    this.skills.reload();
    const again = index.options.workspaceFolders.indexOf(folder.uri.fsPath);
    if (again >= 0 && index.models[again]) return index.models[again];
    throw new Error(`no Claude Code model for ${folder.name}`);
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

  /** Reads the files again now (after Skillflow wrote a file itself) and tells the views. */
  refreshNow(): void {
    this.skills.reload();
    this.models.clear();
    this.changeEmitter.fire();
  }

  private changed(why: string): void {
    this.work.schedule('claude-model', CHANGE_BATCH_MS, () => {
      this.log.debug(`Claude Code model: rebuild (${why})`);
      this.models.clear();
      this.changeEmitter.fire();
    });
  }

  /** A file outside the workspace the model reads changed: the index reads everything again. */
  private watch(pattern: vscode.GlobPattern): vscode.Disposable {
    return watchFiles(pattern, (uri) => this.work.schedule('claude-outside', CHANGE_BATCH_MS, () => {
      this.log.debug(`Claude Code model: ${uri.fsPath} changed outside the workspace`);
      this.skills.reload();
    }));
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
