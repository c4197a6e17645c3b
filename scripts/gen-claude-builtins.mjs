// Regenerates src/core/claude/builtins.json from Claude Code's commands reference (docs/commands.md of the
// documentation mirror) and the newest version in its docs/changelog.md.
// Usage: node scripts/gen-claude-builtins.mjs <commands.md> <changelog.md> <mirror commit>
import { readFileSync, writeFileSync } from 'node:fs';

const [commandsMd, changelogMd, commit] = process.argv.slice(2);
if (!commandsMd || !changelogMd || !commit) {
  console.error('usage: node scripts/gen-claude-builtins.mjs <commands.md> <changelog.md> <mirror commit>');
  process.exit(2);
}
const version = /<Update label="([0-9.]+)"/.exec(readFileSync(changelogMd, 'utf8'))?.[1];
if (!version) { console.error('no version in the changelog'); process.exit(1); }
const commands = [];
for (const line of readFileSync(commandsMd, 'utf8').split('\n')) {
  const m = /^\| `\/([a-z0-9-]+)[^`]*`\s*\|(.*)\|\s*$/.exec(line);
  if (!m) continue;
  const [, name, purposeRaw] = m;
  const purpose = purposeRaw.trim();
  let kind = 'command';
  if (purpose.startsWith('**[Skill]')) kind = 'bundled-skill';
  else if (purpose.startsWith('**[Workflow]')) kind = 'workflow';
  else if (/^Removed\b/.test(purpose)) kind = 'removed';
  const aliasOf = /^Alias (?:for|of) \[?`\/([a-z0-9-]+)`/.exec(purpose)?.[1];
  const aliases = [];
  for (const a of purpose.matchAll(/(?:Alias|Aliases|Also available as):? ((?:`\/[a-z0-9-]+`(?:, | and | or )?)+)/g)) {
    for (const x of a[1].matchAll(/`\/([a-z0-9-]+)`/g)) aliases.push(x[1]);
  }
  commands.push(aliasOf ? { name, kind: 'alias', aliasOf } : { name, kind, ...(aliases.length ? { aliases } : {}) });
}
// Aliases the commands reference does not list but the changelog names as commands, each with the changelog's words
// (checked: a changelog without them stops the script, so an alias never outlives its evidence).
const CHANGELOG_ALIASES = [
  { name: 'plugins', aliasOf: 'plugin', evidence: 'closing panel dialogs like /mcp and /plugins' },
];
const changelog = readFileSync(changelogMd, 'utf8');
for (const a of CHANGELOG_ALIASES) {
  if (!changelog.includes(a.evidence)) { console.error(`the changelog no longer says "${a.evidence}": check /${a.name}`); process.exit(1); }
  if (!commands.some((c) => c.name === a.name)) commands.push({ name: a.name, kind: 'alias', aliasOf: a.aliasOf });
}
commands.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const out = {
  claudeCodeVersion: version,
  source: `ericbuess/claude-code-docs docs/commands.md at ${commit}`,
  commands,
};
writeFileSync(new URL('../src/core/claude/builtins.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(`${commands.length} commands, Claude Code ${version}`);
