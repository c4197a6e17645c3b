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
  const m = marketplaceOf(fs, dir, 1);
  return m?.entry !== undefined ? path.basename(dir) : undefined;
}

/** The nearest marketplace above `dir` (from `from` levels up), its parsed content, and the entry that lists `dir`. */
interface Marketplace { file: string; data?: unknown; error?: string; entry?: Record<string, unknown> }

function marketplaceOf(fs: FileSystem, dir: string, from: number): Marketplace | undefined {
  let at = dir;
  for (let level = 0; level < from; level++) at = path.dirname(at);
  for (let level = from; level <= MARKETPLACE_LEVELS; level++, at = path.dirname(at)) {
    const file = path.join(at, '.claude-plugin', 'marketplace.json');
    if (!fs.stat(file)?.isFile) {
      if (path.dirname(at) === at) return undefined;
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(fs.readFile(file).toString('utf8').replace(/^\uFEFF/, ''));
    } catch (e) {
      return { file, error: `not valid JSON (${(e as Error).message})` }; // a half-written marketplace names nothing
    }
    const plugins = (data as { plugins?: unknown } | null)?.plugins;
    const meta = (data as { metadata?: { pluginRoot?: unknown } } | null)?.metadata;
    const pluginRoot = typeof meta?.pluginRoot === 'string' ? meta.pluginRoot : '.';
    if (!Array.isArray(plugins)) return { file, data };
    for (const entry of plugins as unknown[]) {
      const { source } = (entry ?? {}) as { source?: unknown };
      if (typeof source !== 'string' || source.includes('\\')) continue;
      const relative = source.startsWith('./') || source === '.' ? source : /^[^/:]+$/.test(source) ? path.posix.join(pluginRoot, source) : undefined;
      if (relative === undefined || path.resolve(at, relative) !== dir) continue;
      return { file, data, entry: entry as Record<string, unknown> };
    }
    return { file, data }; // the nearest marketplace decides
  }
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Components a `plugin.json` may declare (docs/plugin-marketplaces.md, "Strict mode": skills, agents, hooks, MCP servers, output styles). */
const COMPONENT_FIELDS = ['skills', 'commands', 'agents', 'hooks', 'mcpServers', 'outputStyles', 'lspServers'];

/**
 * Why the marketplace that holds plugin folder `root` keeps it from loading, or undefined. Its schema
 * (docs/plugin-marketplaces.md, "Marketplace schema"): `name` (string), `owner` (object with a string `name`) and
 * `plugins` (array) are required, and each entry's `name` (string) and `source` (string or object). And "Strict mode":
 * "`false`: The marketplace entry is the entire definition. If the plugin also has a `plugin.json` that declares
 * components, that's a conflict and the plugin fails to load."
 */
export function marketplaceError(fs: FileSystem, root: string, manifest: Record<string, unknown> | undefined): string | undefined {
  if (path.basename(root).startsWith('.')) return undefined;
  const m = marketplaceOf(fs, root, 0);
  if (m === undefined) return undefined;
  const where = `the marketplace ${m.file}`;
  if (m.error !== undefined) return `${where} is ${m.error}`;
  const data = m.data;
  if (!isObject(data)) return `${where} is not a JSON object`;
  if (typeof data.name !== 'string' || data.name.trim() === '') return `${where} has no 'name' string (required)`;
  if (!isObject(data.owner)) return `${where} has no 'owner' object (required)`;
  if (typeof data.owner.name !== 'string') return `${where}: 'owner.name' must be a string (required)`;
  if (!Array.isArray(data.plugins)) return `${where} has no 'plugins' array (required)`;
  for (const [i, e] of (data.plugins as unknown[]).entries()) {
    if (!isObject(e)) return `${where}: plugins[${i}] is not an object`;
    if (typeof e.name !== 'string' || e.name.trim() === '') return `${where}: plugins[${i}] has no 'name' string (required)`;
    if (typeof e.source !== 'string' && !isObject(e.source)) return `${where}: plugins[${i}] ('${e.name}') has no 'source' (a string or an object; required)`;
    if ('strict' in e && typeof e.strict !== 'boolean') return `${where}: 'strict' of '${e.name}' must be true or false`;
  }
  if (m.entry?.strict === false && manifest !== undefined) {
    const declared = COMPONENT_FIELDS.filter((f) => manifest[f] !== undefined);
    if (declared.length) return `${where} lists it with "strict": false, and its plugin.json also declares ${declared.map((f) => `'${f}'`).join(', ')}: that is a conflict and the plugin fails to load`;
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
