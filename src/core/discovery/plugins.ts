/** Plugin folders in a workspace: a plugin folder's name (its manifest). Installed plugins are the Claude Code model's (claude/load.ts). */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';

/** How far above a plugin folder a marketplace that lists it is looked for (`./plugins/<name>` is two levels). */
const MARKETPLACE_LEVELS = 4;

/**
 * The plugin name of `dir` when the nearest marketplace (`.claude-plugin/marketplace.json` in a folder at most
 * MARKETPLACE_LEVELS above it) lists it as a local source (`"source": "./plugins/x"`, or a bare name under
 * `metadata.pluginRoot`): Claude Code's manifest is optional, and without one the plugin is named after its folder
 * (as `--plugin-dir` loads it; Claude Code's model of the workspace loads workspace plugins that way). A source that
 * is the marketplace root itself is left out (its entry may pick skills of its own).
 */
function marketplaceNameOf(fs: FileSystem, dir: string): string | undefined {
  // A hidden folder (`.claude`, whose `skills/` every project skill's validation asks about) is no plugin source:
  // no marketplace is looked for or parsed for it.
  if (path.basename(dir).startsWith('.')) return undefined;
  for (let at = dir, level = 0; level < MARKETPLACE_LEVELS; level++) {
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
    const file = path.join(at, '.claude-plugin', 'marketplace.json');
    if (!fs.stat(file)?.isFile) continue;
    let data: unknown;
    try {
      data = JSON.parse(fs.readFile(file).toString('utf8'));
    } catch {
      return undefined; // a half-written marketplace names nothing
    }
    const plugins = (data as { plugins?: unknown } | null)?.plugins;
    const meta = (data as { metadata?: { pluginRoot?: unknown } } | null)?.metadata;
    const pluginRoot = typeof meta?.pluginRoot === 'string' ? meta.pluginRoot : '.';
    if (!Array.isArray(plugins)) return undefined;
    for (const entry of plugins as unknown[]) {
      const { source } = (entry ?? {}) as { source?: unknown };
      if (typeof source !== 'string' || source.includes('\\')) continue;
      const relative = source.startsWith('./') || source === '.' ? source : /^[^/:]+$/.test(source) ? path.posix.join(pluginRoot, source) : undefined;
      if (relative === undefined || path.resolve(at, relative) !== dir) continue;
      return path.basename(dir);
    }
    return undefined; // the nearest marketplace decides
  }
  return undefined;
}

/**
 * The plugin name when `dir` is a plugin folder: `.claude-plugin/plugin.json` or a top-level `plugin.json`, else a
 * marketplace entry that lists it (marketplaceNameOf).
 */
export function pluginNameOf(fs: FileSystem, dir: string): string | undefined {
  return manifestNameOf(fs, dir) ?? marketplaceNameOf(fs, dir);
}

function manifestNameOf(fs: FileSystem, dir: string): string | undefined {
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

/**
 * The plugin name when the skill folder `dir` is itself a plugin with no `skills/` folder: Claude Code loads its root
 * SKILL.md as the plugin's one skill (docs/plugins-reference.md, "a `SKILL.md` at the plugin root is loaded as a single
 * skill"), named by its frontmatter, so `/<plugin>:<name>`, and not after its folder.
 */
export function rootSkillPluginOf(fs: FileSystem, dir: string): string | undefined {
  if (fs.stat(path.join(dir, 'skills'))?.isDirectory) return undefined;
  return pluginNameOf(fs, dir);
}
