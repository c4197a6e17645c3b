/** Claude Code plugins: a plugin folder's name (its manifest) and the plugins installed under `~/.claude/plugins`. */
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

/** Install paths of Claude Code's plugins from `~/.claude/plugins/installed_plugins.json` (v1 and v2 layouts); undefined when absent/invalid. */
export function installedPluginPaths(fs: FileSystem, pluginsDir: string): string[] | undefined {
  const file = path.join(pluginsDir, 'installed_plugins.json');
  if (!fs.stat(file)?.isFile) return undefined;
  let data: unknown;
  try { data = JSON.parse(fs.readFile(file).toString('utf8')); } catch { return undefined; }
  const plugins = data && typeof data === 'object' ? (data as { plugins?: unknown }).plugins : undefined;
  if (!plugins || typeof plugins !== 'object') return undefined;
  const paths: string[] = [];
  for (const value of Object.values(plugins as Record<string, unknown>)) {
    for (const install of Array.isArray(value) ? value : [value]) {
      const p = install && typeof install === 'object' ? (install as { installPath?: unknown }).installPath : undefined;
      if (typeof p === 'string' && p) paths.push(p);
    }
  }
  return paths;
}

