/** Who answers a typed `/command`, from the model. */
import { activeBuiltin } from './builtins';
import type { ClaudeModel } from './load';
import type { ClaudeEntry, ClaudeLevel, ClaudeSource } from './types';

export type ResolveLevel = ClaudeLevel | 'builtin' | 'bundled';

export interface ResolvedRef {
  path: string;
  level: ResolveLevel;
  source: ClaudeSource;
}

export interface ResolveResult {
  command: string;
  winner: ResolvedRef | null;
  shadowed: Array<ResolvedRef & { reason: string }>;
  /** True when Claude Code's own command, workflow, alias or bundled skill answers. */
  builtin: boolean;
  /** The winning entry, when a skill or command file answers. */
  winnerEntry?: ClaudeEntry;
  /** Why the winner does not simply run when typed (overridden off, not user-invocable, loads on demand). */
  note?: string;
  /** False when the winner never runs when the user types it (`skillOverrides` "off", `user-invocable: false`). */
  typable?: boolean;
}

function ref(e: ClaudeEntry): ResolvedRef {
  return { path: e.path, level: e.level, source: e.kind };
}

/** The command as Claude Code compares it: one leading `/`, surrounding spaces trimmed. */
export function normalizeCommand(command: string): string {
  const t = command.trim();
  return t.startsWith('/') ? t : `/${t}`;
}

/** Who answers `command`: a skill or command file, Claude Code itself, or nothing. */
export function resolveCommand(model: ClaudeModel, command: string): ResolveResult {
  const cmd = normalizeCommand(command);
  const name = cmd.slice(1);
  const candidates = model.entries.filter((e) => e.loaded && (e.invocation === cmd || e.bareInvocation === cmd));
  const shadowed: ResolveResult['shadowed'] = [];
  const active = activeBuiltin(name, model.bundledDisabled);
  const claimedByBuiltin = candidates.some((e) => e.shadowedBy === `builtin:${cmd}`);
  if (claimedByBuiltin || (active && !candidates.length)) {
    for (const e of candidates) shadowed.push({ ...ref(e), reason: e.shadowReason ?? `${cmd} is Claude Code's own` });
    return { command: cmd, winner: null, shadowed, builtin: true };
  }
  const winner = candidates.find((e) => !e.shadowedBy);
  for (const e of candidates) if (e !== winner) shadowed.push({ ...ref(e), reason: e.shadowReason ?? 'shadowed' });
  if (!winner) {
    const result: ResolveResult = { command: cmd, winner: null, shadowed, builtin: false };
    // `name:` is only a label in a project or personal skill: a user who types the label is told the command.
    const labelled = candidates.length ? undefined : model.entries.find((e) => e.loaded && !e.shadowedBy && e.kind === 'skill' && e.meta.name === name && e.invocation && e.invocation !== cmd);
    if (labelled) result.note = `${name} is the display name (\`name:\`) of ${labelled.invocation}, not a command: type ${labelled.invocation}`;
    return result;
  }
  if (active?.kind === 'bundled-skill' && winner.bareInvocation !== cmd) {
    shadowed.push({ path: `bundled:${cmd}`, level: 'bundled', source: 'skill', reason: `${winner.level} ${winner.kind} at ${winner.path} replaces Claude Code's bundled skill ${cmd} (its aliases stay with the bundled skill)` });
  }
  const result: ResolveResult = { command: cmd, winner: ref(winner), shadowed, builtin: false, winnerEntry: winner };
  if (winner.override === 'off') result.note = '`skillOverrides` sets it to "off": typing it returns the skillOverrides error instead of running it';
  else if (winner.meta.userInvocable === false) result.note = '`user-invocable: false`: Claude Code does not run it when you type it; only Claude can invoke it';
  if (winner.override === 'off' || winner.meta.userInvocable === false) result.typable = false;
  else if (winner.onDemand) result.note = `a nested skill: available once Claude reads or edits a file in ${winner.nestedDir}`;
  return result;
}

/** The `resolve` JSON of the CLI: `{command, winner, shadowed, builtin}`, and `note` when the winner does not simply run. */
export function resolveJson(r: ResolveResult): { command: string; winner: ResolvedRef | null; shadowed: Array<ResolvedRef & { reason: string }>; builtin: boolean; note?: string } {
  return { command: r.command, winner: r.winner, shadowed: r.shadowed, builtin: r.builtin, ...(r.note !== undefined ? { note: r.note } : {}) };
}

/**
 * Who can invoke an entry, from its frontmatter and `skillOverrides` (shadowing aside): the user by typing it
 * (not with `user-invocable: false` or "off"), the model through the Skill tool (not with
 * `disable-model-invocation: true`, "off" or "user-invocable-only"). Both false: unreachable.
 */
export function invocability(e: ClaudeEntry): { user: boolean; model: boolean } {
  if (!e.loaded) return { user: false, model: false };
  const off = e.override === 'off';
  return {
    user: !off && e.meta.userInvocable !== false,
    model: !off && e.override !== 'user-invocable-only' && e.meta.disableModelInvocation !== true,
  };
}

/** How many skill or command files answer to a command: the winner and every file it shadows (not Claude Code's own). */
export function answeringFiles(r: ResolveResult): number {
  return (r.winner ? 1 : 0) + r.shadowed.filter((s) => s.level !== 'bundled').length;
}

/**
 * Every command that more than one skill or command file answers to (one wins, the others are shadowed, or Claude
 * Code's own command takes it from all of them), sorted by command: what `skillflow resolve --all` reports.
 */
export function ambiguousCommands(model: ClaudeModel): ResolveResult[] {
  const commands = new Set<string>();
  for (const e of model.entries) {
    if (!e.loaded || e.invocation === null) continue;
    commands.add(e.invocation);
    if (e.bareInvocation) commands.add(e.bareInvocation);
  }
  return [...commands].sort().map((c) => resolveCommand(model, c)).filter((r) => answeringFiles(r) > 1);
}
