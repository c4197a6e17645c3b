/**
 * The `skillflow` DiagnosticCollection: open SKILL.md, agent and command files are validated from their text as you
 * type (debounced, stale results dropped by a generation counter); closed files get the index's problems.
 */
import * as vscode from 'vscode';
import type { Problem } from '../../core/base/types';
import { toDiagnostic } from '../adapters/ranges';
import type { SkillsService } from './service';
import type { IndexChange } from '../../core/catalog/skillIndex';
import { skillDocKind, validateDocumentText } from './documents';
import { indexProblemsFor, problemsSignature } from '../../core/editor/features';
import type { EditorRuleConfig } from './ruleConfig';

const TYPING_DEBOUNCE_MS = 250;

export class SkillDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('skillflow');
  private readonly generations = new Map<string, number>();
  /** Files whose diagnostics currently come from the index (closed files), with what was published for each. */
  private fromIndex = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly service: SkillsService, private readonly log: vscode.LogOutputChannel, private readonly rules?: EditorRuleConfig) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => { if (e.contentChanges.length) this.schedule(e.document, TYPING_DEBOUNCE_MS); }),
      vscode.workspace.onDidCloseTextDocument((d) => this.onClose(d)),
      service.onDidChange((change) => this.refresh(change)),
    );
    if (rules) this.disposables.push(rules.onDidChange(() => this.refreshAll()));
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private isTracked(doc: vscode.TextDocument): boolean {
    return doc.uri.scheme === 'file' && skillDocKind(doc.uri.fsPath, this.service.fs) !== undefined;
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!this.isTracked(doc)) return;
    const key = doc.uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    this.service.work.schedule(`diag:${key}`, delay, () => this.validate(doc, generation));
  }

  private validate(doc: vscode.TextDocument, generation: number): void {
    const key = doc.uri.toString();
    if (doc.isClosed || this.generations.get(key) !== generation) return;
    const started = performance.now();
    const index = this.service.index;
    const result = validateDocumentText(doc.uri.fsPath, doc.getText(), this.service.profile, this.service.fs, index.loaded ? index.knownSkillNames() : undefined, vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath);
    if (!result) return;
    // A newer edit arrived while validating: drop this result.
    if (this.generations.get(key) !== generation) return;
    let problems = [...result.problems];
    problems.push(...indexProblemsFor(index, doc.uri.fsPath));
    problems = this.configure(doc.uri.fsPath, problems, doc.getText());
    // Re-publishing identical markers would cancel in-flight code action and hover requests in the editor.
    const signature = problemsSignature(problems);
    const published = this.collection.get(doc.uri) ?? [];
    const publishedSignature = published.map((d) => `${String((d.code as { value: string }).value)}|${['error', 'warning', 'info', 'info'][d.severity]}|${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}|${d.message}`).join('\n');
    if (signature !== publishedSignature) this.collection.set(doc.uri, problems.map((p) => toDiagnostic(p)));
    this.fromIndex.delete(doc.uri.fsPath);
    this.log.trace(`validated ${doc.uri.fsPath} in ${(performance.now() - started).toFixed(2)} ms`);
  }

  private onClose(doc: vscode.TextDocument): void {
    if (!this.isTracked(doc)) return;
    this.generations.set(doc.uri.toString(), (this.generations.get(doc.uri.toString()) ?? 0) + 1);
    this.collection.delete(doc.uri);
    this.fromIndex.delete(doc.uri.fsPath);
    this.refreshAll();
  }

  private openPaths(): Set<string> {
    return new Set(vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.uri.scheme === 'file').map((d) => d.uri.fsPath));
  }

  /** After a watcher batch that did not restructure the index: republish only the touched skills (and agents). */
  private refresh(change: IndexChange): void {
    const index = this.service.index;
    if (change.structural || !index.loaded) { this.refreshAll(); return; }
    const open = this.openPaths();
    for (const d of vscode.workspace.textDocuments) if (open.has(d.uri.fsPath)) this.schedule(d, 0);
    for (const dir of change.skills) {
      const s = index.skillByDir(dir);
      if (s && !open.has(s.skillMdPath)) this.publishFromIndex(s.skillMdPath, s.problems.filter((p) => !p.file || p.file === s.skillMdPath));
    }
    if (change.agents) for (const a of index.agents) if (!open.has(a.path)) this.publishFromIndex(a.path, a.problems.filter((p) => !p.file || p.file === a.path));
  }

  /**
   * Publishes a closed file's problems from the index, unless they are what it already shows: a new skill folder then
   * sends the workbench one file's markers, not every file's again (which the Problems view would redraw).
   */
  private publishFromIndex(file: string, all: Problem[]): void {
    const problems = this.configure(file, all);
    const signature = problemsSignature(problems);
    if (this.fromIndex.get(file) === signature) return;
    this.fromIndex.set(file, signature);
    this.collection.set(vscode.Uri.file(file), problems.length ? problems.map((p) => toDiagnostic(p)) : undefined);
  }

  /** Publishes the index's problems for closed files and re-validates open ones (profile or index changed). */
  refreshAll(): void {
    const open = this.openPaths();
    for (const d of vscode.workspace.textDocuments) if (open.has(d.uri.fsPath)) this.schedule(d, 0);
    const index = this.service.index;
    if (!index.loaded) return;
    const byFile = index.problemsByFile();
    for (const [file, all] of byFile) if (!open.has(file)) this.publishFromIndex(file, all);
    for (const file of [...this.fromIndex.keys()]) {
      if (byFile.has(file) && !open.has(file)) continue;
      this.fromIndex.delete(file);
      if (!open.has(file)) this.collection.delete(vscode.Uri.file(file));
    }
  }

  /**
   * Problems from the start-up cache (startupCache.ts), shown until the index has loaded: closed files only (open ones
   * are validated from their text), replaced by refreshAll() after the load.
   */
  publishCached(shown: ReadonlyArray<{ file: string; problems: Problem[] }>): void {
    if (this.service.index.loaded) return;
    const open = this.openPaths();
    for (const { file, problems } of shown) if (!open.has(file)) this.publishFromIndex(file, problems);
  }

  /** Forgets every published problem (a cold start in tests). */
  clear(): void {
    this.collection.clear();
    this.fromIndex.clear();
  }

  /** The rule configuration (`.skillflow.json`, the setting, disable comments) applied to one file's problems. */
  private configure(file: string, problems: Problem[], text?: string): Problem[] {
    return this.rules ? this.rules.apply(file, problems, text) : problems;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
