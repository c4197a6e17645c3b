/**
 * `skillflow package <skill-folder> [--out DIR] [--without-claude-code-keys]`: writes `<DIR>/<name>.skill` (DIR
 * defaults to the current directory). Exit 1 and no file when the skill has errors under the `upload` profile (the
 * problems are printed); exit 2 on bad usage or a path that cannot be read. `--without-claude-code-keys` packages a
 * copy of SKILL.md without the keys only Claude Code reads and names them; the skill's own files are not changed.
 */
import * as path from 'node:path';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../context';
import { parseArgs } from '../args';
import { packageSkill } from '../../core/packaging/package';
import { sortProblems } from '../../core/base/problems';
import { displayPath } from '../output/paths';
import { problemLine } from '../output/problems';

const USAGE = `Usage: skillflow package <skill-folder> [--out DIR] [--without-claude-code-keys]
  --without-claude-code-keys  package a copy of SKILL.md without the keys only Claude Code reads (argument-hint,
                              model, agent, context, ...); the skill's own SKILL.md keeps them
`;

export function packageCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: { out: { type: 'string', short: 'o' }, 'without-claude-code-keys': { type: 'boolean' } },
    minPositionals: 1,
    maxPositionals: 1,
    positionalName: '<skill-folder>',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const target = parsed.positionals[0];
  let skillDir = path.resolve(ctx.cwd, target);
  const st = ctx.fs.stat(skillDir);
  if (!st) {
    ctx.err(`skillflow package: '${target}' does not exist\n`);
    return EXIT_USAGE;
  }
  if (st.isFile && path.basename(skillDir) === 'SKILL.md') skillDir = path.dirname(skillDir);
  else if (!st.isDirectory) {
    ctx.err(`skillflow package: '${target}' is not a skill folder\n`);
    return EXIT_USAGE;
  }
  const outDir = path.resolve(ctx.cwd, parsed.flags.out ?? '.');
  const result = packageSkill(ctx.fs, skillDir, outDir, { withoutClaudeCodeKeys: parsed.flags['without-claude-code-keys'] === true });
  const skillMd = path.join(skillDir, 'SKILL.md');
  const lines = sortProblems([...result.problems]).map((p) => `${problemLine(ctx.cwd, skillMd, p)}\n`).join('');
  if (!result.ok) {
    ctx.out(lines);
    const way = result.claudeCodeKeys?.packagesWithout ? ' To package a copy without the Claude Code keys: add --without-claude-code-keys.' : '';
    ctx.err(`skillflow package: ${result.message} Nothing was written.${way}\n`);
    return EXIT_PROBLEMS;
  }
  let text = lines;
  if (result.dropped.length) text += `left out of the packaged SKILL.md (Claude Code keys): ${result.dropped.join(', ')}\n`;
  for (const s of result.skipped) text += `skipped ${s} (a symbolic link to a folder or out of the skill)\n`;
  text += `Packaged ${displayPath(ctx.cwd, result.file)} (${result.entries.length} file${result.entries.length === 1 ? '' : 's'})\n`;
  ctx.out(text);
  return EXIT_OK;
}
