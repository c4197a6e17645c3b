/**
 * `skillflow new <name> [--path DIR] [--description TEXT]`: scaffolds `<DIR>/<name>/`
 * (DIR defaults to `./.claude/skills`). Exit 1 when the name is invalid or the folder exists
 * (nothing is written); exit 2 on bad usage (missing name, unknown option).
 */
import * as path from 'node:path';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS } from '../context';
import { parseArgs } from '../args';
import { scaffoldSkill } from '../../core/packaging/scaffold';
import { displayPath } from '../output/paths';

const USAGE = 'Usage: skillflow new <name> [--path DIR] [--description TEXT]\n';

export function newCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: { path: { type: 'string' }, description: { type: 'string' } },
    minPositionals: 1,
    maxPositionals: 1,
    positionalName: '<name>',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const parent = path.resolve(ctx.cwd, parsed.flags.path ?? path.join('.claude', 'skills'));
  // A mistyped --path must not become a tree of new folders: the folder or the one above it must exist.
  if (parsed.flags.path !== undefined && !ctx.fs.stat(parent)?.isDirectory && !ctx.fs.stat(path.dirname(parent))?.isDirectory) {
    ctx.err(`skillflow new: '${parsed.flags.path}' does not exist, nor does the folder above it; give an existing folder (or create it first)\n`);
    return EXIT_PROBLEMS;
  }
  const result = scaffoldSkill(ctx.fs, parent, parsed.positionals[0], { description: parsed.flags.description });
  if (!result.ok) {
    ctx.err(`skillflow new: ${result.message}\n`);
    return EXIT_PROBLEMS;
  }
  // The template's TODO description loads everywhere but is refused for upload: say so before `package` does.
  const next = parsed.flags.description === undefined
    ? 'Next: replace the TODO description in SKILL.md (what the skill does and when to use it): until then validate warns (description-placeholder) and package refuses it.\n'
    : '';
  ctx.out(`Created ${displayPath(ctx.cwd, result.dir)}/\n${result.files.map((f) => `  ${displayPath(ctx.cwd, f)}\n`).join('')}${next}`);
  return EXIT_OK;
}
