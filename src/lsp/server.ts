/**
 * The Skillflow language server (`skillflow lsp --stdio`): the fourth adapter beside the extension, the CLI and the
 * webviews. It imports only the core; every answer (problems, hover text, completions, fixes) is computed there, as
 * for the VS Code extension and the CLI. This file converts positions (core: 1-based, LSP: 0-based UTF-16, which is
 * what JavaScript strings index) and keeps the open documents, the skill index and the rule configuration.
 *
 * Files served: SKILL.md, command files (`.claude/commands/**.md`), agent files (`.claude/agents/` and its subfolders) and
 * `.skillflow.json` (its own `config-invalid` problems); `plugin.json` / `marketplace.json` changes re-validate the
 * skills they name. Diagnostics go out pushed (`textDocument/publishDiagnostics`) or are pulled
 * (`textDocument/diagnostic`, `workspace/diagnostic`) when the client can pull.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeAction, CodeActionKind, type CodeActionParams, type CompletionItem, CompletionItemKind, CompletionItemTag, type Connection,
  type Diagnostic, DiagnosticSeverity, DidChangeWatchedFilesNotification, type DocumentDiagnosticReport, DocumentDiagnosticReportKind,
  type DocumentLink, type InitializeParams, type InitializeResult, type Location, type Range as LspRange, TextDocuments,
  TextDocumentSyncKind, type WorkspaceDiagnosticReport, type WorkspaceEdit, type CreateFile, type TextDocumentEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { applyEdits } from 'jsonc-parser';
import { nodeFileSystem, type FileSystem } from '../core/base/fs';
import { PROFILES, type Problem, type Profile, type Range } from '../core/base/types';
import { SkillIndex } from '../core/catalog/skillIndex';
import { resolveCommand } from '../core/claude/resolve';
import { CONFIG_FILE_NAME, configureProblems, parseRuleConfig, RuleConfigFinder, type RuleSetting, ruleSettingOverrides } from '../core/config/ruleConfig';
import { skillDocKind, validateDocumentText } from '../core/editor/documents';
import {
  agentSkillAt, commandMentionAt, completionsAt, type CompletionEntry, indexProblemsFor, type DocumentPlace, hoverAt, newRuleConfigText, ruleOffEdits,
  type Position,
} from '../core/editor/features';
import { type CreateFileEdit, disableForFileEdit, fixAllEdits, skillFixes, type TextEdit as CoreTextEdit } from '../core/fixes/skillFixes';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.skillflow`;
export const DISABLE_IN_WORKSPACE_COMMAND = 'skillflow.disableRuleInWorkspace';
export const SELECT_RANGE_COMMAND = 'skillflow.selectRange';
/** Edits typed within this many milliseconds are validated once (push model). */
const TYPING_DEBOUNCE_MS = 50;
/** Files whose change on disk the server wants to hear of (registered when the client can watch for it). */
export const WATCHED_GLOBS = [
  '**/SKILL.md', '**/skill.md', '**/.claude/agents/**', '**/agents/**/*.md', '**/hooks/hooks.json', '**/.claude/commands/**/*.md',
  '**/.claude/settings.json', '**/.claude/settings.local.json',
  `**/${CONFIG_FILE_NAME}`, '**/plugin.json', '**/marketplace.json',
];

/** What a client may set in `initializationOptions` (and later with `workspace/didChangeConfiguration`, under `skillflow`). */
export interface ServerSettings {
  profile?: Profile;
  /** Rule overrides, as `skillflow.validation.rules` in VS Code. */
  rules?: Record<string, RuleSetting>;
  includePersonal?: boolean;
  additionalDirectories?: string[];
}

export interface ServerOptions {
  fs?: FileSystem;
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Core time of each single-file validation, for the bench. */
  onValidated?: (file: string, ms: number) => void;
}

type FileKind = 'skill' | 'agent' | 'command' | 'hooks' | 'config' | 'manifest' | undefined;

/** What a file is to the server; `fs` tells a plugin's agents and `hooks/hooks.json` from other files. */
function fileKind(file: string, fs: FileSystem): FileKind {
  const kind = skillDocKind(file, fs);
  if (kind) return kind;
  const base = path.basename(file);
  if (base === CONFIG_FILE_NAME) return 'config';
  if (base === 'plugin.json' || base === 'marketplace.json') return 'manifest';
  return undefined;
}

/** The file path of a `file:` URI; undefined for other schemes and malformed URIs. */
export function uriToPath(uri: string): string | undefined {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined;
  try { return fileURLToPath(uri); } catch { return undefined; }
}

export function pathToUri(file: string): string {
  return pathToFileURL(file).href;
}

/** A WorkspaceEdit that creates each file (never over an existing one) and writes its content. */
function createFilesEdit(files: readonly CreateFileEdit[]): WorkspaceEdit {
  return {
    documentChanges: files.flatMap((c) => {
      const uri = pathToUri(c.path);
      // Without ignoreIfExists: a file made meanwhile fails the edit rather than getting the content inserted at its top.
      const create: CreateFile = { kind: 'create', uri, options: { overwrite: false, ignoreIfExists: false } };
      if (!c.content) return [create];
      const write: TextDocumentEdit = { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: c.content }] };
      return [create, write];
    }),
  };
}

export function toLspRange(r: Range): LspRange {
  const line = Math.max(0, r.line - 1);
  const character = Math.max(0, r.column - 1);
  const endLine = Math.max(line, r.endLine - 1);
  const endCharacter = endLine === line ? Math.max(character, r.endColumn - 1) : Math.max(0, r.endColumn - 1);
  return { start: { line, character }, end: { line: endLine, character: endCharacter } };
}

function fromLspPosition(p: { line: number; character: number }): Position {
  return { line: p.line + 1, column: p.character + 1 };
}

const ITEM_KINDS: Record<CompletionEntry['kind'], CompletionItemKind> = {
  key: CompletionItemKind.Property, value: CompletionItemKind.EnumMember, tool: CompletionItemKind.Function, server: CompletionItemKind.Module,
};

const SEVERITY: Record<Problem['severity'], DiagnosticSeverity> = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information };

export function toLspDiagnostic(p: Problem): Diagnostic {
  return { range: toLspRange(p), severity: SEVERITY[p.severity], source: 'skillflow', code: p.code, message: p.message };
}

/** A skillflow diagnostic sent back by the client as the core problem it was made from. */
function toProblem(d: Diagnostic): Problem | undefined {
  if (d.source !== 'skillflow' || d.code === undefined) return undefined;
  const severity = d.severity === DiagnosticSeverity.Error ? 'error' : d.severity === DiagnosticSeverity.Warning ? 'warning' : 'info';
  const s = fromLspPosition(d.range.start);
  const e = fromLspPosition(d.range.end);
  return { code: String(d.code), severity, message: d.message, line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
}

function textEdits(edits: readonly CoreTextEdit[]): { range: LspRange; newText: string }[] {
  return edits.map((e) => ({ range: toLspRange(e.range), newText: e.newText }));
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const fs = options.fs ?? nodeFileSystem;
  const documents = new TextDocuments(TextDocument);
  let folders: string[] = [];
  let settings: ServerSettings = {};
  let overrides: Record<string, RuleSetting> = {};
  let finder = new RuleConfigFinder(fs);
  let index: SkillIndex | undefined;
  let pull = false;
  let canWatch = false;
  let canShowDocument = false;
  /** The client applies a CreateFile among a WorkspaceEdit's documentChanges (the "Create <file>" quick fix). */
  let canCreateFiles = false;
  let canRefresh = false;
  const timers = new Map<string, NodeJS.Timeout>();
  /** What was last pushed for each URI (push model), so an unchanged result is not sent again. */
  const pushed = new Map<string, string>();

  const folderOf = (file: string) => folders.filter((f) => isInside(file, f)).sort((a, b) => b.length - a.length)[0];
  /** Where a document lives, for the MCP servers in reach of its tools lists. */
  const placeOf = (file: string): DocumentPlace => ({ file, fs, workspaceFolder: folderOf(file) });

  function profile(): Profile {
    if (settings.profile && PROFILES.includes(settings.profile)) return settings.profile;
    const fromFile = folders[0] ? finder.forDir(folders[0]).profile : undefined;
    return fromFile && PROFILES.includes(fromFile) ? fromFile : 'claude-code';
  }

  function getIndex(): SkillIndex {
    if (!index) {
      index = new SkillIndex(fs, {
        workspaceFolders: folders, home: options.home ?? os.homedir(), includePersonal: settings.includePersonal ?? true, profile: profile(),
        additionalDirs: settings.additionalDirectories ?? [], env: options.env ?? process.env,
      });
    }
    try { index.ensureLoaded(); } catch (e) { connection.console.error(`skillflow: the skill index could not load: ${String(e)}`); }
    return index;
  }

  function configure(file: string, problems: readonly Problem[], text?: string): Problem[] {
    const readText = text !== undefined ? () => text : () => { try { return fs.readFile(file).toString('utf8'); } catch { return undefined; } };
    return configureProblems(finder, file, problems, { settingOverrides: overrides, readText }) ?? [];
  }

  /** An open document's problems: its own validation, the index's cross-skill problems, the rule configuration. */
  function problemsOf(file: string, text: string): Problem[] {
    const kind = fileKind(file, fs);
    if (kind === 'config') return parseRuleConfig(text, file).problems;
    if (kind !== 'skill' && kind !== 'agent' && kind !== 'command' && kind !== 'hooks') return [];
    const idx = getIndex();
    const started = performance.now();
    const result = validateDocumentText(file, text, profile(), fs, idx.loaded ? idx.knownSkillNames() : undefined, folderOf(file));
    if (!result) return [];
    const problems = [...result.problems];
    problems.push(...indexProblemsFor(idx, file));
    const out = configure(file, problems, text);
    options.onValidated?.(file, performance.now() - started);
    return out;
  }

  function diagnosticsOf(doc: TextDocument): Diagnostic[] {
    const file = uriToPath(doc.uri);
    return file ? problemsOf(file, doc.getText()).map(toLspDiagnostic) : [];
  }

  function push(uri: string, diagnostics: Diagnostic[]): void {
    const signature = JSON.stringify(diagnostics);
    if (pushed.get(uri) === signature) return;
    pushed.set(uri, signature);
    void connection.sendDiagnostics({ uri, diagnostics });
  }

  function validateOpen(doc: TextDocument): void {
    if (pull) return;
    try { push(doc.uri, diagnosticsOf(doc)); } catch (e) { connection.console.error(`skillflow: validating ${doc.uri} failed: ${String(e)}`); }
  }

  function schedule(doc: TextDocument, delay: number): void {
    if (pull) return;
    clearTimeout(timers.get(doc.uri));
    timers.set(doc.uri, setTimeout(() => { timers.delete(doc.uri); const current = documents.get(doc.uri); if (current) validateOpen(current); }, delay));
  }

  /** Every indexed file that is not open, with its configured problems (closed files' diagnostics). */
  function closedFileProblems(): Map<string, Problem[]> {
    const idx = getIndex();
    const open = new Set(documents.all().map((d) => uriToPath(d.uri)));
    const byFile = new Map<string, Problem[]>();
    const add = (file: string, p?: Problem) => {
      if (open.has(file)) return;
      const list = byFile.get(file) ?? [];
      if (p) list.push(p);
      byFile.set(file, list);
    };
    for (const s of idx.skills) { add(s.skillMdPath); for (const p of s.problems) add(p.file ?? s.skillMdPath, p); }
    for (const a of idx.agents) { add(a.path); for (const p of a.problems) add(p.file ?? a.path, p); }
    for (const c of finder.configs()) if (c.file) { add(c.file); for (const p of c.problems) add(c.file, p); }
    for (const [file, problems] of byFile) byFile.set(file, fileKind(file, fs) === 'config' ? problems : configure(file, problems));
    return byFile;
  }

  /** Everything again (index or configuration changed): open documents re-validated, closed files republished. */
  function refreshAll(): void {
    if (pull) {
      // A pulling client asks again after a refresh; one that cannot be told re-pulls on its next edit.
      if (canRefresh) connection.languages.diagnostics.refresh();
      return;
    }
    for (const d of documents.all()) validateOpen(d);
    const closed = closedFileProblems();
    for (const [file, problems] of closed) push(pathToUri(file), problems.map(toLspDiagnostic));
    const open = new Set(documents.all().map((d) => d.uri));
    for (const uri of [...pushed.keys()]) {
      const file = uriToPath(uri);
      if (!open.has(uri) && (!file || !closed.has(file))) push(uri, []);
    }
  }

  function docAndPath(uri: string): { doc: TextDocument; file: string } | undefined {
    const doc = documents.get(uri);
    const file = uriToPath(uri);
    return doc && file ? { doc, file } : undefined;
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const wsFolders = params.workspaceFolders?.map((f) => uriToPath(f.uri)).filter((f): f is string => f !== undefined);
    const root = params.rootUri ? uriToPath(params.rootUri) : params.rootPath ?? undefined;
    folders = wsFolders?.length ? wsFolders : root ? [root] : [];
    applySettings(params.initializationOptions);
    pull = Boolean(params.capabilities.textDocument?.diagnostic);
    canWatch = Boolean(params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration);
    canShowDocument = Boolean(params.capabilities.window?.showDocument?.support);
    const workspaceEdit = params.capabilities.workspace?.workspaceEdit;
    canCreateFiles = Boolean(workspaceEdit?.documentChanges && workspaceEdit.resourceOperations?.includes('create'));
    canRefresh = Boolean(params.capabilities.workspace?.diagnostics?.refreshSupport);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' '], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
        executeCommandProvider: { commands: [DISABLE_IN_WORKSPACE_COMMAND, SELECT_RANGE_COMMAND] },
        documentLinkProvider: { resolveProvider: false },
        definitionProvider: true,
        ...(pull ? { diagnosticProvider: { identifier: 'skillflow', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
      },
      serverInfo: { name: 'skillflow' },
    };
  });

  function applySettings(value: unknown): void {
    const s = (value && typeof value === 'object' ? (value as { skillflow?: unknown }).skillflow ?? value : {}) as Record<string, unknown>;
    settings = {
      profile: typeof s.profile === 'string' && (PROFILES as readonly string[]).includes(s.profile) ? s.profile as Profile : undefined,
      includePersonal: typeof s.includePersonal === 'boolean' ? s.includePersonal : undefined,
      additionalDirectories: Array.isArray(s.additionalDirectories) ? s.additionalDirectories.filter((d): d is string => typeof d === 'string') : undefined,
    };
    overrides = ruleSettingOverrides(s.rules);
  }

  connection.onInitialized(() => {
    if (canWatch) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) });
    }
    // Closed files' problems once the index has loaded (push model; a pulling client asks with workspace/diagnostic).
    setTimeout(() => { try { if (!pull) refreshAll(); } catch (e) { connection.console.error(`skillflow: ${String(e)}`); } }, 0);
  });

  connection.onDidChangeConfiguration((params) => {
    applySettings(params.settings);
    if (index) index.setOptions({ profile: profile(), includePersonal: settings.includePersonal ?? true, additionalDirs: settings.additionalDirectories ?? [] });
    refreshAll();
  });

  documents.onDidOpen((e) => schedule(e.document, 0));
  documents.onDidChangeContent((e) => schedule(e.document, TYPING_DEBOUNCE_MS));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    if (pull) return;
    // A closed file shows what the index knows of it (nothing when it is not part of any skill set).
    const file = uriToPath(e.document.uri);
    const closed = file ? closedFileProblems().get(file) : undefined;
    push(e.document.uri, closed ? closed.map(toLspDiagnostic) : []);
  });

  /** Files changed on disk: the index re-reads what they concern, a config file resets the rule configuration. */
  function filesChanged(paths: string[]): void {
    if (!paths.length) return;
    if (paths.some((f) => fileKind(f, fs) === 'config')) finder = new RuleConfigFinder(fs);
    try { getIndex().applyChanges(paths); } catch (e) { connection.console.error(`skillflow: ${String(e)}`); }
    // A manifest names plugins, a config file changes rules: the skills under them read both, so everything is redone.
    refreshAll();
  }

  connection.onDidChangeWatchedFiles((params) => {
    filesChanged((params?.changes ?? []).map((c) => uriToPath(c.uri)).filter((f): f is string => f !== undefined));
  });
  // A client that watches no files still saves them: a saved skill, manifest or config file counts as changed.
  documents.onDidSave((e) => {
    const file = uriToPath(e.document.uri);
    if (file && fileKind(file, fs)) filesChanged([file]);
  });

  connection.languages.diagnostics.on((params): DocumentDiagnosticReport => {
    const found = docAndPath(params.textDocument.uri);
    let items: Diagnostic[] = [];
    try {
      if (found) items = diagnosticsOf(found.doc);
      else {
        const file = uriToPath(params.textDocument.uri);
        items = file ? (closedFileProblems().get(file) ?? []).map(toLspDiagnostic) : [];
      }
    } catch (e) { connection.console.error(`skillflow: ${String(e)}`); }
    return { kind: DocumentDiagnosticReportKind.Full, items };
  });

  connection.languages.diagnostics.onWorkspace((): WorkspaceDiagnosticReport => {
    const items: WorkspaceDiagnosticReport['items'] = [];
    for (const [file, problems] of closedFileProblems()) {
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri: pathToUri(file), version: null, items: problems.map(toLspDiagnostic) });
    }
    return { items };
  });

  connection.onHover((params) => {
    const found = docAndPath(params.textDocument.uri);
    if (!found) return null;
    const hover = hoverAt(skillDocKind(found.file, fs), found.doc.getText(), fromLspPosition(params.position), placeOf(found.file));
    return hover ? { contents: { kind: 'markdown', value: hover.markdown }, range: toLspRange(hover.range) } : null;
  });

  connection.onCompletion((params): CompletionItem[] => {
    const found = docAndPath(params.textDocument.uri);
    if (!found) return [];
    const entries = completionsAt(skillDocKind(found.file, fs), found.doc.getText(), fromLspPosition(params.position), profile(), placeOf(found.file)) ?? [];
    return entries.map((e) => ({
      label: e.label,
      kind: ITEM_KINDS[e.kind],
      textEdit: { range: toLspRange(e.range), newText: e.insertText },
      detail: e.detail,
      documentation: e.documentation ? { kind: 'markdown', value: e.documentation } : undefined,
      sortText: e.sortText,
      tags: e.deprecated ? [CompletionItemTag.Deprecated] : undefined,
    }));
  });

  connection.onCodeAction((params: CodeActionParams): CodeAction[] => {
    const found = docAndPath(params.textDocument.uri);
    if (!found) return [];
    const { doc, file } = found;
    const kind = fileKind(file, fs);
    const only = params.context.only;
    const wants = (k: string) => !only || only.some((o) => k === o || k.startsWith(`${o}.`));
    const text = doc.getText();
    const uri = doc.uri;
    const edit = (edits: readonly CoreTextEdit[]): WorkspaceEdit => ({ changes: { [uri]: textEdits(edits) } });
    const actions: CodeAction[] = [];
    const ours = params.context.diagnostics.flatMap((d) => { const p = toProblem(d); return p ? [{ d, p }] : []; });
    if (wants(CodeActionKind.QuickFix)) {
      if ((kind === 'skill' || kind === 'agent' || kind === 'command') && ours.length) {
        const byProblem = new Map(ours.map((o) => [o.p, o.d]));
        for (const f of skillFixes(text, file, ours.map((o) => o.p), { fs, workspaceFolder: folderOf(file) })) {
          if (f.createFiles?.length && !canCreateFiles) continue;
          const action = CodeAction.create(f.title, CodeActionKind.QuickFix);
          action.diagnostics = [byProblem.get(f.problem)!];
          if (f.createFiles?.length) action.edit = createFilesEdit(f.createFiles);
          else if (f.edits.length) action.edit = edit(f.edits);
          else if (f.reveal) action.command = { title: f.title, command: SELECT_RANGE_COMMAND, arguments: [uri, toLspRange(f.reveal)] };
          if (f.preferred) action.isPreferred = true;
          actions.push(action);
        }
      }
      if (kind === 'skill' || kind === 'agent' || kind === 'command') {
        for (const code of [...new Set(ours.map((o) => o.p.code))]) {
          const diagnostics = ours.filter((o) => o.p.code === code).map((o) => o.d);
          const forFile = disableForFileEdit(text, code);
          if (forFile) actions.push({ title: `Disable ${code} for this file`, kind: CodeActionKind.QuickFix, diagnostics, edit: edit([forFile]) });
          const title = `Disable ${code} in this workspace`;
          actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics, command: { title, command: DISABLE_IN_WORKSPACE_COMMAND, arguments: [uri, code] } });
        }
      }
    }
    const fixable = kind === 'skill' || kind === 'agent' || kind === 'command';
    if (fixable && only?.some((o) => FIX_ALL_KIND === o || FIX_ALL_KIND.startsWith(`${o}.`) || o === CodeActionKind.Source)) {
      const edits = fixAllEdits(text, file, problemsOf(file, text), { fs, workspaceFolder: folderOf(file) });
      if (edits.length) actions.push({ title: 'Fix all Skillflow problems', kind: FIX_ALL_KIND, edit: edit(edits) });
    }
    return actions;
  });

  connection.onExecuteCommand(async (params) => {
    const args = params.arguments ?? [];
    if (params.command === SELECT_RANGE_COMMAND) {
      const [uri, range] = args as [string, LspRange];
      if (typeof uri === 'string' && canShowDocument) await connection.window.showDocument({ uri, selection: range, takeFocus: true });
      return null;
    }
    if (params.command === DISABLE_IN_WORKSPACE_COMMAND) {
      const [uri, code] = args as [unknown, unknown];
      const file = typeof uri === 'string' ? uriToPath(uri) : undefined;
      if (!file || typeof code !== 'string') return false;
      return disableInWorkspace(file, code);
    }
    return null;
  });

  /** Sets `rules.<code>` to `off` in the `.skillflow.json` of the file's workspace folder (nearest inside it, else a new one at its root). */
  async function disableInWorkspace(file: string, code: string): Promise<boolean> {
    const folder = folderOf(file);
    if (!folder) {
      void connection.window.showWarningMessage(`Skillflow: ${file} is not in a workspace folder; add "${code}": "off" to a ${CONFIG_FILE_NAME} yourself.`);
      return false;
    }
    const nearest = finder.forFile(file).file;
    const target = nearest && isInside(nearest, folder) ? nearest : path.join(folder, CONFIG_FILE_NAME);
    const targetUri = pathToUri(target);
    const open = documents.get(targetUri);
    let text: string;
    if (open) text = open.getText();
    else {
      try { text = fs.readFile(target).toString('utf8'); } catch { text = ''; }
    }
    const result = ruleOffEdits(text, code);
    if (!result.ok) {
      void connection.window.showErrorMessage(`Skillflow: ${target} was not changed: it ${result.reason}. Fix it first.`);
      return false;
    }
    if (open) {
      const applied = await connection.workspace.applyEdit({ label: `Disable ${code}`, edit: { changes: { [targetUri]: result.edits.map((e) => ({ range: { start: open.positionAt(e.offset), end: open.positionAt(e.offset + e.length) }, newText: e.content })) } } });
      if (!applied.applied) return false;
    } else {
      try {
        fs.writeFileAtomic(target, Buffer.from(text === '' ? newRuleConfigText(code) : applyEdits(text, result.edits), 'utf8'));
      } catch (e) {
        void connection.window.showErrorMessage(`Skillflow: ${target} cannot be written: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
    }
    finder = new RuleConfigFinder(fs);
    refreshAll();
    return true;
  }

  connection.onDocumentLinks((params): DocumentLink[] => {
    const found = docAndPath(params.textDocument.uri);
    if (!found || skillDocKind(found.file) !== 'skill') return [];
    const result = validateDocumentText(found.file, found.doc.getText(), profile(), fs, undefined, folderOf(found.file));
    // Missing targets get a reference-missing diagnostic instead of a dead link.
    return (result?.references ?? []).filter((r) => r.exists).map((r) => ({
      range: toLspRange(r.range), target: pathToUri(r.resolvedPath), tooltip: r.crossSkill ? `Open ${r.target} (another skill)` : `Open ${path.basename(r.resolvedPath)}`,
    }));
  });

  connection.onDefinition((params): Location[] | null => {
    const found = docAndPath(params.textDocument.uri);
    if (!found) return null;
    const kind = skillDocKind(found.file, fs);
    if (!kind || kind === 'hooks') return null;
    const text = found.doc.getText();
    const at = fromLspPosition(params.position);
    const idx = getIndex();
    const start: LspRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (kind === 'agent') {
      const entry = agentSkillAt(text, at);
      if (entry) {
        const matches = idx.skills.filter((s) => s.name === entry.name || s.invocation === `/${entry.name}`);
        return matches.map((s) => ({ uri: pathToUri(s.skillMdPath), range: start }));
      }
    }
    const mention = commandMentionAt(text, at);
    if (!mention) return null;
    const folder = folderOf(found.file);
    const model = idx.models.find((m) => m.startDir === folder) ?? idx.models[0];
    const winner = model ? resolveCommand(model, mention.command).winner : null;
    return winner ? [{ uri: pathToUri(winner.path), range: start }] : null;
  });

  connection.onShutdown(() => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  documents.listen(connection);
  connection.listen();
}
