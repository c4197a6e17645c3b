// Helpers for integration suites running inside the real VS Code extension host.
import * as vscode from 'vscode';

export const EXTENSION_ID = 'skillflow.skillflow';

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

type Falsy = undefined | null | false | 0 | '';

/** Polls `fn` every 100 ms until it returns a truthy value (returned) or `ms` pass (throws, naming `what`). */
export async function waitFor<T>(fn: () => T | Falsy | PromiseLike<T | Falsy>, ms = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out after ${ms} ms: ${what}`);
    await sleep(100);
  }
}

/**
 * Resolves once `event` has not fired for `quietMs` (at most `maxMs` in all): what an earlier test changed on disk (a
 * file it removed, reported late by the watcher) has been taken in before a test counts the events its own change causes.
 */
export async function settled(event: vscode.Event<unknown>, quietMs = 300, maxMs = 3_000): Promise<void> {
  let last = Date.now();
  const listening = event(() => { last = Date.now(); });
  try {
    const deadline = Date.now() + maxMs;
    while (Date.now() - last < quietMs && Date.now() < deadline) await sleep(50);
  } finally {
    listening.dispose();
  }
}

/** The Skillflow extension (throws if it is not installed/loaded). */
export function getExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

/** Activates Skillflow (if needed) and returns what activate() returned: `{ skills, workflows, checkpoints }`. */
export async function getApi<T = Record<string, unknown>>(): Promise<T> {
  const ext = getExtension();
  return (ext.isActive ? ext.exports : await ext.activate()) as T;
}

/** The first workspace folder's path (the fresh copy of examples/demo-workspace the runner opened). */
export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri.fsPath;
}

/** A URI inside the workspace folder. */
export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

/** Path of the file the stand-in `claude` (test/e2e/bin/claude) appends its arguments to. */
export function fakeClaudeLogPath(): string {
  return process.env.SKILLFLOW_FAKE_CLAUDE_LOG || '/tmp/skillflow-fake-claude.log';
}

/** The command ids Skillflow contributes in package.json. */
export function contributedCommands(): string[] {
  const pkg = getExtension().packageJSON as { contributes?: { commands?: Array<{ command: string }> } };
  return (pkg.contributes?.commands ?? []).map((c) => c.command);
}

/**
 * Code actions for a range. Retried (up to 5 s) while the request is cancelled by a concurrent diagnostics update
 * or answers nothing because the freshly opened document has no language yet (providers are chosen by language).
 */
export async function quickFixes(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
      if (actions.length || Date.now() > deadline) return actions;
    } catch (err) {
      if (Date.now() > deadline || !/Canceled/.test(String(err))) throw err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
