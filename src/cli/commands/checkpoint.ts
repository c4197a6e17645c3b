import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function checkpointCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow checkpoint: not implemented yet\n');
  return EXIT_USAGE;
}
