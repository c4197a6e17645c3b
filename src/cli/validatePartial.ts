/**
 * The run memo when only some loads' questions got other answers (a SKILL.md's body was edited): dist/cli.js replayed
 * the memo (validateMemo.ts) and every question the run asked outside loads held; the loads that asked the others are
 * made again here, traced. When each gives an entry of the digest it gave before (core/cache/loadCache.ts entryDigest:
 * what the rest of the run sees of it), the rest of the run, a function of the entries and of its own answers, would
 * print what it printed: the memo's output is printed, and the memo is patched with those loads' new answers
 * (core/cache/runMemo.ts patchMemo). An entry that differs only in its own problems, its description, where its
 * mentions are or a name nothing else reads is printed again from the report memo (reportAgain); any other entry runs
 * the full run. This is the "early cutoff" of build systems: a step made again whose result is the same does not make
 * what depends on it again.
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
import { closestName, type MentionPool, mentionProblems, nameDistance, WIRING_READ_CODES } from '../core/discovery/claudeWiring';
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
 * again, or entries that differ only in their own problems, description, mentions' places or a name nothing else reads
 * (then printed from the report memo, reportAgain); the memo is then patched. Undefined (nothing written) otherwise.
 * Never throws.
 */
export function finishPartial(ctx: Pick<CliContext, 'cwd'>, args: readonly string[], found: Replayed): (Replayed & { reprinted: number; renamed: number; mentioning: number }) | undefined {
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
    if (changed.length) {
      const again = reportAgain(dir, dirty.data, changed, found);
      if (!again) return undefined;
      printed = { ...printed, out: again.out, exit: again.exit };
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
    return { ...printed, reprinted: changed.length, renamed: changed.filter((c) => c.renamed).length, mentioning: changed.filter((c) => c.mentionNames).length };
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
function reportAgain(dir: string, memo: Buffer, changed: readonly ChangedLoad[], found: Replayed): { out: Replayed['out']; exit: number; id: string; bytes(memoId: string): Buffer[] } | undefined {
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
  // Mentions are looked up among the names of the run before: one skill renamed along with another's mentions would
  // need the names after (only a skill renamed and mentioning at once, alone, is looked up with its new name).
  if (changed.some((c) => c.renamed) && changed.some((c) => c.mentionNames) && changed.length > 1) return undefined;
  for (const { load, entry, description, mentions, renamed, mentionNames } of changed) {
    const file = entry.skillMdPath;
    if ((description || renamed) && !meta.descriptions) return undefined;
    const old = opened.load(load);
    const at = opened.skillAt(file);
    if (old === undefined || at === undefined || finder.isIgnored(file)) return undefined;
    const before = rows.get(at)?.before ?? opened.skill(at);
    const row: SkillRow = [...(rows.get(at)?.after ?? before)];
    if (renamed) {
      if (!nameReadByNothing(row, entry, meta.names)) return undefined;
      row[1] = entry.name;
    }
    const now = entry.problems;
    const removed = minus(old.problems, now);
    const added = minus(now, old.problems);
    if ([...removed, ...added].some((p) => WIRING_READ_CODES.has(p.code) || (p.file !== undefined && p.file !== file))) return undefined;
    // As the run configures and shows one problem of this file.
    const shown = (ps: readonly Problem[]) => (configureProblems(finder, file, ps) ?? []).map((p) => ({ ...p, message: say(p.message) }));
    const list = without(row[4], shown(removed));
    if (!list) return undefined;
    const adding = shown(added);
    const ranges = (entry.mentions ?? []).map((m) => m.range);
    if (mentionNames) {
      // Mentions of other names: each is looked up among the names the run looked every mention up among (the rest of
      // the run reads a mention's name for nothing else), as claudeWiring.ts checkMentions does.
      const pool = opened.pool();
      if (!pool) return undefined;
      for (let k = list.length - 1; k >= 0; k--) if (list[k].code === 'mention-unknown') list.splice(k, 1);
      const severity = severityFor('mention-unknown', meta.profile);
      const found = severity === undefined ? [] : renamed ? renamedMentionProblems(entry, before[1], pool, severity) : mentionProblems(entry.mentions ?? [], pool, severity);
      if (found === undefined) return undefined;
      adding.push(...shown(found));
      for (const m of entry.mentions ?? []) mentioned.add(m.name);
    } else if (mentions) {
      // Mentions that moved (naming the same skills, in the same order): their `mention-unknown` problems move with them.
      if (ranges.length !== old.mentions.length) return undefined;
      for (let m = 0; m < ranges.length; m++) {
        if (sameRange(ranges[m], old.mentions[m])) continue;
        for (let k = list.length - 1; k >= 0; k--) {
          const p = list[k];
          if (p.code !== 'mention-unknown' || !sameRange(p, old.mentions[m])) continue;
          list.splice(k, 1);
          adding.push({ ...p, line: ranges[m].line, column: ranges[m].column, endLine: ranges[m].endLine, endColumn: ranges[m].endColumn });
        }
      }
    }
    // Without a search for disable comments (none found: `false`), the run reads the file for them when it has problems.
    if (entry.mentionsDisable !== false && (list.length || adding.length)) return undefined;
    for (const p of adding) {
      let i = 0;
      while (i < list.length && compareProblems(list[i], p) < 0) i++;
      if (i < list.length && compareProblems(list[i], p) === 0 && !sameProblem(list[i], p)) return undefined;
      if (i > 0 && compareProblems(list[i - 1], p) === 0 && !sameProblem(list[i - 1], p)) return undefined;
      list.splice(i, 0, p);
    }
    row[4] = list;
    rows.set(at, { before, after: row });
    newLoads.set(load, { problems: now, mentions: ranges });
  }
  const names = mentioned.size > meta.names.mentions.length ? { ...meta, names: { ...meta.names, mentions: [...mentioned] } } : undefined;
  // A renamed skill's name is among the names mentions are looked up among: those kept are no longer this run's.
  const bytes = (memoId: string) => opened.bytes(memoId, new Map([...rows].map(([i, r]) => [i, r.after])), newLoads, names, changed.some((c) => c.renamed));
  const out = [...found.out];
  const shownPath = displayPaths(meta.cwd);
  // JSON (most of its bytes are the skills without problems): the changed skills' blocks and the counts replaced.
  const spliced = meta.format === 'json' && !meta.commands ? jsonSpliced(found.out[meta.chunk][1], [...rows.values()], shownPath) : undefined;
  if (spliced) {
    out[meta.chunk] = ['o', spliced.bytes];
    return { out, exit: spliced.errors > 0 ? EXIT_PROBLEMS : EXIT_OK, id: id!, bytes };
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
  return { out, exit: validation.errors > 0 ? EXIT_PROBLEMS : EXIT_OK, id: id!, bytes };
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
 * Whether the skill `reported` (its row in the report memo, of the run before) renamed to `entry.name` changes nothing
 * of the run but its own problems and its name in the report. True for a skill of a project or personal level (there
 * the command is the folder's name and `name` only a label, read by nothing in Claude Code's model but the label
 * itself: claude/load.ts) when neither name is one that a mention of a skill or an agent's `skills:` entry (`names`)
 * is, or is close to (claudeWiring.ts closestName: `mention-unknown` suggests the closest loaded name), and the skill
 * has no problem the model placed at its `name` (which may have moved).
 */
function nameReadByNothing(reported: SkillRow, entry: LoadedSkillEntry, names: ReadNames): boolean {
  const [, before, scope, source, problems] = reported;
  if (scope === 'plugin' || source !== 'skill' || entry.source !== 'skill' || entry.root.scope === 'plugin' || entry.root.plugin !== undefined) return false;
  if (problems.some((p) => p.code !== 'mention-unknown' && WIRING_READ_CODES.has(p.code))) return false;
  for (const name of [before, entry.name]) {
    for (const m of names.mentions) {
      // A `plugin:x` mention is looked up by its last part too.
      for (const part of m.includes(':') ? [m, m.slice(m.indexOf(':') + 1)] : [m]) {
        if (part === name || closestName(part, [name]) !== undefined) return false;
      }
    }
    for (const a of names.agentSkills) if (a === name || a.normalize('NFKC') === name) return false;
  }
  return true;
}

/** A tie between names equally close to a mention (closestOnly). */
const TIE = Symbol('tie');

/** closestName, thrown TIE when another name is as close as the one it takes (then its order among them decides). */
function closestOnly(bare: string, names: ReadonlySet<string>): string | undefined {
  const best = closestName(bare, names);
  if (best === undefined) return undefined;
  const rest = new Set(names);
  rest.delete(best);
  const next = closestName(bare, rest);
  if (next !== undefined && nameDistance(bare, next) === nameDistance(bare, best)) throw TIE;
  return best;
}

/**
 * The `mention-unknown` problems of the mentions of `entry`, a project or personal skill renamed from `before`
 * (nameReadByNothing held: no other mention of the run is, or is close to, either name), among the names the run
 * looked mentions up among with the new name in them: with the old name there too (another skill or folder may give
 * it) and without it, which must agree; a mention two names are equally close to, whose suggestion would depend on
 * their order, gives undefined (the run goes in full).
 */
function renamedMentionProblems(entry: LoadedSkillEntry, before: string, pool: MentionPool, severity: Severity): Problem[] | undefined {
  try {
    const kept = new Set(pool.names).add(entry.name);
    const gone = new Set(kept);
    if (before !== entry.name) gone.delete(before);
    const [a, b] = [kept, gone].map((names) => JSON.stringify(mentionProblems(entry.mentions ?? [], { names, plugins: pool.plugins }, severity, (bare, set) => closestOnly(bare, set))));
    return a === b ? JSON.parse(a) as Problem[] : undefined;
  } catch (e) {
    if (e === TIE) return undefined;
    throw e;
  }
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
