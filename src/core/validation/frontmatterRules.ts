/** The frontmatter rules over one parsed SKILL.md: the required keys, the name, the description, the keys each profile accepts, typed fields. */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { Profile, Range } from '../base/types';
import { PROFILES } from '../base/types';
import type { Emit } from '../base/rules';
import { severityFor } from '../base/rules';
import { codePointLength, editDistance, splitOutside } from '../base/text';
import type { DetailedParse } from '../skillmd/frontmatter';
import { FRONTMATTER_KEYS, hasForkContext, keyInfo, keysForProfile } from '../skillmd/keys';
import { unknownModelNote } from '../claude/values';
import { splitToolList } from '../agents/agents';
import type { FrontmatterKey, ValidationContext } from '../skillmd/model';
import { NAME_MAX, nameFindings, normalizeName, showNameChar, suggestSkillName } from '../skillmd/names';
import { COMPATIBILITY_MAX, compatibilitySchema, metadataSchema } from '../skillmd/schemas';
import { checkToolList } from './toolRules';

export { NAME_MAX, suggestSkillName };
export const DESCRIPTION_MAX = 1024;
/** Claude Code cuts `description` + `when_to_use` at this many characters in its skill listing. */
export const LISTING_MAX = 1536;
export { COMPATIBILITY_MAX };

/** The keys each profile accepts (a constant table; keysForProfile filters the key list on every call). */
const ACCEPTED_KEYS: ReadonlyMap<Profile, ReadonlySet<string>> = new Map(PROFILES.map((p) => [p, new Set(keysForProfile(p))]));

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'it is empty';
  if (Array.isArray(value)) return 'it is a list';
  if (typeof value === 'object') return 'it is a map';
  if (typeof value === 'string') return value.trim() === '' ? 'it is empty' : `it is "${value.length > 40 ? value.slice(0, 40) + '…' : value}"`;
  return `it is ${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}

/** From the start of the key to the end of its value (or the key alone): what a problem about a whole entry underlines. */
function entryRange(k: FrontmatterKey): Range {
  const v = k.valueRange;
  return v ? { line: k.keyRange.line, column: k.keyRange.column, endLine: v.endLine, endColumn: v.endColumn } : k.keyRange;
}

export function checkFrontmatter(detail: DetailedParse, ctx: ValidationContext, emit: Emit): void {
  const { parsed } = detail;
  const byKey = new Map<string, FrontmatterKey>();
  for (const k of parsed.keys) if (!byKey.has(k.key)) byKey.set(k.key, k);
  const at = (k: FrontmatterKey) => k.valueRange ?? k.keyRange;

  // Claude Code reads a bare number as its text (`name: 3000`, changelog 2.1.47); the spec and uploads want a string.
  const asText = (v: unknown) => (ctx.profile === 'claude-code' && typeof v === 'number' && Number.isFinite(v) ? String(v) : v);
  const name = byKey.get('name');
  const nameValue = asText(name?.value);
  const descriptionValue = asText(byKey.get('description')?.value);
  if (!name) {
    const suggestion = ctx.folderName ? suggestSkillName(ctx.folderName) || ctx.folderName : '';
    emit('name-missing', detail.openingRange, `${suggestion ? `Add 'name: ${suggestion}'` : "Add a 'name' key"}: it is missing (Claude Code uses the folder name; the spec and uploads require it)`);
  } else if (typeof nameValue !== 'string' || nameValue.trim() === '') emit('name-type', at(name), `Give 'name' a non-empty string value (${describe(name.value)})`);
  else checkName(nameValue, at(name), ctx, emit);

  const description = byKey.get('description');
  if (!description) emit('description-missing', detail.openingRange, "Add a 'description' that says what the skill does and when to use it (Claude Code falls back to the first paragraph; the spec and uploads require it)");
  else if (typeof descriptionValue !== 'string' || descriptionValue.trim() === '') emit('description-type', at(description), `Give 'description' a non-empty string value (${describe(description.value)})`);
  else checkDescription(descriptionValue.trim(), at(description), byKey.get('when_to_use'), emit);

  const accepted = ACCEPTED_KEYS.get(ctx.profile) ?? new Set(keysForProfile(ctx.profile));
  for (const k of parsed.keys) {
    if (accepted.has(k.key)) continue;
    const info = keyInfo(k.key);
    if (info) {
      emit('unknown-key', entryRange(k), `Remove '${k.key}' or use the claude-code profile: it is a Claude Code key, and the ${ctx.profile} profile accepts only ${keysForProfile(ctx.profile).join(', ')}`);
    } else {
      const near = closestKey(k.key, ctx.profile, k.value);
      const accepts = ctx.profile === 'claude-code' ? 'Claude Code does not use it' : `the ${ctx.profile} profile accepts only ${keysForProfile(ctx.profile).join(', ')}`;
      const fix = near ? `Rename '${k.key}' to '${near}' or remove it` : METADATA_HINT.has(k.key) ? `Move '${k.key}' under 'metadata' or remove it` : `Remove '${k.key}'`;
      emit('unknown-key', entryRange(k), `${fix}: ${accepts}`);
    }
  }

  const compatibility = byKey.get('compatibility');
  if (compatibility && !compatibilitySchema.safeParse(compatibility.value).success) {
    const v = compatibility.value;
    const detailText = typeof v === 'string' ? (v.trim() === '' ? 'it is empty' : `it has ${codePointLength(v.trim())}`) : describe(v);
    emit('compatibility-invalid', at(compatibility), `Write 'compatibility' as a string of 1–${COMPATIBILITY_MAX} characters (${detailText})`);
  }

  const metadata = byKey.get('metadata');
  if (metadata) checkMetadata(metadata, detail, emit);

  const allowedTools = byKey.get('allowed-tools');
  if (allowedTools) checkAllowedTools(allowedTools, detail, ctx.profile, emit);
  if (severityFor('tool-unknown', ctx.profile)) {
    if (allowedTools) checkToolList(detail, allowedTools, 'allow', ctx.mcp, emit);
    const disallowed = byKey.get('disallowed-tools');
    if (disallowed) checkToolList(detail, disallowed, 'deny', ctx.mcp, emit);
  }

  if (severityFor('field-invalid', ctx.profile)) checkClaudeCodeFields(parsed.keys, byKey, accepted, emit);
  const paths = byKey.get('paths');
  if (paths && !ctx.command && severityFor('paths-pattern', ctx.profile)) checkPathsPatterns(paths, emit);
  if (severityFor('tool-pattern', ctx.profile)) {
    for (const key of ['allowed-tools', 'disallowed-tools']) {
      const k = byKey.get(key);
      if (k) checkToolPatterns(k, emit);
    }
  }
}

/**
 * The rules on a string description `text` (trimmed) at `range`. A function of its own: a description with angle
 * brackets, first met late in a bulk run, made the optimized code bail out; then only this is compiled again.
 */
function checkDescription(text: string, range: Range, whenToUse: FrontmatterKey | undefined, emit: Emit): void {
  const length = codePointLength(text);
  if (length > DESCRIPTION_MAX) emit('description-length', range, `Shorten the description to at most ${DESCRIPTION_MAX} characters (it has ${length}); the spec and claude.ai uploads refuse longer ones`);
  const brackets = text.includes('<') || text.includes('>') ? [...new Set(text.match(/[<>]/g) ?? [])] : [];
  checkDescriptionPlaceholder(text, range, emit);
  if (brackets.length) emit('description-angle-brackets', range, `Remove ${brackets.map((b) => `'${b}'`).join(' and ')} from the description: claude.ai uploads refuse angle brackets`);
  const extra = whenToUse && typeof whenToUse.value === 'string' ? codePointLength(whenToUse.value.trim()) : 0;
  if (length + extra > LISTING_MAX) {
    emit('listing-length', range, whenToUse
      ? `Put the trigger words first or shorten: Claude Code's skill listing cuts 'description' + 'when_to_use' (${length + extra} characters) at ${LISTING_MAX}`
      : `Put the trigger words first or shorten: Claude Code's skill listing cuts the description (${length} characters) at ${LISTING_MAX}`);
  }
}

/** `field-invalid`: values Claude Code rejects or ignores, and fork-only keys without `context: fork`. */
function checkClaudeCodeFields(keys: FrontmatterKey[], byKey: Map<string, FrontmatterKey>, accepted: ReadonlySet<string>, emit: Emit): void {
  let fork: boolean | undefined;
  for (const k of keys) {
    const info = keyInfo(k.key);
    if (!info?.claudeCode || !accepted.has(k.key) || byKey.get(k.key) !== k) continue;
    if (!info.claudeCode.accepts(k.value)) {
      emit('field-invalid', k.valueRange ?? k.keyRange, `Use ${info.claudeCode.expected} for '${k.key}' (${describe(k.value)})`);
    } else if (k.key === 'model') {
      const note = unknownModelNote(k.value);
      if (note) emit('model-unknown', k.valueRange ?? k.keyRange, `Check 'model': ${note}`);
    } else if (info.requiresFork) {
      fork ??= hasForkContext({ context: byKey.get('context')?.value });
      if (!fork) emit('field-invalid', entryRange(k), `Add 'context: fork' or remove '${k.key}': Claude Code ignores '${k.key}' without 'context: fork'`);
    }
  }
}

/** A description that still starts with a placeholder word (the New Skill template writes `TODO - …`). Upper case only: "Todo lists…" is a real description. */
const PLACEHOLDER = /^(?:TODO|TBD|FIXME)\b/;

function checkDescriptionPlaceholder(text: string, range: Range, emit: Emit): void {
  if (PLACEHOLDER.test(text)) emit('description-placeholder', range, 'Replace the placeholder description: say what the skill does and when Claude should use it (Claude Code chooses skills by it)');
}

/**
 * What Claude Code makes of a name the spec refuses (claude-code profile): in a personal or project skill a label only
 * (the command is the folder name), in a plugin skill also the command's last segment (docs/skills.md, "How a skill
 * gets its command name").
 */
function claudeCodeNameNote(name: string, ctx: ValidationContext): string {
  const refused = 'the Agent Skills spec, claude.ai uploads and packaging refuse it';
  if (ctx.plugin !== undefined) {
    const chars = [...name];
    const shown = chars.length > 40 ? chars.slice(0, 40).join('') + '…' : name;
    return `Claude Code also makes it the command (/${ctx.plugin}:${shown}); ${refused}`;
  }
  const command = ctx.folderName ? `/${ctx.folderName}` : 'the folder name';
  return `Claude Code shows it as a label only in a personal or project skill (the command is ${command}); ${refused}`;
}

function checkName(raw: string, range: Range, ctx: ValidationContext, emit: Emit): void {
  const name = normalizeName(raw);
  const findings = nameFindings(name);
  if (findings.length) {
    const suggestion = suggestSkillName(name);
    const rename = suggestion && suggestion !== name ? `Rename to '${suggestion}'` : '';
    // In claude-code the format rules are warnings (Claude Code loads the skill): say what it does with the name.
    const cc = ctx.profile === 'claude-code';
    const note = cc ? `; ${claudeCodeNameNote(name, ctx)}` : '';
    for (const f of findings) {
      switch (f.code) {
        case 'name-length':
          emit(f.code, range, `Shorten the name to at most ${NAME_MAX} characters (it has ${f.length})${note}`);
          break;
        case 'name-case':
          emit(f.code, range, `${rename || 'Use lower case'}: 'name' ${cc ? 'has upper-case letters' : 'must be lower-case'} (found ${f.found.slice(0, 5).map((c) => `'${c}'`).join(', ')})${note}`);
          break;
        case 'name-charset': {
          const shown = f.found.slice(0, 5).map(showNameChar).join(', ');
          if (f.variant) emit(f.code, range, `${rename || 'Use ASCII letters'} to be portable: 'name' has non-ASCII letters (found ${shown}; the reference validator accepts them, claude.ai uploads refuse them)`, f.variant);
          else emit(f.code, range, `${rename || "Use only a-z, 0-9 and '-'"}: 'name' ${cc ? 'has characters other than' : 'may only contain'} a-z, 0-9 and '-' (found ${shown})${note}`);
          break;
        }
        case 'name-hyphen': {
          const what = f.what === 'double' ? "contains '--'" : f.what === 'starts' ? "starts with '-'" : "ends with '-'";
          emit(f.code, range, cc
            ? `${rename || 'Remove the extra hyphens'}: 'name' ${what}${note}`
            : `${rename || 'Remove the extra hyphens'}: 'name' must not start or end with '-' or contain '--' (it ${what})`);
          break;
        }
        case 'name-reserved':
          emit(f.code, range, `Remove '${f.word}' from the name: claude.ai uploads refuse names containing 'anthropic' or 'claude'`);
          break;
      }
    }
  }
  const folder = normalizeName(ctx.folderName ?? '');
  if (folder && name !== folder) emit('name-dir-mismatch', range, `Rename to '${folder}' to match the folder (name is '${name}')`);
}

function checkMetadata(metadata: FrontmatterKey, detail: DetailedParse, emit: Emit): void {
  const node = detail.valueNodes.get('metadata');
  const at = metadata.valueRange ?? metadata.keyRange;
  if (!isMap(node)) {
    emit('metadata-invalid', at, `Write 'metadata' as a map of string keys to string values (${describe(metadata.value)})`);
    return;
  }
  let reported = false;
  for (const pair of node.items) {
    const key = pair.key as YamlNode | null;
    const value = pair.value as YamlNode | null;
    const keyName = isScalar(key) ? String(key.value) : '?';
    if (!isScalar(key) || typeof key.value !== 'string') {
      emit('metadata-invalid', detail.nodeRange(key) ?? at, `Quote the metadata key ${keyName}: keys must be strings`);
      reported = true;
    } else if (!isScalar(value) || typeof value.value !== 'string') {
      const v = isScalar(value) ? value.value : value ? 'a nested value' : null;
      const range = detail.nodeRange(value) ?? detail.nodeRange(key) ?? at;
      if (isScalar(value) && (typeof v === 'number' || typeof v === 'boolean')) {
        const source = range.line === range.endLine ? detail.lines.lineText(range.line - 1).slice(range.column - 1, range.endColumn - 1) : String(v);
        emit('metadata-invalid', range, `Quote it: "${source}" ('metadata.${keyName}' must be a string; ${describe(v)})`, 'unquoted-scalar');
      } else {
        emit('metadata-invalid', range, `Write 'metadata.${keyName}' as a string (${isScalar(value) ? describe(v) : value ? (isSeq(value) ? 'it is a list' : 'it is a map') : 'it is empty'})`);
      }
      reported = true;
    }
  }
  if (!reported && !metadataSchema.safeParse(metadata.value).success) {
    emit('metadata-invalid', at, "Write 'metadata' as a map of string keys to string values");
  }
}

function checkAllowedTools(key: FrontmatterKey, detail: DetailedParse, profile: Profile, emit: Emit): void {
  const at = key.valueRange ?? key.keyRange;
  const value = key.value;
  if (typeof value === 'string') {
    if (value.trim() === '') emit('allowed-tools-invalid', at, "List tools separated by spaces, e.g. allowed-tools: Read Grep ('allowed-tools' is empty)");
    return;
  }
  if (Array.isArray(value)) {
    if (profile !== 'claude-code') {
      emit('allowed-tools-invalid', at, `Write 'allowed-tools' as a space-separated string: allowed-tools: ${value.filter((v) => typeof v === 'string').join(' ') || 'Read Grep'} (the ${profile} profile does not accept a YAML list; Claude Code does)`);
      return;
    }
    const node = detail.valueNodes.get('allowed-tools');
    const items = isSeq(node) ? node.items : [];
    value.forEach((item, i) => {
      if (typeof item !== 'string' || item.trim() === '') {
        emit('allowed-tools-invalid', detail.nodeRange(items[i] as YamlNode) ?? at, `Write a tool name in each 'allowed-tools' entry (entry ${i + 1}: ${describe(item)})`);
      }
    });
    return;
  }
  emit('allowed-tools-invalid', at, `Write 'allowed-tools' as a space-separated string of tool names (${describe(value)})`);
}

/** The budget of expanded `paths` patterns a skill's whole list shares (docs/memory.md). */
const PATHS_EXPANSION_BUDGET = 1000;

/** Splits a comma-separated `paths` string on commas outside braces. */
function splitPaths(value: string): string[] {
  return splitOutside(value, '{', '}', (ch) => ch === ',');
}

/** How many patterns a glob's brace groups expand to (nested groups too; capped at 1e9). */
export function braceExpansionCount(glob: string): number {
  let i = 0;
  const seq = (stopAtComma: boolean): number => {
    let n = 1;
    while (i < glob.length) {
      const c = glob[i];
      if (c === '\\') { i += 2; continue; }
      if (c === '{') {
        i++;
        let sum = seq(true);
        while (glob[i] === ',') { i++; sum += seq(true); }
        if (glob[i] === '}') i++;
        n = Math.min(n * sum, 1e9);
        continue;
      }
      if (stopAtComma && (c === ',' || c === '}')) return n;
      i++;
    }
    return n;
  };
  return seq(false);
}

/** True when a `[` opens no bracket expression (no `]` after it, and not escaped as `\[`): the pattern matches nothing. */
function badBracket(glob: string): boolean {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '\\') { i++; continue; }
    if (glob[i] === '[' && glob.indexOf(']', i + 2) < 0) return true;
  }
  return false;
}

/**
 * `paths` patterns that match no file: past the shared budget of 1,000 brace expansions ("Claude Code uses any pattern
 * that would exceed the budget unexpanded, and its literal braces match no files"), or a `[` that opens no bracket
 * expression ("is invalid: it matches nothing"; docs/memory.md).
 */
function checkPathsPatterns(key: FrontmatterKey, emit: Emit): void {
  const v = key.value;
  const patterns = typeof v === 'string' ? splitPaths(v) : Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
  const at = key.valueRange ?? key.keyRange;
  let used = 0;
  for (const p of patterns) {
    if (badBracket(p)) emit('paths-pattern', at, `Escape the '[' as '\\[' or close it in '${p}': it opens no bracket expression, so Claude Code matches no file with this pattern`);
    if (!/[{]/.test(p)) continue;
    const n = braceExpansionCount(p);
    if (n <= 1) continue;
    if (used + n > PATHS_EXPANSION_BUDGET) {
      emit('paths-pattern', at, `Use fewer brace groups in '${p.length > 60 ? p.slice(0, 60) + '…' : p}': it expands to ${n} patterns, past the ${PATHS_EXPANSION_BUDGET} the whole 'paths' list shares (${used} used before it), so Claude Code keeps it unexpanded and it matches no file`);
      continue;
    }
    used += n;
  }
}

/**
 * `Bash(git:* push)`: "The `:*` form is only recognized at the end of a pattern. In a pattern like `Bash(git:* push)`,
 * the colon is treated as a literal character and won't match git commands" (docs/permissions.md).
 */
function checkToolPatterns(key: FrontmatterKey, emit: Emit): void {
  const v = key.value;
  const tools = typeof v === 'string' ? splitToolList(v) : Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  for (const tool of tools) {
    const m = /^(Bash|PowerShell)\((.*)\)$/s.exec(tool.trim());
    if (!m) continue;
    const inner = m[2];
    const at = inner.indexOf(':*');
    if (at < 0 || at === inner.length - 2) continue;
    const fixed = `${m[1]}(${inner.slice(0, at)} *${inner.slice(at + 2)})`;
    emit('tool-pattern', key.valueRange ?? key.keyRange, `Write '${fixed}' instead of '${tool.trim()}' in '${key.key}': ':*' means "anything" only at the end of a pattern; elsewhere the colon is a literal character, so the rule never matches the commands it means`);
  }
}

/** Per profile: its accepted keys with their normalised forms (closestKey compares against these). */
const NORMALISED_KEYS = new Map<Profile, Array<{ key: string; norm: string }>>();

function normaliseKey(s: string): string {
  return s.toLowerCase().replace(/[_\s]/g, '-');
}

/** Keys authors use for their own records: their place is `metadata` (docs/skills.md: "for your own key-value data"). */
const METADATA_HINT: ReadonlySet<string> = new Set(['version', 'author', 'tags']);

/** Closest accepted key to an unknown one (`allowed_tools` → `allowed-tools`, `descripton` → `description`). */
function closestKey(key: string, profile: Profile, value: unknown): string | undefined {
  let candidates = NORMALISED_KEYS.get(profile);
  if (!candidates) {
    const accepted = keysForProfile(profile);
    candidates = (accepted.length ? accepted : FRONTMATTER_KEYS.map((f) => f.key)).map((c) => ({ key: c, norm: normaliseKey(c) }));
    NORMALISED_KEYS.set(profile, candidates);
  }
  // A key far longer than every accepted key is no typo of one (and is not normalised at all).
  if (key.length > 64) return undefined;
  const k = normaliseKey(key);
  const limit = Math.max(1, Math.floor(k.length / 4));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    // The distance is at least the difference in length: most candidates need no table (a file can hold 1,000 keys).
    if (Math.abs(k.length - candidate.norm.length) > limit) continue;
    const d = editDistance(k, candidate.norm);
    if (d < bestDistance) { bestDistance = d; best = candidate.key; }
  }
  if (best === undefined || bestDistance > limit) return undefined;
  // Only a key its value would be right for: `agents: [claude-code, codex]` (a list of tools it is written for) is no
  // misspelt `agent` (one sub-agent type); renamed, it would be a wrong value of a key Claude Code reads.
  const check = keyInfo(best)?.claudeCode;
  return !check || check.accepts(value) ? best : undefined;
}

