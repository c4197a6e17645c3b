/** Sub-agent files (`.claude/agents/<name>.md`): frontmatter parsing and the `agent-*` rules (docs/rules.md). */
import * as nodePath from 'node:path';
import { isSeq, type Node as YamlNode } from 'yaml';
import type { Problem, Range } from '../base/types';
import { parseSkillMdDetailed, sayOnFirstYamlError, withoutSkillReaders } from '../skillmd/frontmatter';
import { AGENT_MODEL_ALIASES, isAgentModel } from '../skillmd/keys';
import { unknownModelNote } from '../claude/values';
import type { AgentEntry, FrontmatterKey } from '../skillmd/model';
import { severityFor } from '../base/rules';
import type { McpServersInReach } from '../claude/tools';
import { checkToolList } from '../validation/toolRules';
import { splitToolListParts } from '../skillmd/toolList';
import type { FileSystem } from '../base/fs';
import type { HooksPlace } from '../claude/hooks';
import { checkFrontmatterHooks } from '../validation/hookRules';

/** Splits a tools string (`Read, Grep` or `Read Bash(git status:*)`) on commas/spaces outside parentheses. */
export function splitToolList(value: string): string[] {
  return splitToolListParts(value).map((p) => p.text);
}

/**
 * For a `skills:` entry no skill answers: the loaded name it was meant as, where one is plain to see — a path whose last
 * folder is a skill's name (`engineering/llm-wiki`, `skills/llm-wiki/SKILL.md`).
 */
function meantSkill(entry: string, known: ReadonlySet<string>): string {
  const parts = entry.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length && /^SKILL\.md$/i.test(parts[parts.length - 1])) parts.pop();
  const last = parts[parts.length - 1];
  return parts.length > 1 && last !== undefined && known.has(last) ? `; did you mean '${last}'? ('skills' takes skill names, not paths)` : '';
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'it is empty';
  if (Array.isArray(value)) return 'it is a list';
  if (typeof value === 'object') return 'it is a map';
  return `it is ${JSON.stringify(value)}`;
}

/** Skill keys an agent may hold by mistake, with the agent key Claude Code reads instead. */
export const AGENT_TOOL_KEYS: ReadonlyArray<readonly [string, string]> = [['allowed-tools', 'tools'], ['disallowed-tools', 'disallowedTools']];

/** What validateAgentMd needs besides the file: the MCP servers in reach (asked only when a tools list names one). */
export interface AgentValidationOptions {
  mcp?: () => McpServersInReach | undefined;
  /** The plugin of a plugin agent (its `hooks`, `mcpServers`, `permissionMode` are ignored by Claude Code). */
  plugin?: string;
  /** Where a project or personal agent's `hooks:` run (asked only when the agent has hooks), and the files to look in. */
  hooksPlace?: () => HooksPlace;
  fs?: FileSystem;
}

/**
 * Keys Claude Code ignores in a plugin agent: "For security reasons, plugin subagents don't support the `hooks`,
 * `mcpServers`, or `permissionMode` frontmatter fields. These fields are ignored when loading agents from a plugin"
 * (docs/sub-agents.md).
 */
export const PLUGIN_AGENT_IGNORED_KEYS: readonly string[] = ['hooks', 'mcpServers', 'permissionMode'];

/**
 * Parses and checks one agent file; `agent-skill-missing` is reported only when `knownSkills` is given, `unreachable`
 * for a `skills:` entry in `modelBlocked` (a skill the model may not invoke, with the reason). Never throws.
 */
export function validateAgentMd(text: string, path: string, knownSkills: ReadonlySet<string> | undefined, modelBlocked?: ReadonlyMap<string, string>, opts?: AgentValidationOptions): AgentEntry {
  const detail = parseSkillMdDetailed(text);
  const { parsed } = detail;
  const problems: Problem[] = [];
  const emit = (code: string, range: Range, message: string, variant?: string) => {
    const severity = severityFor(code, 'claude-code', variant ?? 'agent') ?? 'error';
    problems.push({ code, severity, message, line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn });
  };
  // With the parser's variant: an unquoted `: ` in a value is read as written (the skills' reading, changelog 2.1.69;
  // Anthropic's own plugin agents rely on it), a warning, not a file Claude Code skips.
  for (const p of parsed.problems) emit(p.code, p, withoutSkillReaders(p.message), p.variant);

  const fileName = nodePath.basename(path).replace(/\.md$/i, '');
  // What Claude Code does with a frontmatter that does not parse (docs/sub-agents.md, "Subagent files Claude Code skips").
  sayOnFirstYamlError(problems, detail.yamlFailed, opts?.plugin !== undefined
    ? `Claude Code still loads a plugin agent whose frontmatter does not parse, as '${opts.plugin}:${fileName}' (its file name), but reads none of its fields: no description to delegate by, no tools, no model`
    : 'Claude Code skips an agent file whose frontmatter does not parse');
  const entry: AgentEntry = { name: fileName, path, skills: [], scope: 'project', problems };
  // No `name` (no frontmatter at all, or none in a frontmatter that parses): documentation beside the agents, as
  // Claude Code reads it ("No `name`: Claude Code treats the file as documentation", docs/sub-agents.md).
  // A plugin's agent is no documentation: "A plugin subagent whose frontmatter has no `name` or doesn't parse still
  // loads, under its filename" (docs/sub-agents.md).
  const plugin = opts?.plugin;
  const hasName = parsed.keys.some((k) => k.key === 'name');
  if (plugin === undefined && !hasName && (!parsed.hasFrontmatter || (parsed.frontmatterClosed && !detail.yamlFailed))) {
    return { ...entry, problems: [], documentation: true };
  }
  // A plugin agent with no description of its own (asked only for one).
  const noDescription = () => {
    // A frontmatter below an HTML comment (a note on where the file came from): only blank lines and comments before a
    // `---` line right above a `name:` or `description:` line (not a template further down, not a thematic break).
    const late = !parsed.hasFrontmatter && /^(?:\s*<!--[\s\S]*?-->)*\s*---[ \t]*\r?\n(?:name|description)[ \t]*:/.test(text);
    return `Claude Code loads this plugin agent as '${plugin}:${fileName}' (its file name) with no description of its own, so Claude has nothing to delegate to it by: ${late ? "move the '---' frontmatter to the file's first line (Claude Code reads it only there)" : 'add a frontmatter with a description of when to use it'}`;
  };
  if (plugin !== undefined && !parsed.hasFrontmatter) {
    // No frontmatter is this one warning (the agent loads): not also `frontmatter-missing`.
    for (let i = problems.length - 1; i >= 0; i--) if (problems[i].code === 'frontmatter-missing') problems.splice(i, 1);
    emit('description-missing', detail.openingRange, noDescription(), 'plugin-agent');
  }
  const data = parsed.data;
  if (!data) return entry;

  const byKey = new Map<string, FrontmatterKey>();
  for (const k of parsed.keys) if (!byKey.has(k.key)) byKey.set(k.key, k);
  const at = (k: FrontmatterKey) => k.valueRange ?? k.keyRange;

  const name = byKey.get('name');
  // (A plugin agent without a name loads under its file name: nothing to report.)
  if (!name) {
    if (plugin === undefined) emit('name-missing', detail.openingRange, `the required key 'name' is missing (add: name: ${fileName})`);
  } else if (typeof name.value !== 'string' || name.value.trim() === '') emit('name-type', at(name), `'name' must be a non-empty string (${describe(name.value)})`);
  else {
    entry.name = name.value.trim();
    // "Names can't contain `:` … Claude Code doesn't load a file whose name contains one"; "A `name` that starts with
    // `-` or contains `:`: Claude Code skips the file" (docs/sub-agents.md).
    if (entry.name.includes(':') || entry.name.startsWith('-')) {
      const why = entry.name.includes(':') ? "contains ':', which is reserved for plugin-scoped agents such as my-plugin:reviewer" : "starts with '-'";
      emit('agent-name-invalid', at(name), `Rename the agent: its name '${entry.name}' ${why}, so Claude Code skips the file`);
    }
  }

  const description = byKey.get('description');
  if (!description) {
    if (plugin !== undefined) emit('description-missing', detail.openingRange, noDescription(), 'plugin-agent');
    else emit('description-missing', detail.openingRange, "the required key 'description' is missing (say when Claude should delegate to this agent)");
  }
  else if (typeof description.value !== 'string' || description.value.trim() === '') emit('description-type', at(description), `'description' must be a non-empty string (${describe(description.value)})`);
  else entry.description = description.value.trim();

  const model = byKey.get('model');
  if (model) {
    const note = unknownModelNote(model.value);
    if (note) emit('model-unknown', at(model), `Check 'model': ${note}`);
    if (typeof model.value === 'string' && isAgentModel(model.value.trim())) entry.model = model.value.trim();
    else emit('agent-model-invalid', at(model), `'model' must be ${AGENT_MODEL_ALIASES.join(', ')}, another /model value or a full model id such as claude-sonnet-4-5-20250929 (${describe(model.value)})`);
  }

  const tools = byKey.get('tools');
  if (tools) {
    const v = tools.value;
    if (typeof v === 'string' && v.trim() !== '') entry.tools = splitToolList(v);
    // An empty list is an agent with no tools (docs/errors.md: Claude Code launches it without tools).
    else if (Array.isArray(v) && v.every((t) => typeof t === 'string' && t.trim() !== '')) entry.tools = v.map((t: string) => t.trim());
    else emit('agent-tools-invalid', at(tools), `'tools' must be a string like "Read, Grep, Bash" or a list of tool names (${describe(v)})`);
  }

  if (tools) checkToolList(detail, tools, 'allow', opts?.mcp, emit);
  // A skill's key in an agent: Claude Code ignores it, so the agent inherits every tool (or keeps the one it meant to remove).
  for (const [skillKey, agentKey] of AGENT_TOOL_KEYS) {
    const k = byKey.get(skillKey);
    if (!k) continue;
    const effect = agentKey === 'tools' ? 'so the agent inherits every tool' : 'so no tool is removed';
    emit('agent-tools-key', k.keyRange, byKey.has(agentKey)
      ? `Remove '${skillKey}' (a skill key): Claude Code ignores it in an agent, which reads '${agentKey}'`
      : `Rename '${skillKey}' to '${agentKey}': '${skillKey}' is a skill key, which Claude Code ignores in an agent, ${effect}`);
  }
  const disallowed = byKey.get('disallowedTools');
  if (disallowed) checkToolList(detail, disallowed, 'deny', opts?.mcp, emit);

  if (opts?.plugin !== undefined) {
    for (const key of PLUGIN_AGENT_IGNORED_KEYS) {
      const k = byKey.get(key);
      if (k) emit('agent-plugin-ignored', k.keyRange, `Claude Code ignores '${key}' in a plugin agent (for security), so it has no effect; to keep it, copy the agent into .claude/agents/ (or set it in settings)`);
    }
  } else {
    const hooks = byKey.get('hooks');
    if (hooks && opts?.hooksPlace && severityFor('hook-invalid', 'claude-code')) checkFrontmatterHooks(detail, hooks, opts.hooksPlace(), opts.fs, emit);
  }

  const skills = byKey.get('skills');
  if (skills) {
    const node = detail.valueNodes.get('skills');
    const v = skills.value;
    const items: Array<{ name: unknown; range: Range }> = [];
    if (Array.isArray(v) && isSeq(node)) {
      v.forEach((item, i) => items.push({ name: item, range: detail.nodeRange(node.items[i] as YamlNode) ?? at(skills) }));
    } else if (typeof v === 'string' && v.trim() !== '') {
      // A single name (or a comma-separated string) is accepted; all names share the value's range.
      for (const s of v.split(',')) if (s.trim()) items.push({ name: s.trim(), range: at(skills) });
    } else if (v !== null) {
      emit('agent-skills-invalid', at(skills), `'skills' must be a list of skill names (${describe(v)})`);
    }
    for (const item of items) {
      if (typeof item.name !== 'string' || item.name.trim() === '') {
        emit('agent-skills-invalid', item.range, `'skills' entries must be skill names (${describe(item.name)})`);
        continue;
      }
      const skill = item.name.trim();
      entry.skills.push(skill);
      if (knownSkills && !knownSkills.has(skill) && !knownSkills.has(skill.normalize('NFKC'))) {
        emit('agent-skill-missing', item.range, `skill '${skill}' does not exist (no skill with that name was found)${meantSkill(skill, knownSkills)}`);
      } else if (modelBlocked?.has(skill) && severityFor('unreachable', 'claude-code')) {
        emit('unreachable', item.range, `the agent cannot use skill '${skill}': the model may not invoke it (${modelBlocked.get(skill)})`);
      }
    }
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return entry;
}
