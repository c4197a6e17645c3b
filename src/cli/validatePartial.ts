/**
 * The run memo when only some loads' questions got other answers (a SKILL.md's body was edited): dist/cli.js replayed
 * the memo (validateMemo.ts) and every question the run asked outside loads held; the loads that asked the others are
 * made again here, traced. When each gives an entry of the digest it gave before (core/cache/loadCache.ts entryDigest:
 * what the rest of the run sees of it), the rest of the run, a function of the entries and of its own answers, would
 * print what it printed: the memo's output is printed, and the memo is patched with those loads' new answers
 * (core/cache/runMemo.ts patchMemo). An entry that differs only in its own problems, its description, its mentions
 * or its name (a label, in a project or personal skill: the lookups of the mentions that read it are made again) is
 * printed again from the report memo (reportAgain); any other entry runs the full run. This is the "early cutoff" of
 * build systems: a step made again whose result is the same does not make what depends on it again.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../core/base/fs';
import { messagePaths } from '../core/base/messagePaths';
import { compareProblems, sameRange } from '../core/base/problems';
import type { Problem, Severity } from '../core/base/types';
import { entryDigest, jobOfKey, outwardDigest } from '../core/cache/loadCache';
import { memoJobs, memoId, patchMemo, type Replayed, RunRecorder } from '../core/cache/runMemo';
import { configureProblems, RuleConfigFinder } from '../core/config/ruleConfig';
import { closestName, type MentionPool, mentionProblems, renamedInPool, WIRING_READ_CODES } from '../core/discovery/claudeWiring';
import type { SkillMention } from '../core/validation/mentions';
import { severityFor } from '../core/base/rules';
import { type LoadedSkillEntry, loadSkillsInOrder } from '../core/discovery/load';
import { EXIT_OK, EXIT_PROBLEMS } from './context';
import { cleanOutput, escapeControls } from './output/clean';
import { displayPaths } from './output/paths';
import { REPORT_WRITERS, reportJson, validationReport } from './output/report';
import { type LoadRecord, openReportMemo, type ReadNames, REPORT_FILE, type SkillRow } from './validateReportMemo';
import { withReadCache } from '../core/discovery/readCache';
import { VALIDATE_OMITS_REFERENCES } from './validateCache';
import type { CliContext } from './context';
import { fingerprint, type HandedOver, memoFile, PARTIAL_HANDOFF, printReplayed, processContext, writeAtomic } from './validateMemo';

/**
 * The output of the memoised run `found` (a replay with `dirty` set) when the loads it names give the same entries
 * again, or entries that differ only in their own problems, description, mentions or label name (then printed from
 * the report memo, reportAgain); the memo is then patched. Undefined (nothing written) otherwise.
 * Never throws.
 */
export function finishPartial(ctx: Pick<CliContext, 'cwd'>, args: readonly string[], found: Replayed): (Replayed & { reprinted: number; renamed: number; mentioning: number; relooked: number }) | undefined {
  const dirty = found.dirty;
  const file = memoFile(args, ctx.cwd);
  if (!dirty || file === undefined) return undefined;
  try {
    // racyMs only decides what the recorder trusts, which a patch's questions never are: each is checked again.
    const recorder = new RunRecorder({ fingerprint, racyMs: 0 });
    const fs = recorder.trace(withReadCache(nodeFileSystem));
    const jobs = memoJobs(dirty);
    const changed: ChangedLoad[] = [];
    for (let i = 0; i < jobs.length; i++) {
      const [key, digest] = jobs[i] ?? [];
      const job = key === undefined ? undefined : jobOfKey(key);
      if (!job || digest === undefined) return undefined;
      recorder.beginJobAt(dirty.jobs[i]);
      let entry: LoadedSkillEntry | undefined;
      let now: string;
      try {
        entry = loadSkillsInOrder(fs, [job.job], job.profile, { listFiles: job.listFiles })[0];
        // As the validate cache gave the digest (without references: validateCache.ts).
        if (entry && VALIDATE_OMITS_REFERENCES) entry.references = [];
        now = entryDigest(entry);
      } finally {
        recorder.endJob(digest);
      }
      if (now === digest && now !== '!') continue;
      // Another entry: only its own problems (and its description, and its name) may differ, not what the rest of the run
      // reads of it.
      const outward = outwardDigest(now);
      const before = outwardDigest(digest);
      if (!entry || outward === undefined || before === undefined) return undefined;
      // Its name and the names its mentions name may differ, nothing else the rest of the run reads.
      const renamed = outward.unmentioned !== before.unmentioned;
      const mentionNames = outward.unnamed !== before.unnamed;
      if (renamed && mentionNames && outward.bare !== before.bare) return undefined;
      changed.push({ load: dirty.jobs[i], digest: now, entry, description: outward.description !== before.description, mentions: outward.mentions !== before.mentions, renamed, mentionNames });
    }
    const lines = recorder.questionLines();
    if (lines === undefined) return undefined;
    const dir = path.dirname(file);
    let printed: Replayed = { out: found.out, exit: found.exit, loads: found.loads };
    let report: Buffer[] | undefined;
    let data: Buffer[];
    let relooked = 0;
    if (changed.length) {
      const again = reportAgain(dir, dirty.data, changed, found);
      if (!again) return undefined;
      printed = { ...printed, out: again.out, exit: again.exit };
      relooked = again.relooked;
      data = patchMemo(dirty, lines, { digests: new Map(changed.map((c) => [c.load, c.digest])), out: again.out, exit: again.exit });
      report = again.bytes(again.id);
    } else {
      data = patchMemo(dirty, lines);
    }
    try {
      // Either file may stay alone (a write that fails): a report memo holds its report and the problems it came from
      // together, for any memo of the run it is bound to (Meta.id), so neither order can print a wrong report.
      if (report) writeAtomic(path.join(dir, REPORT_FILE), report);
      writeAtomic(file, data);
    } catch {
      // an unwritable memo only costs the next run its speed
    }
    return { ...printed, reprinted: changed.length, renamed: changed.filter((c) => c.renamed).length, mentioning: changed.filter((c) => c.mentionNames).length, relooked };
  } catch {
    return undefined;
  }
}

/** A load made again that gave an entry differing only in its own problems. */
interface ChangedLoad {
  /** Its index in the memo. */
  load: number;
  digest: string;
  entry: LoadedSkillEntry;
  /** Its description changed. */
  description: boolean;
  /** Where its mentions are changed (not what they name). */
  mentions: boolean;
  /** Its name changed (its `name`, where it is, the command its load gave). */
  renamed: boolean;
  /** The names its mentions name changed (and nothing else the rest of the run reads). */
  mentionNames: boolean;
}

/** Two problems the same in every member. */
function sameProblem(a: Problem, b: Problem): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The problems of `a` that `b` does not have (as multisets, compared member by member; `a`'s order kept). */
function minus(a: readonly Problem[], b: readonly Problem[]): Problem[] {
  const left = [...b];
  return a.filter((p) => {
    const i = left.findIndex((q) => sameProblem(p, q));
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** `all` less one of each of `some` (minus); undefined when one of `some` is not in `all`. */
function without(all: readonly Problem[], some: readonly Problem[]): Problem[] | undefined {
  const rest = minus(all, some);
  return rest.length === all.length - some.length ? rest : undefined;
}

/**
 * The output of the memoised run again when some loads' entries changed only in their own problems: from the report
 * memo (validateReportMemo.ts: the report as printed, each load's problems as it gave them), each such skill's
 * problems are those of the report less its old own problems as the run configured them, plus its new ones configured
 * the same way; the report is then printed by its writer as the run prints it. This holds because the rest of the run
 * reads nothing of an entry's own problems but the codes claudeWiring's WIRING_READ_CODES names (a change to one of
 * those runs in full), configures each problem alone (rules, `ignore`) when the file holds no disable comment (a
 * `mentionsDisable` entry runs in full, as does one whose problems sit in another file), and keeps problems sorted
 * (sortProblems: one that sorts level with another problem runs in full, as its place would depend on the order they
 * were added in). Undefined when any of that does not hold or the report memo is missing, stale or broken.
 */
function reportAgain(dir: string, memo: Buffer, changed: readonly ChangedLoad[], found: Replayed): { out: Replayed['out']; exit: number; id: string; relooked: number; bytes(memoId: string): Buffer[] } | undefined {
  const id = memoId(memo);
  let data: Buffer | undefined;
  try { data = nodeFs.readFileSync(path.join(dir, REPORT_FILE)); } catch { return undefined; }
  const opened = id === undefined ? undefined : openReportMemo(data, id);
  if (!opened) return undefined;
  const { meta } = opened;
  if (found.out[meta.chunk]?.[0] !== 'o') return undefined;
  const finder = new RuleConfigFinder(withReadCache(nodeFileSystem), meta.config ?? undefined);
  const say = messagePaths([meta.cwd], meta.home ?? undefined);
  /** The rows changed, by index: as they were and as they are now. */
  const rows = new Map<number, { before: SkillRow; after: SkillRow }>();
  const newLoads = new Map<number, LoadRecord>();
  /** The mentions' names the report memo will hold: those it held and any the changed skills now mention. */
  const mentioned = new Set(meta.names.mentions);
  const severity = severityFor('mention-unknown', meta.profile);
  // A file whose nearest `.skillflow.json` names another profile is checked again under it by the full run
  // (validateConfig.ts applyConfig, unless --profile fixed it): its problems are not the loads' (then in full).
  const checkedAsLoaded = (file: string) => (finder.forFile(file).profile ?? 'claude-code') === meta.profile;
  // As the run configures and shows problems of `file`.
  const shownFor = (file: string, ps: readonly Problem[]) => (configureProblems(finder, file, ps) ?? []).map((p) => ({ ...p, message: say(p.message) }));
  // The names mentions are looked up among, as this run has them: the kept pool with each rename in it (read at the
  // first rename or mention looked up; undefined when none was kept).
  let pool: MentionPool | undefined;
  let poolRead = false;
  const keptPool = () => {
    if (!poolRead) { pool = opened.pool(); poolRead = true; }
    return pool;
  };
  /** The names mentions name that read a renamed skill's name before or after (their loads' lookups are made again). */
  const reading = new Set<string>();
  let relooked = 0;
  const renamedAny = changed.some((c) => c.renamed);
  // One skill renamed along with another's mentions: the other's lookups would need to be made after the rename.
  if (renamedAny && changed.some((c) => c.mentionNames) && changed.length > 1) return undefined;
  for (const { load, entry, description, mentions, renamed, mentionNames } of changed) {
    const file = entry.skillMdPath;
    if ((description || renamed) && !meta.descriptions) return undefined;
    const old = opened.load(load);
    const at = opened.skillAt(file);
    if (old === undefined || at === undefined || finder.isIgnored(file) || !checkedAsLoaded(file)) return undefined;
    const before = rows.get(at)?.before ?? opened.skill(at);
    const row: SkillRow = [...(rows.get(at)?.after ?? before)];
    let read = false;
    if (renamed) {
      const names = mentionsReading(row, entry, meta.names);
      if (names === undefined) return undefined;
      // (Lookups are made again for this change alone: with others, some would be made before all the renames.)
      if (names.size && changed.length > 1) return undefined;
      for (const n of names) reading.add(n);
      read = names.size > 0;
      const kept = keptPool();
      pool = kept && renamedInPool(kept, row[1], entry.name);
      if (read && !pool) return undefined;
      row[1] = entry.name;
    }
    const now = entry.problems;
    const removed = minus(old.problems, now);
    const added = minus(now, old.problems);
    if ([...removed, ...added].some((p) => WIRING_READ_CODES.has(p.code) || (p.file !== undefined && p.file !== file))) return undefined;
    const shown = (ps: readonly Problem[]) => shownFor(file, ps);
    const list = without(row[4], shown(removed));
    if (!list) return undefined;
    const adding = shown(added);
    const ranges = (entry.mentions ?? []).map((m) => m.range);
    if (mentionNames || read) {
      // Mentions of other names (or of names near a rename): each is looked up among the names the run looks every
      // mention up among (the rest of the run reads a mention's name for nothing else), as claudeWiring.ts
      // checkMentions does.
      const names = keptPool();
      if (!names) return undefined;
      for (let k = list.length - 1; k >= 0; k--) if (list[k].code === 'mention-unknown') list.splice(k, 1);
      const found = severity === undefined ? [] : lookedUp(entry.mentions ?? [], names, severity);
      if (found === undefined) return undefined;
      adding.push(...shown(found));
      for (const m of entry.mentions ?? []) mentioned.add(m.name);
    } else if (mentions) {
      // Mentions that moved (naming the same skills, in the same order): their `mention-unknown` problems move with them.
      if (ranges.length !== old.mentions.length) return undefined;
      for (let m = 0; m < ranges.length; m++) {
        const was = old.mentions[m].range;
        if (sameRange(ranges[m], was)) continue;
        for (let k = list.length - 1; k >= 0; k--) {
          const p = list[k];
          if (p.code !== 'mention-unknown' || !sameRange(p, was)) continue;
          list.splice(k, 1);
          adding.push({ ...p, line: ranges[m].line, column: ranges[m].column, endLine: ranges[m].endLine, endColumn: ranges[m].endColumn });
        }
      }
    }
    // Without a search for disable comments (none found: `false`), the run reads the file for them when it has problems.
    const merged = entry.mentionsDisable !== false && (list.length || adding.length) ? undefined : withAdded(list, adding);
    if (!merged) return undefined;
    row[4] = merged;
    rows.set(at, { before, after: row });
    newLoads.set(load, { problems: now, mentions: entry.mentions ?? [], file, disable: entry.mentionsDisable ?? null });
  }
  if (reading.size) {
    // The other skills whose mentions read the renamed name (or one near it): their lookups made again, as above.
    const names = pool!;
    const reloaded = new Set(changed.map((c) => c.load));
    for (const j of opened.mentioning(reading)) {
      if (reloaded.has(j)) continue;
      const record = opened.load(j);
      const file = record?.file;
      const at = file === undefined ? undefined : opened.skillAt(file);
      if (file === undefined || at === undefined || finder.isIgnored(file) || !checkedAsLoaded(file)) return undefined;
      const before = rows.get(at)?.before ?? opened.skill(at);
      const row: SkillRow = [...(rows.get(at)?.after ?? before)];
      const list = row[4].filter((p) => p.code !== 'mention-unknown');
      const found = severity === undefined ? [] : lookedUp(record!.mentions, names, severity);
      if (found === undefined) return undefined;
      const adding = shownFor(file, found);
      const merged = record!.disable !== false && (list.length || adding.length) ? undefined : withAdded(list, adding);
      if (!merged) return undefined;
      row[4] = merged;
      rows.set(at, { before, after: row });
      relooked++;
    }
  }
  const names = mentioned.size > meta.names.mentions.length ? { ...meta, names: { ...meta.names, mentions: [...mentioned] } } : undefined;
  // A renamed skill's name is among the names mentions are looked up among: the kept ones are edited (or none kept).
  const bytes = (memoId: string) => opened.bytes(memoId, new Map([...rows].map(([i, r]) => [i, r.after])), newLoads, names, renamedAny ? pool ?? null : undefined);
  const out = [...found.out];
  const shownPath = displayPaths(meta.cwd);
  // JSON (most of its bytes are the skills without problems): the changed skills' blocks and the counts replaced.
  const spliced = meta.format === 'json' && !meta.commands ? jsonSpliced(found.out[meta.chunk][1], [...rows.values()], shownPath) : undefined;
  if (spliced) {
    out[meta.chunk] = ['o', spliced.bytes];
    return { out, exit: spliced.errors > 0 ? EXIT_PROBLEMS : EXIT_OK, id: id!, relooked, bytes };
  }
  const skills = opened.skills();
  for (const [i, r] of rows) skills[i] = r.after;
  const validation = validationReport({
    skills: skills.map(([skillMdPath, name, scope, source, problems]) => ({ skillMdPath, name, scope, source, problems })),
    agents: opened.agents.map(([p, name, problems]) => ({ path: p, name, problems })),
    configs: opened.configs.map(([file, problems]) => ({ file, problems })),
  });
  const text = REPORT_WRITERS[meta.format](validation, shownPath, { cwd: meta.cwd, profile: meta.profile });
  out[meta.chunk] = ['o', Buffer.from(meta.commands ? escapeControls(text) : cleanOutput(text), 'utf8')];
  return { out, exit: validation.errors > 0 ? EXIT_PROBLEMS : EXIT_OK, id: id!, relooked, bytes };
}

/**
 * `--format json`'s output `printed` (as the memo holds it: cleanOutput applied) with each changed skill's block
 * written again and the summary's counts moved by what changed, and the number of errors; undefined (then the whole
 * report is written again) when a block or the summary is not found in `printed` exactly as the JSON writer writes it
 * from the row as it was. The writer (output/report.ts jsonReport) is JSON.stringify with an indent of 2: a skill's
 * block is its own JSON at an indent of 4, and cleanOutput changes characters one by one (and lines that start with
 * `::`), so it can be applied to the block alone.
 */
export function jsonSpliced(printed: Buffer, rows: ReadonlyArray<{ before: SkillRow; after: SkillRow }>, shown: (file: string) => string): { bytes: Buffer; errors: number } | undefined {
  const block = (r: SkillRow) => {
    const [skillMdPath, name, scope, source, problems] = r;
    const el = reportJson({ skills: [{ skillMdPath, name, scope, source, problems }], agents: [], configs: [], errors: 0, warnings: 0, infos: 0 }, shown).skills[0];
    return Buffer.from(cleanOutput(JSON.stringify(el, null, 2).replace(/^/gm, '    ')), 'utf8');
  };
  const counts = { error: 0, warning: 0, info: 0 };
  // As validationReport counts them.
  const kind = (p: Problem) => (p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warning' : 'info');
  const places: Array<{ from: number; to: number; bytes: Buffer }> = [];
  for (const { before, after } of rows) {
    const old = block(before);
    const from = printed.indexOf(old);
    // The block is whole lines, found once.
    if (from < 1 || printed[from - 1] !== 10 || (printed[from + old.length] !== 44 /* , */ && printed[from + old.length] !== 10) || printed.indexOf(old, from + 1) >= 0) return undefined;
    places.push({ from, to: from + old.length, bytes: block(after) });
    for (const p of before[4]) counts[kind(p)]--;
    for (const p of after[4]) counts[kind(p)]++;
  }
  const key = Buffer.from('\n  "summary": {\n');
  const start = printed.lastIndexOf(key);
  const end = start < 0 ? -1 : printed.indexOf('\n  }', start + key.length);
  if (end < 0) return undefined;
  const text = printed.toString('utf8', start + 1, end + 4);
  let summary: { skills: number; errors: number; warnings: number; infos: number; agents: number };
  try { summary = JSON.parse(text.slice(text.indexOf('{'))) as typeof summary; } catch { return undefined; }
  const write = () => `"summary": ${JSON.stringify(summary, null, 2).replace(/\n/g, '\n  ')}`.replace(/^/, '  ');
  if (write() !== text) return undefined;
  summary = { ...summary, errors: summary.errors + counts.error, warnings: summary.warnings + counts.warning, infos: summary.infos + counts.info };
  places.push({ from: start + 1, to: end + 4, bytes: Buffer.from(write(), 'utf8') });
  places.sort((a, b) => a.from - b.from);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const p of places) {
    if (p.from < at) return undefined;
    chunks.push(printed.subarray(at, p.from), p.bytes);
    at = p.to;
  }
  chunks.push(printed.subarray(at));
  return { bytes: Buffer.concat(chunks), errors: summary.errors };
}

/**
 * What of the run reads the name of the skill `reported` (its row in the report memo, of the run before) renamed to
 * `entry.name`, besides its own problems and its name in the report: the names mentions name that are, or are close
 * to, either name (claudeWiring.ts checkMentions: `mention-unknown` suggests the closest loaded name; their lookups
 * can be made again, lookedUp), or undefined when anything else reads it. Only for a skill of a project or personal
 * level (there the command is the folder's name and `name` only a label, read by nothing in Claude Code's model but
 * the label itself: claude/load.ts) when neither name is an agent's `skills:` entry (`names`) and the skill has no
 * problem the model placed at its `name` (which may have moved).
 */
function mentionsReading(reported: SkillRow, entry: LoadedSkillEntry, names: ReadNames): Set<string> | undefined {
  const [, before, scope, source, problems] = reported;
  if (scope === 'plugin' || source !== 'skill' || entry.source !== 'skill' || entry.root.scope === 'plugin' || entry.root.plugin !== undefined) return undefined;
  if (problems.some((p) => p.code !== 'mention-unknown' && WIRING_READ_CODES.has(p.code))) return undefined;
  const reading = new Set<string>();
  for (const name of [before, entry.name]) {
    for (const m of names.mentions) {
      // A `plugin:x` mention is looked up by its last part too.
      for (const part of m.includes(':') ? [m, m.slice(m.indexOf(':') + 1)] : [m]) {
        if (part === name || closestName(part, [name]) !== undefined) reading.add(m);
      }
    }
    for (const a of names.agentSkills) if (a === name || a.normalize('NFKC') === name) return undefined;
  }
  return reading;
}

/** A tie between names equally close to a mention (lookedUp). */
const TIE = Symbol('tie');

/**
 * The `mention-unknown` problems of `mentions` among `pool`, as checkMentions finds them; in a pool edited since its
 * run (its order no longer the run's), undefined when a mention is equally close to two names (their order decides).
 */
function lookedUp(mentions: readonly SkillMention[], pool: MentionPool, severity: Severity): Problem[] | undefined {
  if (!pool.edited) return mentionProblems(mentions, pool, severity);
  const tie = { found: false };
  try {
    return mentionProblems(mentions, pool, severity, (bare, names) => {
      const best = closestName(bare, names, tie);
      if (tie.found) throw TIE;
      return best;
    });
  } catch (e) {
    if (e === TIE) return undefined;
    throw e;
  }
}

/**
 * `list` (sorted) with `adding` put in their places, as sortProblems would place them; undefined when one sorts level
 * with a different problem (its place would depend on the order they were added in).
 */
function withAdded(list: Problem[], adding: readonly Problem[]): Problem[] | undefined {
  for (const p of adding) {
    let i = 0;
    while (i < list.length && compareProblems(list[i], p) < 0) i++;
    if (i < list.length && compareProblems(list[i], p) === 0 && !sameProblem(list[i], p)) return undefined;
    if (i > 0 && compareProblems(list[i - 1], p) === 0 && !sameProblem(list[i - 1], p)) return undefined;
    list.splice(i, 0, p);
  }
  return list;
}

/**
 * In the bundle, before main(): finishes the run dist/cli.js handed over (PARTIAL_HANDOFF) when its loads give the same
 * entries, and prints it; false when there was none or it did not hold (main() then runs in full).
 */
export function finishHandedOver(): boolean {
  const handoff = (globalThis as Record<symbol, unknown>)[PARTIAL_HANDOFF] as HandedOver | undefined;
  if (!handoff) return false;
  delete (globalThis as Record<symbol, unknown>)[PARTIAL_HANDOFF];
  const argv = process.argv.slice(2);
  if (argv.join('\0') !== handoff.argv.join('\0')) return false;
  const done = finishPartial(processContext(argv, handoff.cwd), argv.slice(1), handoff.found);
  if (!done) {
    fullRunAfterReplay(handoff);
    return false;
  }
  printReplayed(done, `run memo held after ${handoff.found.dirty!.jobs.length} loads made again${done.reprinted ? `; the problems of ${done.reprinted} printed again` : ''}`);
  return true;
}

/** The hand-over whose loads did not all give entries of their old digests: the full run that follows takes it (takeReplay). */
let fullRunAfter: HandedOver | undefined;

/** Hands `handoff` (a replay that finishPartial could not finish) to the full run that follows (takeReplay). */
export function fullRunAfterReplay(handoff: HandedOver): void {
  fullRunAfter = handoff;
}

/**
 * The replay dist/cli.js made before this full run of `validate` (its arguments `args`, in `cwd`), when it found
 * other answers only to questions some loads asked and one of those loads gave another entry: validate.ts then takes
 * every other load's entry from the per-skill cache without replaying its trace (runMemo.ts vouchedLoads). Once.
 */
export function takeReplay(args: readonly string[], cwd: string): HandedOver | undefined {
  const handoff = fullRunAfter;
  fullRunAfter = undefined;
  return handoff && handoff.found.dirty && handoff.cwd === cwd && handoff.argv.slice(1).join('\0') === args.join('\0') ? handoff : undefined;
}
