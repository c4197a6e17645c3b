/**
 * Owns the SkillIndex inside VS Code: settings, workspace folders, file watchers and the change event.
 * The index loads in the background right after activation (or earlier, when the tree or a command asks first),
 * then updates incrementally from watcher events.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeFileSystem, type FileSystem } from '../../core/base/fs';
import type { Profile } from '../../core/base/types';
import { PROFILES } from '../../core/base/types';
import { DebouncedWork } from '../util/idle';
import { watchEntries, watchFiles } from '../util/watch';
import { SkillIndex, type IndexChange } from '../../core/catalog/skillIndex';
import type { LoadCache } from '../../core/cache/loadCache';
import { startupKey } from './startupCache';

/**
 * Events from the workbench's file watchers are batched this long before the index re-reads the touched skills (an
 * editor's save or a checkout touches several files at once).
 */
const WATCH_BATCH_MS = 15;
/**
 * Events from the direct watch of a skills root or a new skill folder (a skill folder appearing or going, its SKILL.md
 * written) are applied on the next turn of the event loop: the tree shows a new skill within 300 ms of the write, and
 * a folder seen before its SKILL.md is watched until the file arrives (see watchNewFolders).
 */
const ENTRY_BATCH_MS = 0;
/** After the first load, the start-up cache is written this much later (off the path to the first diagnostics). */
const STARTUP_CACHE_SAVE_MS = 500;

/** The `skillflow.validation.profile` setting; when it is not set anywhere, `fromConfigFile` (a `.skillflow.json` profile) or `claude-code`. */
export function readProfile(fromConfigFile?: Profile): Profile {
  const config = vscode.workspace.getConfiguration('skillflow');
  const inspected = config.inspect<string>('validation.profile');
  const explicit = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  if (explicit === undefined && fromConfigFile) return fromConfigFile;
  const value = config.get<string>('validation.profile', 'claude-code');
  return (PROFILES as readonly string[]).includes(value) ? (value as Profile) : 'claude-code';
}

/** `skillflow.skills.additionalDirectories`: the folders Claude Code is started with `--add-dir` (strings only). */
export function readAdditionalDirectories(): string[] {
  const value = vscode.workspace.getConfiguration('skillflow').get<unknown>('skills.additionalDirectories', []);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}

function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class SkillsService implements vscode.Disposable {
  readonly fs: FileSystem = nodeFileSystem;
  readonly index: SkillIndex;
  readonly work = new DebouncedWork();
  private readonly changeEmitter = new vscode.EventEmitter<IndexChange>();
  /** Fires after the index loaded, reloaded or applied watcher changes. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private rootWatchers = new Map<string, vscode.Disposable>();
  private pending = new Set<string>();
  private readonly newFolders = new Map<string, vscode.Disposable>();

  constructor(private readonly log: vscode.LogOutputChannel, home: string = os.homedir()) {
    const config = vscode.workspace.getConfiguration('skillflow');
    // Claude Code's levels: personal (home), managed (the OS's managed-settings folder), --add-dir folders.
    this.index = new SkillIndex(this.fs, {
      workspaceFolders: workspaceFolderPaths(),
      home,
      includePersonal: config.get<boolean>('skills.includePersonal', true),
      profile: readProfile(),
      additionalDirs: readAdditionalDirectories(),
      env: process.env,
    });
    this.disposables.push(this.changeEmitter);
    for (const glob of ['**/SKILL.md', '**/skill.md', '**/.claude/agents/**', '**/.claude/commands/**/*.md', '**/.claude/settings.json', '**/.claude/settings.local.json']) {
      this.disposables.push(watchFiles(glob, (uri) => this.queue(uri)));
    }
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reconfigure({ workspaceFolders: workspaceFolderPaths() })),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillflow.validation.profile')) this.reconfigure({ profile: readProfile(this.configFileProfile) });
        if (e.affectsConfiguration('skillflow.skills.additionalDirectories')) this.reconfigure({ additionalDirs: readAdditionalDirectories() });
        if (e.affectsConfiguration('skillflow.skills.includePersonal')) {
          this.reconfigure({ includePersonal: vscode.workspace.getConfiguration('skillflow').get<boolean>('skills.includePersonal', true) });
        }
      }),
    );
  }

  get profile(): Profile { return this.index.options.profile; }

  private configFileProfile: Profile | undefined;

  /** The profile a `.skillflow.json` names for the workspace (used while the setting is not set); re-validates when that changes the profile. */
  setConfigFileProfile(profile: Profile | undefined): void {
    this.configFileProfile = profile;
    const next = readProfile(profile);
    if (next !== this.profile) this.reconfigure({ profile: next });
  }

  private startup: { cache: LoadCache; key: string } | undefined;

  /**
   * The start-up cache (startupCache.ts) for the next first load: unchanged skills are loaded from it, and the
   * problems are kept in it once loaded (unless the index's options changed in between).
   */
  useStartupCache(cache: LoadCache | undefined): void {
    this.startup = cache && { cache, key: startupKey(this.index.options) };
  }

  /** Loads the index if nobody asked before; returns the load time when it loaded now. */
  ensureLoaded(): number | undefined {
    if (this.index.loaded) return undefined;
    const startup = this.startup;
    this.startup = undefined;
    const same = () => startup !== undefined && startupKey(this.index.options) === startup.key;
    if (same()) {
      const cache = startup!.cache;
      this.index.ensureLoaded(cache);
      // A `.json` configuration the cache did not know of: nothing from it is trusted, loaded again without it.
      if (!cache.trusted()) {
        cache.recordOnly();
        this.index.reload(cache);
      }
    } else {
      this.index.ensureLoaded();
    }
    this.log.info(`indexed ${this.index.skills.length} skills, ${this.index.agents.length} agents in ${this.index.lastLoadMs.toFixed(1)} ms${same() ? ` (start-up cache: ${startup!.cache.stats.hits} reused)` : ''}`);
    this.syncRootWatchers();
    this.changeEmitter.fire({ skills: new Set(this.index.skills.map((s) => s.dir)), structural: true, agents: true });
    if (same()) {
      this.work.schedule('startup-cache', STARTUP_CACHE_SAVE_MS, () => {
        if (!same() || !this.index.loaded) return;
        const started = performance.now();
        startup!.cache.keepProblems(this.fs, this.index.problemsByFile());
        startup!.cache.save();
        this.log.info(`start-up cache written in ${(performance.now() - started).toFixed(0)} ms`);
      });
    }
    return this.index.lastLoadMs;
  }

  /** Full re-scan (the Refresh command). */
  reload(): void {
    if (!this.index.loaded) { this.ensureLoaded(); return; }
    this.index.reload();
    this.log.info(`re-indexed ${this.index.skills.length} skills in ${this.index.lastLoadMs.toFixed(1)} ms`);
    this.syncRootWatchers();
    this.changeEmitter.fire({ skills: new Set(this.index.skills.map((s) => s.dir)), structural: true, agents: true });
  }

  private reconfigure(opts: Parameters<SkillIndex['setOptions']>[0]): void {
    const rebuilt = this.index.setOptions(opts);
    if (opts.profile) this.log.info(`validation profile: ${opts.profile}`);
    if (rebuilt) this.syncRootWatchers();
    // Fired even when the index is not loaded yet: open documents re-validate under the new profile.
    this.changeEmitter.fire({ skills: new Set(this.index.skills.map((s) => s.dir)), structural: true, agents: true });
  }

  /**
   * One recursive watcher per skills root, so scripts/, references/ and folder deletions are seen too; and a direct
   * watch of the root's own entries, so a new or removed skill folder is seen without the workbench's watcher delay.
   */
  private syncRootWatchers(): void {
    const wanted = new Set(this.index.roots.map((r) => r.path));
    for (const [root, watcher] of this.rootWatchers) {
      if (!wanted.has(root)) { watcher.dispose(); this.rootWatchers.delete(root); }
    }
    for (const root of wanted) {
      if (this.rootWatchers.has(root)) continue;
      this.rootWatchers.set(root, vscode.Disposable.from(
        watchFiles(new vscode.RelativePattern(vscode.Uri.file(root), '**'), (uri) => this.queue(uri)),
        watchEntries(root, (entry) => this.queuePath(entry, ENTRY_BATCH_MS)),
      ));
    }
  }

  private queue(uri: vscode.Uri): void {
    if (uri.scheme === 'file') this.queuePath(uri.fsPath);
  }

  /** Queues a changed path; the batch of `delayMs` runs independently of a longer one already waiting (both flush all). */
  private queuePath(file: string, delayMs = WATCH_BATCH_MS): void {
    if (!this.index.loaded) return;
    this.pending.add(file);
    this.work.schedule(delayMs === WATCH_BATCH_MS ? 'watch' : `watch:${delayMs}`, delayMs, () => this.flush());
  }

  /** Applies queued paths now (also used by tests through whenIdle). */
  private flush(): void {
    const paths = [...this.pending];
    this.pending.clear();
    if (!paths.length) return;
    const started = performance.now();
    const change = this.index.applyChanges(paths);
    this.watchNewFolders(paths);
    if (!change.skills.size && !change.structural && !change.agents) return;
    if (change.structural) this.syncRootWatchers();
    this.log.debug(`re-read ${change.skills.size} skill(s) for ${paths.length} change(s) in ${(performance.now() - started).toFixed(1)} ms`);
    this.changeEmitter.fire(change);
  }

  /**
   * A folder that appeared in a skills root without a SKILL.md yet is watched directly until it holds a skill or
   * goes away, so the SKILL.md written next shows in the tree as fast as the folder itself would.
   */
  private watchNewFolders(paths: string[]): void {
    const roots = new Set(this.index.roots.map((r) => r.path));
    for (const p of paths) {
      if (roots.has(path.dirname(p)) && !this.newFolders.has(p) && !this.index.skillByDir(p) && this.fs.stat(p)?.isDirectory) {
        this.newFolders.set(p, watchEntries(p, (entry) => this.queuePath(entry, ENTRY_BATCH_MS)));
        // Written between the index's look and the watch: no event will come for it.
        if (this.fs.stat(path.join(p, 'SKILL.md'))?.isFile || this.fs.stat(path.join(p, 'skill.md'))?.isFile) this.queuePath(p, ENTRY_BATCH_MS);
      }
    }
    for (const [dir, watcher] of this.newFolders) {
      if (this.index.skillByDir(dir) || !roots.has(path.dirname(dir)) || !this.fs.stat(dir)?.isDirectory) { watcher.dispose(); this.newFolders.delete(dir); }
    }
  }

  /** Applies file changes the caller made itself (New Skill) without waiting for the watcher. */
  notifyChanged(paths: string[]): void {
    if (!this.index.loaded) return;
    for (const p of paths) this.pending.add(p);
    this.flush();
  }

  dispose(): void {
    this.work.dispose();
    for (const w of this.rootWatchers.values()) w.dispose();
    this.rootWatchers.clear();
    for (const w of this.newFolders.values()) w.dispose();
    this.newFolders.clear();
    for (const d of this.disposables) d.dispose();
  }
}
