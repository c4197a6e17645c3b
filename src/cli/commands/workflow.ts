/** `skillflow workflow status [--root DIR] [--stale-after MINUTES] [--format text|json]`: every registered workflow with its phase, mode and problems. */
import * as nodePath from 'node:path';
import { parseArgs } from '../args';
import { type CliContext, EXIT_OK, UsageError } from '../context';
import { DEFAULT_STALE_AFTER_MINUTES, scanWorkflows, type WorkflowProblem } from '../../core/workflow/scan';

const STATUS_USAGE = 'Usage: skillflow workflow status [--root DIR] [--stale-after MINUTES] [--format text|json]\n';

/** Dispatches `workflow <subcommand>`; only `status` exists. */
export function workflowCommand(ctx: CliContext, args: string[]): number {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h') {
    ctx.out(STATUS_USAGE);
    return EXIT_OK;
  }
  if (sub !== 'status') throw new UsageError(sub === undefined ? `missing subcommand (status)\n${STATUS_USAGE}` : `unknown subcommand '${sub}' (expected: status)`);
  return workflowStatus(ctx, rest);
}

function workflowStatus(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      root: { type: 'string' },
      'stale-after': { type: 'number' },
      format: { type: 'string', choices: ['text', 'json'] },
    },
    maxPositionals: 0,
  });
  if (parsed.help) {
    ctx.out(STATUS_USAGE);
    return EXIT_OK;
  }
  const staleAfter = parsed.flags['stale-after'] ?? DEFAULT_STALE_AFTER_MINUTES;
  if (!(staleAfter > 0)) throw new UsageError(`option '--stale-after' needs a positive number of minutes (got '${staleAfter}')`);
  const root = nodePath.resolve(ctx.cwd, parsed.flags.root ?? '.');
  if (!ctx.fs.stat(root)?.isDirectory) throw new UsageError(`root '${parsed.flags.root ?? '.'}' is not a directory`);

  const scan = scanWorkflows(ctx.fs, root, { staleAfterMinutes: staleAfter });
  const brief = (p: WorkflowProblem) => ({ code: p.code, message: p.message });
  if (parsed.flags.format === 'json') {
    const workflows = scan.workflows.map((w) => ({
      key: w.key,
      workDir: w.workDir,
      mode: w.mode,
      phase: w.phase ?? null,
      stale: w.stale,
      updatedAt: w.updatedAt ?? null,
      agent: w.agent ?? null,
      artifacts: w.artifacts,
      problems: w.problems.map(brief),
    }));
    ctx.out(`${JSON.stringify({ workflows, problems: scan.problems.map(brief) }, null, 2)}\n`);
    return EXIT_OK;
  }

  const lines: string[] = [];
  for (const p of scan.problems) lines.push(`registry: ${p.severity} ${p.code} ${p.message}`);
  for (const w of scan.workflows) {
    const phase = w.phase === undefined ? '?' : w.stale ? `${w.phase} (stale)` : w.phase;
    const parts = [w.key, phase, `mode=${w.mode}`];
    if (w.agent) parts.push(`agent=${w.agent}`);
    if (w.updatedAt) parts.push(`updated=${w.updatedAt}`);
    parts.push(w.workDir || '(no workDir)');
    lines.push(parts.join('  '));
    for (const p of w.problems) lines.push(`    ${p.severity} ${p.code} ${p.message}`);
  }
  const problems = scan.problems.length + scan.workflows.reduce((n, w) => n + w.problems.length, 0);
  const stale = scan.workflows.filter((w) => w.stale).length;
  lines.push(`${scan.workflows.length} workflow${scan.workflows.length === 1 ? '' : 's'}, ${stale} stale, ${problems} problem${problems === 1 ? '' : 's'}`);
  ctx.out(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
