/**
 * MCP servers in reach of a skill, command or agent: the project's `.mcp.json` (docs/mcp.md, project scope) and, in a
 * plugin, the plugin's own servers (its `.mcp.json` or `mcpServers` in its manifest, docs/plugins-reference.md).
 * Servers configured at user or local scope live in `~/.claude.json` and are not read: names not found here are
 * accepted.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { McpServersInReach } from './tools';

/** The server names of an `mcpServers` object (or of a JSON file holding one); empty when there is none or it does not parse. */
function serverNames(fs: FileSystem, file: string, bare: boolean): string[] {
  if (!fs.stat(file)?.isFile) return [];
  try {
    const data = JSON.parse(fs.readFile(file).toString('utf8')) as { mcpServers?: unknown } | null;
    // A plugin's `.mcp.json` may hold the servers at its top level (as many published plugins write it).
    const servers = data && typeof data === 'object' ? (data.mcpServers ?? (bare ? data : undefined)) : undefined;
    return servers && typeof servers === 'object' && !Array.isArray(servers) ? Object.keys(servers) : [];
  } catch {
    return [];
  }
}

/** A plugin's own servers: `<plugin>/.mcp.json` and the manifest's `mcpServers` (an object, or a path to a JSON file). */
function pluginServers(fs: FileSystem, pluginRoot: string): string[] {
  const names = serverNames(fs, path.join(pluginRoot, '.mcp.json'), true);
  const manifest = path.join(pluginRoot, '.claude-plugin', 'plugin.json');
  if (fs.stat(manifest)?.isFile) {
    try {
      const servers = (JSON.parse(fs.readFile(manifest).toString('utf8')) as { mcpServers?: unknown } | null)?.mcpServers;
      if (typeof servers === 'string' && !path.isAbsolute(servers)) names.push(...serverNames(fs, path.resolve(pluginRoot, servers), true));
      else if (servers && typeof servers === 'object' && !Array.isArray(servers)) names.push(...Object.keys(servers));
    } catch {
      // an invalid manifest names no servers
    }
  }
  return names;
}

/**
 * The MCP servers in reach: `.mcp.json` in each of `projectDirs`, and for a plugin (`plugin` with its root folder) its
 * own servers; undefined when no `.mcp.json` or plugin server is found (then no server name can be judged).
 */
export function mcpServersInReach(fs: FileSystem, projectDirs: readonly (string | undefined)[], plugin?: { name: string; root: string }): McpServersInReach | undefined {
  const configured = new Set<string>();
  for (const dir of new Set(projectDirs)) if (dir !== undefined) for (const n of serverNames(fs, path.join(dir, '.mcp.json'), false)) configured.add(n);
  const own = plugin ? new Set(pluginServers(fs, plugin.root)) : undefined;
  if (!configured.size && !own?.size) return undefined;
  return { configured, plugin: plugin && own?.size ? { name: plugin.name, servers: own } : undefined };
}
