import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function validateCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow validate: not implemented yet\n');
  return EXIT_USAGE;
}
