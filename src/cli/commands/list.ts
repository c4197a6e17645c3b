import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function listCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow list: not implemented yet\n');
  return EXIT_USAGE;
}
