/**
 * Claude Code's own command names: built-in commands, bundled skills, bundled workflows and their aliases, from
 * builtins.json (generated from the commands reference by scripts/gen-claude-builtins.mjs, which records the
 * Claude Code version and the documentation commit it was taken from).
 */
import data from './builtins.json';
import type { BuiltinKind } from './types';

export interface BuiltinCommand {
  name: string;
  kind: BuiltinKind;
  /** For kind `alias`: the command it stands for. */
  aliasOf?: string;
}

interface BuiltinsFile {
  claudeCodeVersion: string;
  source: string;
  commands: Array<{ name: string; kind: string; aliases?: string[]; aliasOf?: string }>;
}

const file = data as BuiltinsFile;

/** The Claude Code version the built-in names were taken from. */
export const BUILTINS_CLAUDE_CODE_VERSION = file.claudeCodeVersion;
/** The document and commit they were taken from. */
export const BUILTINS_SOURCE = file.source;

const byName = new Map<string, BuiltinCommand>();
for (const c of file.commands) {
  if (c.kind === 'removed') continue;
  const kind = c.kind as BuiltinKind;
  if (!byName.has(c.name)) byName.set(c.name, kind === 'alias' ? { name: c.name, kind, aliasOf: c.aliasOf } : { name: c.name, kind });
  for (const a of c.aliases ?? []) if (!byName.has(a)) byName.set(a, { name: a, kind: 'alias', aliasOf: c.name });
}

/** The built-in command, bundled skill, workflow or alias named `name` (without `/`), if any. */
export function builtinCommand(name: string): BuiltinCommand | undefined {
  return byName.get(name);
}

/** Every current built-in name (commands, bundled skills, workflows, aliases). */
export function builtinNames(): string[] {
  return [...byName.keys()];
}

/** True for names a user skill replaces (a bundled skill itself, not its aliases). */
export function isBundledSkill(name: string): boolean {
  return byName.get(name)?.kind === 'bundled-skill';
}

/**
 * The built-in that answers `/name` in a session, or undefined: with bundled skills off (`disableBundledSkills`),
 * bundled skills, workflows and their aliases are gone, except `/doctor` and its alias.
 */
export function activeBuiltin(name: string, bundledOff: boolean): BuiltinCommand | undefined {
  const b = byName.get(name);
  if (!b || !bundledOff) return b;
  const target = b.kind === 'alias' ? byName.get(b.aliasOf ?? '') : b;
  if (target && (target.kind === 'bundled-skill' || target.kind === 'workflow') && target.name !== 'doctor') return undefined;
  return b;
}
