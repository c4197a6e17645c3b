import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function newCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow new: not implemented yet\n');
  return EXIT_USAGE;
}
