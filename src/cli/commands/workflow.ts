import { type CliContext, EXIT_USAGE } from '../context';

/** Placeholder until its issue lands. */
export function workflowCommand(ctx: CliContext, _args: string[]): number {
  ctx.err('skillflow workflow: not implemented yet\n');
  return EXIT_USAGE;
}
