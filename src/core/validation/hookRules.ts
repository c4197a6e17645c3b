/**
 * `hook-invalid`, `hook-matcher`, `hook-script-missing` at exact ranges: over a skill's or agent's `hooks:`
 * frontmatter (YAML nodes) and a plugin's `hooks/hooks.json` (JSON nodes). The checks are claude/hooks.ts's.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, type Node as YamlNode, parseDocument } from 'yaml';
import type { FileSystem } from '../base/fs';
import type { Emit } from '../base/rules';
import { LineIndex } from '../base/text';
import type { Problem, Range } from '../base/types';
import { severityFor } from '../base/rules';
import { checkHooksConfig, type HookFinding, type HooksPlace } from '../claude/hooks';
import { mcpServersInReach } from '../claude/mcp';
import type { DetailedParse } from '../skillmd/frontmatter';
import type { FrontmatterKey } from '../skillmd/model';

/** The node at `where` below `root` (map keys, list indexes) and the key it is under; undefined when the path leaves the tree. */
function nodeAt(root: YamlNode | null | undefined, where: Array<string | number>): { node: YamlNode | null | undefined; key: YamlNode | null | undefined } | undefined {
  let node: YamlNode | null | undefined = root;
  let key: YamlNode | null | undefined;
  for (const seg of where) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return undefined;
      key = pair.key as YamlNode;
      node = pair.value as YamlNode | null;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg] as YamlNode | null;
      key = undefined;
    } else {
      return undefined;
    }
  }
  return { node, key };
}

/** The range of the node at `where` in frontmatter YAML (its key for `at: 'key'`). */
function yamlRange(detail: DetailedParse, root: YamlNode | null | undefined, where: Array<string | number>, at: 'key' | 'value'): Range | undefined {
  const found = nodeAt(root, where);
  if (!found) return undefined;
  return at === 'key' ? detail.nodeRange(found.key) ?? detail.nodeRange(found.node) : detail.nodeRange(found.node) ?? detail.nodeRange(found.key);
}

/** Checks a `hooks:` frontmatter key (a skill's, a command's or an agent's), each finding at its node. */
export function checkFrontmatterHooks(detail: DetailedParse, key: FrontmatterKey, place: HooksPlace, fs: FileSystem | undefined, emit: Emit): void {
  const node = detail.valueNodes.get(key.key);
  const fallback = key.valueRange ?? key.keyRange;
  for (const f of checkHooksConfig(key.value, place, fs)) {
    if (!f.path.length) continue; // not a map: field-invalid says so
    emit(f.code, yamlRange(detail, node, f.path, f.at) ?? fallback, f.message, f.variant);
  }
}

/** Where hooks of a skill run: its plugin's root (a plugin skill), its project; the MCP servers in reach. */
export function skillHooksPlace(fs: FileSystem, ctx: { plugin?: string; rootDir?: string; project?: string; workspaceFolder?: string }): HooksPlace {
  const pluginRoot = ctx.plugin !== undefined && ctx.rootDir !== undefined && path.basename(ctx.rootDir) === 'skills' ? path.dirname(ctx.rootDir) : undefined;
  let mcp: HooksPlace['mcp'];
  try {
    mcp = mcpServersInReach(fs, [ctx.project, ctx.workspaceFolder], pluginRoot !== undefined && ctx.plugin !== undefined ? { name: ctx.plugin, root: pluginRoot } : undefined);
  } catch {
    mcp = undefined;
  }
  return { pluginRoot, project: ctx.project, mcp };
}

/** The range of the node at `where` in a JSON text read as YAML (JSON is YAML 1.2): its key for `at: 'key'`. */
function jsonRange(lines: LineIndex, root: YamlNode | null, where: Array<string | number>, at: 'key' | 'value'): Range | undefined {
  const found = nodeAt(root, where);
  const node = found && (at === 'key' && found.key ? found.key : found.node ?? found.key);
  return node?.range ? lines.range(node.range[0], node.range[1]) : undefined;
}

/**
 * A plugin's `hooks/hooks.json` checked: JSON syntax (`hook-invalid` at the error), the `{"hooks": {...}}` shape and
 * every hook (checkHooksConfig), with the plugin root for `${CLAUDE_PLUGIN_ROOT}` paths. Severities: claude-code's.
 */
export function validatePluginHooksJson(text: string, pluginRoot: string, plugin: string, fs: FileSystem): Problem[] {
  const lines = new LineIndex(text);
  const problems: Problem[] = [];
  const push = (code: string, range: Range, message: string, variant?: string) => {
    const severity = severityFor(code, 'claude-code', variant);
    if (severity) problems.push({ code, severity, message, ...range });
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    push('hook-invalid', lines.range(at, at + 1), `Fix the JSON: hooks.json does not parse (${message}), so Claude Code loads none of its hooks`);
    return problems;
  }
  const root = parseDocument(text, { uniqueKeys: false }).contents as YamlNode | null;
  const start = text.length - text.trimStart().length;
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (!value || typeof value !== 'object' || Array.isArray(value) || hooks === undefined) {
    push('hook-invalid', lines.range(start, start + 1), "Wrap the events in a top-level 'hooks' object: {\"hooks\": {\"PreToolUse\": [...]}}");
    return problems;
  }
  let mcp: HooksPlace['mcp'];
  try {
    mcp = mcpServersInReach(fs, [], { name: plugin, root: pluginRoot });
  } catch {
    mcp = undefined;
  }
  const findings: HookFinding[] = checkHooksConfig(hooks, { pluginRoot, mcp }, fs, ['hooks']);
  for (const f of findings) push(f.code, jsonRange(lines, root, f.path, f.at) ?? lines.range(start, start + 1), f.message, f.variant);
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return problems;
}
