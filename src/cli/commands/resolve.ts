/**
 * `skillflow resolve </command> [PATH] [--format text|json] [--home DIR] [--managed DIR]`: who answers a typed command
 * when Claude Code starts in PATH (default `.`): a skill or command file, Claude Code itself, or nothing; and what the
 * winner shadows, with the reason. Exit 0 when something answers, 1 when nothing does or when the winner never runs when
 * typed (`user-invocable: false`, `skillOverrides` "off"; the reason is in the output), 2 on bad usage.
 * `skillflow resolve --all [PATH]`: every command that more than one skill or command file answers to (exit 1 with any
 * under `--fail-on ambiguous`, else 0).
 */
import { shownPaths } from '../output/shownPaths';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../context';
import { parseArgs } from '../args';
import { ambiguousCommands, resolveCommand } from '../../core/claude/resolve';
import { RESOLVE_ALL_WRITERS, RESOLVE_WRITERS } from '../output/claude';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE } from '../discoveryFlags';
import { claudeModelAt } from './model';

const FORMATS = Object.keys(RESOLVE_WRITERS) as Array<keyof typeof RESOLVE_WRITERS>;
const USAGE = `Usage: skillflow resolve </command> [PATH] [--format ${FORMATS.join('|')}] ${DISCOVERY_USAGE}
       skillflow resolve --all [PATH] [--fail-on ambiguous] [--format ${FORMATS.join('|')}] ${DISCOVERY_USAGE}
  --all      every command more than one skill or command file answers to, with the winner and what it shadows
  --fail-on  ambiguous: exit 1 when there is any such command
`;

export function resolveCommandCli(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: { format: { type: 'string', choices: FORMATS }, all: { type: 'boolean' }, 'fail-on': { type: 'string', choices: ['ambiguous'] }, ...DISCOVERY_FLAGS },
    maxPositionals: 2,
    positionalName: '</command>',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  if (parsed.flags.all) {
    if (parsed.positionals.length > 1) throw new UsageError(`unexpected argument '${parsed.positionals[1]}' (--all takes a PATH only)`);
    const model = claudeModelAt(ctx, 'resolve', parsed.positionals[0] ?? '.', parsed.flags);
    if (!model) return EXIT_USAGE;
    const results = ambiguousCommands(model);
    ctx.out(RESOLVE_ALL_WRITERS[(parsed.flags.format ?? 'text') as keyof typeof RESOLVE_ALL_WRITERS](results, ...shownPaths(ctx, parsed.flags)));
    return parsed.flags['fail-on'] === 'ambiguous' && results.length ? EXIT_PROBLEMS : EXIT_OK;
  }
  if (parsed.flags['fail-on'] !== undefined) throw new UsageError('--fail-on goes with --all');
  if (!parsed.positionals.length) throw new UsageError('missing </command>');
  const command = parsed.positionals[0].trim();
  if (!/^\/?[^\s/][^\s]*$/.test(command)) throw new UsageError(`'${parsed.positionals[0]}' is not a command (type it as /name)`);
  const model = claudeModelAt(ctx, 'resolve', parsed.positionals[1] ?? '.', parsed.flags);
  if (!model) return EXIT_USAGE;
  const result = resolveCommand(model, command);
  ctx.out(RESOLVE_WRITERS[(parsed.flags.format ?? 'text') as keyof typeof RESOLVE_WRITERS](result, ...shownPaths(ctx, parsed.flags)));
  if (result.winner && result.typable === false) return EXIT_PROBLEMS;
  return result.winner || result.builtin ? EXIT_OK : EXIT_PROBLEMS;
}
