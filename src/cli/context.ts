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
}

/** Exit codes of every command: 0 clean, 1 problems found (or `STATUS: ERROR`), 2 bad usage or an unreadable path (docs/cli.md). */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** Thrown by argument parsing; main() prints it and exits 2. */
export class UsageError extends Error {}

export type Command = (ctx: CliContext, args: string[]) => number | Promise<number>;
