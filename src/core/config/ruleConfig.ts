/**
 * Rule configuration, read the same way by the CLI and the extension:
 * - `.skillflow.json`, the nearest one above a checked file: `{"profile", "rules": {"<code>": "off"|"info"|"warning"|"error"}, "ignore": ["<glob>"]}`;
 * - the editor's `skillflow.validation.rules` setting (passed in as `settingOverrides`), which wins over the file;
 * - `<!-- skillflow-disable <code> [<code>...] -->` in a SKILL.md body (outside fenced code), which turns rules off for that file;
 * - `<!-- skillflow-disable-next-line <code> [<code>...] -->`, which turns them off for the line after the comment.
 * A config file that does not parse or has the wrong shape is a `config-invalid` problem on that file; its valid
 * parts are used and the rest falls back to the defaults. Nothing here throws.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Profile, Range, Severity } from '../base/types';
import { PROFILES } from '../base/types';
import { parseJson } from '../workflow/json';
import { RULES, severityFor } from '../base/rules';
import { joinName } from '../base/pathJoin';

export const CONFIG_FILE_NAME = '.skillflow.json';
/** What a rule can be set to. */
export type RuleSetting = Severity | 'off';
export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];
/** Config files larger than this are not read (a `config-invalid` problem instead). */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface RuleConfig {
  /** The `.skillflow.json` this came from; undefined for the defaults (no file found). */
  file?: string;
  profile?: Profile;
  /** Valid entries of `rules` only. */
  rules: Readonly<Record<string, RuleSetting>>;
  /** The `ignore` globs as written. */
  ignore: readonly string[];
  /** Problems in the config file itself (`config-invalid`, with `file` set to the config file). */
  problems: Problem[];
}

const EMPTY: RuleConfig = Object.freeze({ rules: Object.freeze({}), ignore: Object.freeze([]), problems: [] }) as RuleConfig;

/** The configuration used where no `.skillflow.json` is found. */
export const DEFAULT_RULE_CONFIG: RuleConfig = EMPTY;

const KNOWN_KEYS = new Set(['$schema', 'profile', 'rules', 'ignore']);
const START: Range = { line: 1, column: 1, endLine: 1, endColumn: 1 };

function isRuleCode(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(RULES, code);
}

/** Parses the text of a `.skillflow.json`; `file` is its path (problems point at it). */
export function parseRuleConfig(text: string, file: string): RuleConfig {
  const problems: Problem[] = [];
  const problem = (message: string, range: Range = START) =>
    problems.push({ code: 'config-invalid', severity: severityFor('config-invalid', 'claude-code') ?? 'warning', message, ...range, file });
  const config: RuleConfig = { file, rules: {}, ignore: [], problems };
  if (text.trim() === '') {
    problem(`${CONFIG_FILE_NAME} is empty; the default rules are used`);
    return config;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problem(`${parsed.message}; the default rules are used`, parsed.range);
    return config;
  }
  const at = (p: Array<string | number>, which: 'key' | 'value' = 'value') => {
    const loc = parsed.locate(p);
    return (which === 'key' ? loc?.key : undefined) ?? loc?.value ?? START;
  };
  const root = parsed.value;
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    problem(`${CONFIG_FILE_NAME} must hold an object such as {"rules": {"reference-missing": "off"}}; the default rules are used`, at([]));
    return config;
  }
  const obj = root as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!KNOWN_KEYS.has(key)) problem(`unknown key '${key}'; ${CONFIG_FILE_NAME} accepts profile, rules and ignore`, at([key], 'key'));
  }
  if ('profile' in obj) {
    const p = obj.profile;
    if (typeof p === 'string' && (PROFILES as readonly string[]).includes(p)) config.profile = p as Profile;
    else problem(`'profile' must be one of ${PROFILES.join(', ')}; the default profile is used`, at(['profile']));
  }
  if ('rules' in obj) {
    const rules = obj.rules;
    if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
      problem(`'rules' must be an object of rule code to ${RULE_SETTINGS.join(' | ')}`, at(['rules']));
    } else {
      const out: Record<string, RuleSetting> = {};
      for (const [code, value] of Object.entries(rules as Record<string, unknown>)) {
        if (!isRuleCode(code)) {
          problem(`unknown rule code '${code}' (see docs/rules.md for the codes)`, at(['rules', code], 'key'));
        } else if (typeof value !== 'string' || !(RULE_SETTINGS as readonly string[]).includes(value)) {
          problem(`the rule '${code}' must be set to one of ${RULE_SETTINGS.join(', ')}`, at(['rules', code]));
        } else {
          Object.defineProperty(out, code, { value, enumerable: true });
        }
      }
      config.rules = out;
    }
  }
  if ('ignore' in obj) {
    const ignore = obj.ignore;
    if (!Array.isArray(ignore)) {
      problem(`'ignore' must be a list of glob patterns`, at(['ignore']));
    } else {
      const globs: string[] = [];
      ignore.forEach((g, i) => {
        if (typeof g === 'string' && g.trim() !== '') globs.push(g.trim());
        else problem(`each 'ignore' entry must be a non-empty glob pattern`, at(['ignore', i]));
      });
      config.ignore = globs;
    }
  }
  return config;
}

/** Reads one config file; undefined when there is no file at `file`. */
function readConfigFile(fs: FileSystem, file: string): RuleConfig | undefined {
  const stat = fs.stat(file);
  if (!stat || !stat.isFile) return undefined;
  if (stat.size > MAX_CONFIG_BYTES) {
    return { file, rules: {}, ignore: [], problems: [{ code: 'config-invalid', severity: severityFor('config-invalid', 'claude-code') ?? 'warning', message: `${CONFIG_FILE_NAME} is over 1 MiB and was not read; the default rules are used`, ...START, file }] };
  }
  let text: string;
  try {
    text = fs.readFile(file).toString('utf8');
  } catch (e) {
    return { file, rules: {}, ignore: [], problems: [{ code: 'config-invalid', severity: severityFor('config-invalid', 'claude-code') ?? 'warning', message: `${CONFIG_FILE_NAME} cannot be read (${e instanceof Error ? e.message : String(e)}); the default rules are used`, ...START, file }] };
  }
  return parseRuleConfig(text, file);
}

/**
 * Finds the nearest `.skillflow.json` above a file (its own folder first, then each parent), with the answer kept
 * per folder, so thousands of skills under one root cost one look-up per folder. `clear()` forgets everything
 * (the editor calls it when a config file changes).
 */
export class RuleConfigFinder {
  private readonly byDir = new Map<string, RuleConfig>();
  private readonly matchers = new Map<string, (file: string) => boolean>();
  /** The last file asked about and its configuration: a run asks about each file several times in a row. */
  private lastFile: string | undefined = undefined;
  private lastConfig: RuleConfig = EMPTY;

  /** `fixedFile`: one config file for every file (`validate --config`), instead of the nearest one. */
  constructor(private readonly fs: FileSystem, private readonly fixedFile?: string) {}

  /** The configuration that applies to `file` (the defaults when no `.skillflow.json` is found). */
  forFile(file: string): RuleConfig {
    if (file === this.lastFile) return this.lastConfig;
    const dir = path.dirname(file);
    const config = this.byDir.get(dir) ?? this.forDir(path.isAbsolute(dir) ? dir : path.resolve(dir));
    this.lastFile = file;
    this.lastConfig = config;
    return config;
  }

  /** The configuration that applies to files in `dir`. */
  forDir(dir: string): RuleConfig {
    if (this.fixedFile !== undefined) {
      let fixed = this.byDir.get(this.fixedFile);
      if (!fixed) {
        fixed = readConfigFile(this.fs, this.fixedFile) ?? { file: this.fixedFile, rules: {}, ignore: [], problems: [{ code: 'config-invalid', severity: severityFor('config-invalid', 'claude-code') ?? 'warning', message: `${this.fixedFile} does not exist; the default rules are used`, ...START, file: this.fixedFile }] };
        this.byDir.set(this.fixedFile, fixed);
      }
      return fixed;
    }
    const visited: string[] = [];
    let current = path.isAbsolute(dir) && !dir.includes('/.') && !dir.endsWith('/') ? dir : path.resolve(dir);
    let found: RuleConfig | undefined;
    for (;;) {
      const known = this.byDir.get(current);
      if (known) { found = known; break; }
      visited.push(current);
      const here = readConfigFile(this.fs, joinName(current, CONFIG_FILE_NAME));
      if (here) { found = here; break; }
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    const result = found ?? EMPTY;
    for (const d of visited) this.byDir.set(d, result);
    return result;
  }

  /** True when one of the `ignore` globs of the file's configuration matches it (relative to the config's folder). */
  isIgnored(file: string): boolean {
    const config = this.forFile(file);
    if (!config.file || !config.ignore.length) return false;
    let match = this.matchers.get(config.file);
    if (!match) {
      match = ignoreMatcher(config.ignore);
      this.matchers.set(config.file, match);
    }
    const rel = path.relative(path.dirname(config.file), path.resolve(file)).split(path.sep).join('/');
    return !rel.startsWith('../') && match(rel);
  }

  /** Every config file read so far (each once), for reporting their problems. */
  configs(): RuleConfig[] {
    const seen = new Set<RuleConfig>();
    for (const c of this.byDir.values()) if (c.file) seen.add(c);
    return [...seen].sort((a, b) => (a.file! < b.file! ? -1 : a.file! > b.file! ? 1 : 0));
  }

  clear(): void {
    this.byDir.clear();
    this.matchers.clear();
    this.lastFile = undefined;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A glob as a regular expression over a `/`-separated relative path: `*` and `?` stay within one path segment,
 * `**` crosses segments, `[abc]`/`[!abc]` are character classes and `{a,b}` alternatives. A pattern without a `/`
 * (other than a trailing one) matches at any depth, like `.gitignore`; a leading `/` anchors it to the config's
 * folder; a pattern that matches a folder matches everything inside it.
 */
export function globToRegExp(glob: string): RegExp {
  let g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('./')) g = g.slice(2);
  const anchored = g.startsWith('/');
  if (anchored) g = g.replace(/^\/+/, '');
  g = g.replace(/\/+$/, '');
  const anyDepth = !anchored && !g.includes('/');
  let re = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        const atStart = i === 0 || g[i - 1] === '/';
        let j = i + 2;
        if (atStart && g[j] === '/') { re += '(?:[^/]*/)*'; i = j; continue; }
        while (g[j] === '*') j++;
        re += '.*';
        i = j - 1;
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      if (close < 0) { re += '\\['; continue; }
      let body = g.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      re += `[${negate ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else {
      re += escapeRegExp(c);
    }
  }
  if (braces > 0) return globToRegExp(glob.replace(/[{}]/g, '')); // an unclosed `{` is taken literally
  return new RegExp(`^${anyDepth ? '(?:[^/]*/)*' : ''}${re}(?:/.*)?$`);
}

/** One predicate for a list of globs (see globToRegExp); a glob that cannot be compiled matches nothing. */
export function ignoreMatcher(globs: readonly string[]): (relPath: string) => boolean {
  const res: RegExp[] = [];
  for (const g of globs) {
    try { res.push(globToRegExp(g)); } catch { /* a malformed class: ignored */ }
  }
  return (rel) => res.some((r) => r.test(rel));
}

/** The text every `skillflow-disable` comment holds: a file without it turns no rule off. */
export const DISABLE_MARKER = 'skillflow-disable';

const DISABLE_MARKER_BYTES = Buffer.from(DISABLE_MARKER);
const COMMENT_OPEN_BYTES = Buffer.from('<!--');

/**
 * Whether the bytes of a file may hold a `skillflow-disable` comment: false when no DISABLE_MARKER follows a `<!--`
 * (then findDisableComments finds none in its text). Most files have no `<!--` at all: that search is several times
 * faster than one for the marker, a long word that starts with a common letter.
 */
export function mayHoldDisableComment(bytes: Buffer): boolean {
  const open = bytes.indexOf(COMMENT_OPEN_BYTES);
  return open >= 0 && bytes.indexOf(DISABLE_MARKER_BYTES, open + COMMENT_OPEN_BYTES.length) >= 0;
}

/** One `skillflow-disable` (or `skillflow-disable-next-line`) comment: the codes it names and where it is. */
export interface DisableComment {
  codes: string[];
  range: Range;
  /** A `skillflow-disable-next-line` comment: the codes are off on the line after it only. */
  nextLine: boolean;
}

const DISABLE = /<!--\s*skillflow-disable(-next-line)?(?![\w-])([^]*?)-->/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The `<!-- skillflow-disable code [code...] -->` comments of a SKILL.md text: in the body (after the frontmatter)
 * and outside fenced code blocks. Codes are separated by spaces or commas.
 */
export function findDisableComments(text: string): DisableComment[] {
  if (!text.includes(DISABLE_MARKER)) return [];
  const lines = text.split(/\r\n|\n|\r/);
  const out: DisableComment[] = [];
  let i = 0;
  if (lines[0]?.replace(/^\uFEFF/, '').trimEnd() === '---') {
    for (i = 1; i < lines.length && lines[i].trimEnd() !== '---'; i++);
    if (i >= lines.length) return []; // an unclosed frontmatter has no body
    i++;
  }
  let fence: string | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) { fence = f[1]; continue; }
    if (!line.includes(DISABLE_MARKER)) continue;
    DISABLE.lastIndex = 0;
    for (let m = DISABLE.exec(line); m; m = DISABLE.exec(line)) {
      const codes = m[2].split(/[\s,]+/).filter(Boolean);
      out.push({ codes, range: { line: i + 1, column: m.index + 1, endLine: i + 1, endColumn: m.index + m[0].length + 1 }, nextLine: m[1] !== undefined });
    }
  }
  return out;
}

/**
 * The rule codes a SKILL.md text turns off for itself, those it turns off on single lines (by 1-based line), and a
 * `config-invalid` problem per unknown code named.
 */
export function disabledRules(text: string, file?: string): { codes: Set<string>; lines: Map<number, Set<string>>; problems: Problem[] } {
  const codes = new Set<string>();
  const lines = new Map<number, Set<string>>();
  const problems: Problem[] = [];
  for (const c of findDisableComments(text)) {
    const into = c.nextLine ? lines.get(c.range.line + 1) ?? new Set<string>() : codes;
    if (c.nextLine) lines.set(c.range.line + 1, into);
    for (const code of c.codes) {
      if (isRuleCode(code)) into.add(code);
      else problems.push({ code: 'config-invalid', severity: severityFor('config-invalid', 'claude-code') ?? 'warning', message: `unknown rule code '${code}' in a skillflow-disable comment (see docs/rules.md for the codes)`, ...c.range, ...(file ? { file } : {}) });
    }
  }
  return { codes, lines, problems };
}

export interface ApplyRuleConfigOptions {
  /** The nearest `.skillflow.json` (or DEFAULT_RULE_CONFIG). */
  config: RuleConfig;
  /** The editor's `skillflow.validation.rules`; wins over `config.rules`. */
  settingOverrides?: Readonly<Record<string, RuleSetting>>;
  /** Codes turned off by `skillflow-disable` comments in the file. */
  disabledInFile?: ReadonlySet<string>;
  /** Codes turned off on one line (1-based) by `skillflow-disable-next-line` comments: problems starting there are dropped. */
  disabledOnLine?: ReadonlyMap<number, ReadonlySet<string>>;
}

/**
 * A file's problems with the configuration applied: a disabled or `off` rule is dropped, a configured severity
 * replaces the profile's one (setting > nearest `.skillflow.json` > the rule table's default). Problems the rule
 * table does not know (none today) pass unchanged. Returns a new array; the problems given are not modified.
 */
export function applyRuleConfig(problems: readonly Problem[], opts: ApplyRuleConfigOptions): Problem[] {
  const rules = opts.config.rules;
  const overrides = opts.settingOverrides;
  const disabled = opts.disabledInFile;
  const onLine = opts.disabledOnLine;
  const noRules = Object.keys(rules).length === 0 && (!overrides || Object.keys(overrides).length === 0);
  if (noRules && (!disabled || disabled.size === 0) && (!onLine || onLine.size === 0)) return [...problems];
  const out: Problem[] = [];
  for (const p of problems) {
    if (disabled?.has(p.code)) continue;
    if (p.file === undefined && onLine?.get(p.line)?.has(p.code)) continue;
    const has = (o: Readonly<Record<string, RuleSetting>> | undefined) => o !== undefined && Object.prototype.hasOwnProperty.call(o, p.code);
    const setting = has(overrides) ? overrides![p.code] : has(rules) ? rules[p.code] : undefined;
    if (setting === 'off') continue;
    out.push(setting === undefined || setting === p.severity ? p : { ...p, severity: setting });
  }
  return out;
}

/** Validates a `skillflow.validation.rules` setting value: the valid entries (unknown codes and values dropped). */
export function ruleSettingOverrides(value: unknown): Record<string, RuleSetting> {
  const out: Record<string, RuleSetting> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [code, v] of Object.entries(value as Record<string, unknown>)) {
    if (isRuleCode(code) && typeof v === 'string' && (RULE_SETTINGS as readonly string[]).includes(v)) {
      Object.defineProperty(out, code, { value: v as RuleSetting, enumerable: true });
    }
  }
  return out;
}

/** Every rule code of the rule table, sorted (the JSON schema's enum is generated from it). */
export function ruleCodes(): string[] {
  return Object.keys(RULES).sort();
}

export interface ConfigureOptions {
  settingOverrides?: Readonly<Record<string, RuleSetting>>;
  /**
   * The file's text, for its `skillflow-disable` comments; asked only when the file has problems (so a bulk run
   * reads no extra file for a clean skill). Undefined when it cannot be read.
   */
  readText?: () => string | undefined;
}

/**
 * Everything the CLI and the editor do with one file's problems: undefined when an `ignore` glob skips the file,
 * else the problems with the nearest `.skillflow.json`, the setting overrides and the file's disable comments applied
 * (plus a `config-invalid` problem for each unknown code a disable comment names).
 */
export function configureProblems(finder: RuleConfigFinder, file: string, problems: readonly Problem[], opts: ConfigureOptions = {}): Problem[] | undefined {
  if (finder.isIgnored(file)) return undefined;
  const config = finder.forFile(file);
  let disabledInFile: Set<string> | undefined;
  let disabledOnLine: Map<number, Set<string>> | undefined;
  let extra: Problem[] = [];
  if (problems.length && opts.readText) {
    const text = opts.readText();
    if (text !== undefined) {
      const d = disabledRules(text);
      disabledInFile = d.codes;
      disabledOnLine = d.lines;
      extra = d.problems;
    }
  }
  const out = applyRuleConfig(problems, { config, settingOverrides: opts.settingOverrides, disabledInFile, disabledOnLine });
  if (extra.length) out.push(...applyRuleConfig(extra, { config, settingOverrides: opts.settingOverrides }));
  return out;
}
