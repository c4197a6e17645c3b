/**
 * The frontmatter values Claude Code accepts, as its documentation states them (docs/claude-code-model.md lists
 * the sources). Pure tables and checks; the validation rules read them.
 */
import { editDistance } from '../base/text';

/** Boolean fields accept these words in any letter case (Claude Code 2.1.218 and later), plus YAML booleans and 1/0. */
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

/** The words Claude Code reads as booleans, in the documentation's order. */
export const CLAUDE_BOOLEAN_WORDS: readonly string[] = ['true', 'false', 'yes', 'no', 'on', 'off', '1', '0'];

/**
 * A frontmatter value read as Claude Code reads a boolean field: `true`/`false` (YAML booleans or strings), and
 * `yes`/`no`/`on`/`off`/`1`/`0` in any letter case. Undefined when Claude Code would not read it as a boolean.
 */
export function parseClaudeBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1) return true;
  if (value === 0) return false;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** `/model` aliases (docs/model-config.md "Model aliases"); `default` is listed there too, as a special value. */
export const MODEL_ALIASES: readonly string[] = ['default', 'best', 'fable', 'sonnet', 'opus', 'haiku', 'sonnet[1m]', 'opus[1m]', 'opusplan'];
/** Accepted by the skill `model` field besides every `/model` value: keep the session's model. */
export const MODEL_INHERIT = 'inherit';
/** Model family names that take the `[1m]` suffix as aliases (`opusplan[1m]` is documented too). */
const SUFFIXABLE_ALIASES = new Set(['sonnet', 'opus', 'opusplan', 'fable', 'best', 'haiku']);
/** A full model name: `claude-opus-4-8`, `claude-sonnet-4-5-20250929`, optionally with `[1m]`. */
const FULL_MODEL_NAME = /^claude-[a-z0-9]+(?:[-.][a-z0-9]+)*(?:\[1m\])?$/i;
/**
 * A provider model id (Bedrock `us.anthropic.claude-…-v1:0`, Agent Platform `claude-…@2025…`, Foundry deployment
 * names, gateway ids such as `anthropic/claude-…`): `/model` accepts any model name the provider serves.
 */
const PROVIDER_MODEL_ID = /^[a-z0-9][a-z0-9._:/@-]*(?:\[1m\])?$/i;

export type ModelValueKind = 'alias' | 'inherit' | 'full-name' | 'provider-id';

/**
 * How Claude Code reads a skill's `model` value: an alias (with `[1m]` where documented), `inherit`, a full
 * `claude-…` model name, or another provider id; undefined for a value that is no model name at all
 * (empty, spaces, not a string).
 */
export function classifyModelValue(value: unknown): ModelValueKind | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (!v || /\s/.test(v)) return undefined;
  const lower = v.toLowerCase();
  if (lower === MODEL_INHERIT) return 'inherit';
  if (MODEL_ALIASES.includes(lower)) return 'alias';
  if (lower.endsWith('[1m]') && SUFFIXABLE_ALIASES.has(lower.slice(0, -4))) return 'alias';
  if (FULL_MODEL_NAME.test(v)) return 'full-name';
  if (PROVIDER_MODEL_ID.test(v) && /[a-z]/i.test(v)) return 'provider-id';
  return undefined;
}

/**
 * Why a model value Claude Code passes on is likely no model at all (a typo such as `sonet`, or another vendor's model
 * such as `gpt-4`): a provider id that names no Claude model. The Anthropic API refuses it; a gateway or a Foundry
 * deployment name may serve it, so this is a warning. Undefined for aliases, `inherit`, Claude model names and ids.
 */
export function unknownModelNote(value: unknown): string | undefined {
  if (classifyModelValue(value) !== 'provider-id') return undefined;
  const v = (value as string).trim();
  if (/claude|anthropic/i.test(v)) return undefined;
  const lower = v.toLowerCase();
  let near: string | undefined;
  let best = 3;
  for (const alias of [...MODEL_ALIASES, MODEL_INHERIT]) {
    const d = editDistance(lower, alias);
    if (d < best && d <= Math.ceil(alias.length / 3)) { best = d; near = alias; }
  }
  return `'${v}' is no model alias and names no Claude model: the Anthropic API refuses it (only a gateway or a deployment of that name would serve it)${near ? `; did you mean '${near}'?` : ''}`;
}

/** True when Claude Code accepts `value` as a skill's `model`. */
export function isClaudeModelValue(value: unknown): boolean {
  return classifyModelValue(value) !== undefined;
}

/** `effort` levels (docs/skills.md frontmatter reference); which of them a model supports varies. */
export const EFFORT_LEVELS: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max'];
/** `context`: only `fork` has a meaning. */
export const CONTEXT_VALUES: readonly string[] = ['fork'];
/** `shell`: `bash` (default) or `powershell`. */
export const SHELL_VALUES: readonly string[] = ['bash', 'powershell'];
/** Built-in subagent types for `agent` (custom ones from `.claude/agents/` are accepted too). */
export const BUILTIN_AGENTS: readonly string[] = ['Explore', 'Plan', 'general-purpose'];

export function isEffortLevel(value: unknown): boolean {
  return typeof value === 'string' && EFFORT_LEVELS.includes(value.trim());
}

/** Fields that only apply together with `context: fork`. */
export const FORK_ONLY_FIELDS: readonly string[] = ['agent', 'background'];

/**
 * Fields of a frontmatter that Claude Code ignores because another field is missing: `background` and `agent`
 * only apply with `context: fork`. Returns the ignored field names.
 */
export function ignoredForkFields(data: Record<string, unknown>): string[] {
  const fork = typeof data.context === 'string' && data.context.trim() === 'fork';
  if (fork) return [];
  return FORK_ONLY_FIELDS.filter((k) => k in data);
}

/** Claude Code's boolean frontmatter fields in skills and command files. */
export const BOOLEAN_FIELDS: readonly string[] = ['disable-model-invocation', 'user-invocable', 'background'];

/** Keys Claude Code ignores in a `.claude/commands/*.md` file (it reads the rest of the skill frontmatter). */
export const COMMAND_IGNORED_KEYS: readonly string[] = ['name', 'paths'];

/** `skillOverrides` states (docs/settings-reference.md). */
export const SKILL_OVERRIDE_VALUES = ['on', 'name-only', 'user-invocable-only', 'off'] as const;
export type SkillOverride = (typeof SKILL_OVERRIDE_VALUES)[number];

export function isSkillOverride(value: unknown): value is SkillOverride {
  return typeof value === 'string' && (SKILL_OVERRIDE_VALUES as readonly string[]).includes(value);
}
