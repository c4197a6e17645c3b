/** Claude Code's model for a CLI command's PATH (resolve, listing): discovery of that folder as the start folder. */
import * as path from 'node:path';
import type { CliContext } from '../context';
import type { ClaudeModel } from '../../core/claude/load';
import { discover } from '../../core/discovery/discover';
import { startOptions } from '../discoveryFlags';

/** The model of Claude Code started in `target` (a folder); undefined (after a message on stderr) when it is not one. */
export function claudeModelAt(ctx: CliContext, command: string, target: string, flags: { home?: string; managed?: string }): ClaudeModel | undefined {
  const dir = path.resolve(ctx.cwd, target);
  const st = ctx.fs.stat(dir);
  if (!st?.isDirectory) {
    ctx.err(`skillflow ${command}: '${target}' ${st ? 'is not a folder' : 'does not exist'}\n`);
    return undefined;
  }
  return discover(ctx.fs, { workspaceFolders: [dir], profile: 'claude-code', listFiles: false, ...startOptions(ctx, flags) }).models[0];
}
