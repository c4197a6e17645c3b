/**
 * The frontmatter key table: every SKILL.md key Skillflow knows, which profiles accept it, its value kind, its
 * documentation, its completion values and the values Claude Code accepts. Validation (`unknown-key`,
 * `field-invalid`), hovers, completion and the key list in docs/rules.md all read this one table.
 */
import type { Profile } from '../base/types';
import {
  BUILTIN_AGENTS, CLAUDE_BOOLEAN_WORDS, CONTEXT_VALUES, EFFORT_LEVELS, isClaudeModelValue, isEffortLevel, MODEL_ALIASES, MODEL_INHERIT,
  parseClaudeBoolean, SHELL_VALUES,
} from '../claude/values';

export type KeyType = 'string' | 'boolean' | 'enum' | 'model' | 'list' | 'map' | 'string-or-list' | 'any';

/** What Claude Code accepts for a key: `accepts` is false for a value it rejects or ignores (`field-invalid`). */
export interface ClaudeCodeCheck {
  accepts: (value: unknown) => boolean;
  /** The accepted values as a phrase for messages: "true or false", "a map of hook events". */
  expected: string;
}

export interface FrontmatterKeyInfo {
  key: string;
  doc: string;
  profiles: Profile[];
  type: KeyType;
  /** Values offered by completion (and shown in hovers), most common first; for `agent` the built-in types (custom ones are accepted too). */
  values?: readonly string[];
  /** Claude Code's check of the value (claude-code profile only). */
  claudeCode?: ClaudeCodeCheck;
  /** Claude Code reads the key only together with `context: fork` (else it ignores it). */
  requiresFork?: boolean;
}

const ALL: Profile[] = ['claude-code', 'spec', 'upload'];
const CC: Profile[] = ['claude-code'];

const isString = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown) => isString(v) && v.trim() !== '';
const stringList = (v: unknown) => Array.isArray(v) && v.every(nonEmpty);
const stringOrList = (v: unknown) => nonEmpty(v) || stringList(v);
const isMapValue = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

const BOOLEAN: ClaudeCodeCheck = {
  accepts: (v) => parseClaudeBoolean(v) !== undefined,
  expected: 'true or false (yes/no, on/off and 1/0 in any case are read as booleans too)',
};
/** Booleans offered by completion: the canonical words first, then the others Claude Code reads. */
const BOOLEAN_COMPLETIONS = CLAUDE_BOOLEAN_WORDS;
/** `model` completion: the `/model` aliases and `inherit` (a full model id is accepted too). */
export const MODEL_COMPLETIONS: readonly string[] = [MODEL_INHERIT, ...MODEL_ALIASES];

/**
 * Agent files' `model` (`.claude/agents/*.md`): the aliases docs/sub-agents.md names ("`sonnet`, `opus`, `haiku`,
 * `fable`, a full model ID … or `inherit`"); any other `/model` value is accepted too ("Accepts the same values as the
 * `--model` flag").
 */
export const AGENT_MODEL_ALIASES = ['sonnet', 'opus', 'haiku', 'fable', 'inherit'] as const;

/** True when `value` is an agent file's model: what a skill's `model` accepts (every `/model` value, or `inherit`). */
export function isAgentModel(value: string): boolean {
  return isClaudeModelValue(value);
}

export const FRONTMATTER_KEYS: ReadonlyArray<FrontmatterKeyInfo> = [
  { key: 'name', type: 'string', profiles: ALL,
    doc: 'Display label in skill listings; the command you type comes from the folder name (in a plugin skill, `name` sets the command\'s last part). Optional in Claude Code (defaults to the folder name). Required by the spec and uploads: lower-case letters, digits and hyphens, at most 64 characters, equal to the folder name. Accepted in every profile.' },
  { key: 'description', type: 'string', profiles: ALL,
    doc: 'What the skill does and when to use it; Claude reads it to decide when to load the skill. Optional in Claude Code (it uses the first paragraph of the body), required by the spec and uploads: at most 1024 characters, no `<` or `>`. Claude Code\'s listing cuts `description` + `when_to_use` at 1536 characters. Accepted in every profile.' },
  { key: 'license', type: 'string', profiles: ALL,
    doc: 'The licence the skill is released under (a name, or a pointer to a bundled licence file). Claude Code accepts it but does not act on it. Accepted in every profile.' },
  { key: 'compatibility', type: 'string', profiles: ALL,
    doc: 'Environment requirements (products, system packages, network access), 1–500 characters. Claude Code accepts it but does not act on it. Accepted in every profile.' },
  { key: 'metadata', type: 'map', profiles: ALL,
    doc: 'Free-form extra properties as a map of string keys to string values (e.g. `author`, `version`), for your own tools; Claude Code does not act on it. Accepted in every profile.' },
  { key: 'allowed-tools', type: 'string-or-list', profiles: ALL,
    doc: 'Tools Claude may use without asking while the skill runs, as a space-separated string (e.g. `Read Bash(git:*)`). Claude Code also accepts commas and a YAML list. Accepted in every profile.' },
  { key: 'when_to_use', type: 'string', profiles: CC,
    claudeCode: { accepts: (v) => v === null || isString(v) || typeof v === 'number', expected: 'a string' },
    doc: 'Extra guidance on when Claude should use the skill, appended to the description in the skill listing (the two together are cut at 1536 characters). Claude Code only.' },
  { key: 'argument-hint', type: 'string-or-list', profiles: CC,
    claudeCode: { accepts: (v) => !isMapValue(v), expected: 'a string such as "[issue-number]"' },
    doc: 'Hint shown after the `/name` command during autocomplete, e.g. `[issue-number]`. Claude Code only.' },
  { key: 'arguments', type: 'string-or-list', profiles: CC,
    claudeCode: { accepts: stringOrList, expected: 'a space-separated string or a list of argument names' },
    doc: 'Named positional arguments for `$name` substitution in the body, as a list or a space-separated string. Claude Code only.' },
  { key: 'disable-model-invocation', type: 'boolean', values: BOOLEAN_COMPLETIONS, profiles: CC, claudeCode: BOOLEAN,
    doc: '`true` keeps Claude from loading the skill on its own and leaves it out of the skill listing; it runs only when you type `/name`. Booleans also accept `yes`/`no`, `on`/`off`, `1`/`0` in any case. Claude Code only.' },
  { key: 'user-invocable', type: 'boolean', values: BOOLEAN_COMPLETIONS, profiles: CC, claudeCode: BOOLEAN,
    doc: '`false` hides the skill from the `/` menu (background knowledge Claude may still load). Booleans also accept `yes`/`no`, `on`/`off`, `1`/`0` in any case. Claude Code only.' },
  { key: 'disallowed-tools', type: 'string-or-list', profiles: CC,
    claudeCode: { accepts: stringOrList, expected: 'a string or a list of tool names' },
    doc: 'Tools removed from Claude\'s pool while the skill is active, as a space- or comma-separated string or a list. Claude Code only.' },
  { key: 'model', type: 'model', values: MODEL_COMPLETIONS, profiles: CC,
    claudeCode: { accepts: isClaudeModelValue, expected: `a /model value (${MODEL_ALIASES.join(', ')}, a full model id such as claude-sonnet-4-5) or inherit` },
    doc: 'Model used while the skill runs: any `/model` value (`default`, `best`, `sonnet`, `opus`, `haiku`, `opusplan`, `sonnet[1m]`, a full model id) or `inherit` to keep the session\'s model. Claude Code only.' },
  { key: 'effort', type: 'enum', values: EFFORT_LEVELS, profiles: CC,
    claudeCode: { accepts: isEffortLevel, expected: `one of ${EFFORT_LEVELS.join(', ')}` },
    doc: 'Reasoning effort while the skill runs: `low`, `medium`, `high`, `xhigh` or `max` (the levels available depend on the model). Claude Code only.' },
  { key: 'context', type: 'enum', values: CONTEXT_VALUES, profiles: CC,
    claudeCode: { accepts: (v) => isString(v) && CONTEXT_VALUES.includes(v.trim()), expected: 'fork (the only value Claude Code reads)' },
    doc: '`fork` runs the skill in a forked sub-agent context instead of the main conversation. Claude Code only.' },
  { key: 'agent', type: 'string', values: BUILTIN_AGENTS, profiles: CC, requiresFork: true,
    claudeCode: { accepts: nonEmpty, expected: 'the name of a sub-agent type (a string)' },
    doc: 'Only applies with `context: fork`: the sub-agent type that runs the skill (e.g. `Explore` or one of your `.claude/agents`). Claude Code only.' },
  { key: 'background', type: 'boolean', values: BOOLEAN_COMPLETIONS, profiles: CC, requiresFork: true, claudeCode: BOOLEAN,
    doc: 'Only applies with `context: fork`: `false` waits for the forked sub-agent\'s result in the same turn; the default (`true`) runs it in the background. Claude Code 2.1.218 or later. Claude Code only.' },
  { key: 'hooks', type: 'map', profiles: CC,
    claudeCode: { accepts: isMapValue, expected: 'a map of hook events' },
    doc: 'Hooks registered when the skill is invoked, in the same shape as the `hooks` setting (event → matchers → commands). Claude Code only.' },
  { key: 'paths', type: 'string-or-list', profiles: CC,
    claudeCode: { accepts: stringOrList, expected: 'a glob string or a list of globs' },
    doc: 'Glob patterns of files the skill applies to; Claude loads it automatically only when working with matching files. A comma-separated string or a list. Claude Code only.' },
  { key: 'shell', type: 'enum', values: SHELL_VALUES, profiles: CC,
    claudeCode: { accepts: (v) => isString(v) && SHELL_VALUES.includes(v.trim()), expected: `one of ${SHELL_VALUES.join(', ')}` },
    doc: 'Shell for the body\'s `!` command blocks: `bash` (default) or `powershell`. Claude Code only.' },
];

const BY_KEY = new Map(FRONTMATTER_KEYS.map((k) => [k.key, k]));

/** The entry for a frontmatter key, or undefined for a key Skillflow does not know. */
export function keyInfo(key: string): FrontmatterKeyInfo | undefined {
  return BY_KEY.get(key);
}

/** Keys accepted by `profile`. */
export function keysForProfile(profile: Profile): string[] {
  return FRONTMATTER_KEYS.filter((k) => k.profiles.includes(profile)).map((k) => k.key);
}

/** True when the frontmatter's `context` is `fork` (the keys with `requiresFork` apply only then). */
export function hasForkContext(data: Readonly<Record<string, unknown>> | undefined): boolean {
  const context = data?.context;
  return typeof context === 'string' && context.trim() === 'fork';
}
