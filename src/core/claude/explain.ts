/**
 * Who Answers, in words: the rows that explain a `resolveCommand` result (the winner, Claude Code's own command,
 * what is shadowed and why, or that nothing answers), each naming the file it is about when there is one.
 */
import * as path from 'node:path';
import { sourceWord } from '../catalog/entryType';
import { messagePaths } from '../base/messagePaths';
import { builtinCommand } from './builtins';
import type { ClaudeModel } from './load';
import type { ResolvedRef, ResolveResult } from './resolve';

export type AnswerRowKind = 'winner' | 'builtin' | 'shadowed' | 'note' | 'nothing';

export interface AnswerRow {
  kind: AnswerRowKind;
  label: string;
  /** Where the file is (relative to the start folder when inside it). */
  description?: string;
  detail?: string;
  /** The file to open, when the row is about one. */
  path?: string;
}

function where(model: ClaudeModel, file: string, home?: string): string {
  const r = path.relative(model.startDir, file);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r.split(path.sep).join('/') : shorten(model, file, home);
}

/** A reason with the start folder's paths shortened to relative ones, the home's to `~/…`. */
function shorten(model: ClaudeModel, text: string, home?: string): string {
  return messagePaths([model.startDir], home)(text);
}

/** A loser's reason with the why first (QuickPick details are cut at the row's width). */
function whyFirst(model: ClaudeModel, reason: string, home?: string): string {
  const short = shorten(model, reason, home);
  const wins = /^(.*?) wins: (.*)$/.exec(short);
  if (wins) return `${wins[2]} (winner: ${wins[1]})`;
  const bundled = /^(.*?) replaces (Claude Code's bundled skill \S+)(?: \((.*)\))?$/.exec(short);
  if (bundled) return `${bundled[1]} replaces it${bundled[3] ? `; ${bundled[3]}` : ''}`;
  return short;
}

function refWords(r: ResolvedRef): string {
  if (r.level === 'bundled') return "Claude Code's bundled skill";
  if (r.level === 'builtin') return "Claude Code's built-in";
  return `${r.level} ${sourceWord(r.source)}`;
}

function isFile(r: ResolvedRef): boolean {
  return r.level !== 'bundled' && r.level !== 'builtin' && !r.path.startsWith('builtin:') && !r.path.startsWith('bundled:');
}

/** The rows for one folder's result: the answer first, then every loser with its reason (home: shown as `~`). */
export function explainResolve(model: ClaudeModel, result: ResolveResult, home?: string): AnswerRow[] {
  const rows: AnswerRow[] = [];
  const cmd = result.command;
  if (result.winner) {
    const e = result.winnerEntry;
    const display = e && e.displayName !== e.name ? ` (shown as “${e.displayName}”)` : '';
    rows.push({
      kind: 'winner', label: `${cmd} runs the ${refWords(result.winner)}${display}`,
      description: where(model, result.winner.path, home),
      detail: e?.bareInvocation === cmd ? `the plugin skill ${e.invocation} also answers its bare name while no other command uses it` : `wins ${cmd}${result.shadowed.length ? `; it shadows ${result.shadowed.length}` : ''}`,
      path: result.winner.path,
    });
  } else if (result.builtin) {
    const b = builtinCommand(cmd.slice(1));
    const what = b?.kind === 'alias' ? `alias of /${b.aliasOf}` : b?.kind === 'bundled-skill' ? 'bundled skill' : b?.kind === 'workflow' ? 'bundled workflow' : 'built-in command';
    rows.push({ kind: 'builtin', label: `${cmd} is Claude Code's own ${what}`, detail: 'Claude Code answers it itself; a skill or command file of this name never runs when typed' });
  } else {
    rows.push({
      kind: 'nothing', label: `Nothing answers ${cmd}`,
      detail: result.shadowed.length ? 'every file with this name is shadowed or not loaded' : 'no skill, command or Claude Code built-in has this name here',
    });
  }
  if (result.note) rows.push({ kind: 'note', label: 'Note', detail: shorten(model, result.note, home) });
  for (const s of result.shadowed) {
    rows.push({
      kind: 'shadowed', label: `shadowed: ${refWords(s)}`, detail: whyFirst(model, s.reason, home),
      ...(isFile(s) ? { description: where(model, s.path, home), path: s.path } : {}),
    });
  }
  return rows;
}
