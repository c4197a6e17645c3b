/** The CLI entry: `skillflow <command> ...` → exit code. No `vscode` import, no process globals. */
import { cleanOutput, escapeControls } from './output/clean';
import { type CliContext, type Command, EXIT_USAGE, UsageError } from './context';
import { validateCommand } from './commands/validate';
import { listCommand } from './commands/list';
import { resolveCommandCli } from './commands/resolve';
import { listingCommand } from './commands/listing';
import { packageCommand } from './commands/package';
import { newCommand } from './commands/new';
import { workflowCommand } from './commands/workflow';
import { checkpointCommand } from './commands/checkpoint';

const COMMANDS: Record<string, Command> = {
  validate: validateCommand,
  list: listCommand,
  resolve: resolveCommandCli,
  listing: listingCommand,
  package: packageCommand,
  new: newCommand,
  workflow: workflowCommand,
  checkpoint: checkpointCommand,
};

export const USAGE = `Usage: skillflow <command> [options]

Commands:
  validate [PATH...] [--profile claude-code|spec|upload] [--format text|json|sarif|github] [--home DIR] [--managed DIR]
  list [PATH] [--format text|json] [--home DIR] [--managed DIR]
      (every level is listed, personal and managed too; --personal is still accepted and does nothing)
  resolve </command> [PATH] [--format text|json] [--home DIR] [--managed DIR]
  listing [PATH] [--format text|json] [--context-window TOKENS] [--home DIR] [--managed DIR]
  package <skill-folder> [--out DIR]
  new <name> [--path DIR] [--description TEXT]
  workflow status [--root DIR] [--stale-after MINUTES] [--format text|json]
  checkpoint load|update CONTEXT_PATH=<path>
  checkpoint answer CONTEXT_PATH=<path> <Qid>=<answer>...

--home DIR stands for the user's home (personal skills and commands, user settings, installed plugins; default $HOME),
--managed DIR for Claude Code's managed-settings folder (default: /etc/claude-code on Linux, per OS elsewhere).
Each command accepts --help. Exit codes: 0 ok, 1 problems found (errors, refused; resolve: nothing answers), 2 bad usage
or unreadable path.
`;

/** Runs one CLI invocation and returns its exit code (0 ok, 1 problems, 2 usage). */
export async function main(raw: CliContext): Promise<number> {
  // Every byte a command prints passes cleanOutput (no terminal control, no workflow command from input).
  const ctx: CliContext = { ...raw, out: (t) => raw.out(cleanOutput(t)), err: (t) => raw.err(cleanOutput(t)), outCommands: (t) => raw.out(escapeControls(t)) };
  const [name, ...rest] = ctx.argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? ctx.out : ctx.err)(USAGE);
    return name ? 0 : EXIT_USAGE;
  }
  const command = COMMANDS[name];
  if (!command) {
    ctx.err(`skillflow: unknown command '${name}'\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    return await command(ctx, rest);
  } catch (e) {
    if (e instanceof UsageError) {
      ctx.err(`skillflow ${name}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}
