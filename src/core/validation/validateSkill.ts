/** Every single-file rule of SPEC §4 over one SKILL.md text: frontmatter, name, description, keys, body, references. */
import { isAscii, isUtf8 } from 'node:buffer';
import * as nodePath from 'node:path';
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { DirEntry, FileStat, FileSystem } from '../fs';
import type { Problem, Profile, Range } from '../types';
import { PROFILES } from '../types';
import { FENCE, parseSkillMdDetailed, type DetailedParse } from '../skills/frontmatter';
import { FRONTMATTER_KEYS, keyInfo, keysForProfile } from '../skills/keys';
import type { FrontmatterKey, ParsedSkillMd, SkillReference, ValidationContext } from '../skills/model';
import { extractReferencesFrom, KNOWN_SEGMENTS, type ReferenceCandidate } from '../skills/references';
import { severityFor } from './rules';
import { CLAUDE_CODE_FIELDS, compatibilitySchema, metadataSchema } from './schemas';
import { codePointLength, LineIndex, nfkc, utf16Length, Utf8LineIndex } from './text';

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const LISTING_MAX = 1536;
export const COMPATIBILITY_MAX = 500;
export const BODY_MAX_LINES = 500;
export const BODY_MAX_TOKENS = 5000;

/** Rough token estimate used by `body-tokens` and the tree tooltip: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return tokensForLength(text.length);
}

/** `estimateTokens` of a text that is `length` characters (UTF-16 units) long. */
export function tokensForLength(length: number): number {
  return Math.ceil(length / 4);
}

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

type Emit = (code: string, range: Range, message: string) => void;

/**
 * `s` as a string of its own. V8 makes substrings (13+ characters) views of their parent and joins strings
 * lazily, so a short value or message cut from a SKILL.md keeps the whole file text alive as long as it lives;
 * the copy lets the text be collected young (a bulk run otherwise retains every file it reads).
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
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

/** What validating a SKILL.md gives. */
export interface SkillMdValidation {
  parsed: ParsedSkillMd;
  problems: Problem[];
  references: SkillReference[];
}

/** Validates one SKILL.md text under `ctx.profile`; reference checks need `ctx.skillDir`. Never throws. */
export function validateSkillMd(text: string, ctx: ValidationContext, fs: FileSystem): SkillMdValidation {
  const detail = parseSkillMdDetailed(text);
  return validateParsed(detail, stringBody(detail), ctx, fs);
}

/**
 * Like `validateSkillMd` on `bytes.toString('utf8')`, with the same result, plus the decoded text's length
 * (counted on first read). Faster
 * for a file read from disk: only the frontmatter is decoded; the body is searched as bytes (a Utf8LineIndex) and
 * only the lines that matter are decoded. Pure-ASCII files, files that are not valid UTF-8 and unusual shapes (BOM,
 * no or unclosed frontmatter) are decoded whole and validated as text. Never throws.
 */
export function validateSkillMdBytes(bytes: Buffer, ctx: ValidationContext, fs: FileSystem): SkillMdValidation & { textLength: number } {
  const ascii = isAscii(bytes);
  const whole = () => {
    // latin1 decodes ASCII exactly, and faster.
    const text = bytes.toString(ascii ? 'latin1' : 'utf8');
    const r = validateSkillMd(text, ctx, fs);
    return { parsed: r.parsed, problems: r.problems, references: r.references, textLength: text.length };
  };
  // The first byte of a BOM is not ASCII either: a BOM file takes the text path (the parser reports the BOM).
  if (ascii || bytes.length === 0 || bytes[0] !== 0x2d || !isUtf8(bytes)) return whole();
  const lines = new Utf8LineIndex(bytes);
  if (!FENCE.test(lines.lineText(0))) return whole();
  let close = -1;
  for (let i = 1; i < lines.lineCount; i++) {
    // Fence lines are ASCII: the raw bytes of a line are its text whenever the test can succeed.
    if (FENCE.test(lines.text.slice(lines.starts[i], lines.lineEnd(i)))) { close = i; break; }
  }
  if (close < 0 || close + 1 >= lines.lineCount) return whole();
  const bodyStart = lines.starts[close + 1];
  const head = bytes.toString('utf8', 0, bodyStart);
  const detail = parseSkillMdDetailed(head);
  const { parsed } = detail;
  // The head parses as the file's frontmatter with an empty body; anything else (never seen) takes the text path.
  if (!parsed.frontmatterClosed || parsed.bodyStartLine !== close + 2 || parsed.body !== '') return whole();
  detail.parsed = new BytesSkillMd(parsed, bytes, bodyStart);
  let view: BodyView | undefined;
  if (bodyStart < bytes.length) {
    // The body's UTF-16 length is needed only when it may be over the token limit (it is at most its byte length).
    const bodyBytes = bytes.length - bodyStart;
    const bodyLength = bodyBytes <= BODY_MAX_TOKENS * 4 ? bodyBytes : utf16Length(bytes.subarray(bodyStart));
    view = { lines, first: close + 1, length: bodyLength, lastChar: bytes[bytes.length - 1] };
  }
  return new BytesValidation(validateParsed(detail, view, ctx, fs), bytes);
}

/**
 * The parse of a SKILL.md read as bytes: `body` is decoded on first read (a bulk run never reads it). A class with
 * an accessor on its prototype: every instance has one shape (a per-object accessor costs each file a slow define).
 */
// (Its fields are ParsedSkillMd's, declared once there; the constructor sets each of them.)
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
interface BytesSkillMd extends Omit<ParsedSkillMd, 'body'> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
class BytesSkillMd implements ParsedSkillMd {
  private decoded: string | undefined = undefined;

  constructor(head: ParsedSkillMd, private bytes: Buffer | undefined, private readonly bodyStart: number) {
    this.hasBom = head.hasBom;
    this.hasFrontmatter = head.hasFrontmatter;
    this.frontmatterClosed = head.frontmatterClosed;
    this.data = head.data;
    this.keys = head.keys;
    this.frontmatterStartLine = head.frontmatterStartLine;
    this.bodyStartLine = head.bodyStartLine;
    this.problems = head.problems;
  }

  get body(): string {
    if (this.decoded === undefined) {
      this.decoded = this.bytes ? this.bytes.toString('utf8', this.bodyStart) : '';
      this.bytes = undefined;
    }
    return this.decoded;
  }

  set body(value: string) {
    this.decoded = value;
    this.bytes = undefined;
  }
}

/** validateSkillMdBytes' result: `textLength` is counted on first read (a pass over the bytes, not always needed). */
class BytesValidation implements SkillMdValidation {
  parsed: ParsedSkillMd;
  problems: Problem[];
  references: SkillReference[];
  private length: number | undefined = undefined;

  constructor(result: SkillMdValidation, private readonly bytes: Buffer) {
    this.parsed = result.parsed;
    this.problems = result.problems;
    this.references = result.references;
  }

  get textLength(): number {
    return (this.length ??= utf16Length(this.bytes));
  }
}

/**
 * The body as the body rules see it: the lines `first`… of `lines` are the body, whose first line is file line
 * `parsed.bodyStartLine`; `length` is its length in UTF-16 units (or, when that is at most BODY_MAX_TOKENS * 4,
 * any number up to BODY_MAX_TOKENS * 4: the token rule then cannot fire); `lastChar` is its last character code
 * (a final line break opens no line).
 */
interface BodyView {
  lines: LineIndex;
  first: number;
  length: number;
  lastChar: number;
}

/** The body of a text parse as a BodyView: a view of the file's line index when the body is its tail, else its own index. */
function stringBody(detail: DetailedParse): BodyView | undefined {
  const { body } = detail.parsed;
  if (body === '') return undefined;
  const first = bodyFirstLine(detail);
  return { lines: first === undefined ? new LineIndex(body) : detail.lines, first: first ?? 0, length: body.length, lastChar: body.charCodeAt(body.length - 1) };
}

function validateParsed(detail: DetailedParse, body: BodyView | undefined, ctx: ValidationContext, fs: FileSystem): SkillMdValidation {
  const { parsed } = detail;
  const problems: Problem[] = [];
  const emit: Emit = (code, range, message) => {
    const severity = severityFor(code, ctx.profile);
    if (severity) problems.push({ code, severity, message: detach(message), line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn });
  };
  for (const p of parsed.problems) emit(p.code, p, p.message);
  if (parsed.data) checkFrontmatter(detail, ctx, emit);
  if (body && (parsed.hasFrontmatter ? parsed.frontmatterClosed : true)) checkBody(body, parsed.bodyStartLine, emit);
  let references: SkillReference[] = [];
  if (ctx.skillDir && body) {
    try {
      const candidates = extractReferencesFrom(body.lines, body.first, parsed.bodyStartLine);
      references = resolveReferences(candidates, ctx.skillDir, ctx.rootDir, fs, emit);
    } catch {
      references = []; // a broken file system adapter must not break validation of the text
    }
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { parsed, problems, references };
}

function checkFrontmatter(detail: DetailedParse, ctx: ValidationContext, emit: Emit): void {
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

/**
 * The 0-based line of the file's line index where the (non-empty) body starts: the parser's body is always the
 * text from line bodyStartLine on (checked by length); undefined otherwise (then the body gets its own index).
 */
function bodyFirstLine(detail: DetailedParse): number | undefined {
  const { body, bodyStartLine } = detail.parsed;
  const i = bodyStartLine - 1;
  if (body === '' || i < 0 || i >= detail.lines.lineCount) return undefined;
  const start = detail.lines.starts[i];
  return detail.lines.text.length - start === body.length ? i : undefined;
}

function checkBody(body: BodyView, bodyStartLine: number, emit: Emit): void {
  const { lines, first } = body;
  const lineCount = lines.lineCount - first;
  // Range of body line `k` (0-based), on its file line.
  const rangeOf = (k: number): Range => {
    const r = lines.lineRange(first + k);
    return { ...r, line: bodyStartLine + k, endLine: bodyStartLine + k };
  };
  const count = lineCount - (body.lastChar === 10 || body.lastChar === 13 ? 1 : 0); // a final line break opens no line
  if (count > BODY_MAX_LINES) {
    emit('body-lines', rangeOf(BODY_MAX_LINES),
      `the body has ${count} lines, over the recommended ${BODY_MAX_LINES} (this is line ${BODY_MAX_LINES + 1} of the body); move detail into references/ files`);
  }
  const tokens = tokensForLength(body.length);
  if (tokens > BODY_MAX_TOKENS) {
    let blank = 0;
    while (blank < lineCount - 1 && lines.lineText(first + blank).trim() === '') blank++;
    emit('body-tokens', rangeOf(blank),
      `the body is about ${tokens} tokens (characters / 4), over the recommended ${BODY_MAX_TOKENS}; move detail into references/ files`);
  }
}

/** The path of the entry of `dir` whose name equals `name` but for letter case, if any. */
function caseTwin(entries: Map<string, DirEntry>, dir: string, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const other of entries.keys()) if (other.toLowerCase() === lower) return nodePath.join(dir, other);
  return undefined;
}

/** File names are case-sensitive (Linux): an lstat then answers what a folder listing would, more cheaply. */
const CASE_SENSITIVE_NAMES = process.platform === 'linux';

/** Plain targets take the fast path (ReferenceResolver.resolvePlain) where paths are POSIX and names case-sensitive. */
const FAST_PATHS = CASE_SENSITIVE_NAMES && nodePath.sep === '/';

/** True when `target` is `base` or below it; both absolute and normalised (string test: no `path.relative` cost). */
function isInside(base: string, target: string): boolean {
  if (target === base) return true;
  const prefix = base.endsWith(nodePath.sep) ? base : base + nodePath.sep;
  return target.startsWith(prefix);
}

/**
 * `path.join(base, ...segments)` for a normalised absolute `base` and segments without separators, '' or '.':
 * plain concatenation when no segment is '..' (POSIX), which is what path.join gives then, without its normalising pass.
 */
function joinUnder(base: string, segments: string[]): string {
  if (nodePath.sep !== '/' || base.endsWith('/') || segments.includes('..')) return nodePath.join(base, ...segments);
  return `${base}/${segments.join('/')}`;
}

function decode(target: string): string {
  try { return decodeURIComponent(target); } catch { return target; }
}

/**
 * `path.resolve(p)`, without its normalising pass for a POSIX path it would return unchanged (absolute, no '//', '.'
 * or '..' segment, no trailing '/'), as discovery's skill and root folders are: two per skill are otherwise a
 * tenth of the reference checks' own work.
 */
function absolute(p: string): string {
  const normal = nodePath.sep === '/' && p.length > 1 && p.charCodeAt(0) === 0x2f && p.charCodeAt(p.length - 1) !== 0x2f
    && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
  return normal ? p : nodePath.resolve(p);
}

/**
 * A target written the plain way, `folder/file.md`: no empty, '.' or '..' segment, no '\', and in a link no '%'
 * (decoding changes nothing then). Below a skill folder it resolves by concatenation.
 */
function isPlain(t: string, kind: ReferenceCandidate['kind']): boolean {
  if (t.includes('\\') || (kind === 'link' && t.includes('%'))) return false;
  for (let start = 0; ;) {
    let end = t.indexOf('/', start);
    if (end < 0) end = t.length;
    const length = end - start;
    if (length === 0 || (t.charCodeAt(start) === 0x2e && (length === 1 || (length === 2 && t.charCodeAt(start + 1) === 0x2e)))) return false;
    if (end === t.length) return true;
    start = end + 1;
  }
}

/** How one written target resolves (memoised per call: bodies repeat the same targets). */
interface Resolution {
  resolved: string;
  crossSkill: boolean;
  exists: boolean;
  outside: boolean;
  viaSymlink: boolean;
  /** Written relative to the skills root (`other-skill/…`): messages then speak of the root. */
  rootRelative: boolean;
  /** The skill a cross-skill reference points into. */
  otherSkill?: string;
  /** An existing path that differs only in letter case (it would not be found on Linux). */
  caseHint?: string;
}

/** A path below the skill folder as lstat found it, with the names below it asked for so far (the fast path's cache). */
interface PathNode {
  path: string;
  stat: FileStat | undefined;
  children: Map<string, PathNode> | undefined;
}

/** What the fast path leaves to the general one. */
const GENERAL = Symbol('general');

/**
 * Resolves the reference targets of one skill against the skill (or, for `other-skill/…`, the skills root), with
 * per-skill caches: a body names the same files and folders many times. Folder listings (one readDir per folder)
 * answer "exists?" and "symlink?" for every file in it, without an exception per missing file.
 */
class ReferenceResolver {
  readonly skill: string;
  readonly root: string | undefined;
  private stats: Map<string, FileStat | undefined> | undefined;
  private lists: Map<string, Map<string, DirEntry> | undefined> | undefined;
  /** The skill folder, root of the fast path's lstat tree; undefined where the fast path is off. */
  private readonly tree: PathNode | undefined;

  constructor(skillDir: string, rootDir: string | undefined, private readonly fs: FileSystem, fast: boolean) {
    this.skill = absolute(skillDir);
    this.root = rootDir === undefined ? undefined : absolute(rootDir);
    this.tree = fast && this.skill !== '/' ? { path: this.skill, stat: undefined, children: undefined } : undefined;
  }

  resolve(c: ReferenceCandidate): Resolution | undefined {
    if (this.tree !== undefined) {
      // A leading './' (or several) changes nothing: `./references/a.md` is `references/a.md`.
      let from = 0;
      while (c.target.startsWith('./', from)) from += 2;
      const target = from ? c.target.slice(from) : c.target;
      if (isPlain(target, c.kind)) {
        const res = this.resolvePlain(target, c.kind, this.tree);
        if (res !== GENERAL) return res;
      }
    }
    return this.resolveGeneral(c);
  }

  private stat(p: string): FileStat | undefined {
    const stats = (this.stats ??= new Map());
    if (!stats.has(p)) stats.set(p, this.fs.stat(p));
    return stats.get(p);
  }

  private list(dir: string): Map<string, DirEntry> | undefined {
    const lists = (this.lists ??= new Map());
    if (!lists.has(dir)) {
      const entries = this.fs.readDir(dir);
      lists.set(dir, entries ? new Map(entries.map((e) => [e.name, e])) : undefined);
    }
    return lists.get(dir);
  }

  private isDir(p: string): boolean {
    return this.stat(p)?.isDirectory === true;
  }

  /**
   * The entry `name` of the folder at `parent` (an lstat, asked once: the tree keeps the answer, so a read cache
   * below need not; paths inside one skill are asked about by that skill only).
   */
  private child(parent: PathNode, name: string): PathNode {
    parent.children ??= new Map();
    let node = parent.children.get(name);
    if (node === undefined) {
      const path = `${parent.path}/${name}`;
      node = { path, stat: this.fs.lstatUncached ? this.fs.lstatUncached(path) : this.fs.lstat(path), children: undefined };
      parent.children.set(name, node);
    }
    return node;
  }

  /**
   * `resolveGeneral` for a plain `target` (isPlain: the candidate's, without a leading './') where names are
   * case-sensitive: it lands in the skill, so the path is a concatenation and each component one cached lstat.
   * Links on the way, references into other skills and listings that contradict an lstat are left to the general
   * path (GENERAL).
   */
  private resolvePlain(target: string, kind: ReferenceCandidate['kind'], tree: PathNode): Resolution | undefined | typeof GENERAL {
    let slash = target.indexOf('/');
    const first = slash < 0 ? target : target.slice(0, slash);
    let node = this.child(tree, first);
    if (node.stat?.isSymbolicLink) return GENERAL;
    if (!KNOWN_SEGMENTS.has(first) && node.stat?.isDirectory !== true) {
      // Not a folder of the skill: a sibling skill's (the general path resolves it against the root), or, for a bare path, prose.
      if (this.root !== undefined && slash >= 0 && this.isDir(this.root === '/' ? `/${first}` : `${this.root}/${first}`)) return GENERAL;
      if (kind === 'path') return undefined;
    }
    const resolved = `${this.skill}/${target}`;
    let dir = tree;
    let name = first;
    for (;;) {
      if (node.stat === undefined) {
        const missing = this.missing(dir.path, name);
        if (missing === GENERAL) return GENERAL;
        return { resolved, crossSkill: false, exists: false, outside: false, viaSymlink: false, rootRelative: false, caseHint: missing.caseHint };
      }
      if (node.stat.isSymbolicLink) return GENERAL;
      if (slash < 0) return { resolved, crossSkill: false, exists: true, outside: false, viaSymlink: false, rootRelative: false };
      const start = slash + 1;
      slash = target.indexOf('/', start);
      name = slash < 0 ? target.slice(start) : target.slice(start, slash);
      dir = node;
      node = this.child(node, name);
    }
  }

  /**
   * `name` in folder `dir` was not found by lstat, and the folders above exist and are no links (lstat is exact
   * there): only the folder's listing can tell more — a name that differs in case (the hint). A listing that has the
   * exact name after all is left to the listing walk (GENERAL).
   */
  private missing(dir: string, name: string): { caseHint?: string } | typeof GENERAL {
    const entries = this.list(dir);
    if (entries === undefined) return {};
    return entries.has(name) ? GENERAL : { caseHint: caseTwin(entries, dir, name) };
  }

  /** Walks the listings from `from` down to `target`: does it exist, is a symlink on the way, is there a case-only twin? */
  private probeByListing(from: string, target: string): { exists: boolean; symlinked: boolean; caseHint?: string } {
    const parts = target === from ? [] : target.slice(from.length).split(nodePath.sep).filter(Boolean);
    let dir = from;
    for (const part of parts) {
      const entries = this.list(dir);
      if (!entries) return { exists: this.stat(target) !== undefined, symlinked: false };
      const entry = entries.get(part);
      if (!entry) return { exists: false, symlinked: false, caseHint: caseTwin(entries, dir, part) };
      if (entry.isSymbolicLink) return { exists: this.stat(target) !== undefined, symlinked: true };
      dir = nodePath.join(dir, part);
    }
    return { exists: true, symlinked: false };
  }

  /**
   * `probeByListing`, answered by one lstat per path component where names are case-sensitive (Linux) and the path
   * exists without links: no folder listing then. A missing component or a link goes to the listings (case hints,
   * links resolved as before).
   */
  private probe(from: string, target: string): { exists: boolean; symlinked: boolean; caseHint?: string } {
    if (!CASE_SENSITIVE_NAMES) return this.probeByListing(from, target);
    for (let at = from.endsWith(nodePath.sep) ? from.length : from.length + 1; at <= target.length;) {
      let next = target.indexOf(nodePath.sep, at);
      if (next < 0) next = target.length;
      if (next > at) {
        const s = this.fs.lstat(target.slice(0, next));
        if (s !== undefined && s.isSymbolicLink) return this.probeByListing(from, target);
        if (s === undefined) {
          const missing = this.missing(target.slice(0, Math.max(at - 1, 1)), target.slice(at, next));
          return missing === GENERAL ? this.probeByListing(from, target) : { exists: false, symlinked: false, caseHint: missing.caseHint };
        }
      }
      at = next + 1;
    }
    return { exists: true, symlinked: false };
  }

  /** The entry `name` of folder `dir` (as its listing has it): an lstat where names are case-sensitive. */
  private entryOf(dir: string, name: string): { isDirectory: boolean; isSymbolicLink: boolean } | undefined {
    return CASE_SENSITIVE_NAMES ? this.fs.lstat(nodePath.join(dir, name)) : this.list(dir)?.get(name);
  }

  /** The real path of `p`'s deepest existing ancestor (`p` itself when it exists), not above `stop`. */
  private realAncestor(p: string, stop: string): string | undefined {
    for (let at = p; ; at = nodePath.dirname(at)) {
      const real = this.fs.realPath(at);
      if (real !== undefined || at.length <= stop.length || at === nodePath.dirname(at)) return real;
    }
  }

  /** Any target: decoded, normalised, resolved against the skill or the root, probed for links and case twins. */
  private resolveGeneral(c: ReferenceCandidate): Resolution | undefined {
    const { skill, root } = this;
    const written = (c.kind === 'link' ? decode(c.target) : c.target).replace(/\\/g, '/');
    const segments = written.split('/').filter((seg) => seg !== '' && seg !== '.');
    if (!segments.length) return undefined;
    const first = segments[0];
    let resolved = joinUnder(skill, segments);
    let rootRelative = false;

    if (first !== '..' && !KNOWN_SEGMENTS.has(first)) {
      const entry = this.entryOf(skill, first);
      const inSkill = entry !== undefined && (entry.isDirectory || (entry.isSymbolicLink && this.isDir(nodePath.join(skill, first))));
      if (!inSkill) {
        if (root && segments.length > 1 && this.isDir(nodePath.join(root, first))) {
          resolved = joinUnder(root, segments);
          rootRelative = true;
        } else if (c.kind === 'path') {
          return undefined; // prose like "input/output.txt": not a reference unless it names a folder of the skill
        }
      }
    }

    // Where did it land? In the skill; in a sibling skill of the same root (cross-skill); or outside.
    let crossSkill = false;
    let otherSkill: string | undefined;
    let physicalBase = skill;
    let outside = !isInside(skill, resolved);
    if (outside && root && isInside(root, resolved) && resolved !== root) {
      const sibling = resolved.slice(root.length).split(nodePath.sep).filter(Boolean)[0];
      if (sibling !== nodePath.basename(skill) && this.isDir(nodePath.join(root, sibling))) {
        crossSkill = true;
        otherSkill = sibling;
        physicalBase = nodePath.join(root, sibling);
        outside = false;
      }
    }
    if (outside) return { resolved, crossSkill, exists: this.stat(resolved) !== undefined, outside, viaSymlink: false, rootRelative };

    const { exists, symlinked, caseHint } = this.probe(physicalBase, resolved);
    let viaSymlink = false;
    if (symlinked) {
      // The skill folder itself may be a link (a linked skill); only links below it can lead out. A missing target is
      // judged by the real path of its deepest existing folder: a link out of the skill leads out whether or not the
      // file exists there.
      const realBase = this.fs.realPath(physicalBase);
      const realTarget = exists ? this.fs.realPath(resolved) : this.realAncestor(resolved, physicalBase);
      if (realBase && realTarget && !isInside(realBase, realTarget)) { outside = true; viaSymlink = true; }
    }
    return { resolved, crossSkill, exists, outside, viaSymlink, rootRelative, otherSkill, caseHint };
  }
}

/**
 * Resolves candidates against the skill (or, for `other-skill/…`, the skills root) and emits reference-missing / -outside.
 * `fast`: whether plain targets may take the fast path (tests compare both ways).
 */
export function resolveReferences(candidates: ReferenceCandidate[], skillDir: string, rootDir: string | undefined, fs: FileSystem, emit: Emit, fast = FAST_PATHS): SkillReference[] {
  const refs: SkillReference[] = [];
  if (!candidates.length) return refs;
  const resolver = new ReferenceResolver(skillDir, rootDir, fs, fast);
  const { skill, root } = resolver;
  // Memoised by kind and target as written (null: not a reference), with the target detached: a target cut from a
  // line would keep the whole file's text alive for as long as the reference lives.
  const links = new Map<string, { res: Resolution; target: string } | null>();
  const paths = new Map<string, { res: Resolution; target: string } | null>();
  for (const c of candidates) {
    const memo = c.kind === 'link' ? links : paths;
    let known = memo.get(c.target);
    if (known === undefined) {
      const res = resolver.resolve(c);
      known = res ? { res, target: detach(c.target) } : null;
      memo.set(c.target, known);
    }
    if (known === null) continue;
    const { res } = known;
    refs.push({ target: known.target, range: c.range, crossSkill: res.crossSkill, resolvedPath: res.resolved, exists: res.exists });
    if (res.outside) {
      const scope = res.crossSkill ? `skill '${res.otherSkill}'` : res.rootRelative ? 'the skills root' : 'the skill folder';
      emit('reference-outside', c.range, res.viaSymlink
        ? `'${c.target}' resolves through a symlink to outside ${scope}`
        : `'${c.target}' leaves ${scope}; reference files inside the skill (or another skill as other-skill/folder/file)`);
    } else if (!res.exists) {
      const where = res.crossSkill ? ` (in skill '${res.otherSkill}')` : ' in this skill';
      const hint = res.caseHint ? `; '${nodePath.relative(res.crossSkill ? root ?? skill : skill, res.caseHint).split(nodePath.sep).join('/')}' exists, but names are case-sensitive` : '';
      emit('reference-missing', c.range, `'${c.target}' does not exist${where}${hint}`);
    }
  }
  return refs;
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
