import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function packageCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow package: not implemented yet\n');
  return EXIT_USAGE;
}
