/**
 * Skills feature wiring: the service (index + watchers), the views (Skills tree, rules page), diagnostics, editor
 * features, quick fixes and the skills commands. The index loads in the background right after activation, so
 * Problems and the tree are right before anyone opens the Skills view.
 */
import * as vscode from 'vscode';
import { SkillsService } from './service';
import { SkillsTreeProvider } from './tree';
import { SkillDiagnostics } from './diagnostics';
import { registerEditorFeatures } from './editorFeatures';
import { registerQuickFixes } from './quickFixes';
import { SkillCommands } from './commands';
import { RulesPage } from './rulesPage';
import type { SkillsTimings } from './timings';
import { EditorRuleConfig } from './ruleConfig';
import { registerRuleFixes } from './ruleFixes';
import { openStartupCache } from './startupCache';

/** The skills feature's one test API (also the extension's export): handles and figures, read-only. */
export interface SkillsApi {
  service: SkillsService;
  treeProvider: SkillsTreeProvider;
  treeView: vscode.TreeView<unknown>;
  diagnostics: vscode.DiagnosticCollection;
  rules: RulesPage;
  /** `.skillflow.json` + `skillflow.validation.rules` as the editor applies them. */
  ruleConfig: EditorRuleConfig;
  /** The New Skill step on screen (an InputBox or QuickPick), if any. */
  readonly activeInput: vscode.QuickInput | undefined;
  /** Start-up figures (filled in as they happen). */
  timings: Readonly<SkillsTimings>;
  /** Resolves when neither the background load, a watcher batch nor a document validation is pending. */
  whenIdle(): Promise<void>;
  /**
   * For tests: starts again as at activation (index unloaded, Problems cleared, the start-up cache's problems shown,
   * the load scheduled); returns how many files' problems came from the cache, before the load has run.
   */
  coldStart(): number;
}

/** `startedAt`: `performance.now()` when `activate()` began (the start-up figures count from there). */
export function registerSkillsFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, startedAt = performance.now()): SkillsApi {
  const timings: SkillsTimings = {};
  const service = new SkillsService(log);
  const ruleConfig = new EditorRuleConfig(log);
  const treeProvider = new SkillsTreeProvider(service, log, timings, ruleConfig);
  const treeView = vscode.window.createTreeView('skillflow.skills', { treeDataProvider: treeProvider, showCollapseAll: true });
  treeProvider.view = treeView;
  const diagnostics = new SkillDiagnostics(service, log, ruleConfig);
  service.setConfigFileProfile(ruleConfig.workspaceProfile());
  const rules = new RulesPage(context.extensionUri, log);
  const commands = new SkillCommands(service, log, treeProvider);

  context.subscriptions.push(
    service,
    treeProvider,
    treeView,
    diagnostics,
    rules,
    rules.register(),
    registerEditorFeatures(service),
    registerQuickFixes(service.fs),
    ruleConfig,
    registerRuleFixes(service, ruleConfig),
    ruleConfig.onDidChange(() => service.setConfigFileProfile(ruleConfig.workspaceProfile())),
    commands.register(),
    // After SkillDiagnostics' listener: when this runs, the first diagnostics are published.
    service.onDidChange(() => {
      if (timings.indexLoadMs !== undefined || !service.index.loaded) return;
      timings.indexLoadMs = service.index.lastLoadMs;
      timings.startupToDiagnosticsMs = performance.now() - startedAt;
      log.info(`first diagnostics ${timings.startupToDiagnosticsMs.toFixed(0)} ms after activation started (${timings.loadedInBackground ? 'background' : 'on demand'} index load ${timings.indexLoadMs.toFixed(0)} ms, ${service.index.skills.length} skills)`);
    }),
  );
  // Start-up: the problems the start-up cache still vouches for are shown now; the first load runs as a zero-delay
  // task, so `activate()` returns first (whenIdle() waits for it), and replaces them.
  const start = (): number => {
    const cache = openStartupCache(context.storageUri, service.index.options);
    service.useStartupCache(cache);
    const shown = cache?.shownProblems(service.fs) ?? [];
    diagnostics.publishCached(shown);
    if (cache) {
      timings.startupToCachedProblemsMs = performance.now() - startedAt;
      timings.cachedProblemFiles = shown.length;
      log.info(`start-up cache: problems of ${shown.length} file(s) shown ${timings.startupToCachedProblemsMs.toFixed(0)} ms after activation started`);
    }
    service.work.schedule('load', 0, () => {
      if (service.index.loaded) return;
      timings.loadedInBackground = true;
      service.ensureLoaded();
    });
    return shown.length;
  };
  start();

  return {
    service,
    treeProvider,
    treeView: treeView as vscode.TreeView<unknown>,
    diagnostics: diagnostics.collection,
    rules,
    ruleConfig,
    get activeInput() { return commands.activeInput; },
    timings,
    whenIdle: () => service.work.whenIdle(),
    coldStart: () => {
      service.index.unload();
      diagnostics.clear();
      timings.indexLoadMs = undefined;
      startedAt = performance.now();
      return start();
    },
  };
}
