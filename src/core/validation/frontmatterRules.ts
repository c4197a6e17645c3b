/** The frontmatter rules over one parsed SKILL.md: the required keys, the name, the description, the keys each profile accepts, typed fields. */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { Profile, Range } from '../base/types';
import { PROFILES } from '../base/types';
import type { Emit } from '../base/rules';
import { severityFor } from '../base/rules';
import { codePointLength, nfkc } from '../base/text';
import type { DetailedParse } from '../skillmd/frontmatter';
import { FRONTMATTER_KEYS, keyInfo, keysForProfile } from '../skillmd/keys';
import type { FrontmatterKey, ValidationContext } from '../skillmd/model';
import { CLAUDE_CODE_FIELDS, compatibilitySchema, metadataSchema } from '../skillmd/schemas';

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const LISTING_MAX = 1536;
export const COMPATIBILITY_MAX = 500;

/** A valid kebab-case name derived from `name` (for messages and quick fixes); may be '' when nothing usable is left. */
export function suggestSkillName(name: string): string {
  return name.normalize('NFKC').trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, NAME_MAX)
    .replace(/-$/, '');
}

/** The keys each profile accepts (a constant table; keysForProfile filters the key list on every call). */
const ACCEPTED_KEYS: ReadonlyMap<Profile, ReadonlySet<string>> = new Map(PROFILES.map((p) => [p, new Set(keysForProfile(p))]));

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'it is empty';
  if (Array.isArray(value)) return 'it is a list';
  if (typeof value === 'object') return 'it is a map';
  if (typeof value === 'string') return value.trim() === '' ? 'it is empty' : `it is "${value.length > 40 ? value.slice(0, 40) + '…' : value}"`;
  return `it is ${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}

export function checkFrontmatter(detail: DetailedParse, ctx: ValidationContext, emit: Emit): void {
  const { parsed } = detail;
  const byKey = new Map<string, FrontmatterKey>();
  for (const k of parsed.keys) if (!byKey.has(k.key)) byKey.set(k.key, k);
  const at = (k: FrontmatterKey) => k.valueRange ?? k.keyRange;

  const name = byKey.get('name');
  if (!name) emit('name-missing', detail.openingRange, `the required key 'name' is missing${ctx.folderName ? ` (add: name: ${suggestSkillName(ctx.folderName) || ctx.folderName})` : ''}`);
  else if (typeof name.value !== 'string' || name.value.trim() === '') emit('name-type', at(name), `'name' must be a non-empty string (${describe(name.value)})`);
  else checkName(name.value, at(name), ctx, emit);

  const description = byKey.get('description');
  if (!description) emit('description-missing', detail.openingRange, "the required key 'description' is missing (say what the skill does and when to use it)");
  else if (typeof description.value !== 'string' || description.value.trim() === '') emit('description-type', at(description), `'description' must be a non-empty string (${describe(description.value)})`);
  else {
    const text = description.value.trim();
    const length = codePointLength(text);
    if (length > DESCRIPTION_MAX) emit('description-length', at(description), `'description' must be at most ${DESCRIPTION_MAX} characters (it has ${length})`);
    const brackets = text.includes('<') || text.includes('>') ? [...new Set(text.match(/[<>]/g) ?? [])] : [];
    checkDescriptionPlaceholder(text, at(description), emit);
    if (brackets.length) emit('description-angle-brackets', at(description), `'description' must not contain ${brackets.map((b) => `'${b}'`).join(' or ')} (angle brackets are stripped or rejected when the skill is loaded)`);
    const whenToUse = byKey.get('when_to_use');
    const extra = whenToUse && typeof whenToUse.value === 'string' ? codePointLength(whenToUse.value.trim()) : 0;
    if (length + extra > LISTING_MAX) {
      emit('listing-length', at(description), whenToUse
        ? `'description' + 'when_to_use' are ${length + extra} characters; Claude Code's skill listing cuts them at ${LISTING_MAX}`
        : `'description' is ${length} characters; Claude Code's skill listing cuts it at ${LISTING_MAX}`);
    }
  }

  const accepted = ACCEPTED_KEYS.get(ctx.profile) ?? new Set(keysForProfile(ctx.profile));
  for (const k of parsed.keys) {
    if (accepted.has(k.key)) continue;
    const info = keyInfo(k.key);
    if (info) {
      emit('unknown-key', k.keyRange, `'${k.key}' is a Claude Code key; the ${ctx.profile} profile accepts only ${keysForProfile(ctx.profile).join(', ')}`);
    } else {
      const near = closestKey(k.key, ctx.profile);
      const accepts = ctx.profile === 'claude-code' ? 'Claude Code does not use it' : `the ${ctx.profile} profile accepts only ${keysForProfile(ctx.profile).join(', ')}`;
      emit('unknown-key', k.keyRange, `unknown key '${k.key}'${near ? ` (did you mean '${near}'?)` : ''}; ${accepts}`);
    }
  }

  const compatibility = byKey.get('compatibility');
  if (compatibility && !compatibilitySchema.safeParse(compatibility.value).success) {
    const v = compatibility.value;
    const detailText = typeof v === 'string' ? (v.trim() === '' ? 'it is empty' : `it has ${codePointLength(v.trim())}`) : describe(v);
    emit('compatibility-invalid', at(compatibility), `'compatibility' must be a string of 1–${COMPATIBILITY_MAX} characters (${detailText})`);
  }

  const metadata = byKey.get('metadata');
  if (metadata) checkMetadata(metadata, detail, emit);

  const allowedTools = byKey.get('allowed-tools');
  if (allowedTools) checkAllowedTools(allowedTools, detail, ctx.profile, emit);

  if (severityFor('field-invalid', ctx.profile)) {
    for (const k of parsed.keys) {
      const field = CLAUDE_CODE_FIELDS[k.key];
      if (!field || !accepted.has(k.key) || byKey.get(k.key) !== k) continue;
      if (!field.schema.safeParse(k.value).success) emit('field-invalid', at(k), `'${k.key}' must be ${field.expected} (${describe(k.value)})`);
    }
  }
}

/** A description that still starts with a placeholder word (the New Skill template writes `TODO - …`). Upper case only: "Todo lists…" is a real description. */
const PLACEHOLDER = /^(?:TODO|TBD|FIXME)\b/;

function checkDescriptionPlaceholder(text: string, range: Range, emit: Emit): void {
  if (PLACEHOLDER.test(text)) emit('description-placeholder', range, "'description' is still a placeholder: say what the skill does and when Claude should use it (Claude Code chooses skills by it)");
}

/** A name made of a-z, 0-9 and '-' only: it has no upper-case or other character to report. */
const PLAIN_NAME = /^[a-z0-9-]*$/;

function checkName(raw: string, range: Range, ctx: ValidationContext, emit: Emit): void {
  const name = nfkc(raw.trim());
  const plain = PLAIN_NAME.test(name);
  const length = codePointLength(name);
  if (length > NAME_MAX) emit('name-length', range, `'name' must be at most ${NAME_MAX} characters (it has ${length})`);
  // (A plain name has neither upper-case letters nor other characters: both tests would find nothing.)
  const upper = plain ? [] : [...new Set(name.match(/[\p{Lu}\p{Lt}]/gu) ?? [])];
  // The suggested name is only needed in a message: computed on first use.
  let hintText: string | undefined;
  const hint = () => {
    if (hintText === undefined) {
      const suggestion = suggestSkillName(name);
      hintText = suggestion && suggestion !== name ? `; use '${suggestion}'` : '';
    }
    return hintText;
  };
  if (upper.length) emit('name-case', range, `'name' must be lower-case (found ${upper.slice(0, 5).map((c) => `'${c}'`).join(', ')})${hint()}`);
  const bad = plain ? [] : [...new Set(name.toLowerCase().match(/[^a-z0-9-]/gu) ?? [])];
  if (bad.length) {
    const shown = bad.slice(0, 5).map((c) => (c === ' ' ? 'space' : /\s/.test(c) ? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`));
    emit('name-charset', range, `'name' may only contain a-z, 0-9 and '-' (found ${shown.join(', ')})${hint()}`);
  }
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    const what = name.includes('--') ? "contains '--'" : name.startsWith('-') ? "starts with '-'" : "ends with '-'";
    emit('name-hyphen', range, `'name' must not start or end with '-' or contain '--' (it ${what})${hint()}`);
  }
  const folder = nfkc((ctx.folderName ?? '').trim());
  if (folder && name !== folder) emit('name-dir-mismatch', range, `'name' is '${name}' but the folder is '${folder}'; they must match`);
  const reserved = /anthropic|claude/i.exec(name);
  if (reserved) emit('name-reserved', range, `'name' must not contain the reserved word '${reserved[0].toLowerCase()}'`);
}

function checkMetadata(metadata: FrontmatterKey, detail: DetailedParse, emit: Emit): void {
  const node = detail.valueNodes.get('metadata');
  const at = metadata.valueRange ?? metadata.keyRange;
  if (!isMap(node)) {
    emit('metadata-invalid', at, `'metadata' must be a map of string keys to string values (${describe(metadata.value)})`);
    return;
  }
  let reported = false;
  for (const pair of node.items) {
    const key = pair.key as YamlNode | null;
    const value = pair.value as YamlNode | null;
    const keyName = isScalar(key) ? String(key.value) : '?';
    if (!isScalar(key) || typeof key.value !== 'string') {
      emit('metadata-invalid', detail.nodeRange(key) ?? at, `'metadata' keys must be strings (${keyName} is not); quote it`);
      reported = true;
    } else if (!isScalar(value) || typeof value.value !== 'string') {
      const v = isScalar(value) ? value.value : value ? 'a nested value' : null;
      const quoteHint = isScalar(value) && (typeof v === 'number' || typeof v === 'boolean') ? `; quote it: "${String(v)}"` : '';
      emit('metadata-invalid', detail.nodeRange(value) ?? detail.nodeRange(key) ?? at,
        `'metadata.${keyName}' must be a string (${isScalar(value) ? describe(v) : value ? (isSeq(value) ? 'it is a list' : 'it is a map') : 'it is empty'})${quoteHint}`);
      reported = true;
    }
  }
  if (!reported && !metadataSchema.safeParse(metadata.value).success) {
    emit('metadata-invalid', at, "'metadata' must be a map of string keys to string values");
  }
}

function checkAllowedTools(key: FrontmatterKey, detail: DetailedParse, profile: Profile, emit: Emit): void {
  const at = key.valueRange ?? key.keyRange;
  const value = key.value;
  if (typeof value === 'string') {
    if (value.trim() === '') emit('allowed-tools-invalid', at, "'allowed-tools' must not be empty (list tools separated by spaces, e.g. allowed-tools: Read Grep)");
    return;
  }
  if (Array.isArray(value)) {
    if (profile !== 'claude-code') {
      emit('allowed-tools-invalid', at, `'allowed-tools' must be a space-separated string in the ${profile} profile (a YAML list is accepted by Claude Code only), e.g. allowed-tools: ${value.filter((v) => typeof v === 'string').join(' ') || 'Read Grep'}`);
      return;
    }
    const node = detail.valueNodes.get('allowed-tools');
    const items = isSeq(node) ? node.items : [];
    value.forEach((item, i) => {
      if (typeof item !== 'string' || item.trim() === '') {
        emit('allowed-tools-invalid', detail.nodeRange(items[i] as YamlNode) ?? at, `'allowed-tools' entries must be tool names (entry ${i + 1}: ${describe(item)})`);
      }
    });
    return;
  }
  emit('allowed-tools-invalid', at, `'allowed-tools' must be a space-separated string of tool names (${describe(value)})`);
}

/** Per profile: its accepted keys with their normalised forms (closestKey compares against these). */
const NORMALISED_KEYS = new Map<Profile, Array<{ key: string; norm: string }>>();

function normaliseKey(s: string): string {
  return s.toLowerCase().replace(/[_\s]/g, '-');
}

/** Closest accepted key to an unknown one (`allowed_tools` → `allowed-tools`, `descripton` → `description`). */
function closestKey(key: string, profile: Profile): string | undefined {
  let candidates = NORMALISED_KEYS.get(profile);
  if (!candidates) {
    const accepted = keysForProfile(profile);
    candidates = (accepted.length ? accepted : FRONTMATTER_KEYS.map((f) => f.key)).map((c) => ({ key: c, norm: normaliseKey(c) }));
    NORMALISED_KEYS.set(profile, candidates);
  }
  // A key far longer than every accepted key is no typo of one (and is not normalised at all).
  if (key.length > 64) return undefined;
  const k = normaliseKey(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(k, candidate.norm);
    if (d < bestDistance) { bestDistance = d; best = candidate.key; }
  }
  return bestDistance <= Math.max(1, Math.floor(k.length / 4)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
