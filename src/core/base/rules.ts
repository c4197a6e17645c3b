/** Every rule code (skill and agent rules; each has a section in docs/rules.md) with its one-line summary and severity per profile. */
import type { Profile, Range, Severity } from './types';

export interface RuleInfo {
  summary: string;
  /** `undefined` = the rule is off in that profile. */
  severity: Record<Profile, Severity | undefined>;
  /**
   * Severities of named cases of the rule (e.g. `reference-outside` that stays in the repository, `name-charset`'s
   * non-ASCII lower-case letters, a name missing in an agent file); an emit that names a variant gets its severity.
   */
  variants?: Readonly<Record<string, Record<Profile, Severity | undefined>>>;
}

function all(severity: Severity): Record<Profile, Severity> {
  return { 'claude-code': severity, spec: severity, upload: severity };
}

/** Severities per profile, in the column order of docs/rules.md: claude-code, spec, upload. */
function per(claudeCode: Severity | undefined, spec: Severity | undefined, upload: Severity | undefined): Record<Profile, Severity | undefined> {
  return { 'claude-code': claudeCode, spec, upload };
}

/** The rule table. Keys are the stable codes shown as `Diagnostic.code` and in CLI output. */
export const RULES: Readonly<Record<string, RuleInfo>> = {
  'frontmatter-missing': { summary: 'The file does not start with a `---` YAML frontmatter block (Claude Code then uses the folder name and the first paragraph).', severity: per('warning', 'error', 'error'),
    variants: { agent: all('error') } },
  'frontmatter-unclosed': { summary: 'The frontmatter has no closing `---` line.', severity: all('error') },
  'yaml-syntax': { summary: 'The frontmatter is not valid YAML (values containing `: ` must be quoted; Claude Code reads an unquoted one anyway: a warning there).', severity: all('error'),
    variants: { 'colon-in-value': per('warning', 'error', 'error') } },
  'frontmatter-limits': { summary: 'The frontmatter is over 64 KiB, nested more than 100 levels deep, has more than 1,000 keys, more than 5,000 YAML tokens outside plain `key: value` lines or more than 20 aliases.', severity: all('error') },
  'frontmatter-not-mapping': { summary: 'The frontmatter must be a YAML mapping of `key: value` lines.', severity: all('error') },
  bom: { summary: 'The file starts with a UTF-8 byte order mark.', severity: { 'claude-code': 'warning', spec: 'warning', upload: 'error' } },
  'name-missing': { summary: 'The `name` key is absent (Claude Code uses the folder name; the spec and uploads require it).', severity: per('warning', 'error', 'error'),
    variants: { agent: all('error') } },
  'description-missing': { summary: 'The `description` key is absent (Claude Code uses the first paragraph; the spec and uploads require it).', severity: per('warning', 'error', 'error'),
    variants: { agent: all('error'), 'plugin-agent': all('warning') } },
  'name-type': { summary: '`name` must be a non-empty string.', severity: all('error') },
  'description-type': { summary: '`description` must be a non-empty string.', severity: all('error') },
  // Claude Code loads a skill whatever its `name` looks like (a label in a personal or project skill, the command's last
  // segment in a plugin skill): the format rules are the spec's and the uploads', warnings in claude-code.
  'name-length': { summary: '`name` must be at most 64 characters (the spec and uploads; Claude Code accepts longer).', severity: per('warning', 'error', 'error') },
  'name-case': { summary: '`name` must not contain upper-case letters (the spec and uploads; Claude Code accepts them).', severity: per('warning', 'error', 'error') },
  'name-charset': { summary: '`name` may only contain `a-z`, `0-9` and `-` (the spec and uploads; Claude Code accepts others).', severity: per('warning', 'error', 'error'),
    variants: { 'non-ascii-lowercase': per('warning', 'warning', 'error') } },
  'name-hyphen': { summary: '`name` must not start or end with `-` or contain `--` (the spec and uploads; Claude Code accepts it).', severity: per('warning', 'error', 'error') },
  'name-dir-mismatch': { summary: '`name` should equal the skill folder name.', severity: { 'claude-code': 'warning', spec: 'error', upload: 'warning' } },
  'name-reserved': { summary: '`name` must not contain the reserved words `anthropic` or `claude` (upload).', severity: { 'claude-code': undefined, spec: undefined, upload: 'error' } },
  'description-length': { summary: '`description` is over 1024 characters (Claude Code accepts it; the spec and uploads do not).', severity: per('warning', 'error', 'error') },
  'description-angle-brackets': { summary: '`description` must not contain `<` or `>`.', severity: { 'claude-code': 'warning', spec: 'warning', upload: 'error' } },
  'description-placeholder': { summary: '`description` is still a placeholder (`TODO`, `TBD`, `FIXME`).', severity: { 'claude-code': 'warning', spec: 'warning', upload: 'error' } },
  'listing-length': { summary: '`description` + `when_to_use` over 1536 characters is cut in Claude Code\'s skill listing.', severity: { 'claude-code': 'warning', spec: undefined, upload: undefined } },
  'compatibility-invalid': { summary: '`compatibility` must be a string of 1–500 characters.', severity: all('error') },
  'metadata-invalid': { summary: '`metadata` must be a map of string keys to string values (Claude Code never reads it).', severity: per('warning', 'error', 'error'),
    variants: { 'unquoted-scalar': all('warning') } },
  'allowed-tools-invalid': { summary: '`allowed-tools` must be a space-separated string (a YAML list is fine in Claude Code).', severity: all('error') },
  'tool-unknown': { summary: 'A tools-list entry names no Claude Code tool (a typo, a former tool, an MCP tool without its `mcp__<server>__` name), so it pre-approves, grants or removes nothing.', severity: per('warning', undefined, undefined),
    variants: { former: per('info', undefined, undefined) } },
  'tool-rule-invalid': { summary: 'A tools-list entry is not a permission rule Claude Code applies (parentheses that do not close, a path rule on a tool Claude Code never checks paths for, a WebFetch rule without `domain:`, an unanchored tool-name pattern in an allow list).', severity: per('warning', undefined, undefined) },
  'hook-invalid': { summary: 'A hook Claude Code never runs: an event it does not have, a matcher group without a `hooks` list, a handler of no known `type` or without its required field, `if` on an event that never evaluates it, a matcher that does not compile, a hooks.json that does not parse.', severity: per('error', undefined, undefined),
    variants: { 'unknown-event': per('warning', undefined, undefined) } },
  'hook-matcher': { summary: 'A hook matcher or `if` rule that cannot match what the author meant: a matcher on an event that takes none (ignored), a tool name Claude Code does not have, `mcp__<server>` without `__.*`.', severity: per('warning', undefined, undefined) },
  'hook-script-missing': { summary: 'A command hook\'s `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PROJECT_DIR}` script path does not exist (or `${CLAUDE_PLUGIN_ROOT}` outside a plugin).', severity: per('warning', undefined, undefined) },
  'field-invalid': { summary: 'A Claude Code key has a value Claude Code rejects or ignores.', severity: per('error', undefined, undefined) },
  'unknown-key': { summary: 'The key is not accepted by the active validation profile.', severity: { 'claude-code': 'warning', spec: 'error', upload: 'error' } },
  'body-lines': { summary: 'The body is over 500 lines; move detail into `references/`.', severity: all('warning') },
  'body-tokens': { summary: 'The body is over ~5000 tokens (estimate: characters / 4); move detail into `references/`.', severity: all('warning') },
  'reference-missing': { summary: 'A relative link or path reference points to a file that does not exist.', severity: all('warning') },
  'reference-outside': {
    summary: 'A reference leaves the repository or workspace, is an absolute path, or leaves a plugin skill\'s plugin root (error); leaves the skill but stays in the repository, plugin, project or workspace folder (warning; error in upload); a project or personal skill\'s reference into its own repository (off in claude-code, info in spec, error in upload).',
    severity: all('error'),
    variants: {
      'in-repository': { 'claude-code': 'warning', spec: 'warning', upload: 'error' },
      // A project or personal skill is never installed elsewhere: a file of its repository is there when it runs.
      'own-repository': per(undefined, 'info', 'error'),
    },
  },
  'script-source-path': { summary: 'A plugin skill runs a script by its path in the source repository (`python3 plugins/a/skills/b/scripts/c.py`), which does not exist once the plugin is installed; write `${CLAUDE_SKILL_DIR}/…`.', severity: all('warning') },
  'reference-backslash': { summary: 'A reference is written with `\\` separators, which only Windows reads.', severity: { 'claude-code': 'warning', spec: 'warning', upload: 'error' } },
  'duplicate-name': { summary: 'Two skills or commands of one level answer the same command; Claude Code runs only one.', severity: all('error') },
  shadowed: { summary: 'A higher-precedence skill or command answers the same command (managed > personal > project; skill > command).', severity: all('info') },
  'skill-not-loaded': { summary: 'Claude Code never loads this SKILL.md: it is deeper than a direct child of a skills folder, or inside the reserved `synced` folder.', severity: { 'claude-code': 'error', spec: undefined, upload: undefined } },
  'subskill-not-loaded': { summary: 'The skill tells Claude to invoke a SKILL.md that Claude Code never loads as a skill (under `references/` or any folder that is not a direct child of a skills folder).', severity: { 'claude-code': 'warning', spec: undefined, upload: undefined } },
  'builtin-clash': { summary: 'The command name is a Claude Code built-in command (which wins) or a bundled skill (which this replaces).', severity: { 'claude-code': 'warning', spec: undefined, upload: undefined } },
  unreachable: { summary: 'Neither the user nor the model can invoke it (`user-invocable: false` with `disable-model-invocation: true`, or an agent\'s `skills:` entry the model may not invoke).', severity: { 'claude-code': 'warning', spec: undefined, upload: undefined } },
  'description-overlap': { summary: 'Two listed skills whose `description` / `when_to_use` say nearly the same thing compete for the same requests (off unless a `.skillflow.json` turns it on; shown in What Claude Sees).', severity: { 'claude-code': undefined, spec: undefined, upload: undefined } },
  'mention-unknown': { summary: 'The body names a skill or command (`use the x skill`, `/x`) that no level loads, and a loaded one has a close name (a typo?).', severity: { 'claude-code': 'info', spec: undefined, upload: undefined } },
  'skill-md-case': { summary: 'The skill folder has `skill.md` but no `SKILL.md` (the name is case-sensitive).', severity: all('error') },
  'file-not-text': { summary: 'SKILL.md (or a command file) is not text: it holds NUL bytes or is not valid UTF-8.', severity: all('error') },
  'file-too-large': { summary: 'SKILL.md is over 1 MiB and was not parsed.', severity: all('error') },
  'agent-skill-missing': { summary: 'An agent\'s `skills:` entry names a skill that does not exist.', severity: all('error') },
  'agent-model-invalid': { summary: 'An agent\'s `model` must be a `/model` value (sonnet, opus, haiku, fable, a full model id …) or inherit.', severity: all('error') },
  'model-unknown': { summary: '`model` is no alias and names no Claude model (a typo such as `sonet`, or `gpt-4`): the Anthropic API refuses it; gateways may pass it on.', severity: per('warning', undefined, undefined) },
  'paths-pattern': { summary: 'A `paths` pattern matches no file: its brace groups expand past the 1,000 patterns the list shares, or a `[` opens no bracket expression.', severity: per('warning', undefined, undefined) },
  'tool-pattern': { summary: 'A `Bash(...)` rule in `allowed-tools` / `disallowed-tools` has `:*` before its end, where the colon is literal (`Bash(git:* push)` matches nothing).', severity: per('warning', undefined, undefined) },
  'agent-plugin-ignored': { summary: 'A plugin agent sets `hooks`, `mcpServers` or `permissionMode`, which Claude Code ignores in plugin agents (for security).', severity: all('error') },
  'agent-duplicate-name': { summary: 'Two agent files of one `.claude/agents` folder (subfolders included) declare the same `name`: Claude Code loads only one, chosen by file-system order.', severity: all('error') },
  'agent-name-invalid': { summary: 'An agent\'s `name` contains `:` or starts with `-`: Claude Code skips the file.', severity: all('error') },
  'agent-tools-invalid': { summary: 'An agent\'s `tools` must be a string or a list of strings.', severity: all('error') },
  'config-invalid': { summary: 'A `.skillflow.json` (or a `skillflow-disable` comment) is not valid; the parts that are not valid are ignored.', severity: all('warning') },
  'agent-tools-key': { summary: 'An agent uses a skill\'s `allowed-tools` / `disallowed-tools` key, which Claude Code ignores in an agent (it reads `tools` / `disallowedTools`): the agent inherits every tool.', severity: all('error') },
  'agent-skills-invalid': { summary: 'An agent\'s `skills` must be a list of skill names.', severity: all('error') },
};

/**
 * Severity of `code` in `profile` (of its `variant`, when the rule has that variant); undefined when the rule is off
 * there (or the code is unknown).
 */
export function severityFor(code: string, profile: Profile, variant?: string): Severity | undefined {
  if (!Object.prototype.hasOwnProperty.call(RULES, code)) return undefined;
  const rule = RULES[code];
  const severities = variant !== undefined && rule.variants && Object.prototype.hasOwnProperty.call(rule.variants, variant) ? rule.variants[variant] : rule.severity;
  return severities[profile];
}

/**
 * Reports one problem: its rule code (the severity comes from RULES and the profile; `variant`: a named case of the
 * rule with its own severities), where, and what.
 */
export type Emit = (code: string, range: Range, message: string, variant?: string) => void;
