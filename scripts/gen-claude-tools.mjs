// Regenerates src/core/claude/tools.json and src/core/claude/hooks.json from Claude Code's documentation mirror
// (ericbuess/claude-code-docs): the tool names and their rule formats (docs/tools-reference.md), the path rules
// Claude Code never consults (docs/permissions.md), the former names it still accepts (docs/agent-sdk__typescript.md,
// docs/agent-sdk__python.md), the tools it removed (docs/changelog.md); the hook events, which of them take a matcher
// and on what, the handler types and their fields (docs/hooks.md); and the newest version in docs/changelog.md.
// Usage: node scripts/gen-claude-tools.mjs <docs folder> <mirror commit>
//   (the docs folder holds tools-reference.md, permissions.md, agent-sdk__typescript.md, agent-sdk__python.md,
//   hooks.md, changelog.md; e.g. a `git archive` of the mirror)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const [docs, commit] = process.argv.slice(2);
if (!docs || !commit) {
  console.error('usage: node scripts/gen-claude-tools.mjs <docs folder> <mirror commit>');
  process.exit(2);
}
const read = (name) => readFileSync(path.join(docs, name), 'utf8');
const fail = (message) => { console.error(message); process.exit(1); };

const changelog = read('changelog.md');
const version = /<Update label="([0-9.]+)"/.exec(changelog)?.[1] ?? fail('no version in the changelog');

/** Markdown of a table cell as plain text: links keep their text, `See [...]` pointers are dropped. */
function plain(cell) {
  return cell.replace(/\s*See \[[^\]]*\]\([^)]*\)\s*(?:for [^.]*)?\.?\s*$/, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ').trim();
}

// The tools table: | `Name` | Description | Permission required |
const reference = read('tools-reference.md');
const tools = [];
for (const line of reference.split('\n')) {
  const m = /^\| `([A-Za-z]+)`\s*\|(.*)\|\s*(Yes|No)\s*\|\s*$/.exec(line);
  if (m) tools.push({ name: m[1], description: plain(m[2]), permissionRequired: m[3] === 'Yes', ruleFormat: 'none' });
}
if (tools.length < 20) fail(`only ${tools.length} tools in tools-reference.md`);
const byName = new Map(tools.map((t) => [t.name, t]));

// The rule formats: | `Bash(npm run *)` | Bash, Monitor | [Command pattern matching](/docs/en/permissions#bash) |
const FORMAT_BY_ANCHOR = { bash: 'command', powershell: 'command', 'read-and-edit': 'path', 'restrict-claude’s-skill-access': 'skill', 'agent-subagents': 'agent', webfetch: 'domain' };
const formats = reference.slice(reference.indexOf('## Configure tools with permission rules and hooks'));
for (const line of formats.slice(0, formats.indexOf('\n## ', 3)).split('\n')) {
  const m = /^\| `([A-Za-z]+)(?:\([^`]*\))?`\s*\|([^|]*)\|(.*)\|\s*$/.exec(line);
  if (!m || !byName.has(m[1])) continue;
  const anchor = /#([^)\s]+)\)/.exec(m[3])?.[1];
  const format = anchor ? FORMAT_BY_ANCHOR[anchor] : /No specifier/.test(m[3]) ? 'none' : undefined;
  if (!format) fail(`unknown rule format in: ${line}`);
  for (const name of m[2].split(',').map((s) => s.trim()).filter(Boolean)) {
    const tool = byName.get(name) ?? fail(`rule format for unknown tool ${name}`);
    tool.ruleFormat = format;
  }
}

// "If you write a path rule for `Write`, `NotebookEdit`, `Glob`, or the legacy `MultiEdit` tool instead, Claude Code
// accepts the rule but never consults it": and which rule to write instead.
const permissions = read('permissions.md');
const ignored = /If you write a path rule for ((?:(?:the legacy )?`[A-Za-z]+`(?:,| or|,? or)? ?)+)(?:tool )?instead, Claude Code accepts the rule but never consults it/.exec(permissions)
  ?? fail('no "path rule ... never consults it" sentence in permissions.md');
const pathRuleIgnored = {};
for (const x of ignored[1].matchAll(/`([A-Za-z]+)`/g)) pathRuleIgnored[x[1]] = x[1] === 'Glob' ? 'Read' : 'Edit';
if (!/`Read\(docs\/\*\*\)` in place of `Glob\(docs\/\*\*\)`/.test(permissions)) fail('permissions.md no longer says Read in place of Glob');
const legacyTools = [...permissions.matchAll(/the legacy `([A-Za-z]+)` tool/g)].map((m) => m[1]);

// "**Tool name:** `TaskStop`. The previous names `KillShell` and `KillBash` are still accepted as aliases."
const aliases = {};
for (const file of ['agent-sdk__typescript.md', 'agent-sdk__python.md']) {
  for (const m of read(file).matchAll(/\*\*Tool name:\*\* `([A-Za-z]+)`\. The previous names? ((?:`[A-Za-z]+`(?:,| and| or)? ?)+)(?:is|are) still accepted as (?:an )?alias/g)) {
    for (const x of m[2].matchAll(/`([A-Za-z]+)`/g)) aliases[x[1]] = m[1];
  }
}
if (!aliases.Task) fail('no Task alias in the Agent SDK references');

// Tools the changelog says were removed ("removed the `TeamCreate` and `TeamDelete` tools").
const former = {};
for (const m of changelog.matchAll(/[Rr]emoved the ((?:`[A-Za-z]+`(?:,| and| or)? ?)+)tools?\b/g)) {
  for (const x of m[1].matchAll(/`([A-Za-z]+)`/g)) if (!byName.has(x[1])) former[x[1]] = 'removed, says the changelog';
}
for (const name of legacyTools) if (!byName.has(name)) former[name] = 'legacy, says permissions.md';
// Names of earlier releases that the current references no longer list and no document calls an alias. The changelog
// records the rename that made `LS` ("LSTool -> LS"); the others are the tool names of the same early releases.
for (const name of ['LS', 'NotebookRead', 'TodoRead', 'SlashCommand']) {
  if (!byName.has(name) && !aliases[name] && !former[name]) former[name] = 'no longer in tools-reference.md';
}

const out = {
  claudeCodeVersion: version,
  source: `ericbuess/claude-code-docs docs/tools-reference.md, docs/permissions.md, docs/agent-sdk__typescript.md, docs/agent-sdk__python.md, docs/changelog.md at ${commit}`,
  tools,
  aliases,
  former,
  pathRuleIgnored,
};
writeFileSync(new URL('../src/core/claude/tools.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(`${tools.length} tools, ${Object.keys(aliases).length} aliases, ${Object.keys(former).length} former names, Claude Code ${version}`);

// Hooks (docs/hooks.md).
const hooksMd = read('hooks.md');
const section = (heading) => {
  const at = hooksMd.indexOf(heading);
  if (at < 0) fail(`no "${heading}" in hooks.md`);
  const next = hooksMd.indexOf('\n#', at + heading.length);
  return hooksMd.slice(at, next < 0 ? undefined : next);
};
const cells = (line) => line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
const codes = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

const events = [];
for (const line of section('## Hook lifecycle').split('\n')) {
  const m = /^\| `([A-Za-z]+)`\s*\|(.*)\|\s*$/.exec(line);
  if (m) events.push({ name: m[1], when: plain(m[2]), matcher: 'none', examples: [] });
}
if (events.length < 20) fail(`only ${events.length} hook events in hooks.md`);
const eventByName = new Map(events.map((e) => [e.name, e]));

// | `PreToolUse`, `PostToolUse`, … | tool name | `Bash`, `Edit\|Write`, `mcp__.*` |
const matchers = section('### Matcher patterns');
const eventTable = matchers.slice(matchers.indexOf('| Event'));
for (const line of eventTable.split('\n').slice(2)) {
  if (!line.startsWith('|')) break;
  const [names, what, examples] = cells(line);
  for (const name of codes(names)) {
    const event = eventByName.get(name) ?? fail(`matcher row for unknown event ${name}`);
    if (/no matcher support/.test(what)) continue;
    event.matcher = /tool name/.test(what) ? 'tool' : plain(what);
    const same = /same values as `([A-Za-z]+)`/.exec(examples)?.[1];
    event.examples = same ? [...(eventByName.get(same)?.examples ?? [])] : codes(examples).map((x) => x.replace(/\\\|/g, '|'));
  }
}
const toolEvents = events.filter((e) => e.matcher === 'tool').map((e) => e.name);
if (!toolEvents.includes('PreToolUse')) fail('PreToolUse takes no tool matcher?');
const narrow = /((?:`[A-Za-z]+`(?: and |, )?)+) use a narrower exact-match set/.exec(matchers);
const narrowExact = narrow ? codes(narrow[1]) : [];

// Handler types and fields: the common fields table, then one table per type.
const fieldsOf = (heading) => {
  const out = {};
  for (const line of section(heading).split('\n')) {
    const m = /^\| `([A-Za-z_]+)`\s*\|\s*(yes|no)\s*\|/i.exec(line);
    if (m) out[m[1]] = m[2].toLowerCase() === 'yes';
  }
  if (!Object.keys(out).length) fail(`no fields under "${heading}"`);
  return out;
};
const common = fieldsOf('#### Common fields');
const typeRow = section('#### Common fields').split('\n').find((l) => l.startsWith('| `type`')) ?? fail('no type row');
const types = [...typeRow.matchAll(/`"([a-z_]+)"`/g)].map((m) => m[1]);
const ifRow = section('#### Common fields').split('\n').find((l) => l.startsWith('| `if`')) ?? fail('no if row');
const ifEvents = codes(/Only evaluated on tool events: ([^.]*)\./.exec(ifRow)?.[1] ?? fail('no if events'));
const perType = { command: fieldsOf('#### Command hook fields'), http: fieldsOf('#### HTTP hook fields'), mcp_tool: fieldsOf('#### MCP tool hook fields') };
const promptFields = fieldsOf('#### Prompt and agent hook fields');
const handlers = {};
for (const type of types) handlers[type] = { ...common, ...(perType[type] ?? (type === 'prompt' || type === 'agent' ? promptFields : {})) };
if (Object.keys(handlers).length < 5) fail(`only ${Object.keys(handlers).length} handler types`);

const hooksOut = {
  claudeCodeVersion: version,
  source: `ericbuess/claude-code-docs docs/hooks.md at ${commit}`,
  events,
  toolEvents,
  ifEvents,
  narrowExactMatch: narrowExact,
  handlers,
};
writeFileSync(new URL('../src/core/claude/hooks.json', import.meta.url), `${JSON.stringify(hooksOut, null, 2)}\n`);
console.log(`${events.length} hook events (${toolEvents.length} on tool names), ${Object.keys(handlers).length} handler types`);
