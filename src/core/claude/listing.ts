/**
 * The skill listing Claude Code puts in the model's context each turn: which entries appear, how much of each
 * description, and what the character budget leaves. docs/claude-code-model.md gives the documented rules and
 * the choices Skillflow makes where the documents are silent (line format, drop order).
 */
import type { ClaudeSettings } from './settings';
import type { ClaudeEntry, ClaudeLevel, ClaudeSource } from './types';

/** Characters per token used to turn a context window into characters. */
export const CHARS_PER_TOKEN = 4;
/** The context window assumed when none is given: 1% of it is the documented 8,000-character fallback. */
const FALLBACK_CONTEXT_TOKENS = 200_000;

export type ListingShown = 'full' | 'truncated' | 'name-only' | 'dropped' | 'absent';

/** What `listing --fail-on` accepts, from least to most lost: a level fails the run on itself and on every level after it. */
export const LISTING_GATES = ['truncated', 'name-only', 'dropped'] as const;
export type ListingGate = (typeof LISTING_GATES)[number];

/** The entries the gate fails on: shown `gate` or worse (a dropped entry is worse than a name-only one, which is worse than a truncated one). */
export function listingGateFailures(listing: Listing, gate: ListingGate): ListingEntry[] {
  const from = LISTING_GATES.indexOf(gate);
  return listing.entries.filter((e) => (LISTING_GATES as readonly string[]).indexOf(e.shown) >= from);
}

export interface ListingEntry {
  invocation: string;
  path: string;
  level: ClaudeLevel;
  source: ClaudeSource;
  /** Characters this entry takes in the listing (0 when absent). */
  chars: number;
  shown: ListingShown;
  reason?: string;
  /** Characters of `description` + `when_to_use` before the per-entry cap. */
  descChars: number;
  /** The line as the listing holds it (empty when absent). */
  line: string;
  /** 0 = the first description dropped when the listing is over budget; absent for entries without one shown. */
  dropRank?: number;
}

export interface Listing {
  budget: number;
  used: number;
  /** Where the budget came from. */
  budgetSource: 'SLASH_COMMAND_TOOL_CHAR_BUDGET' | 'skillListingBudgetFraction';
  contextWindowTokens: number;
  maxDescChars: number;
  /** True when the names alone exceed the budget: Claude Code keeps every name, so `used` is over `budget`. */
  namesOverBudget: boolean;
  entries: ListingEntry[];
}

export interface ListingOptions {
  /** The model's context window in tokens (default 200,000). */
  contextWindowTokens?: number;
  /** The environment in force (for SLASH_COMMAND_TOOL_CHAR_BUDGET). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A budget from SLASH_COMMAND_TOOL_CHAR_BUDGET: a positive whole number of characters, else undefined. */
function envBudget(env: Readonly<Record<string, string | undefined>> | undefined): number | undefined {
  const raw = env?.SLASH_COMMAND_TOOL_CHAR_BUDGET?.trim();
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n > 0 ? n : undefined;
}

/** The listing's budget in characters and where it comes from. */
export function listingBudget(settings: ClaudeSettings, opts: ListingOptions = {}): { budget: number; source: Listing['budgetSource']; contextWindowTokens: number } {
  const contextWindowTokens = opts.contextWindowTokens && opts.contextWindowTokens > 0 ? opts.contextWindowTokens : FALLBACK_CONTEXT_TOKENS;
  const fromEnv = envBudget(opts.env);
  if (fromEnv !== undefined) return { budget: fromEnv, source: 'SLASH_COMMAND_TOOL_CHAR_BUDGET', contextWindowTokens };
  return { budget: Math.floor(settings.skillListingBudgetFraction * contextWindowTokens * CHARS_PER_TOKEN), source: 'skillListingBudgetFraction', contextWindowTokens };
}

/** Why an entry is not in the listing at all, or undefined when it is. */
function absentReason(e: ClaudeEntry): string | undefined {
  if (e.shadowedBy) return `shadowed: ${e.shadowReason ?? e.shadowedBy}`;
  if (e.onDemand) return `a nested skill: listed once Claude reads or edits a file in ${e.nestedDir}`;
  if (e.meta.disableModelInvocation) return '`disable-model-invocation: true`';
  if (e.override === 'off') return '`skillOverrides`: "off"';
  if (e.override === 'user-invocable-only') return '`skillOverrides`: "user-invocable-only"';
  return undefined;
}

/**
 * The listing for the given entries (a model's, in its order; entries never loaded are left out). Each listed
 * entry is the line `- <name>: <description> <when_to_use>` (or `- <name>`), the text cut at
 * `skillListingMaxDescChars`. Over budget, names stay and descriptions are dropped, longest first.
 */
export function computeListing(entries: readonly ClaudeEntry[], settings: ClaudeSettings, opts: ListingOptions = {}): Listing {
  const { budget, source, contextWindowTokens } = listingBudget(settings, opts);
  const max = settings.skillListingMaxDescChars;
  const out: ListingEntry[] = [];
  /** Entries whose description is shown, with the characters dropping it saves. */
  const withDesc: Array<{ entry: ListingEntry; saves: number; index: number; nameLine: string }> = [];
  let used = 0;
  let namesOnly = 0;
  for (const e of entries) {
    if (!e.loaded || e.invocation === null) continue;
    const text = [e.meta.description, e.meta.whenToUse].filter((t): t is string => !!t).join(' ');
    const base = { invocation: e.invocation, path: e.path, level: e.level, source: e.kind, descChars: text.length };
    const absent = absentReason(e);
    if (absent !== undefined) {
      out.push({ ...base, chars: 0, shown: 'absent', reason: absent, line: '' });
      continue;
    }
    const nameLine = `- ${e.name}`;
    namesOnly += nameLine.length + 1;
    if (e.override === 'name-only' || !text) {
      const entry: ListingEntry = { ...base, chars: nameLine.length + 1, shown: 'name-only', reason: text ? '`skillOverrides`: "name-only"' : 'no description', line: nameLine };
      out.push(entry);
      used += entry.chars;
      continue;
    }
    const cut = text.length > max;
    const line = `${nameLine}: ${cut ? text.slice(0, max) : text}`;
    const entry: ListingEntry = {
      ...base, chars: line.length + 1, shown: cut ? 'truncated' : 'full', line,
      ...(cut ? { reason: `description + when_to_use is ${text.length} characters; the listing keeps ${max} (skillListingMaxDescChars)` } : {}),
    };
    out.push(entry);
    used += entry.chars;
    withDesc.push({ entry, saves: line.length - nameLine.length, index: out.length - 1, nameLine });
  }
  // Drop order: the longest description first (Claude Code drops the least-used skills' first; Skillflow has no usage data).
  withDesc.sort((a, b) => b.saves - a.saves || b.index - a.index);
  withDesc.forEach((w, i) => { w.entry.dropRank = i; });
  for (const w of withDesc) {
    if (used <= budget) break;
    used -= w.saves;
    w.entry.chars = w.nameLine.length + 1;
    w.entry.line = w.nameLine;
    w.entry.shown = 'dropped';
    w.entry.reason = `over the listing budget of ${budget} characters: the description is dropped, the name stays`;
  }
  return { budget, used, budgetSource: source, contextWindowTokens, maxDescChars: max, namesOverBudget: namesOnly > budget, entries: out };
}

/**
 * The entries at risk, most at risk first: those already dropped, then those whose description would be dropped
 * next if the listing grew (in drop order). `count` limits the second group (default: all).
 */
export function entriesAtRisk(listing: Listing, count = Infinity): ListingEntry[] {
  const dropped = listing.entries.filter((e) => e.shown === 'dropped');
  const next = listing.entries
    .filter((e) => (e.shown === 'full' || e.shown === 'truncated') && e.dropRank !== undefined)
    .sort((a, b) => (a.dropRank ?? 0) - (b.dropRank ?? 0))
    .slice(0, count);
  return [...dropped.sort((a, b) => (a.dropRank ?? 0) - (b.dropRank ?? 0)), ...next];
}

/** The `listing` JSON of the CLI: `{budget, used, entries:[{invocation, chars, shown}]}` plus the reason per entry. */
export function listingJson(l: Listing): { budget: number; used: number; entries: Array<{ invocation: string; chars: number; shown: ListingShown; reason?: string }> } {
  return {
    budget: l.budget,
    used: l.used,
    entries: l.entries.map((e) => ({ invocation: e.invocation, chars: e.chars, shown: e.shown, ...(e.reason ? { reason: e.reason } : {}) })),
  };
}

export interface ContextWindow {
  tokens: number;
  /** `200k`, `1m`, or the number of tokens as written. */
  label: string;
  /** Set when the setting's value could not be read (the default is used then). */
  invalid?: string;
}

/** Reads a context window (the `skillflow.listing.contextWindow` setting, the CLI's `--context-window`): `200k`, `1m`, or a number of tokens (as a number or digits). */
export function parseContextWindow(value: unknown): ContextWindow {
  if (value === undefined || value === null || value === '') return { tokens: 200_000, label: '200k' };
  const raw = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : '';
  const m = /^(\d+(?:\.\d+)?)\s*([km]?)$/.exec(raw);
  if (m) {
    const tokens = Math.round(Number(m[1]) * (m[2] === 'k' ? 1_000 : m[2] === 'm' ? 1_000_000 : 1));
    if (tokens >= 1_000) return { tokens, label: m[2] ? `${m[1]}${m[2]}` : tokens.toLocaleString('en-US') };
  }
  return { tokens: 200_000, label: '200k', invalid: `${JSON.stringify(value)} is not a context window (use "200k", "1m" or a number of tokens of at least 1000); 200k is used` };
}

