/**
 * Claude Code's model of loading (src/core/claude) applied to the indexed entries: for each start folder it builds the
 * model over the files discovery already loaded (their frontmatter is not parsed twice), loads and validates the files
 * only the model finds (personal, managed, parent and additional levels, commands, misplaced SKILL.md files), sets
 * each entry's Claude Code fields (invocation, level, source, loaded, shadowedBy) and the problems that need more than
 * one file: `duplicate-name`, `shadowed`, `skill-not-loaded`, `builtin-clash`, `unreachable` (severities from the rule
 * table). Entries in folders Claude Code never reads (`.agents/skills`, `.github/skills`, any other folder the CLI was
 * pointed at) are marked not loaded, with no problem for it.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Problem, Profile, Range, Scope, Severity } from '../base/types';
import { severityFor } from '../base/rules';
import { sameRange, sortProblems } from '../base/problems';
import { buildClaudeModel, type ClaudeModel } from '../claude/load';
import { invocability } from '../claude/resolve';
import { builtinNames } from '../claude/builtins';
import type { ClaudeEntry, ClaudeLevel, ClaudeMeta } from '../claude/types';
import type { SkillsRoot } from '../skillmd/model';
import { loadCommand, loadSkill, type LoadedSkillEntry } from './load';
import { pluginNameOf } from './plugins';
import { LISTING_MAX as DEFAULT_LISTING_MAX } from '../validation/frontmatterRules';
import type { SkillMention } from '../validation/mentions';

/** Where Claude Code starts and what it reads besides the start folder. */
export interface ClaudeWiringOptions {
  /** The folders Claude Code is started in (workspace folders; the CLI's PATH). */
  startDirs: readonly string[];
  /** The user's home (personal skills, user settings, installed plugins); none when undefined. */
  home?: string;
  /** The managed-settings folder; the OS default when undefined, none when null. */
  managedDir?: string | null;
  /** `--add-dir` folders (relative ones against the start folder). */
  additionalDirs?: readonly string[];
  /** The shell environment (`CLAUDE_CONFIG_DIR`, `SLASH_COMMAND_TOOL_CHAR_BUDGET`, ...). */
  env?: Readonly<Record<string, string | undefined>>;
  profile: Profile;
  /** See DiscoverOptions.listFiles. */
  listFiles?: boolean;
  /** Plugin roots found in the workspace: Claude Code loads them with `--plugin-dir` or once installed. */
  pluginDirs?: readonly string[];
  /** Folders holding a `.claude/skills` that discovery found (the nested levels come from these, without a second walk). */
  claudeFolders?: readonly string[];
  /** Told of the names the skills' mentions are looked up among (MentionPool; the CLI's report memo keeps them). */
  onMentionPool?: (pool: MentionPool) => void;
}

/** The codes this module sets (removed and set again on every pass). */
export const CLAUDE_CODES: ReadonlySet<string> = new Set(['duplicate-name', 'shadowed', 'skill-not-loaded', 'builtin-clash', 'unreachable', 'mention-unknown']);

/**
 * Codes of a load's own problems that the wiring reads or changes (unread(), listing-length, the codes it sets): a
 * load's other problems pass through it as they are, but for their order (sortProblems). The run memo's report patch
 * (src/cli/validatePartial.ts) relies on it: keep this set true when the wiring starts reading another code. It also
 * relies on this: a project or personal skill's frontmatter `name` is read here only by checkMentions (the names a
 * mention is looked up among) and displayName, and elsewhere only by agents' `skills:` (nameReadByNothing).
 */
export const WIRING_READ_CODES: ReadonlySet<string> = new Set([...CLAUDE_CODES, 'listing-length', 'file-unreadable', 'file-not-text']);

/** Not-loaded kinds an author can fix: reported as `skill-not-loaded`. */
const MISPLACED = new Set(['deeper', 'reserved', 'plugin-elsewhere', 'flat-file', 'plugin-invalid']);

export interface ClaudeWiring {
  /** Every entry: the given ones (less folders reached twice through a link) and those only the model found. */
  skills: LoadedSkillEntry[];
  /** One model per start folder, in order. */
  models: ClaudeModel[];
}

/** A file Claude Code cannot make sense of: not read, or not text. */
function unread(e: LoadedSkillEntry): boolean {
  return e.problems.some((p) => p.code === 'file-unreadable' || p.code === 'file-not-text');
}

/** Why an unread file did not load, from its own problem ("SKILL.md is not text (a NUL byte at offset 92: …)"). */
function unreadReason(e: LoadedSkillEntry): string | undefined {
  const p = e.problems.find((x) => x.code === 'file-not-text' || x.code === 'file-unreadable');
  return p?.message.split('; ')[0];
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function scopeOf(level: ClaudeLevel): Scope {
  if (level === 'plugin') return 'plugin';
  return level === 'managed' || level === 'personal' || level === 'synced' ? 'personal' : 'project';
}

function problemRange(e: LoadedSkillEntry): Range {
  return (e.source === 'skill' ? e.nameRange : undefined) ?? { line: 1, column: 1, endLine: 1, endColumn: 1 };
}

function lastSegment(name: string): string {
  const i = name.lastIndexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/** Builds the models and applies them to `entries` (mutates them; idempotent). */
export function applyClaudeModel(fs: FileSystem, entries: readonly LoadedSkillEntry[], opts: ClaudeWiringOptions): ClaudeWiring {
  const byPath = new Map<string, LoadedSkillEntry>();
  for (const e of entries) byPath.set(e.skillMdPath, e);
  const extra: LoadedSkillEntry[] = [];
  const rootsByPath = new Map<string, SkillsRoot>();
  const linkDuplicates = new Set<string>();
  /** Real paths of the given skills' folders (made the first time the model finds a file discovery did not load). */
  let realDirs: Map<string, LoadedSkillEntry> | undefined;
  const load = (file: string): LoadedSkillEntry | undefined => {
    const known = byPath.get(file);
    if (known) return known;
    if (path.basename(file) === 'SKILL.md') {
      // One folder reached through a link from a folder discovery searched and from one Claude Code reads: the entry is
      // the path Claude Code loads; the other is dropped.
      realDirs ??= new Map(entries.filter((e) => e.source === 'skill').map((e) => [fs.realPath(e.dir) ?? e.dir, e]));
      const twin = realDirs.get(fs.realPath(path.dirname(file)) ?? path.dirname(file));
      if (twin) linkDuplicates.add(twin.skillMdPath);
    }
    let entry: LoadedSkillEntry | undefined;
    if (path.basename(file).toLowerCase() === 'skill.md') {
      const dir = path.dirname(file);
      const parent = path.dirname(dir);
      let root = rootsByPath.get(parent);
      if (!root) {
        // An installed plugin's `skills/` folder: validation then knows that `name` is also the command.
        const plugin = path.basename(parent) === 'skills' ? pluginNameOf(fs, path.dirname(parent)) : undefined;
        root = plugin !== undefined ? { path: parent, scope: 'plugin', plugin } : { path: parent, scope: 'project' };
        rootsByPath.set(parent, root);
      }
      entry = loadSkill(fs, root, path.basename(dir), opts.profile, { listFiles: opts.listFiles });
      if (entry && entry.skillMdPath !== file) entry = undefined;
    } else if (file.endsWith('.md')) {
      entry = loadCommand(fs, file, opts.profile);
    }
    if (!entry) return undefined;
    byPath.set(file, entry);
    extra.push(entry);
    return entry;
  };
  const readMeta = (file: string) => {
    const e = load(file);
    if (!e || unread(e)) return undefined;
    return e.meta;
  };

  const models: ClaudeModel[] = [];
  const assigned = new Map<LoadedSkillEntry, ClaudeEntry>();
  /** The start folder of the model that placed each entry (the workspace folder of its project-like levels). */
  const startOf = new Map<LoadedSkillEntry, string>();
  /** `skillListingMaxDescChars` of the model that placed each entry (its settings). */
  const maxDescOf = new Map<LoadedSkillEntry, number>();
  // Without a start folder, the home folder stands for one (personal skills, installed plugins).
  const startDirs = opts.startDirs.length || opts.home === undefined ? opts.startDirs : [opts.home];
  for (const startDir of startDirs) {
    const start = path.resolve(startDir);
    const model = buildClaudeModel(fs, {
      startDir: start,
      home: opts.home,
      managedDir: opts.managedDir,
      additionalDirs: opts.additionalDirs,
      pluginDirs: opts.pluginDirs?.filter((d) => isInside(d, start)),
      nestedFolders: opts.claudeFolders?.filter((d) => isInside(d, start)) ?? [],
      env: opts.env,
      readMeta,
    });
    models.push(model);
    for (const c of model.entries) {
      if (c.notLoadedCode === 'link-duplicate') { linkDuplicates.add(c.path); continue; }
      const e = load(c.path);
      if (!e || assigned.has(e)) continue;
      assigned.set(e, c);
      startOf.set(e, start);
      maxDescOf.set(e, model.settings.skillListingMaxDescChars);
    }
  }

  const all = [...entries, ...extra].filter((e) => assigned.has(e) || !linkDuplicates.has(e.skillMdPath));
  for (const e of all) {
    if (e.problems.some((p) => CLAUDE_CODES.has(p.code))) e.problems = e.problems.filter((p) => !CLAUDE_CODES.has(p.code));
    const c = assigned.get(e);
    if (c) applyEntry(e, c, rootsByPath, startOf.get(e)!);
    else markUnread(e);
  }
  addProblems(all, assigned, opts.profile);
  listingLengthFromSettings(all, assigned, maxDescOf, opts.profile);
  checkMentions(all, models, opts.profile, opts.onMentionPool);
  return { skills: all, models };
}

/**
 * The names a mention of a skill or command is looked up among (checkMentions), in the order the lookup meets them
 * (closestName takes the first of equally close names): the built-in commands, every loaded name and command, every
 * skill's name and folder; and, per plugin, its skills' names (a `plugin:name` mention is looked up there).
 */
export interface MentionPool {
  names: Set<string>;
  plugins: Map<string, Set<string>>;
  /**
   * (With `labels` asked for.) Each name of `names` that only skills' `name` values give (no built-in, command,
   * folder or plugin gives it), with how many skills give it: a skill renamed from such a name takes it out of the
   * pool when it was the last (the CLI's report memo edits a kept pool so: validatePartial.ts).
   */
  labels?: Map<string, number>;
  /**
   * The pool was edited after the run that made it (names added at its end, some taken out): the order of `names` is
   * no longer the one a run meets them in, so a lookup where two names are equally close cannot be answered from it.
   */
  edited?: boolean;
}

/** The MentionPool of a run that loaded `all` with the models `models` (with `labels` when asked: see MentionPool). */
export function mentionPool(all: readonly LoadedSkillEntry[], models: readonly ClaudeModel[], withLabels = false): MentionPool {
  const names = new Set<string>(builtinNames());
  const plugins = new Map<string, Set<string>>();
  /** (With labels.) What gives each name besides skills' `name` values: everything but `names.add(e.name)` below. */
  const given = withLabels ? new Set<string>(names) : undefined;
  const give = (n: string) => { names.add(n); given?.add(n); };
  const addName = (n: string) => {
    give(n);
    const i = n.indexOf(':');
    if (i <= 0) return;
    const plugin = n.slice(0, i);
    const rest = n.slice(i + 1);
    give(rest);
    let set = plugins.get(plugin);
    if (!set) plugins.set(plugin, (set = new Set()));
    set.add(rest);
  };
  for (const m of models) for (const c of m.entries) if (c.loaded) { addName(c.name); if (c.invocation) addName(c.invocation.slice(1)); }
  for (const e of all) { names.add(e.name); give(e.folderName); if (e.root.plugin !== undefined) addName(`${e.root.plugin}:${e.folderName}`); }
  if (!given) return { names, plugins };
  const labels = new Map<string, number>();
  for (const e of all) if (!given.has(e.name)) labels.set(e.name, (labels.get(e.name) ?? 0) + 1);
  return { names, plugins, labels };
}

/**
 * `pool` after a skill that gives `before` as its `name` (and nothing else of the pool: a project or personal skill)
 * was renamed to `after`: the name is taken out when no other skill, command, folder or built-in gives it, and the new
 * one added at the end (the result is `edited`). Undefined when `pool` has no `labels`.
 */
export function renamedInPool(pool: MentionPool, before: string, after: string): MentionPool | undefined {
  if (!pool.labels) return undefined;
  if (before === after) return pool;
  const names = new Set(pool.names);
  const labels = new Map(pool.labels);
  const left = labels.get(before);
  if (left !== undefined) {
    if (left > 1) labels.set(before, left - 1);
    else { labels.delete(before); names.delete(before); }
  }
  if (!names.has(after)) { names.add(after); labels.set(after, 1); } else if (labels.has(after)) labels.set(after, labels.get(after)! + 1);
  return { names, plugins: pool.plugins, labels, edited: true };
}

/**
 * The `mention-unknown` problems (of `severity`) of `mentions` among `pool`, in their order; `closest` looks a bare
 * name up in a set of names (closestName, or a cache of it).
 */
export function mentionProblems(mentions: readonly SkillMention[], pool: MentionPool, severity: Severity, closest: (bare: string, names: ReadonlySet<string>, key: string) => string | undefined = (bare, names) => closestName(bare, names)): Problem[] {
  const problems: Problem[] = [];
  for (const m of mentions) {
    if (pool.names.has(m.name)) continue;
    const i = m.name.indexOf(':');
    const names = i > 0 ? pool.plugins.get(m.name.slice(0, i)) : pool.names;
    if (!names) continue; // another plugin's skill: outside what is in reach
    const bare = i > 0 ? m.name.slice(i + 1) : m.name;
    if (i > 0 && names.has(bare)) continue;
    const near = closest(bare, names, m.name);
    if (!near) continue;
    const shown = i > 0 ? `${m.name.slice(0, i)}:${near}` : near;
    const what = m.slash ? `/${m.name}` : `'${m.name}'`;
    problems.push({ code: 'mention-unknown', severity, message: `Did you mean ${m.slash ? `/${shown}` : `'${shown}'`}? No skill or command ${what} is loaded at any level here (if it comes from outside this workspace, ignore this)`, ...m.range });
  }
  return problems;
}

/**
 * `mention-unknown`: a body's mention of a skill or command ("use the `db-reindx` skill", "`/audit-workflow`") that no
 * level loads, when a loaded name is close to it (a mention nothing is close to may name a skill outside the
 * workspace: quiet). A `plugin:name` mention is judged only for a plugin in reach. `onPool` is given the pool the
 * mentions are (or would be) looked up among.
 */
function checkMentions(all: readonly LoadedSkillEntry[], models: readonly ClaudeModel[], profile: Profile, onPool?: (pool: MentionPool) => void): void {
  const severity = severityFor('mention-unknown', profile);
  if (!onPool && (severity === undefined || !all.some((e) => e.mentions?.length))) return;
  const pool = mentionPool(all, models, onPool !== undefined);
  onPool?.(pool);
  if (severity === undefined) return;
  // Many files mention the same names: each unknown name is looked up once.
  const nearCache = new Map<string, string | undefined>();
  const closest = (bare: string, names: ReadonlySet<string>, key: string) => {
    if (!nearCache.has(key)) nearCache.set(key, closestName(bare, names));
    return nearCache.get(key);
  };
  for (const e of all) {
    if (!e.mentions?.length) continue;
    const found = mentionProblems(e.mentions, pool, severity, closest);
    if (!found.length) continue;
    e.problems.push(...found);
    sortProblems(e.problems);
  }
}

/**
 * The closest name within a small edit distance (`db-reindx` → `db-reindex`); undefined for short or far names. Of
 * names equally close, the first `pool` gives; with `tie`, `tie.found` says whether another was as close.
 */
export function closestName(name: string, pool: Iterable<string>, tie?: { found: boolean }): string | undefined {
  if (tie) tie.found = false;
  if (name.length < 4) return undefined;
  const limit = Math.min(2, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  // Looking for ties, a candidate as close as the best so far is measured too (the bound is one edit wider).
  const wider = tie === undefined ? 0 : 1;
  for (const candidate of pool) {
    const reach = best === undefined ? bestDistance : bestDistance + wider;
    if (Math.abs(candidate.length - name.length) >= reach || candidate.includes(':')) continue;
    if (!sharesPiece(name, candidate, reach)) continue;
    const d = boundedDistance(name, candidate, reach - 1);
    if (d < bestDistance) { best = candidate; bestDistance = d; if (tie) tie.found = false; } else if (tie && best !== undefined && d === bestDistance) tie.found = true;
  }
  return best;
}

/**
 * False when `b` is certainly more than `pieces - 1` edits from `a`: cut into `pieces` parts, `a` keeps at least one
 * part whole through that many edits (each insertion, deletion or substitution touches one part), and that part is
 * then found in `b` (pigeonhole). A native substring search per part, where the distance table costs a row per
 * character: on a bulk run nearly every candidate of a similar length is ruled out here (names are looked up among
 * tens of thousands, in code that has not been optimized yet).
 */
function sharesPiece(a: string, b: string, pieces: number): boolean {
  if (pieces <= 0 || a.length < pieces) return true;
  for (let k = 0; k < pieces; k++) {
    const from = Math.floor((k * a.length) / pieces);
    const to = Math.floor(((k + 1) * a.length) / pieces);
    if (b.includes(a.slice(from, to))) return true;
  }
  return false;
}

/** The Levenshtein distance of two names. */
export function nameDistance(a: string, b: string): number {
  return boundedDistance(a, b, Math.max(a.length, b.length));
}

/** Levenshtein distance when it is at most `limit`, else `limit + 1` (stops as soon as every cell of a row is over). */
function boundedDistance(a: string, b: string, limit: number): number {
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Copies Claude Code's view of one file onto its entry. */
function applyEntry(e: LoadedSkillEntry, c: ClaudeEntry, roots: Map<string, SkillsRoot>, start: string): void {
  e.level = c.level;
  e.source = c.kind;
  e.loaded = c.loaded;
  e.invocation = c.loaded ? c.invocation : null;
  e.notLoadedReason = c.loaded ? undefined : c.notLoadedCode === 'unreadable' ? unreadReason(e) ?? c.notLoadedReason : c.notLoadedReason;
  const label = c.meta.name;
  e.displayName = c.kind === 'skill' && label !== undefined && label !== lastSegment(c.name) ? label : undefined;
  e.shadowedBy = c.shadowedBy;
  e.shadowReason = c.shadowReason;
  const scope = scopeOf(c.level);
  // Project, nested and additional entries belong to the workspace folder Claude Code starts in (the tree groups by it).
  const workspaceFolder = e.root.workspaceFolder ?? (scope === 'project' ? start : undefined);
  if (e.scope !== scope || e.root.plugin !== c.plugin || e.root.workspaceFolder !== workspaceFolder) {
    const rootPath = c.kind === 'skill' ? path.dirname(e.dir) : path.dirname(e.skillMdPath);
    const key = `${rootPath}\0${scope}\0${c.plugin ?? ''}\0${workspaceFolder ?? ''}`;
    let root = roots.get(key);
    if (!root) {
      root = { path: rootPath, scope, ...(workspaceFolder !== undefined ? { workspaceFolder } : {}), ...(c.plugin !== undefined ? { plugin: c.plugin } : {}) };
      roots.set(key, root);
    }
    e.root = root;
    e.scope = scope;
  }
}

/** A file in a folder Claude Code never reads (kept for the agents that do). */
function markUnread(e: LoadedSkillEntry): void {
  e.level = e.scope === 'plugin' ? 'plugin' : e.scope === 'personal' ? 'personal' : 'project';
  e.loaded = false;
  e.invocation = null;
  e.displayName = undefined;
  e.shadowedBy = undefined;
  e.shadowReason = undefined;
  const rel = path.basename(path.dirname(e.root.path)) + '/' + path.basename(e.root.path);
  e.notLoadedReason = `Claude Code does not read skills from ${rel} (indexed for the agents that do)`;
}

/**
 * `listing-length` against the settings' `skillListingMaxDescChars` (docs/settings-reference.md: "number of characters,
 * a positive integer … Default: `1536`") when a settings file changes it, as the `listing` command counts it: the text
 * Claude Code lists (`description` + `when_to_use`, or the first paragraph) in UTF-16 characters.
 */
/** Whether a settings file of one of `models` changes the listing's description limit (then listingLengthFromSettings reads descriptions). */
export function changesListingLimit(models: readonly ClaudeModel[]): boolean {
  return models.some((m) => m.settings.skillListingMaxDescChars !== undefined && m.settings.skillListingMaxDescChars !== DEFAULT_LISTING_MAX);
}

function listingLengthFromSettings(all: readonly LoadedSkillEntry[], assigned: ReadonlyMap<LoadedSkillEntry, ClaudeEntry>, maxOf: ReadonlyMap<LoadedSkillEntry, number>, profile: Profile): void {
  if (!severityFor('listing-length', profile)) return;
  for (const e of all) {
    const c = assigned.get(e);
    const max = maxOf.get(e);
    if (!c || !c.loaded || max === undefined || max === DEFAULT_LISTING_MAX) continue;
    const text = [c.meta.description, c.meta.whenToUse].filter((t): t is string => !!t).join(' ');
    const at = e.problems.findIndex((p) => p.code === 'listing-length');
    if (text.length <= max) {
      if (at >= 0) e.problems.splice(at, 1);
      continue;
    }
    const message = `Put the trigger words first or shorten: Claude Code's skill listing cuts ${c.meta.whenToUse ? "'description' + 'when_to_use'" : 'the description'} (${text.length} characters) at ${max} (skillListingMaxDescChars in the settings)`;
    if (at >= 0) e.problems[at] = { ...e.problems[at], message };
    else {
      e.problems.push({ code: 'listing-length', severity: severityFor('listing-length', profile)!, message, ...problemRange(e) });
      sortProblems(e.problems);
    }
  }
}

function push(e: LoadedSkillEntry, code: string, profile: Profile, message: string, touched: Set<LoadedSkillEntry>): void {
  const severity = severityFor(code, profile);
  if (severity === undefined) return;
  const p: Problem = { code, severity, message, ...problemRange(e) };
  e.problems.push(p);
  touched.add(e);
}

/**
 * Whether `c` loses its command to `winner` only because both sit in copies of one plugin (two folders whose manifests
 * give one name: a backup, a vendored version): Claude Code installs one of them, so nothing is shadowed in a session,
 * as duplicate-name does not report them either.
 */
function copyOfPlugin(c: ClaudeEntry, winner: ClaudeEntry | undefined): boolean {
  if (winner === undefined || c.level !== 'plugin' || winner.level !== 'plugin' || winner.root === c.root) return false;
  // A plugin skill's root is its plugin's folder; a command's, its commands folder: one plugin's skill and command
  // (a skill wins over a command of its name) have different roots, but the command lies inside the skill's.
  const within = (root: string, file: string) => file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  return !(winner.kind === 'skill' && within(winner.root, c.path)) && !(c.kind === 'skill' && within(c.root, winner.path));
}

function what(c: ClaudeEntry): string {
  return `${c.level} ${c.kind}`;
}

/** The problems that need the whole model. */
function addProblems(all: readonly LoadedSkillEntry[], assigned: ReadonlyMap<LoadedSkillEntry, ClaudeEntry>, profile: Profile): void {
  const touched = new Set<LoadedSkillEntry>();
  // duplicate-name: two loaded entries of one level and one source answering the same command. Plugin entries clash
  // only within one plugin folder: two folders whose manifests give one name are copies of a plugin (a backup, a
  // vendored version), of which Claude Code installs one, not two plugins loaded side by side.
  const groups = new Map<string, LoadedSkillEntry[]>();
  for (const e of all) {
    const c = assigned.get(e);
    if (!c || !c.loaded || c.invocation === null) continue;
    const key = `${c.level}\0${c.kind}\0${c.invocation}\0${c.level === 'plugin' ? c.root : ''}`;
    const list = groups.get(key);
    if (list) list.push(e); else groups.set(key, [e]);
  }
  const duplicates = new Set<LoadedSkillEntry>();
  // Entries by path, built only when an entry loses its command to another (copyOfPlugin asks for the winner).
  let byPath: Map<string, ClaudeEntry> | undefined;
  const entryAt = (file: string): ClaudeEntry | undefined => {
    if (!byPath) {
      byPath = new Map();
      for (const c of assigned.values()) if (c.loaded) byPath.set(c.path, c);
    }
    return byPath.get(file);
  };
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    const winner = list.find((e) => !e.shadowedBy || e.shadowedBy.startsWith('builtin:')) ?? list[0];
    for (const e of list) {
      duplicates.add(e);
      const others = list.filter((o) => o !== e).map((o) => o.skillMdPath).sort();
      const c = assigned.get(e)!;
      const outcome = e === winner ? `Claude Code runs this one (${winner.skillMdPath})` : `Claude Code runs ${winner.skillMdPath}, not this one`;
      push(e, 'duplicate-name', profile, `another ${what(c)} also answers ${c.invocation}: ${others.join(', ')}; ${outcome}`, touched);
    }
  }
  for (const e of all) {
    const c = assigned.get(e);
    if (!c) continue;
    if (!c.loaded) {
      // A flat `.claude/skills/x.md` was read as a command file: only that it never loads is about it.
      if (c.notLoadedCode === 'flat-file') e.problems = [];
      if (c.notLoadedCode && MISPLACED.has(c.notLoadedCode)) push(e, 'skill-not-loaded', profile, `Claude Code never loads this file: ${c.notLoadedReason ?? 'it is not where Claude Code looks'}`, touched);
      continue;
    }
    if (c.shadowedBy && !c.shadowedBy.startsWith('builtin:') && !duplicates.has(e) && !copyOfPlugin(c, entryAt(c.shadowedBy))) {
      push(e, 'shadowed', profile, `${c.invocation ?? `/${c.name}`} is answered by another entry: ${c.shadowReason ?? c.shadowedBy}`, touched);
    }
    // An entry that loses its command to another entry replaces nothing: the winner carries the clash.
    const replacesNothing = c.builtinClash?.winner === 'entry' && c.shadowedBy !== undefined && !c.shadowedBy.startsWith('builtin:');
    if (c.builtinClash && !replacesNothing) {
      const b = c.builtinClash;
      const message = b.winner === 'builtin'
        ? b.kind === 'alias'
          ? `/${b.name} is Claude Code's alias of /${b.aliasOf}, which always wins: typing /${b.name} never runs this ${c.kind}`
          : `/${b.name} is a Claude Code built-in ${b.kind === 'workflow' ? 'workflow' : 'command'}, which always wins: typing /${b.name} never runs this ${c.kind}`
        : `This ${c.kind} replaces Claude Code's bundled skill /${b.name} (its aliases still run the bundled one)`;
      push(e, 'builtin-clash', profile, message, touched);
    }
    if (c.meta.userInvocable === false && c.meta.disableModelInvocation === true) {
      push(e, 'unreachable', profile, '`user-invocable: false` and `disable-model-invocation: true`: neither you nor Claude can invoke it', touched);
    }
  }
  for (const e of touched) sortProblems(e.problems);
}

/** The fields of an entry that the model sets (applyEntry / markUnread). */
const VIEW_KEYS = ['level', 'source', 'loaded', 'invocation', 'displayName', 'notLoadedReason', 'shadowedBy', 'shadowReason', 'root', 'scope'] as const;

/** The metadata that decides names, precedence and this module's problems (descriptions only feed the listing). */
function sameDeciding(a: ClaudeMeta, b: ClaudeMeta): boolean {
  return a.name === b.name && a.disableModelInvocation === b.disableModelInvocation && a.userInvocable === b.userInvocable;
}

/**
 * A re-read file whose deciding metadata and `name` range are unchanged keeps what the model said about it: copies
 * `old`'s Claude Code fields, root and problems of this module onto `fresh`, points the models' entry for it at the new
 * metadata (its description feeds the listing), and returns true; false (nothing copied) when the model must be built
 * again. With `profile`, the copied problems take that profile's severities.
 */
export function carryClaudeView(old: LoadedSkillEntry, fresh: LoadedSkillEntry, models: readonly ClaudeModel[], profile?: Profile): boolean {
  if (old.skillMdPath !== fresh.skillMdPath || !sameDeciding(old.meta, fresh.meta) || !sameRange(old.nameRange, fresh.nameRange)) return false;
  if (unread(fresh) !== unread(old)) return false;
  for (const k of VIEW_KEYS) Object.assign(fresh, { [k]: old[k] });
  const carried: Problem[] = [];
  for (const p of old.problems) {
    if (!CLAUDE_CODES.has(p.code)) continue;
    const severity = profile === undefined ? p.severity : severityFor(p.code, profile);
    if (severity !== undefined) carried.push({ ...p, severity });
  }
  if (carried.length) { fresh.problems.push(...carried); sortProblems(fresh.problems); }
  for (const m of models) for (const c of m.entries) if (c.path === fresh.skillMdPath && c.meta === old.meta) c.meta = fresh.meta;
  return true;
}

/**
 * Skill names an agent's `skills:` may not use because the model may not invoke them (`disable-model-invocation: true`,
 * `skillOverrides` off / user-invocable-only), with the reason; names as an agent writes them (command names, labels).
 */
export function modelBlockedSkills(models: readonly ClaudeModel[]): Map<string, string> {
  const blocked = new Map<string, string>();
  const allowed = new Set<string>();
  for (const m of models) {
    for (const c of m.entries) {
      if (!c.loaded || c.kind !== 'skill') continue;
      const names = [c.name, ...(c.meta.name ? [c.meta.name] : [])];
      if (invocability(c).model) { for (const n of names) allowed.add(n); continue; }
      const why = c.meta.disableModelInvocation ? '`disable-model-invocation: true`' : `\`skillOverrides\`: "${c.override}"`;
      for (const n of names) blocked.set(n, `${c.path} has ${why}`);
    }
  }
  for (const n of allowed) blocked.delete(n);
  return blocked;
}
