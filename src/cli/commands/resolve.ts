/**
 * `skillflow resolve </command> [PATH] [--format text|json] [--home DIR] [--managed DIR]`: who answers a typed command
 * when Claude Code starts in PATH (default `.`): a skill or command file, Claude Code itself, or nothing; and what the
 * winner shadows, with the reason. Exit 0 when something answers, 1 when nothing does, 2 on bad usage.
 */
import { shownPaths } from '../output/shownPaths';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../context';
import { parseArgs } from '../args';
import { resolveCommand } from '../../core/claude/resolve';
import { RESOLVE_WRITERS } from '../output/claude';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE } from '../discoveryFlags';
import { claudeModelAt } from './model';

const FORMATS = Object.keys(RESOLVE_WRITERS) as Array<keyof typeof RESOLVE_WRITERS>;
const USAGE = `Usage: skillflow resolve </command> [PATH] [--format ${FORMATS.join('|')}] ${DISCOVERY_USAGE}\n`;

export function resolveCommandCli(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: { format: { type: 'string', choices: FORMATS }, ...DISCOVERY_FLAGS },
    minPositionals: 1,
    maxPositionals: 2,
    positionalName: '</command>',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const command = parsed.positionals[0].trim();
  if (!/^\/?[^\s/][^\s]*$/.test(command)) throw new UsageError(`'${parsed.positionals[0]}' is not a command (type it as /name)`);
  const model = claudeModelAt(ctx, 'resolve', parsed.positionals[1] ?? '.', parsed.flags);
  if (!model) return EXIT_USAGE;
  const result = resolveCommand(model, command);
  ctx.out(RESOLVE_WRITERS[(parsed.flags.format ?? 'text') as keyof typeof RESOLVE_WRITERS](result, ...shownPaths(ctx, parsed.flags)));
  return result.winner || result.builtin ? EXIT_OK : EXIT_PROBLEMS;
}
