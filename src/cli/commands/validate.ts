/**
 * `skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format text|json|sarif|github]`: the problems of
 * every skill and agent found under the paths, with the rule configuration (`.skillflow.json`) applied, in the format's
 * writer (output/report.ts). A PATH without any skill, command or agent is said on stderr. Exit 0 without errors, 1
 * with any error, 2 on bad usage or an unreadable path (nothing on stdout then).
 * `--fix` first applies to each SKILL.md what the editor's "Fix all" applies (core/fixes: the certain fixes only,
 * every other byte kept) and then reports what is left; `--fix-dry-run` prints those changes as a unified diff instead
 * and changes nothing (exit 1 when there is something to fix, 0 when not).
 */
import * as path from 'node:path';
import { messagePaths } from '../../core/base/messagePaths';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../context';
import { applyTextEdits, fixAllEdits } from '../../core/fixes/skillFixes';
import { unifiedDiff } from '../../core/base/diff';
import { parseArgs } from '../args';
import type { Problem, Profile } from '../../core/base/types';
import { PROFILES } from '../../core/base/types';
import { nodeFileSystem } from '../../core/base/fs';
import { discoverPaths, type DiscoverPathsResult } from '../../core/discovery/discover';
import { displayPaths } from '../output/paths';
import { REPORT_FORMATS, REPORT_WRITERS, type ReportFormat, validationReport } from '../output/report';
import { createParallelLoader, PARALLEL_MIN_SKILLS } from '../runtime/parallel';
import { configureProblems, RuleConfigFinder } from '../../core/config/ruleConfig';
import { addOverlapProblems, applyConfig, type ConfiguredFindings, configuredProfile, overlapOn } from '../validateConfig';
import { changesListingLimit, type MentionPool } from '../../core/discovery/claudeWiring';
import { concernedBy } from '../../core/discovery/changed';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE, startOptions } from '../discoveryFlags';
import { openValidateCache } from '../validateCache';
import { withReadCache } from '../../core/discovery/readCache';
import { type RunClock, statFingerprinter } from '../../core/cache/answers';
import { cacheDir, type HandedOver, recordRun, type RunRecording, statsLine } from '../validateMemo';
import { takeReplay } from '../validatePartial';
import { vouchedLoads } from '../../core/cache/runMemo';
import type { LoadCache, LoadCacheOptions } from '../../core/cache/loadCache';
import { type ReadNames, readNames, saveReportMemo } from '../validateReportMemo';

const USAGE = `Usage: skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format ${REPORT_FORMATS.join('|')}] [--config FILE] [--fix | --fix-dry-run] [--changed] [--cache [--cache-location DIR]] ${DISCOVERY_USAGE}\n`
  + 'Reads .skillflow.json (the nearest one above each file: profile, rules, ignore; --config FILE: that one for every file).\n'
  + '--fix applies the certain fixes (those of the editor\'s "Fix all") to each SKILL.md, command and agent file,\nthen reports what is left;\n'
  + '--fix-dry-run prints them as a unified diff and changes nothing (exit 1 when something would change).\n'
  + '--changed: the PATHs are changed files (pre-commit passes them); everything under the current folder is read and\n'
  + '  the skills, commands and agents they concern are reported: their own files, files in a skill\'s folder, files they\n'
  + '  reference, plugin manifests.\n'
  + "Reports what is under PATH; Claude Code's other levels (--home, --managed, parent folders) decide shadowing.\n"
  + '--cache keeps what each SKILL.md gave in .skillflow_cache/ (--cache-location DIR: there, implies --cache) and reuses it while nothing it\n'
  + '  depends on changed (off by default, as ESLint\'s --cache; --no-cache turns it off again).\n';

/** SKILLFLOW_CACHE_RACY_MS (for tests only): how recent a change makes a file's fingerprint untrusted. */
function racyMs(env: Record<string, string | undefined>): number | undefined {
  const v = Number(env.SKILLFLOW_CACHE_RACY_MS);
  return env.SKILLFLOW_CACHE_RACY_MS !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export function validateCommand(plainCtx: CliContext, args: string[]): number {
  let ctx = plainCtx;
  const parsed = parseArgs(args, {
    flags: {
      profile: { type: 'string', choices: PROFILES },
      format: { type: 'string', choices: REPORT_FORMATS },
      fix: { type: 'boolean' },
      'fix-dry-run': { type: 'boolean' },
      changed: { type: 'boolean' },
      config: { type: 'string' },
      ...DISCOVERY_FLAGS,
      cache: { type: 'boolean' },
      'no-cache': { type: 'boolean' },
      'cache-location': { type: 'string' },
    },
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const fix = parsed.flags.fix === true;
  const dryRun = parsed.flags['fix-dry-run'] === true;
  if (fix && dryRun) throw new UsageError('give --fix or --fix-dry-run, not both');
  if (dryRun && parsed.flags.format !== undefined) throw new UsageError('--fix-dry-run prints a diff; --format does not apply');
  const changedFiles = parsed.flags.changed ? parsed.positionals.map((f) => path.resolve(ctx.cwd, f)) : undefined;
  const targets = parsed.positionals.length && !changedFiles ? parsed.positionals : ['.'];
  const configFile = parsed.flags.config === undefined ? undefined : path.resolve(ctx.cwd, parsed.flags.config);
  if (configFile !== undefined && !ctx.fs.stat(configFile)?.isFile) {
    ctx.err(`skillflow validate: config file '${parsed.flags.config}' not found\n`);
    return EXIT_USAGE;
  }
  // The cache (opt-in, on the real disk only, not with --fix / --changed): loads whose every input is unchanged come
  // from it (core/cache/loadCache.ts).
  const useCache = (parsed.flags.cache === true || parsed.flags['cache-location'] !== undefined) && !parsed.flags['no-cache'] && ctx.fs === nodeFileSystem && !changedFiles && !fix && !dryRun;
  // With the cache, the run keeps one read cache, made after its start is taken: every fingerprint the caches take
  // (the per-skill trace replay, the `.json` fingerprints, the memo's files and folders) is the stat the run asked of
  // the same path, and each of them is judged against the run's start (answers.ts statFingerprinter: as safe).
  // A run that follows dist/cli.js's replay of the run memo (some loads' questions got other answers and one of them
  // gave another entry: validatePartial.ts) starts when that replay began: the replay's answers are among its own.
  const replay = useCache ? takeReplay(args, ctx.cwd) : undefined;
  const startedAt = Math.min(Date.now(), replay?.startedAt ?? Infinity);
  const disk = useCache ? withReadCache(ctx.fs) : undefined;
  const clock: RunClock | undefined = disk && { fingerprint: statFingerprinter(disk), startedAt };
  // With the cache, the whole run is recorded too (validateMemo.ts): dist/cli.js prints it again while nothing it asked changed.
  const memo = useCache ? recordRun(ctx, args, cacheDir(ctx.cwd, parsed.flags['cache-location']), racyMs(plainCtx.env), clock) : undefined;
  if (memo) ctx = memo.ctx;
  const vouched = memo && replay ? vouchedBy(replay, memo) : undefined;
  const cache = useCache
    ? openValidateCache({ cwd: ctx.cwd, location: parsed.flags['cache-location'], extra: { caseSensitive: ctx.fs.caseSensitive }, racyMs: racyMs(ctx.env), onFileTrusted: memo?.noteTrusted, onJob: memo?.job, readProof: memo?.readProof, clock, vouched: vouched?.take })
    : undefined;
  // The memo's trace sits above the run's one read cache, so it sees every question and who asked it (a load or the run).
  const fs = cache && disk ? cache.observe(memo ? memo.trace(disk) : disk) : ctx.fs;
  const finder = new RuleConfigFinder(fs, configFile);
  const profile = (parsed.flags.profile as Profile | undefined) ?? configuredProfile(finder, fs, ctx.cwd, targets);
  const empty: string[] = [];
  /** The names each discovery looked mentions up among (the report memo keeps the one of a run with one). */
  const pools: MentionPool[] = [];
  const discoverAll = (): DiscoverPathsResult => {
    empty.length = 0;
    pools.length = 0;
    // Thousands of skills are spread over worker threads (they read the real disk: not with a test's fake file system).
    // A target folder with that many entries is likely such a run: the workers start loading right away, while the skills are searched.
    const parallel = ctx.fs === nodeFileSystem && !changedFiles && !cache
      ? createParallelLoader({ env: ctx.env, omitReferences: true, prewarm: () => targets.some((t) => (ctx.fs.readDir(path.resolve(ctx.cwd, t))?.length ?? 0) >= PARALLEL_MIN_SKILLS) })
      : undefined;
    try {
      return discoverPaths(fs, ctx.cwd, targets, { profile, listFiles: false, loader: cache?.loader ?? parallel?.loader, onEmpty: (t) => empty.push(t), onMentionPool: memo && ((p) => pools.push(p)), ...startOptions(ctx, parsed.flags) });
    } finally {
      parallel?.dispose();
    }
  };
  /** The run read descriptions only for each skill's own problems (validateReportMemo.ts ReportMeta.descriptions). */
  let descriptions = true;
  /** The names the run read skills' names against (validateReportMemo.ts ReadNames). */
  let names: ReadNames = { mentions: [], agentSkills: [] };
  const collect = (): (ConfiguredFindings & { hookFiles?: Array<{ file: string; problems: Problem[] }> }) | string => {
    let found = discoverAll();
    if (cache && found.ok && !cache.trusted()) {
      // A configuration file the cache did not know of: nothing from it is trusted, this run loads everything.
      cache.recordOnly();
      found = discoverAll();
    }
    if (!found.ok) return found.message;
    const c: ConfiguredFindings & { hookFiles?: Array<{ file: string; problems: Problem[] }> } = applyConfig(fs, finder, changedFiles ? concernedBy(found, changedFiles) : found, profile, parsed.flags.profile !== undefined);
    // Plugins' hooks/hooks.json: reported beside the config files (a file with its problems), with the rule configuration.
    c.hookFiles = found.hookFiles
      .filter((h) => !changedFiles || changedFiles.includes(h.file))
      .map((h) => ({ file: h.file, problems: configureProblems(finder, h.file, h.problems) ?? [] }))
      .filter((h) => h.problems.length > 0);
    c.skills = addOverlapProblems(finder, c.skills, found.models);
    if (memo) {
      descriptions = !changesListingLimit(found.models) && !c.skills.some(overlapOn(finder));
      names = readNames(found.skills, found.agents);
    }
    return c;
  };
  let configured = collect();
  if (typeof configured === 'string') {
    ctx.err(`skillflow validate: ${configured}\n`);
    return EXIT_USAGE;
  }
  if (cache) {
    vouched?.keep(cache);
    cache.save();
    if (ctx.env.SKILLFLOW_CACHE_STATS) {
      if (memo) memo.stats(cache.stats.hits, cache.stats.misses);
      else ctx.err(statsLine(cache.stats.hits, cache.stats.misses));
    }
  }
  if (vouched && plainCtx.env.SKILLFLOW_CODE_CACHE === 'report') plainCtx.err(`skillflow: full run; ${vouched.taken()} loads taken as the replay found them\n`);
  for (const t of empty) ctx.err(`skillflow validate: no skill, command or agent found in '${t}'\n`);
  if (fix || dryRun) {
    const shown = displayPaths(ctx.cwd);
    const changes = fixChanges(ctx, [
      ...configured.skills.map((s) => ({ file: s.skillMdPath, problems: s.problems, workspaceFolder: s.root.workspaceFolder })),
      ...configured.agents.map((a) => ({ file: a.path, problems: a.problems, workspaceFolder: a.workspaceFolder })),
    ], shown);
    const count = changes.reduce((n, c) => n + c.edits, 0);
    const summary = `${count} fix${count === 1 ? '' : 'es'} in ${changes.length} file${changes.length === 1 ? '' : 's'}`;
    if (dryRun) {
      for (const c of changes) ctx.out(unifiedDiff(c.before, c.after, `a/${shown(c.file)}`, `b/${shown(c.file)}`));
      ctx.err(`skillflow validate: ${changes.length ? `${summary} would be applied (--fix applies them)` : 'nothing to fix'}\n`);
      return changes.length ? EXIT_PROBLEMS : EXIT_OK;
    }
    for (const c of changes) ctx.fs.writeFileAtomic(c.file, c.after);
    if (changes.length) {
      ctx.err(`skillflow validate: applied ${summary}\n`);
      const again = collect();
      if (typeof again === 'string') {
        ctx.err(`skillflow validate: ${again}\n`);
        return EXIT_USAGE;
      }
      configured = again;
    }
  }
  // Paths inside messages as the file paths are shown: relative to the current folder, `~` for the home.
  const home = startOptions(ctx, parsed.flags).home;
  const say = messagePaths([ctx.cwd], home);
  const said = <T extends { problems: Problem[] }>(x: T): T => ({ ...x, problems: x.problems.map((p) => ({ ...p, message: say(p.message) })) });
  const report = validationReport({
    ...configured,
    skills: configured.skills.map(said),
    agents: configured.agents.map(said),
    configs: [...configured.configs.map((c) => ({ file: c.file!, problems: c.problems })), ...(configured.hookFiles ?? [])].map(said),
  });
  const format = (parsed.flags.format ?? 'text') as ReportFormat;
  const chunk = memo?.printed();
  const commands = format === 'github' && ctx.outCommands !== undefined;
  (commands ? ctx.outCommands! : ctx.out)(REPORT_WRITERS[format](report, displayPaths(ctx.cwd), { cwd: ctx.cwd, profile }));
  const code = report.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
  if (memo && cache) {
    const id = memo.save(code, cache.stats.hits + cache.stats.misses);
    // The report beside the memo, for a run where only some skills' own problems change (validatePartial.ts).
    saveReportMemo(cacheDir(ctx.cwd, parsed.flags['cache-location']), id, { format, profile, cwd: ctx.cwd, home: home ?? null, config: configFile ?? null, descriptions, chunk: chunk!, commands, names }, report, memo.loadProblems, pools.length === 1 ? pools[0] : undefined);
  }
  return code;
}

/**
 * The loads the replay before this run vouches for (runMemo.ts vouchedLoads): `take(key, digest)` is true, once, for a
 * load whose every question got the same answer and whose entry had that digest; `keep()` then gives the memo those
 * loads' questions as the replay found them (RunRecorder.keepQuestions), and the cache the `.json` files among them.
 */
function vouchedBy(replay: HandedOver, memo: RunRecording): { take: NonNullable<LoadCacheOptions['vouched']>; keep(cache: LoadCache): void; taken: () => number } | undefined {
  const dirty = replay.found.dirty!;
  let loads: ReturnType<typeof vouchedLoads>;
  try {
    loads = vouchedLoads(dirty);
    memo.seedJobs(loads.jobs);
  } catch {
    return undefined;
  }
  const taken = new Set<number>();
  return {
    take: (key, digest) => {
      const load = loads.byKey.get(key);
      if (!load || load.digest !== digest) return false;
      loads.byKey.delete(key);
      taken.add(load.index);
      return true;
    },
    keep: (cache) => {
      if (!taken.size) return;
      cache.observeConfigs(memo.keepQuestions(dirty, taken));
    },
    taken: () => taken.size,
  };
}

interface FixChange { file: string; before: string; after: string; edits: number }

/**
 * What Fix all changes in each SKILL.md, command file and agent file found (its configured problems: a rule turned
 * off is not fixed). A file that is not valid UTF-8 is left alone (said on stderr): decoding and writing it back would
 * change its other bytes.
 */
function fixChanges(ctx: CliContext, files: ReadonlyArray<{ file: string; problems: readonly Problem[]; workspaceFolder?: string }>, shown: (file: string) => string): FixChange[] {
  const out: FixChange[] = [];
  const seen = new Set<string>();
  for (const { file, problems, workspaceFolder } of files) {
    if (!problems.length || seen.has(file)) continue;
    seen.add(file);
    let bytes: Buffer;
    try { bytes = ctx.fs.readFile(file); } catch { continue; }
    const before = bytes.toString('utf8');
    const edits = fixAllEdits(before, file, problems, { fs: ctx.fs, workspaceFolder });
    if (!edits.length) continue;
    if (!Buffer.from(before, 'utf8').equals(bytes)) {
      ctx.err(`skillflow validate: ${shown(file)} is not valid UTF-8; not fixed\n`);
      continue;
    }
    const after = applyTextEdits(before, edits);
    if (after !== before) out.push({ file, before, after, edits: edits.length });
  }
  return out;
}
