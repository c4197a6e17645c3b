/**
 * The editor's start-up cache: the cache `skillflow validate --cache` keeps (core/cache/loadCache.ts: each skill's load
 * with the trace of every question it asked the disk, every `.json` configuration fingerprinted), plus the problems
 * each file showed. Kept in the workspace's storage folder (VS Code's `storageUri`, never in the workspace itself), one
 * file, written after the first load of a session.
 *
 * At activation the problems of every file whose trace still holds are published at once; the full load then runs in
 * the background (its unchanged skills come from the same cache) and replaces them all. A file that changed since is
 * never shown from the cache; problems between skills (a duplicate name) can be out of date until the load ends.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { nodeFileSystem } from '../../core/base/fs';
import { diskFingerprint } from '../../core/cache/answers';
import { LoadCache } from '../../core/cache/loadCache';
import type { SkillIndexOptions } from '../../core/catalog/skillIndex';

const FILE = 'skills-cache-v1.json';

/** Everything but the disk that the index's problems depend on: its options and Claude Code's environment variables. */
export function startupKey(options: SkillIndexOptions): string {
  const { env, ...rest } = options;
  const claudeEnv = Object.entries(env ?? {}).filter(([k]) => k.startsWith('CLAUDE_')).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify({ ...rest, claudeEnv });
}

/** The start-up cache of this workspace, or undefined without a storage folder on disk (no folder open, a remote one). */
export function openStartupCache(storage: vscode.Uri | undefined, options: SkillIndexOptions): LoadCache | undefined {
  if (!storage || storage.scheme !== 'file') return undefined;
  return new LoadCache({
    file: path.join(storage.fsPath, FILE),
    // Any rebuild or update of the extension is another build; Node (the editor's) and the platform too.
    key: { build: diskFingerprint(__filename)?.fingerprint ?? 'unknown', platform: process.platform, node: process.version, editor: startupKey(options) },
    fingerprint: diskFingerprint,
    io: {
      read: (file) => { try { return nodeFs.readFileSync(file); } catch { return undefined; } },
      write: (file, data) => { nodeFileSystem.mkdirp(path.dirname(file)); nodeFileSystem.writeFileAtomic(file, data); },
    },
  });
}
