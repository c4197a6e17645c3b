/** `tool-unknown` and `tool-rule-invalid` over a tools list (a skill's or command's `allowed-tools` / `disallowed-tools`, an agent's `tools` / `disallowedTools`). */
import type { Emit } from '../base/rules';
import { checkToolEntry, type McpServersInReach, type ToolListKind } from '../claude/tools';
import type { DetailedParse } from '../skillmd/frontmatter';
import type { FrontmatterKey } from '../skillmd/model';
import { type ToolListEntry, toolListEntries } from '../skillmd/toolList';

/** Checks every entry of one tools key against Claude Code's tool names and rule grammar, each at its own range. */
export function checkToolList(detail: DetailedParse, key: FrontmatterKey, list: ToolListKind, mcp: (() => McpServersInReach | undefined) | undefined, emit: Emit): void {
  let servers: McpServersInReach | undefined;
  let looked = false;
  for (const entry of toolListEntries(detail, key)) {
    if (entry.text.startsWith('mcp__') && !looked) {
      looked = true;
      servers = mcp?.();
    }
    const finding = checkToolEntry(entry.text, list, servers);
    if (finding) emit(finding.code, entry.range, finding.message, finding.variant);
  }
}

/** The tools keys of a file kind, with the list each is: a skill's or command's, and an agent's (docs/sub-agents.md). */
export const TOOL_LIST_KEYS: Readonly<Record<'skill' | 'agent', Readonly<Record<string, ToolListKind>>>> = {
  skill: { 'allowed-tools': 'allow', 'disallowed-tools': 'deny' },
  agent: { tools: 'allow', disallowedTools: 'deny' },
};

/** The tools-list entry at a 1-based position (line, column), with its key and list; undefined elsewhere. */
export function toolEntryAt(detail: DetailedParse, kind: 'skill' | 'agent', line: number, column: number): { entry: ToolListEntry; key: FrontmatterKey; list: ToolListKind } | undefined {
  const keys = TOOL_LIST_KEYS[kind];
  for (const key of detail.parsed.keys) {
    if (!Object.prototype.hasOwnProperty.call(keys, key.key)) continue;
    const v = key.valueRange;
    if (!v || line < v.line || line > v.endLine) continue;
    for (const entry of toolListEntries(detail, key)) {
      const r = entry.range;
      if (r === v && toolListEntries(detail, key).length > 1) continue; // unmapped: no single entry there
      if (line >= r.line && line <= r.endLine && (line > r.line || column >= r.column) && (line < r.endLine || column <= r.endColumn)) return { entry, key, list: keys[key.key] };
    }
  }
  return undefined;
}
