/**
 * Claude Code's tool names and its permission-rule grammar (`Tool`, `Tool(specifier)`, `mcp__server`,
 * `mcp__server__tool`), from tools.json (generated from the tools reference and the permissions document by
 * scripts/gen-claude-tools.mjs, which records the Claude Code version and the documentation commit), and the check of
 * one entry of `allowed-tools` / `disallowed-tools` (skills, commands) or `tools` / `disallowedTools` (agents).
 */
import data from './tools.json';
import { mdCode, mdText } from '../base/markdown';

/** Which specifier a tool's permission rule takes (docs/tools-reference.md, "Configure tools with permission rules"). */
export type ToolRuleFormat = 'command' | 'path' | 'skill' | 'agent' | 'domain' | 'none';

export interface ClaudeTool {
  name: string;
  /** The tools reference's description, links as text. */
  description: string;
  /** Whether it prompts in Manual mode (the reference's "Permission required"). */
  permissionRequired: boolean;
  ruleFormat: ToolRuleFormat;
}

interface ToolsFile {
  claudeCodeVersion: string;
  source: string;
  tools: ClaudeTool[];
  aliases: Record<string, string>;
  former: Record<string, string>;
  pathRuleIgnored: Record<string, string>;
}

const file = data as ToolsFile;

/** The Claude Code version the tool names were taken from. */
export const TOOLS_CLAUDE_CODE_VERSION = file.claudeCodeVersion;
/** The documents and commit they were taken from. */
export const TOOLS_SOURCE = file.source;

const byName = new Map(file.tools.map((t) => [t.name, t]));
const has = (record: Record<string, string>, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** Every current built-in tool, in the reference's order. */
export function claudeTools(): readonly ClaudeTool[] {
  return file.tools;
}

/** The built-in tool named exactly `name` (an alias such as `Task` gives the tool it stands for). */
export function claudeTool(name: string): ClaudeTool | undefined {
  return byName.get(name) ?? (has(file.aliases, name) ? byName.get(file.aliases[name]) : undefined);
}

/** The current name a former name still stands for (`Task` → `Agent`, `KillShell` → `TaskStop`). */
export function toolAliasOf(name: string): string | undefined {
  return has(file.aliases, name) ? file.aliases[name] : undefined;
}

/** Why `name` is a former tool name Claude Code no longer has (`TeamCreate`, `LS`, `MultiEdit`), if it is one. */
export function formerTool(name: string): string | undefined {
  return has(file.former, name) ? file.former[name] : undefined;
}

/** Which list an entry is in: allow lists pre-approve or grant (`allowed-tools`, `tools`), deny lists remove. */
export type ToolListKind = 'allow' | 'deny';

/** One entry of a tools list, split into its parts. */
export interface ToolRule {
  /** The tool-name part (`Bash`, `mcp__github__get_issue`, `web_fetch`). */
  tool: string;
  /** The text between the parentheses, when there are any. */
  specifier?: string;
}

/** `Bash(git diff:*)` → `{tool: 'Bash', specifier: 'git diff:*'}`; undefined when the parentheses do not close at the end. */
export function parseToolRule(entry: string): ToolRule | undefined {
  const open = entry.indexOf('(');
  if (open < 0) return entry.includes(')') ? undefined : { tool: entry };
  if (!entry.endsWith(')')) return undefined;
  let depth = 0;
  for (let i = open; i < entry.length; i++) {
    if (entry[i] === '(') depth++;
    else if (entry[i] === ')' && --depth === 0 && i !== entry.length - 1) return undefined;
  }
  if (depth !== 0) return undefined;
  return { tool: entry.slice(0, open), specifier: entry.slice(open + 1, -1) };
}

/** What is wrong with one tools-list entry. */
export interface ToolFinding {
  /** `tool-unknown` (a name no tool has; variant `former`: a tool Claude Code had once) or `tool-rule-invalid`. */
  code: 'tool-unknown' | 'tool-rule-invalid';
  variant?: 'former';
  message: string;
  /** The entry to write instead, when that is certain (the quick fix). */
  replacement?: string;
}

/** MCP servers in reach of the file: configured (`.mcp.json`), and a plugin's own (named `plugin_<plugin>_<server>` in tool names). */
export interface McpServersInReach {
  /** Server names from the `.mcp.json` files in reach (project, plugin). */
  configured: ReadonlySet<string>;
  /** For a file in a plugin: the plugin's name and its own servers' names (its `.mcp.json`, `mcpServers` in its manifest). */
  plugin?: { name: string; servers: ReadonlySet<string> };
}

/** The tool-name part of an MCP server's tools: `plugin_<plugin>_<server>` for a plugin's own server (docs/mcp.md). */
export function pluginServerSegment(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9]*$/;
const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const NORMALISED = new Map<string, string>();
for (const t of file.tools) NORMALISED.set(normalise(t.name), t.name);
for (const a of Object.keys(file.aliases)) NORMALISED.set(normalise(a), a);
// Common spellings of tools by what they do (`web_fetch`, `fetch`, `shell`).
const SPELLINGS: Record<string, string> = { fetch: 'WebFetch', webfetchtool: 'WebFetch', search: 'WebSearch', websearchtool: 'WebSearch', shell: 'Bash', bashtool: 'Bash', terminal: 'Bash', readfile: 'Read', writefile: 'Write', editfile: 'Edit', multiedit: 'Edit', ls: 'Bash', todo: 'TodoWrite', todos: 'TodoWrite', subagent: 'Agent', askuser: 'AskUserQuestion' };

/** The tool a misspelt name most likely means (`web_fetch` → `WebFetch`, `bash` → `Bash`, `Grpe` → `Grep`). */
export function suggestToolName(name: string): string | undefined {
  const n = normalise(name);
  if (!n) return undefined;
  const exact = NORMALISED.get(n) ?? (has(SPELLINGS, n) ? SPELLINGS[n] : undefined);
  if (exact && exact !== name) return exact;
  if (n.length < 4) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const [norm, tool] of NORMALISED) {
    if (Math.abs(norm.length - n.length) > 2) continue;
    const d = editDistance(n, norm);
    if (d < bestDistance) { bestDistance = d; best = tool; }
  }
  return bestDistance <= (n.length >= 8 ? 2 : 1) ? best : undefined;
}

/** The closest name in `names` within a small edit distance (a server typo: `githb` → `github`). */
function closestName(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of names) {
    if (candidate === name) return undefined;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) { bestDistance = d; best = candidate; }
  }
  return bestDistance <= Math.min(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** Edit distance with adjacent transpositions (`Grpe` → `Grep` is one edit); tools-list names are short. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** `WebFetch(https://docs.x.com/a)` → `docs.x.com`: the host of a URL written where `domain:` belongs. */
function hostOf(specifier: string): string | undefined {
  return /^(?:https?:\/\/)?([A-Za-z0-9*-]+(?:\.[A-Za-z0-9-]+)+)(?::\d+)?(?:[/?#]\S*)?$/i.exec(specifier.trim())?.[1];
}

/**
 * Checks one entry of a tools list against Claude Code's tool names and rule grammar (docs/permissions.md): a name no
 * tool has (with the nearest), a former tool, a parenthesis that does not close, a path rule Claude Code never
 * consults, a WebFetch rule without `domain:`, an unanchored tool-name glob in an allow list, an MCP server spelt
 * unlike the one configured, and a plugin's own server written without its plugin prefix. Undefined when the entry is
 * fine or cannot be judged (an MCP server configured elsewhere).
 */
export function checkToolEntry(entry: string, list: ToolListKind, mcp?: McpServersInReach): ToolFinding | undefined {
  const rule = parseToolRule(entry);
  if (!rule) return { code: 'tool-rule-invalid', message: `Write '${entry}' as Tool or Tool(specifier): its parentheses do not close at the end, so it matches no tool` };
  const { tool, specifier } = rule;
  if (tool.startsWith('mcp__')) return checkMcpEntry(entry, tool, list, mcp);
  if (tool.includes('*') || tool.includes('?')) {
    if (list === 'deny') return undefined; // deny rules accept tool-name globs (`*`, `mcp__*`)
    return { code: 'tool-rule-invalid', message: `Name the tool: '${entry}' is a tool-name pattern, which Claude Code skips in an allow rule (only after a literal mcp__<server>__ prefix, as in mcp__github__*)` };
  }
  const known = byName.get(tool);
  if (!known) {
    const alias = toolAliasOf(tool);
    if (alias) return undefined; // `Task`, `KillShell`: still accepted
    const former = formerTool(tool);
    if (former) {
      const now = has(SPELLINGS, normalise(tool)) && SPELLINGS[normalise(tool)] !== tool ? SPELLINGS[normalise(tool)] : undefined;
      return { code: 'tool-unknown', variant: 'former', message: `Remove '${tool}'${now ? ` or use '${now}'` : ''}: Claude Code ${TOOLS_CLAUDE_CODE_VERSION} has no ${tool} tool (${former}), so the entry matches nothing` };
    }
    const near = suggestToolName(tool);
    const replacement = near ? (specifier !== undefined ? `${near}(${specifier})` : near) : undefined;
    if (near) return { code: 'tool-unknown', message: `Use '${replacement}': '${tool}' is not a Claude Code tool name (tool names are case-sensitive), so the entry matches nothing`, replacement };
    const mcpHint = TOOL_NAME.test(tool) || /^[A-Za-z0-9_:-]+$/.test(tool) ? `; an MCP tool is named mcp__<server>__<tool>${/[-:]/.test(tool) ? ', a subagent is allowed with Agent(<name>)' : ''}` : '';
    return { code: 'tool-unknown', message: `Check '${tool}': Claude Code ${TOOLS_CLAUDE_CODE_VERSION} has no tool of that name, so the entry matches nothing${mcpHint}` };
  }
  if (specifier === undefined) return undefined;
  const spec = specifier.trim();
  if (has(file.pathRuleIgnored, tool) && spec !== '' && spec !== '*' && !/^[A-Za-z_]+\s*:/.test(spec)) {
    const instead = file.pathRuleIgnored[tool];
    return { code: 'tool-rule-invalid', message: `Use '${instead}(${specifier})': Claude Code checks file permissions against Edit and Read rules only and never consults a ${tool}(path) rule`, replacement: `${instead}(${specifier})` };
  }
  if (known.ruleFormat === 'domain' && spec !== '' && spec !== '*' && !/^domain\s*:/.test(spec)) {
    // Deny lists may match an input parameter (`WebFetch(prompt:*)`); a URL is no parameter.
    if (list === 'deny' && /^[A-Za-z_]+\s*:/.test(spec) && !/^https?:/i.test(spec)) return undefined;
    const host = hostOf(spec);
    const replacement = host ? `WebFetch(domain:${host})` : undefined;
    return { code: 'tool-rule-invalid', message: `${replacement ? `Use '${replacement}'` : "Write 'WebFetch(domain:<host>)'"}: a WebFetch rule matches the host named after 'domain:', so '${entry}' matches no request`, replacement };
  }
  return undefined;
}

function checkMcpEntry(entry: string, tool: string, list: ToolListKind, mcp: McpServersInReach | undefined): ToolFinding | undefined {
  const rest = tool.slice('mcp__'.length);
  const cut = rest.indexOf('__');
  const server = cut < 0 ? rest : rest.slice(0, cut);
  if (server === '' || (cut >= 0 && rest.slice(cut + 2) === '')) {
    return { code: 'tool-rule-invalid', message: `Write 'mcp__<server>' or 'mcp__<server>__<tool>': '${entry}' names no ${server === '' ? 'server' : 'tool'}` };
  }
  if (server.includes('*') || server.includes('?')) {
    if (list === 'deny') return undefined;
    return { code: 'tool-rule-invalid', message: `Name the server: '${entry}' is an MCP pattern without a literal server, which Claude Code skips in an allow rule (write mcp__<server>__*)` };
  }
  if (!mcp) return undefined;
  const own = mcp.plugin;
  if (own && own.servers.has(server) && !mcp.configured.has(server)) {
    const scoped = pluginServerSegment(own.name, server);
    const replacement = `mcp__${scoped}${cut < 0 ? '' : rest.slice(cut)}`;
    return { code: 'tool-unknown', message: `Use '${replacement}': the tools of a plugin's own MCP server are named mcp__plugin_<plugin>_<server>__<tool>, so '${entry}' matches nothing once the plugin is installed`, replacement };
  }
  if (server.startsWith('plugin_') || mcp.configured.has(server)) return undefined;
  const names = [...mcp.configured, ...(own ? [...own.servers].map((s) => pluginServerSegment(own.name, s)) : [])];
  const near = closestName(server, names);
  if (!near) return undefined; // configured elsewhere (user or local scope): accepted
  const replacement = `mcp__${near}${cut < 0 ? '' : rest.slice(cut)}`;
  return { code: 'tool-unknown', message: `Use '${replacement}': no MCP server '${server}' is configured here (the .mcp.json in reach has '${near}')`, replacement };
}

/** Example rules of each format (docs/tools-reference.md and docs/permissions.md), for hovers. */
const RULE_EXAMPLES: Record<ToolRuleFormat, string[]> = {
  command: ['{t}', '{t}(npm run *)', '{t}(git diff:*)'],
  path: ['{t}', '{t}(./src/**)', '{t}(~/.zshrc)', '{t}(//tmp/x)'],
  skill: ['{t}', '{t}(deploy)', '{t}(review-pr *)'],
  agent: ['{t}', '{t}(Explore)', '{t}(my-agent)'],
  domain: ['{t}', '{t}(domain:example.com)', '{t}(domain:*.example.com)'],
  none: ['{t}'],
};

/**
 * Markdown for a hover on one tools-list entry: what the tool does, whether it prompts, its permission-rule forms
 * (or what an MCP entry names, or what is wrong with the entry), with the version the names were taken from.
 */
export function toolEntryHover(entry: string, list: ToolListKind, mcp?: McpServersInReach): string {
  const rule = parseToolRule(entry);
  const finding = checkToolEntry(entry, list, mcp);
  const lines: string[] = [];
  if (rule && rule.tool.startsWith('mcp__')) {
    const rest = rule.tool.slice(5);
    const cut = rest.indexOf('__');
    const server = cut < 0 ? rest : rest.slice(0, cut);
    lines.push(`**${mdCode(entry)}** · MCP`, '', cut < 0 || rest.slice(cut + 2) === '*'
      ? `Every tool of the MCP server ${mdCode(server)}.`
      : `The tool ${mdCode(rest.slice(cut + 2))} of the MCP server ${mdCode(server)}.`);
    lines.push('', 'Rule forms: `mcp__<server>`, `mcp__<server>__*`, `mcp__<server>__<tool>`; a plugin\'s own server is `mcp__plugin_<plugin>_<server>__<tool>`.');
  } else {
    const tool = rule ? claudeTool(rule.tool) : undefined;
    if (tool && rule) {
      const alias = toolAliasOf(rule.tool);
      lines.push(`**\`${tool.name}\`**${alias ? ` (${mdCode(rule.tool)} is its former name, still accepted)` : ''} · ${tool.permissionRequired ? 'asks for permission' : 'no permission needed'}`, '', tool.description);
      lines.push('', `Rule forms: ${RULE_EXAMPLES[tool.ruleFormat].map((f) => `\`${f.replace('{t}', tool.name)}\``).join(', ')}`);
    } else {
      lines.push(`**${mdCode(entry)}**`);
    }
  }
  if (finding) lines.push('', `⚠ ${mdText(finding.message)} (\`${finding.code}\`)`);
  lines.push('', `_Claude Code ${TOOLS_CLAUDE_CODE_VERSION} tools reference_`);
  return lines.join('\n');
}
