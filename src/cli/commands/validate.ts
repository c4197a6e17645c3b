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

const USAGE = `Usage: skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format ${REPORT_FORMATS.join('|')}] ${DISCOVERY_USAGE}\n`
  + 'Reads .skillflow.json (the nearest one above each file: profile, rules, ignore).\n'
  + "Reports what is under PATH; Claude Code's other levels (--home, --managed, parent folders) decide shadowing.\n";

export function validateCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      profile: { type: 'string', choices: PROFILES },
      format: { type: 'string', choices: REPORT_FORMATS },
      ...DISCOVERY_FLAGS,
    },
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const targets = parsed.positionals.length ? parsed.positionals : ['.'];
  const finder = new RuleConfigFinder(ctx.fs);
  const profile = (parsed.flags.profile as Profile | undefined) ?? configuredProfile(finder, ctx.fs, ctx.cwd, targets);
  const empty: string[] = [];
  // Thousands of skills are spread over worker threads (they read the real disk: not with a test's fake file system).
  // A target folder with that many entries is likely such a run: the workers start loading right away, while the skills are searched.
  const parallel = ctx.fs === nodeFileSystem
    ? createParallelLoader({ env: ctx.env, omitReferences: true, prewarm: () => targets.some((t) => (ctx.fs.readDir(path.resolve(ctx.cwd, t))?.length ?? 0) >= PARALLEL_MIN_SKILLS) })
    : undefined;
  let found: DiscoverPathsResult;
  try {
    found = discoverPaths(ctx.fs, ctx.cwd, targets, { profile, listFiles: false, loader: parallel?.loader, onEmpty: (t) => empty.push(t), ...startOptions(ctx, parsed.flags) });
  } finally {
    parallel?.dispose();
  }
  if (!found.ok) {
    ctx.err(`skillflow validate: ${found.message}\n`);
    return EXIT_USAGE;
  }
  for (const t of empty) ctx.err(`skillflow validate: no skill, command or agent found in '${t}'\n`);
  const configured = applyConfig(ctx.fs, finder, found, profile, parsed.flags.profile !== undefined);
  const report = validationReport({ ...configured, configs: configured.configs.map((c) => ({ file: c.file!, problems: c.problems })) });
  const format = (parsed.flags.format ?? 'text') as ReportFormat;
  (format === 'github' ? ctx.outCommands ?? ctx.out : ctx.out)(REPORT_WRITERS[format](report, displayPaths(ctx.cwd), { cwd: ctx.cwd, profile }));
  return report.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
