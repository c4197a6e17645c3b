/**
 * Skills features (F1, F2, F5): the Skills tree, diagnostics, quick fixes, hovers, completion,
 * document links and the skills commands. Nothing is scanned until the tree first asks.
 */
import * as vscode from 'vscode';
import { SkillsService } from './service';
import { SkillsTreeProvider } from './tree';
import { SkillDiagnostics } from './diagnostics';
import { registerEditorFeatures } from './editorFeatures';
import { registerQuickFixes } from './quickFixes';
import { SkillCommands } from './commands';
import { EditorRuleConfig } from './ruleConfig';
import { registerRuleFixes } from './ruleFixes';

/** Read-only handles for integration tests. */
export interface SkillsApi {
  service: SkillsService;
  treeProvider: SkillsTreeProvider;
  treeView: vscode.TreeView<unknown>;
  diagnostics: vscode.DiagnosticCollection;
  /** `.skillflow.json` + `skillflow.validation.rules` as the editor applies them. */
  rules: EditorRuleConfig;
  /** Resolves when no watcher batch or document validation is pending. */
  whenIdle(): Promise<void>;
}

export function registerSkillsFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): SkillsApi {
  const rulesDoc = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules.md');
  const service = new SkillsService(log);
  const treeProvider = new SkillsTreeProvider(service, log);
  const treeView = vscode.window.createTreeView('skillflow.skills', { treeDataProvider: treeProvider, showCollapseAll: true });
  treeProvider.view = treeView;
  const rules = new EditorRuleConfig(rulesDoc, log);
  const diagnostics = new SkillDiagnostics(service, rulesDoc, log, rules);
  service.setConfigFileProfile(rules.workspaceProfile());
  const commands = new SkillCommands(service, log);

  context.subscriptions.push(
    service,
    treeProvider,
    treeView,
    diagnostics,
    registerEditorFeatures(service),
    registerQuickFixes(),
    rules,
    registerRuleFixes(service, rules, rulesDoc),
    rules.onDidChange(() => service.setConfigFileProfile(rules.workspaceProfile())),
    commands.register(),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('skillflow.listingBudget')) treeProvider.updateViewDescription();
    }),
  );

  return {
    service,
    treeProvider,
    treeView: treeView as vscode.TreeView<unknown>,
    diagnostics: diagnostics.collection,
    rules,
    whenIdle: () => service.work.whenIdle(),
  };
}
