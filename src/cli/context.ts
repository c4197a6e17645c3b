/** What every CLI command receives: injected I/O so tests can run the CLI in-process. */
import type { FileSystem } from '../core/base/fs';

export interface CliContext {
  argv: string[];
  cwd: string;
  fs: FileSystem;
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * Output whose lines are GitHub Actions workflow commands on purpose (`validate --format github`, which escapes its
   * values itself): control characters escaped, `::` kept. Set by main(); falls back to `out`.
   */
  outCommands?: (text: string) => void;
  /** Home directory for personal skills (`~/.claude/skills`); undefined disables the personal scope. */
  home?: string;
  /** The managed-settings folder (`--managed` overrides it): the OS default when undefined, none when null. */
  managedDir?: string | null;
  /** The terminal's width in columns when stdout is a terminal (text tables fit it); `COLUMNS` in env overrides it. */
  columns?: number;
}

/**
 * The width text tables fit: `COLUMNS` when set to a number, else the terminal's; Infinity for a pipe or a CI log
 * (nothing cut: a script reading the text gets every cell whole).
 */
export function outputWidth(ctx: CliContext): number {
  const fromEnv = Number(ctx.env.COLUMNS);
  if (ctx.env.COLUMNS !== undefined && Number.isInteger(fromEnv) && fromEnv >= 20) return fromEnv;
  return ctx.columns !== undefined && ctx.columns >= 20 ? ctx.columns : Infinity;
}

/** Exit codes of every command: 0 clean, 1 problems found (or `STATUS: ERROR`), 2 bad usage or an unreadable path (docs/cli.md). */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** Thrown by argument parsing; main() prints it and exits 2. */
export class UsageError extends Error {}

export type Command = (ctx: CliContext, args: string[]) => number | Promise<number>;
