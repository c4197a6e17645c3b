/** Diagnostics (collection `skillflow-workflow`) on registry.json, status.json and .context.json from the workflow checks. */
import * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import type { WorkflowProblem } from '../../core/workflow/scan';
import { toVsRange } from '../adapters/ranges';
import type { WorkflowService } from './service';

const SEVERITY: Record<WorkflowProblem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class WorkflowDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('skillflow-workflow');
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: WorkflowService) {
    this.subscription = service.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (p: WorkflowProblem) => {
      // A problem about a file that is not there (registry-missing) has nothing to attach to: the tree shows it.
      if (!p.file || !nodeFileSystem.stat(p.file)?.isFile) return;
      const d = new vscode.Diagnostic(p.range ? toVsRange(p.range) : new vscode.Range(0, 0, 0, 0), p.message, SEVERITY[p.severity]);
      d.source = 'skillflow';
      d.code = p.code;
      let list = byFile.get(p.file);
      if (!list) byFile.set(p.file, (list = []));
      list.push(d);
    };
    for (const root of this.service.registryProblems) root.problems.forEach(add);
    // While a half-written file is being waited out, its old (good) problems stand.
    for (const wf of this.service.workflows) wf.problems.forEach(add);
    this.collection.clear();
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}
