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
import { toolVersion } from './output/ruleDocs';

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

export const USAGE = `Usage: skillflow <command> [options]   (skillflow <command> --help for its options)

Commands:
  validate [PATH...]            the problems of skills, commands and agents (what Claude Code skips or misreads);
                                --fix / --fix-dry-run apply the certain fixes (the editor's Fix all)
  list [PATH]                   every skill, command and agent: level, command name, whether Claude Code loads it
  resolve </command> [PATH]     who answers a typed /command there: a skill, a command file, Claude Code, or nothing;
                                --all: every command more than one file answers to (--fail-on ambiguous)
  listing [PATH]                the skill listing the model gets at start, against its character budget
                                (--fail-on truncated|name-only|dropped)
  package <skill-folder>        write <name>.skill (a zip) for upload to claude.ai or the API
  new <name>                    scaffold a skill folder with a SKILL.md
  workflow status               the phase of each run in .workflow/ (running, paused at a checkpoint, done, stale)
  checkpoint load|update|answer  read or answer a paused skill's checkpoint questions (CONTEXT_PATH=<path>)
  lsp --stdio                   the language server for any LSP editor (docs/editors.md)

Options most commands take: --format text|json, --home DIR (the user's home: personal skills and commands, user
settings, installed plugins; default $HOME), --managed DIR (Claude Code's managed-settings folder; default
/etc/claude-code on Linux, per OS elsewhere). skillflow --version prints the version.
Exit codes: 0 ok, 1 problems found (errors, refused; resolve: nothing answers, or the user cannot type it), 2 bad usage
or a path that does not exist.
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
  if (name === 'lsp') {
    // bin.ts starts the server for `lsp --stdio`; any other form reaches here.
    ctx.err('skillflow lsp: the language server talks over stdin/stdout: run `skillflow lsp --stdio` from an editor (docs/editors.md)\n');
    return EXIT_USAGE;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    ctx.out(`skillflow ${toolVersion() ?? 'unknown'}\n`);
    return 0;
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
