/**
 * What `skillflow list`, `resolve` and `listing` print, by output format: each format is a writer of the command's
 * data (a new format is one more writer in the command's table; its name becomes a `--format` choice).
 */
import * as path from 'node:path';
import type { AgentEntry, SkillEntry } from '../../core/skillmd/model';
import type { ResolveResult } from '../../core/claude/resolve';
import { resolveJson } from '../../core/claude/resolve';
import type { Listing, ListingShown } from '../../core/claude/listing';
import { listingJson } from '../../core/claude/listing';
import { markdownCell } from './report';
import { entryType, sourceWord } from '../../core/catalog/entryType';
import { displayPath } from './paths';

/**
 * Turns a command's data into the text printed on stdout; `shown` gives a path as the CLI prints it, `say` a reason
 * with the paths in it shown the same way (messagePaths).
 */
export type Writer<T> = (data: T, shown: (file: string) => string, say: (text: string) => string) => string;

/**
 * A path as `list`, `resolve` and `listing` print it: relative to the current directory when inside it, under `~` when
 * in the home (personal files), else absolute (managed files); Claude Code's own (`builtin:/help`,
 * `bundled:/code-review`) as they are.
 */
export function modelPath(cwd: string, home?: string): (file: string) => string {
  const from = path.resolve(cwd);
  return (file) => {
    if (/^(builtin|bundled):/.test(file)) return file;
    const rel = path.relative(from, file);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return displayPath(cwd, file);
    const inHome = home !== undefined ? path.relative(home, file) : '..';
    return (!inHome.startsWith('..') && !path.isAbsolute(inHome) ? `~/${inHome}` : file).split(path.sep).join('/');
  };
}

// ---------- list ----------

export interface ListData {
  skills: readonly SkillEntry[];
  agents: readonly AgentEntry[];
  /** Token estimate of an agent file. */
  agentTokens: (a: AgentEntry) => number;
  /** Printed when there is nothing to list. */
  empty: string;
  /** The width the text table fits (long cells cut with `…`; JSON is never cut). */
  width?: number;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `--format json`: every skill and command with Claude Code's view of it, then the agents. */
const listJson: Writer<ListData> = (data, shown, say) => {
  const json = {
    skills: data.skills.map((s) => ({
      name: s.name,
      ...(s.displayName !== undefined ? { displayName: s.displayName } : {}),
      scope: s.scope,
      kind: s.kind,
      path: shown(s.source === 'command' ? s.skillMdPath : s.dir),
      description: s.description ?? '',
      tokens: s.tokenEstimate,
      invocation: s.invocation,
      level: s.level,
      source: s.source,
      loaded: s.loaded,
      ...(s.notLoadedReason !== undefined ? { notLoadedReason: say(s.notLoadedReason) } : {}),
      shadowedBy: s.shadowedBy !== undefined ? shown(s.shadowedBy) : null,
      ...(s.shadowReason !== undefined ? { shadowReason: say(s.shadowReason) } : {}),
    })),
    agents: data.agents.map((a) => ({
      name: a.name,
      scope: a.scope,
      kind: 'agent',
      path: shown(a.path),
      description: a.description ?? '',
      tokens: data.agentTokens(a),
      model: a.model,
      skills: a.skills,
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
};

const LIST_COLUMNS = ['INVOCATION', 'NAME', 'LEVEL', 'TYPE', 'TOKENS', 'PATH', 'STATUS', 'DESCRIPTION'] as const;

/** `--format text`: one aligned row per skill, command and agent; STATUS says loaded, shadowed by whom, or not loaded and why. */
const listText: Writer<ListData> = (data, shown, say) => {
  const rows: string[][] = [
    ...data.skills.map((s) => [
      s.invocation ?? '-',
      s.name,
      s.scope === 'plugin' && s.root.plugin ? `plugin:${s.root.plugin}` : s.level,
      entryType(s),
      String(s.tokenEstimate),
      shown(s.source === 'command' ? s.skillMdPath : s.dir),
      !s.loaded ? `not loaded${s.notLoadedReason ? `: ${say(s.notLoadedReason)}` : ''}` : s.shadowedBy !== undefined ? `shadowed by ${shown(s.shadowedBy)}` : 'loaded',
      oneLine(s.description ?? '', 80),
    ]),
    ...data.agents.map((a) => ['-', a.name, a.scope, 'agent', String(data.agentTokens(a)), shown(a.path), '-', oneLine(a.description ?? '', 80)]),
  ];
  if (rows.length === 0) return `${data.empty}\n`;
  const all = [[...LIST_COLUMNS], ...rows];
  const widths = fitColumns(LIST_COLUMNS.map((_, i) => Math.max(...all.map((r) => r[i].length))), data.width ?? Infinity);
  const tokens = LIST_COLUMNS.indexOf('TOKENS');
  const cell = (c: string, i: number) => {
    const cut = c.length > widths[i] ? `${c.slice(0, Math.max(0, widths[i] - 1))}…` : c;
    return i === LIST_COLUMNS.length - 1 ? cut : i === tokens ? cut.padStart(widths[i]) : cut.padEnd(widths[i]);
  };
  const line = (r: string[]) => r.map(cell).join('  ').trimEnd();
  return `${all.map(line).join('\n')}\n`;
};

/**
 * Column widths that fit `max` characters (two spaces between columns): the widest columns give way first, the
 * description, then the path, the status and the name, none below its floor; what still does not fit overflows.
 */
function fitColumns(widths: number[], max: number): number[] {
  const out = [...widths];
  const total = () => out.reduce((a, b) => a + b, 0) + 2 * (out.length - 1);
  const order: Array<[typeof LIST_COLUMNS[number], number]> = [['DESCRIPTION', 12], ['PATH', 16], ['STATUS', 12], ['NAME', 10], ['INVOCATION', 12]];
  for (const [name, floor] of order) {
    const over = total() - max;
    if (over <= 0) break;
    const i = LIST_COLUMNS.indexOf(name);
    out[i] = Math.max(Math.min(out[i], floor), out[i] - over);
  }
  return out;
}

export const LIST_WRITERS = { text: listText, json: listJson } satisfies Record<string, Writer<ListData>>;

// ---------- resolve ----------

/** `--format json`: `{command, winner, shadowed, builtin}`, and `note` when the winner does not simply run when typed. */
const resolveJsonWriter: Writer<ResolveResult> = (r, shown, say) => {
  const json = resolveJson(r);
  return `${JSON.stringify({
    command: json.command,
    winner: json.winner ? { ...json.winner, path: shown(json.winner.path) } : null,
    shadowed: json.shadowed.map((s) => ({ ...s, path: shown(s.path), reason: say(s.reason) })),
    builtin: json.builtin,
    ...(json.note !== undefined ? { note: say(json.note) } : {}),
  }, null, 2)}\n`;
};

/** `--format text`: who answers, then what it shadows and why. */
const resolveText: Writer<ResolveResult> = (r, shown, say) => {
  const lines: string[] = [];
  if (r.winner) lines.push(`${r.command} → ${r.winner.level} ${sourceWord(r.winner.source)} ${shown(r.winner.path)}`);
  else if (r.builtin) lines.push(`${r.command} → Claude Code's own command`);
  else lines.push(`${r.command} → nothing answers it`);
  if (r.note) lines.push(`  note: ${say(r.note)}`);
  for (const s of r.shadowed) lines.push(`  shadows ${s.level} ${sourceWord(s.source)} ${shown(s.path)}: ${say(s.reason)}`);
  return `${lines.join('\n')}\n`;
};

export const RESOLVE_WRITERS = { text: resolveText, json: resolveJsonWriter } satisfies Record<string, Writer<ResolveResult>>;

/** `resolve --all`: each command as `resolve` prints it (text: one block each, then a count; json: a list). */
export const RESOLVE_ALL_WRITERS = {
  text: (results, shown, say) => `${results.map((r) => resolveText(r, shown, say)).join('')}${results.length} command${results.length === 1 ? '' : 's'} answered by more than one file\n`,
  json: (results, shown, say) => `${JSON.stringify(results.map((r) => JSON.parse(resolveJsonWriter(r, shown, say)) as unknown), null, 2)}\n`,
} satisfies Record<keyof typeof RESOLVE_WRITERS, Writer<ResolveResult[]>>;

// ---------- listing ----------

/** `--format json`: `{budget, used, entries:[{invocation, chars, shown}]}` (with each entry's reason). */
const listingJsonWriter: Writer<Listing> = (l, _shown, say) => {
  const json = listingJson(l);
  return `${JSON.stringify({ ...json, entries: json.entries.map((e) => (e.reason !== undefined ? { ...e, reason: say(e.reason) } : e)) }, null, 2)}\n`;
};

const SHOWN_ORDER: readonly ListingShown[] = ['full', 'truncated', 'name-only', 'dropped', 'absent'];

/** `--format text`: the listing as the model gets it, then the figures and the entries left out. */
const listingText: Writer<Listing> = (l, _shown, say) => {
  const lines = l.entries.filter((e) => e.shown !== 'absent').map((e) => e.line);
  const counts = SHOWN_ORDER.map((s) => [s, l.entries.filter((e) => e.shown === s).length] as const).filter(([, n]) => n > 0);
  const source = l.budgetSource === 'SLASH_COMMAND_TOOL_CHAR_BUDGET'
    ? 'SLASH_COMMAND_TOOL_CHAR_BUDGET'
    : `skillListingBudgetFraction of a ${l.contextWindowTokens.toLocaleString('en-US')}-token context window`;
  const out = [...lines, ''];
  out.push(`${l.used} of ${l.budget} characters used (budget from ${source}); ${l.entries.length} ${l.entries.length === 1 ? 'entry' : 'entries'}: ${counts.map(([s, n]) => `${n} ${s}`).join(', ') || 'none'}`);
  if (l.namesOverBudget) out.push('The names alone are over the budget: Claude Code keeps every name, so the listing is over budget.');
  for (const e of l.entries) if (e.shown !== 'full' && e.reason) out.push(`  ${e.invocation}: ${e.shown} (${say(e.reason)})`);
  return `${out.join('\n')}\n`;
};

/** `--format markdown`: the budget in one line, then a table of the entries not shown in full (a GitHub job summary). */
const listingMarkdown: Writer<Listing> = (l) => {
  const pct = l.budget > 0 ? Math.round((l.used / l.budget) * 100) : 0;
  const counts = SHOWN_ORDER.map((s) => [s, l.entries.filter((e) => e.shown === s).length] as const).filter(([, n]) => n > 0);
  let text = `### Skill listing budget\n\n${l.used} of ${l.budget} characters used (${pct} %, a ${l.contextWindowTokens.toLocaleString('en-US')}-token context window${l.budgetSource === 'SLASH_COMMAND_TOOL_CHAR_BUDGET' ? ', SLASH_COMMAND_TOOL_CHAR_BUDGET' : ''}); ${counts.map(([s, n]) => `${n} ${s}`).join(', ') || 'no entries'}\n`;
  const rows = l.entries.filter((e) => e.shown !== 'full' && e.shown !== 'absent');
  if (rows.length) text += `\n| Command | Shown | Why |\n| --- | --- | --- |\n${rows.map((e) => `| \`${markdownCell(e.invocation)}\` | ${e.shown} | ${markdownCell(e.reason ?? '')} |`).join('\n')}\n`;
  return text;
};

export const LISTING_WRITERS = { text: listingText, json: listingJsonWriter, markdown: listingMarkdown } satisfies Record<string, Writer<Listing>>;
