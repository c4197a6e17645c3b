/** Plugin folders in a workspace: a plugin folder's name (its manifest). Installed plugins are the Claude Code model's (claude/load.ts). */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';

/** The plugin name when `dir` is a plugin folder (`.claude-plugin/plugin.json` or a top-level `plugin.json`). */
export function pluginNameOf(fs: FileSystem, dir: string): string | undefined {
  for (const manifest of [path.join(dir, '.claude-plugin', 'plugin.json'), path.join(dir, 'plugin.json')]) {
    if (!fs.stat(manifest)?.isFile) continue;
    try {
      const data: unknown = JSON.parse(fs.readFile(manifest).toString('utf8'));
      if (data && typeof data === 'object' && typeof (data as { name?: unknown }).name === 'string') {
        const name = ((data as { name: string }).name).trim();
        if (name) return name;
      }
    } catch {
      // An unreadable or invalid manifest still marks a plugin; the folder name stands in for its name.
    }
    return path.basename(dir);
  }
  return undefined;
}
