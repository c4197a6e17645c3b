/** The one file-watcher helper: created, changed and deleted files all reach one callback; one Disposable ends it all. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Watches `pattern` (a glob, or a RelativePattern for one folder) and calls `onEvent` with the Uri of every created,
 * changed or deleted file. Dispose the result to stop watching.
 */
export function watchFiles(pattern: vscode.GlobPattern, onEvent: (uri: vscode.Uri) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(pattern);
  return vscode.Disposable.from(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
}

/**
 * Watches the entries of one folder (not its subfolders) with the operating system's watcher, in this process: a
 * created, renamed or deleted entry reaches `onEvent` with its path at once, without the workbench's watcher delay.
 * A folder that cannot be watched (gone, or no watcher available) is skipped: the workbench's watchers still see it.
 */
export function watchEntries(dir: string, onEvent: (file: string) => void): vscode.Disposable {
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(dir, { persistent: false }, (_event, name) => { if (name) onEvent(path.join(dir, name.toString())); });
    watcher.on('error', () => { watcher?.close(); });
  } catch {
    return new vscode.Disposable(() => undefined);
  }
  return new vscode.Disposable(() => watcher?.close());
}
