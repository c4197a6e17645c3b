/** `--home` and `--managed`: what every command that discovers skills accepts (Claude Code's personal and managed levels). */
import * as path from 'node:path';
import type { FlagSpec } from './args';
import type { CliContext } from './context';
import type { ClaudeStartOptions } from '../core/discovery/discover';

export const DISCOVERY_FLAGS = {
  home: { type: 'string' },
  managed: { type: 'string' },
} as const satisfies Record<string, FlagSpec>;

/** The usage text of the flags. */
export const DISCOVERY_USAGE = '[--home DIR] [--managed DIR]';

/** The start options for discovery: `--home` (default: the user's home) and `--managed` (default: the OS's managed-settings folder). */
export function startOptions(ctx: CliContext, flags: { home?: string; managed?: string }): ClaudeStartOptions {
  return {
    home: flags.home !== undefined ? path.resolve(ctx.cwd, flags.home) : ctx.home,
    managedDir: flags.managed !== undefined ? path.resolve(ctx.cwd, flags.managed) : ctx.managedDir,
    env: ctx.env,
  };
}
