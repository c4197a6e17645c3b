/**
 * `skillflow listing [PATH] [--format text|json] [--context-window TOKENS] [--home DIR] [--managed DIR]`: the skill
 * listing the model gets when Claude Code starts in PATH (default `.`), with the settings and
 * SLASH_COMMAND_TOOL_CHAR_BUDGET in force: each entry full, truncated, name-only, dropped or absent, and the budget.
 * `--fail-on truncated|name-only|dropped` is a CI gate: exit 1 when an entry is shown that way or worse (named on stderr).
 */
import { shownPaths } from '../output/shownPaths';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../context';
import { parseArgs } from '../args';
import { computeListing, LISTING_GATES, type ListingGate, listingGateFailures, parseContextWindow } from '../../core/claude/listing';
import { LISTING_WRITERS } from '../output/claude';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE } from '../discoveryFlags';
import { claudeModelAt } from './model';

const FORMATS = Object.keys(LISTING_WRITERS) as Array<keyof typeof LISTING_WRITERS>;
const USAGE = `Usage: skillflow listing [PATH] [--format ${FORMATS.join('|')}] [--context-window TOKENS] [--fail-on ${LISTING_GATES.join('|')}] ${DISCOVERY_USAGE}
  --context-window  the model's context window: 200k (the default), 1m, or a number of tokens; the budget is
                    skillListingBudgetFraction of it
  --fail-on         exit 1 when an entry is shown that way or worse (truncated < name-only < dropped)
`;

export function listingCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: { format: { type: 'string', choices: FORMATS }, 'context-window': { type: 'string' }, 'fail-on': { type: 'string', choices: LISTING_GATES }, ...DISCOVERY_FLAGS },
    maxPositionals: 1,
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const given = parsed.flags['context-window'];
  // The same values as the editor's skillflow.listing.contextWindow setting.
  const parsedWindow = given === undefined ? undefined : parseContextWindow(given);
  if (parsedWindow?.invalid) throw new UsageError(`option '--context-window': '${given}' is not a context window (use 200k, 1m or a number of tokens of at least 1000)`);
  const window = parsedWindow?.tokens;
  const model = claudeModelAt(ctx, 'listing', parsed.positionals[0] ?? '.', parsed.flags);
  if (!model) return EXIT_USAGE;
  const listing = computeListing(model.entries, model.settings, { contextWindowTokens: window, env: model.env });
  ctx.out(LISTING_WRITERS[(parsed.flags.format ?? 'text') as keyof typeof LISTING_WRITERS](listing, ...shownPaths(ctx, parsed.flags)));
  const gate = parsed.flags['fail-on'] as ListingGate | undefined;
  const failed = gate ? listingGateFailures(listing, gate) : [];
  for (const e of failed) ctx.err(`skillflow listing: ${e.invocation} is ${e.shown} in the listing (--fail-on ${gate})\n`);
  return failed.length ? EXIT_PROBLEMS : EXIT_OK;
}
