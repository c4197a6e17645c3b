/** Every frontmatter key Skillflow knows: what it does, which profiles accept it, its value type (hovers, completion, validation). */
import type { Profile } from '../base/types';

export type KeyType = 'string' | 'boolean' | 'enum' | 'list' | 'map' | 'string-or-list' | 'any';

export interface FrontmatterKeyInfo {
  key: string;
  doc: string;
  profiles: Profile[];
  type: KeyType;
  /** Allowed values for `enum` and `boolean` keys (for `model`: the aliases; a full `claude-…` id is accepted too). */
  values?: string[];
}

const ALL: Profile[] = ['claude-code', 'spec', 'upload'];
const CC: Profile[] = ['claude-code'];

/** Model aliases accepted by `model` (a full model id such as `claude-sonnet-4-5-20250929` is accepted too). */
export const MODEL_ALIASES = ['sonnet', 'opus', 'haiku', 'inherit'] as const;
/** A full Claude model id: `claude-` then lower-case words/numbers joined by `-` or `.`, optionally `[1m]`. */
export const FULL_MODEL_ID = /^claude-[a-z0-9]+(?:[-.][a-z0-9]+)*(?:\[1m\])?$/;
export const EFFORT_VALUES = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export const SHELL_VALUES = ['bash', 'powershell'] as const;

/** True when `value` is a model alias or a full model id. */
export function isValidModel(value: string): boolean {
  return (MODEL_ALIASES as readonly string[]).includes(value) || FULL_MODEL_ID.test(value);
}

export const FRONTMATTER_KEYS: ReadonlyArray<FrontmatterKeyInfo> = [
  { key: 'name', type: 'string', profiles: ALL,
    doc: 'The skill\'s name and `/slash-command`: lower-case letters, digits and hyphens, at most 64 characters, equal to the folder name. Required in every profile.' },
  { key: 'description', type: 'string', profiles: ALL,
    doc: 'What the skill does and when to use it; Claude reads it to decide when to load the skill. Required; at most 1024 characters, no `<` or `>`.' },
  { key: 'license', type: 'string', profiles: ALL,
    doc: 'The licence the skill is released under (a name, or a pointer to a bundled licence file). Accepted in every profile.' },
  { key: 'compatibility', type: 'string', profiles: ALL,
    doc: 'Environment requirements (products, system packages, network access), 1–500 characters. Accepted in every profile.' },
  { key: 'metadata', type: 'map', profiles: ALL,
    doc: 'Free-form extra properties as a map of string keys to string values (e.g. `author`, `version`). Accepted in every profile.' },
  { key: 'allowed-tools', type: 'string-or-list', profiles: ALL,
    doc: 'Tools the skill may use without asking, as a space-separated string (e.g. `Read Bash(git:*)`). Claude Code also accepts a YAML list. Accepted in every profile.' },
  { key: 'when_to_use', type: 'string', profiles: CC,
    doc: 'Extra guidance on when Claude should use the skill, appended to the description in the skill listing (the two together are cut at 1536 characters). Claude Code only.' },
  { key: 'argument-hint', type: 'string-or-list', profiles: CC,
    doc: 'Hint shown after the `/name` command during autocomplete, e.g. `[issue-number]`. Claude Code only.' },
  { key: 'arguments', type: 'string-or-list', profiles: CC,
    doc: 'Named positional arguments for `$name` substitution in the body, as a list or a space-separated string. Claude Code only.' },
  { key: 'disable-model-invocation', type: 'boolean', values: ['true', 'false'], profiles: CC,
    doc: '`true` keeps Claude from loading the skill on its own; it runs only when you type `/name`. Claude Code only.' },
  { key: 'user-invocable', type: 'boolean', values: ['true', 'false'], profiles: CC,
    doc: '`false` hides the skill from the `/` menu (background knowledge Claude may still load). Claude Code only.' },
  { key: 'disallowed-tools', type: 'string-or-list', profiles: CC,
    doc: 'Tools the skill must not use while active, as a string or a list. Claude Code only.' },
  { key: 'model', type: 'enum', values: [...MODEL_ALIASES], profiles: CC,
    doc: 'Model used while the skill runs: `sonnet`, `opus`, `haiku`, `inherit`, or a full model id like `claude-sonnet-4-5-20250929`. Claude Code only.' },
  { key: 'effort', type: 'enum', values: [...EFFORT_VALUES], profiles: CC,
    doc: 'Reasoning effort while the skill runs: `low`, `medium`, `high`, `xhigh` or `max`. Claude Code only.' },
  { key: 'context', type: 'enum', values: ['fork'], profiles: CC,
    doc: '`fork` runs the skill in a forked sub-agent context instead of the main conversation. Claude Code only.' },
  { key: 'agent', type: 'string', profiles: CC,
    doc: 'The sub-agent type that runs the skill when `context: fork` is set (e.g. `Explore` or one of your `.claude/agents`). Claude Code only.' },
  { key: 'background', type: 'boolean', values: ['true', 'false'], profiles: CC,
    doc: '`true` runs the skill in the background. Claude Code only.' },
  { key: 'hooks', type: 'map', profiles: CC,
    doc: 'Hooks scoped to the skill\'s lifetime, in the same shape as the `hooks` setting (event → matchers → commands). Claude Code only.' },
  { key: 'paths', type: 'string-or-list', profiles: CC,
    doc: 'Glob patterns of files the skill applies to; Claude loads it when working with matching files. A string or a list. Claude Code only.' },
  { key: 'shell', type: 'enum', values: [...SHELL_VALUES], profiles: CC,
    doc: 'Shell for the body\'s `!` command blocks: `bash` (default) or `powershell`. Claude Code only.' },
  { key: 'version', type: 'string', profiles: CC,
    doc: 'The skill\'s own version string, for your records. Claude Code only (use `metadata.version` for portable skills).' },
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
