/**
 * `skillflow list [PATH] [--format text|json] [--home DIR] [--managed DIR]`: every skill, command and agent Claude Code
 * would see from PATH (default `.`) at every level (managed, personal, project, additional, plugin, nested), and those
 * under PATH in folders it never reads, with name, scope, kind, path, description, token estimate, and Claude Code's
 * view: invocation, level, source, loaded, shadowedBy. `--personal` is accepted and ignored (personal skills are
 * always listed).
 */
import * as path from 'node:path';
import { shownPaths } from '../output/shownPaths';
import { type CliContext, EXIT_OK, EXIT_USAGE, outputWidth } from '../context';
import { parseArgs } from '../args';
import type { AgentEntry } from '../../core/skillmd/model';
import { discoverPaths } from '../../core/discovery/discover';
import { displayPath } from '../output/paths';
import { LIST_WRITERS } from '../output/claude';
import { tokensForLength } from '../../core/base/text';
import { DISCOVERY_FLAGS, DISCOVERY_USAGE, startOptions } from '../discoveryFlags';

const FORMATS = Object.keys(LIST_WRITERS) as Array<keyof typeof LIST_WRITERS>;
const USAGE = `Usage: skillflow list [PATH] [--format ${FORMATS.join('|')}] ${DISCOVERY_USAGE}
  Every level is listed (managed, personal, project, additional, plugin, nested); --personal is accepted and does nothing.
`;

export function listCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      format: { type: 'string', choices: FORMATS },
      personal: { type: 'boolean' },
      ...DISCOVERY_FLAGS,
    },
    maxPositionals: 1,
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const target = parsed.positionals[0] ?? '.';
  const found = discoverPaths(ctx.fs, ctx.cwd, [target], { profile: 'claude-code', everything: true, ...startOptions(ctx, parsed.flags) });
  if (!found.ok) {
    ctx.err(`skillflow list: ${found.message}\n`);
    return EXIT_USAGE;
  }
  const agentTokens = (a: AgentEntry) => tokensForLength(ctx.fs.stat(a.path)?.size ?? 0);
  const writer = LIST_WRITERS[(parsed.flags.format ?? 'text') as keyof typeof LIST_WRITERS];
  ctx.out(writer({
    skills: found.skills,
    agents: found.agents,
    agentTokens,
    width: outputWidth(ctx),
    empty: `No skills, commands or agents found under ${displayPath(ctx.cwd, path.resolve(ctx.cwd, target))}`,
  }, ...shownPaths(ctx, parsed.flags)));
  return EXIT_OK;
}
