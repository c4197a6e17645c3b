/**
 * Claude Code's settings files, as far as skills are concerned: which files, in which order, and the keys that
 * change what loads and what the model sees. A missing file is normal; a half-written or invalid one is a
 * problem and contributes nothing (defaults stay). Never throws.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { ClaudeProblem } from './types';
import { isSkillOverride, type SkillOverride } from './values';

export const DEFAULT_BUDGET_FRACTION = 0.01;
export const DEFAULT_MAX_DESC_CHARS = 1536;

export type SettingsScope = 'managed' | 'local' | 'project' | 'user';

/** One settings file Claude Code reads, highest precedence first. */
export interface SettingsFile {
  scope: SettingsScope;
  path: string;
}

export interface ClaudeSettings {
  /** Files read, highest precedence first; `found` false for those that do not exist. */
  files: Array<SettingsFile & { found: boolean; valid: boolean }>;
  /** Per skill name, the state from the highest-precedence file that names it. */
  skillOverrides: Record<string, SkillOverride>;
  /** Where each override came from. */
  skillOverrideSources: Record<string, string>;
  skillListingBudgetFraction: number;
  skillListingMaxDescChars: number;
  disableBundledSkills: boolean;
  /** False only when a user, local or managed file says `false`. */
  syncClaudeAiSkills: boolean;
  /**
   * Managed `strictPluginOnlyCustomization` locks skills (`true`, or an array naming "skills"): personal, project,
   * `--add-dir` and synced skills and commands do not load (docs/settings-reference.md).
   */
  strictPluginOnlySkills: boolean;
  /** `enabledPlugins` merged: `name@marketplace` → enabled. */
  enabledPlugins: Record<string, boolean>;
  /** The `env` blocks merged (a settings value overrides the shell's). */
  env: Record<string, string>;
  /** The file each `env` entry came from. */
  envSources: Record<string, string>;
  /** The file that set `skillListingBudgetFraction` / `skillListingMaxDescChars` (absent: the default is in force). */
  valueSources: Partial<Record<'skillListingBudgetFraction' | 'skillListingMaxDescChars', string>>;
  problems: ClaudeProblem[];
}

/** The managed-settings folder per OS (docs/managed-settings.md). */
export function defaultManagedDir(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/** The user's Claude folder: `CLAUDE_CONFIG_DIR` when set, else `<home>/.claude`. */
export function claudeConfigDir(home: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return dir ? path.resolve(home, dir) : path.join(home, '.claude');
}

export interface SettingsLocations {
  /** The folder Claude Code starts in (project and local settings live in its `.claude`). */
  projectDir: string;
  /** `<home>/.claude` or `CLAUDE_CONFIG_DIR`; no user settings when undefined. */
  configDir?: string;
  /** The managed-settings folder; no managed settings when undefined. */
  managedDir?: string;
  /**
   * The git repository root above `projectDir`, when there is one: `settings.local.json` is read there (docs/settings.md:
   * "If you started Claude Code in a subdirectory … of a git repository, it reads and writes that file at the repository
   * root"), except when the repository root is the home folder (`home`).
   */
  repoRoot?: string;
  home?: string;
}

/**
 * The settings files in Claude Code's order, highest first: managed (`managed-settings.json`, then
 * `managed-settings.d/*.json` in alphabetical order, later ones overriding), project local, shared project, user.
 */
export function settingsFiles(fs: FileSystem, loc: SettingsLocations): SettingsFile[] {
  const files: SettingsFile[] = [];
  if (loc.managedDir !== undefined) {
    const dropIns = path.join(loc.managedDir, 'managed-settings.d');
    const names = (fs.readDir(dropIns) ?? [])
      .filter((e) => !e.name.startsWith('.') && e.name.endsWith('.json'))
      .map((e) => e.name)
      .sort();
    // Drop-ins merge after managed-settings.json, so the last one is the highest.
    for (const n of names.reverse()) files.push({ scope: 'managed', path: path.join(dropIns, n) });
    files.push({ scope: 'managed', path: path.join(loc.managedDir, 'managed-settings.json') });
  }
  const localDir = loc.repoRoot !== undefined && (loc.home === undefined || path.resolve(loc.repoRoot) !== path.resolve(loc.home)) ? loc.repoRoot : loc.projectDir;
  files.push({ scope: 'local', path: path.join(localDir, '.claude', 'settings.local.json') });
  files.push({ scope: 'project', path: path.join(loc.projectDir, '.claude', 'settings.json') });
  if (loc.configDir !== undefined) files.push({ scope: 'user', path: path.join(loc.configDir, 'settings.json') });
  return files;
}

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) { line++; start = i + 1; }
  return { line, column: offset - start + 1 };
}

type Json = Record<string, unknown>;

/** Reads one settings file: undefined when absent; a problem when it is not a JSON object. */
function readSettingsFile(fs: FileSystem, file: string, problems: ClaudeProblem[]): { found: boolean; data?: Json } {
  const st = fs.stat(file);
  if (!st?.isFile) return { found: false };
  let text: string;
  try { text = fs.readFile(file).toString('utf8'); } catch (e) {
    problems.push({ code: 'settings-invalid', path: file, message: `cannot read the settings file: ${(e as Error).message}` });
    return { found: true };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) {
    problems.push({ code: 'settings-invalid', path: file, message: 'the settings file is empty; Claude Code ignores it', line: 1, column: 1 });
    return { found: true };
  }
  let data: unknown;
  try { data = JSON.parse(text); } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    const pos = at ? position(text, Number(at[1])) : undefined;
    problems.push({ code: 'settings-invalid', path: file, message: `not valid JSON (${message}); Claude Code ignores this file`, ...pos });
    return { found: true };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    problems.push({ code: 'settings-invalid', path: file, message: 'the settings file is not a JSON object; Claude Code ignores it', line: 1, column: 1 });
    return { found: true };
  }
  return { found: true, data: data as Json };
}

/**
 * Reads the settings in force. Per key the highest-precedence file that sets a valid value wins; `skillOverrides`,
 * `enabledPlugins` and `env` merge entry by entry (each entry from the highest file that has it).
 */
export function readClaudeSettings(fs: FileSystem, loc: SettingsLocations): ClaudeSettings {
  const problems: ClaudeProblem[] = [];
  const result: ClaudeSettings = {
    files: [],
    skillOverrides: {},
    skillOverrideSources: {},
    skillListingBudgetFraction: DEFAULT_BUDGET_FRACTION,
    skillListingMaxDescChars: DEFAULT_MAX_DESC_CHARS,
    disableBundledSkills: false,
    syncClaudeAiSkills: true,
    strictPluginOnlySkills: false,
    enabledPlugins: {},
    env: {},
    envSources: {},
    valueSources: {},
    problems,
  };
  let fractionSet = false;
  let maxSet = false;
  let bundledSet = false;
  const bad = (file: string, message: string) => problems.push({ code: 'settings-value', path: file, message });
  for (const f of settingsFiles(fs, loc)) {
    const { found, data } = readSettingsFile(fs, f.path, problems);
    result.files.push({ ...f, found, valid: data !== undefined });
    if (!data) continue;
    const overrides = data.skillOverrides;
    if (overrides !== undefined) {
      if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) bad(f.path, '`skillOverrides` must be an object of skill name to "on", "name-only", "user-invocable-only" or "off"');
      else {
        for (const [name, value] of Object.entries(overrides as Json)) {
          if (!isSkillOverride(value)) {
            bad(f.path, `\`skillOverrides.${name}\`: ${JSON.stringify(value)} is not one of "on", "name-only", "user-invocable-only", "off"`);
            continue;
          }
          if (name in result.skillOverrides) continue;
          result.skillOverrides[name] = value;
          result.skillOverrideSources[name] = f.path;
        }
      }
    }
    const fraction = data.skillListingBudgetFraction;
    if (fraction !== undefined && !fractionSet) {
      if (typeof fraction === 'number' && fraction > 0 && fraction <= 1) { result.skillListingBudgetFraction = fraction; fractionSet = true; result.valueSources.skillListingBudgetFraction = f.path; }
      else bad(f.path, `\`skillListingBudgetFraction\`: ${JSON.stringify(fraction)} is not a number greater than 0 and at most 1`);
    }
    const max = data.skillListingMaxDescChars;
    if (max !== undefined && !maxSet) {
      if (typeof max === 'number' && Number.isInteger(max) && max > 0) { result.skillListingMaxDescChars = max; maxSet = true; result.valueSources.skillListingMaxDescChars = f.path; }
      else bad(f.path, `\`skillListingMaxDescChars\`: ${JSON.stringify(max)} is not a positive integer`);
    }
    const bundled = data.disableBundledSkills;
    if (bundled !== undefined && !bundledSet) {
      if (typeof bundled === 'boolean') { result.disableBundledSkills = bundled; bundledSet = true; }
      else bad(f.path, `\`disableBundledSkills\`: ${JSON.stringify(bundled)} is not a boolean`);
    }
    const strict = data.strictPluginOnlyCustomization;
    if (f.scope === 'managed' && (strict === true || (Array.isArray(strict) && strict.includes('skills')))) result.strictPluginOnlySkills = true;
    // A repository cannot turn syncing off: project (shared) settings are not honoured for this key.
    if (data.syncClaudeAiSkills === false && f.scope !== 'project') result.syncClaudeAiSkills = false;
    const plugins = data.enabledPlugins;
    if (plugins && typeof plugins === 'object' && !Array.isArray(plugins)) {
      for (const [key, value] of Object.entries(plugins as Json)) {
        if (typeof value === 'boolean' && !(key in result.enabledPlugins)) result.enabledPlugins[key] = value;
      }
    }
    const env = data.env;
    if (env && typeof env === 'object' && !Array.isArray(env)) {
      for (const [key, value] of Object.entries(env as Json)) {
        if ((typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && !(key in result.env)) {
          result.env[key] = String(value);
          result.envSources[key] = f.path;
        }
      }
    }
  }
  return result;
}

/**
 * The environment Claude Code runs with: the shell's variables, overridden by the settings files' `env` blocks.
 */
export function effectiveEnv(shell: Readonly<Record<string, string | undefined>>, settings: ClaudeSettings): Record<string, string | undefined> {
  // Without a settings `env` block, the shell's own object: a caller's view of it that records which variables are
  // read (the CLI's run memo, src/core/cache/runMemo.ts) goes on seeing every read.
  if (Object.keys(settings.env).length === 0) return shell as Record<string, string | undefined>;
  return { ...shell, ...settings.env };
}

/** True when bundled skills are off: `disableBundledSkills` or `CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1`. */
export function bundledSkillsDisabled(settings: ClaudeSettings, env: Readonly<Record<string, string | undefined>>): boolean {
  return settings.disableBundledSkills || env.CLAUDE_CODE_DISABLE_BUNDLED_SKILLS === '1';
}
