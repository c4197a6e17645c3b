/**
 * `skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format text|json|sarif|github]`: the problems of
 * every skill and agent found under the paths, with the rule configuration (`.skillflow.json`) applied, in the format's
 * writer (output/report.ts). A PATH without any skill, command or agent is said on stderr. Exit 0 without errors, 1
 * with any error, 2 on bad usage or an unreadable path (nothing on stdout then).
 */
import * as path from 'node:path';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../context';
import { parseArgs } from '../args';
import type { Profile } from '../../core/base/types';
import { PROFILES } from '../../core/base/types';
import { nodeFileSystem } from '../../core/base/fs';
import { discoverPaths, type DiscoverPathsResult } from '../../core/discovery/discover';
import { displayPaths } from '../output/paths';
import { REPORT_FORMATS, REPORT_WRITERS, type ReportFormat, validationReport } from '../output/report';
import { createParallelLoader, PARALLEL_MIN_SKILLS } from '../runtime/parallel';
import { RuleConfigFinder } from '../../core/config/ruleConfig';
import { applyConfig, configuredProfile } from '../validateConfig';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE, startOptions } from '../discoveryFlags';
import { openValidateCache } from '../validateCache';

const USAGE = `Usage: skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format ${REPORT_FORMATS.join('|')}] ${DISCOVERY_USAGE} [--no-cache] [--cache-location DIR]\n`
  + 'Reads .skillflow.json (the nearest one above each file: profile, rules, ignore).\n'
  + "Reports what is under PATH; Claude Code's other levels (--home, --managed, parent folders) decide shadowing.\n"
  + 'Keeps what each SKILL.md gave in .skillflow_cache/ (or --cache-location DIR) and reuses it while nothing it depends on changed; --no-cache: neither read nor write it.\n';

/** SKILLFLOW_CACHE_RACY_MS (for tests only): how recent a change makes a file's fingerprint untrusted. */
function racyMs(env: Record<string, string | undefined>): number | undefined {
  const v = Number(env.SKILLFLOW_CACHE_RACY_MS);
  return env.SKILLFLOW_CACHE_RACY_MS !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export function validateCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      profile: { type: 'string', choices: PROFILES },
      format: { type: 'string', choices: REPORT_FORMATS },
      ...DISCOVERY_FLAGS,
      'no-cache': { type: 'boolean' },
      'cache-location': { type: 'string' },
    },
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const targets = parsed.positionals.length ? parsed.positionals : ['.'];
  // The cache (on the real disk only): loads whose every input is unchanged come from it (core/cache/loadCache.ts).
  const cache = ctx.fs === nodeFileSystem && !parsed.flags['no-cache']
    ? openValidateCache({ cwd: ctx.cwd, location: parsed.flags['cache-location'], extra: { caseSensitive: ctx.fs.caseSensitive }, racyMs: racyMs(ctx.env) })
    : undefined;
  const fs = cache ? cache.observe(ctx.fs) : ctx.fs;
  const finder = new RuleConfigFinder(fs);
  const profile = (parsed.flags.profile as Profile | undefined) ?? configuredProfile(finder, fs, ctx.cwd, targets);
  let empty: string[] = [];
  const discoverAll = (): DiscoverPathsResult => {
    empty = [];
    // Thousands of skills are spread over worker threads (they read the real disk: not with a test's fake file system).
    // A target folder with that many entries is likely such a run: the workers start loading right away, while the skills are searched.
    const parallel = ctx.fs === nodeFileSystem && !cache
      ? createParallelLoader({ env: ctx.env, omitReferences: true, prewarm: () => targets.some((t) => (ctx.fs.readDir(path.resolve(ctx.cwd, t))?.length ?? 0) >= PARALLEL_MIN_SKILLS) })
      : undefined;
    try {
      return discoverPaths(fs, ctx.cwd, targets, { profile, listFiles: false, loader: cache?.loader ?? parallel?.loader, onEmpty: (t) => empty.push(t), ...startOptions(ctx, parsed.flags) });
    } finally {
      parallel?.dispose();
    }
  };
  let found = discoverAll();
  if (cache && found.ok && !cache.trusted()) {
    // A configuration file the cache did not know of: nothing from it is trusted, this run loads everything.
    cache.recordOnly();
    found = discoverAll();
  }
  if (!found.ok) {
    ctx.err(`skillflow validate: ${found.message}\n`);
    return EXIT_USAGE;
  }
  for (const t of empty) ctx.err(`skillflow validate: no skill, command or agent found in '${t}'\n`);
  const configured = applyConfig(fs, finder, found, profile, parsed.flags.profile !== undefined);
  if (cache) {
    cache.save();
    if (ctx.env.SKILLFLOW_CACHE_STATS) ctx.err(`skillflow validate: cache: ${cache.stats.hits} reused, ${cache.stats.misses} loaded\n`);
  }
  const report = validationReport({ ...configured, configs: configured.configs.map((c) => ({ file: c.file!, problems: c.problems })) });
  ctx.out(REPORT_WRITERS[(parsed.flags.format ?? 'text') as ReportFormat](report, displayPaths(ctx.cwd), { cwd: ctx.cwd, profile }));
  return report.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
