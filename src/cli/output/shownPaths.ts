/** How `list`, `resolve` and `listing` show paths and the paths inside reasons: relative to the current folder, `~` for the home. */
import type { CliContext } from '../context';
import { messagePaths } from '../../core/base/messagePaths';
import { startOptions } from '../discoveryFlags';
import { modelPath } from './claude';

/** The `shown` and `say` arguments of a writer (output/claude.ts), for the home the command reads (`--home` or the user's). */
export function shownPaths(ctx: CliContext, flags: { home?: string; managed?: string }): [(file: string) => string, (text: string) => string] {
  const home = startOptions(ctx, flags).home;
  return [modelPath(ctx.cwd, home), messagePaths([ctx.cwd], home)];
}
