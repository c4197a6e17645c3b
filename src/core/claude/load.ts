/**
 * Builds the model of what Claude Code loads from a start folder: the levels it reads, the direct-children rule,
 * the reserved `synced` folder, links, command names and who wins a shared name. Pure over the injected
 * FileSystem; never throws. docs/claude-code-model.md lists the documented facts each step follows.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { activeBuiltin, builtinCommand } from './builtins';
import { defaultMetaReader } from './meta';
import { globToRegExp } from '../config/ruleConfig';
import {
  bundledSkillsDisabled, claudeConfigDir, defaultManagedDir, effectiveEnv, readClaudeSettings, type ClaudeSettings,
} from './settings';
import type { ClaudeEntry, ClaudeLevel, ClaudeMeta, ClaudeMetaReader, ClaudeProblem, ClaudeSource, NotLoadedCode } from './types';
import { marketplaceError } from '../discovery/plugins';

export interface ClaudeModelOptions {
  /** The folder Claude Code starts in. */
  startDir: string;
  /** The user's home (personal skills, user settings, installed plugins); none when undefined. */
  home?: string;
  /** The managed-settings folder; the OS default when undefined, none when null. */
  managedDir?: string | null;
  /** For the default managed folder (default: this process's platform). */
  platform?: NodeJS.Platform;
  /** `--add-dir` folders: their `.claude/skills` and `.claude/commands` load too. */
  additionalDirs?: readonly string[];
  /** `--plugin-dir` plugin roots, loaded besides the installed plugins. */
  pluginDirs?: readonly string[];
  /** Load the plugins installed under the user's Claude folder (default true). */
  installedPlugins?: boolean;
  /** Look for nested `.claude/skills` below the start folder (default true). */
  nested?: boolean;
  /** How deep below the start folder nested `.claude/skills` are looked for (default 8). */
  maxDepth?: number;
  /** The folders below the start folder holding a `.claude/skills`, when the caller found them already (no walk then). */
  nestedFolders?: readonly string[];
  /** Links that leave this folder are not followed while looking for nested skills (default: the repository root, else the start folder). */
  workspaceRoot?: string;
  /** The shell environment (default: none). Settings `env` blocks override it. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Reads a file's frontmatter (default: parses it from `fs`). The wiring passes already-parsed data. */
  readMeta?: ClaudeMetaReader;
  /** Settings already read (default: read from the files for this start folder). */
  settings?: ClaudeSettings;
}

export interface ClaudeModel {
  startDir: string;
  /** The nearest ancestor of the start folder holding `.git` (the start folder itself when none does). */
  repoRoot: string;
  configDir?: string;
  managedDir?: string;
  /** Every skill and command file found, loaded or not, highest precedence first. */
  entries: ClaudeEntry[];
  settings: ClaudeSettings;
  /** The environment in force (shell + settings `env`). */
  env: Record<string, string | undefined>;
  /** Bundled skills and workflows are off (`disableBundledSkills` / `CLAUDE_CODE_DISABLE_BUNDLED_SKILLS`). */
  bundledDisabled: boolean;
  problems: ClaudeProblem[];
}

const LEVEL_RANK: Record<ClaudeLevel, number> = { managed: 0, personal: 1, project: 2, additional: 3, plugin: 4, nested: 5, synced: 6 };
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
/** How far below a skills folder's child a misplaced SKILL.md is looked for. */
const DEEP_SKILL_DEPTH = 3;
/** Documents kept in a skills folder beside the skills: never taken for a misplaced skill. */
const FLAT_NOTES = /^(?:readme|changelog|contributing|license|licence|agents|claude|index)\.md$/i;
/** How deep commands folders are read (`commands/a/b/c.md` → `/a:b:c`). */
const COMMANDS_DEPTH = 4;
/** How deep the installed-plugins folder is searched when installed_plugins.json is missing. */
const PLUGIN_SEARCH_DEPTH = 4;

/** The nearest ancestor of `dir` (itself included) that holds `.git`, or undefined. */
function findRepoRoot(fs: FileSystem, dir: string): string | undefined {
  let d = path.resolve(dir);
  for (;;) {
    if (fs.stat(path.join(d, '.git'))) return d;
    const parent = path.dirname(d);
    if (parent === d) return undefined;
    d = parent;
  }
}

/** The folders whose `.claude` Claude Code reads as project levels: the start folder, then each parent up to the repository root. */
function projectFolders(startDir: string, repoRoot: string | undefined): string[] {
  const start = path.resolve(startDir);
  if (repoRoot === undefined) return [start];
  const folders: string[] = [];
  let d = start;
  for (;;) {
    folders.push(d);
    if (d === repoRoot) return folders;
    const parent = path.dirname(d);
    if (parent === d) return [start];
    d = parent;
  }
}

/** A plugin's name: the manifest's `name`, else `fallback` (the marketplace key or the folder name). */
function pluginName(manifest: Record<string, unknown> | undefined, fallback: string): string {
  const name = typeof manifest?.name === 'string' ? manifest.name.trim() : '';
  return name || fallback;
}

/**
 * `plugin.json` fields and the JSON types Claude Code accepts for them (docs/plugins-reference.md, "Plugin manifest
 * schema"); "a recognized field whose value has the wrong type": "Most fields: the plugin fails to load".
 * `experimental` and `metadata` are only warned about by Claude Code; unknown fields are ignored.
 */
const MANIFEST_TYPES: Readonly<Record<string, ReadonlyArray<'string' | 'array' | 'object'>>> = {
  name: ['string'], version: ['string'], description: ['string'], author: ['object'], homepage: ['string'], repository: ['string'],
  license: ['string'], keywords: ['array'], skills: ['string', 'array'], commands: ['string', 'array'], agents: ['string', 'array'],
  outputStyles: ['string', 'array'], hooks: ['string', 'array', 'object'], mcpServers: ['string', 'array', 'object'], lspServers: ['string', 'array', 'object'],
};

function jsonType(v: unknown): 'string' | 'array' | 'object' | 'other' {
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return v !== null && typeof v === 'object' ? 'object' : 'other';
}

/**
 * Why Claude Code refuses a plugin's `.claude-plugin/plugin.json` (so the plugin does not load), or undefined: no
 * manifest (it is optional), or one that loads. "Invalid JSON syntax", "name: Invalid input: expected string, received
 * undefined" and "a `keywords` value that is a string instead of an array is a load error" (docs/plugins-reference.md).
 */
export function manifestError(fs: FileSystem, root: string): string | undefined {
  const file = path.join(root, '.claude-plugin', 'plugin.json');
  if (!fs.stat(file)?.isFile) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(fs.readFile(file).toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    return `.claude-plugin/plugin.json is not valid JSON (${(e as Error).message})`;
  }
  if (jsonType(data) !== 'object') return '.claude-plugin/plugin.json is not a JSON object';
  const manifest = data as Record<string, unknown>;
  if (typeof manifest.name !== 'string' || manifest.name.trim() === '') return ".claude-plugin/plugin.json has no 'name' (the one required field)";
  for (const [field, types] of Object.entries(MANIFEST_TYPES)) {
    if (!(field in manifest)) continue;
    const t = jsonType(manifest[field]);
    if (!(types as readonly string[]).includes(t)) return `'${field}' in .claude-plugin/plugin.json must be ${types.map((x) => (x === 'array' ? 'an array' : `a${x === 'object' ? 'n' : ''} ${x}`)).join(' or ')}`;
  }
  // "All paths must be relative to the plugin root and start with `./`, except that the `skills` field also accepts
  // `"."`" (docs/plugins-reference.md, "Path behavior rules"); Claude Code refuses the manifest otherwise ("Validation
  // errors: skills: Invalid input").
  for (const field of PATH_FIELDS) {
    const v = manifest[field];
    for (const p of typeof v === 'string' ? [v] : Array.isArray(v) ? v : []) {
      if (typeof p !== 'string' || p.startsWith('./') || (field === 'skills' && p === '.')) continue;
      const fix = p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('../') || p === '' ? '' : ` (write ${JSON.stringify(`./${p}`)})`;
      return `'${field}' in .claude-plugin/plugin.json has the path ${JSON.stringify(p)}, which does not start with './'${fix}: Claude Code refuses the manifest (paths are relative to the plugin root and start with './')`;
    }
  }
  return undefined;
}

/** The manifest fields that hold paths (a string, or strings in an array beside inline objects). */
const PATH_FIELDS = ['skills', 'commands', 'agents', 'workflows', 'hooks', 'mcpServers', 'outputStyles', 'lspServers'] as const;

interface Listing {
  names: Set<string>;
  entries: Array<{ name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }>;
}

class Builder {
  readonly entries: ClaudeEntry[] = [];
  readonly problems: ClaudeProblem[] = [];
  /** Real paths of skill folders already loaded (a folder reached twice through links loads once). */
  private readonly realDirs = new Map<string, ClaudeEntry>();
  /** While a plugin whose manifest Claude Code refuses is read: why (its skills and commands are then not loaded). */
  private pluginFailure: string | undefined;

  constructor(private readonly fs: FileSystem, private readonly readMeta: ClaudeMetaReader) {}

  list(dir: string): Listing | undefined {
    const raw = this.fs.readDir(dir);
    if (!raw) return undefined;
    const entries = [...raw].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { names: new Set(entries.map((e) => e.name)), entries };
  }

  private isDir(p: string, e: { isDirectory: boolean; isSymbolicLink: boolean }): boolean {
    if (e.isDirectory) return true;
    return e.isSymbolicLink && this.fs.stat(p)?.isDirectory === true;
  }

  private isFile(p: string, e: { isFile: boolean; isSymbolicLink: boolean }): boolean {
    if (e.isFile) return true;
    return e.isSymbolicLink && this.fs.stat(p)?.isFile === true;
  }

  /**
   * A `.md` file directly in a skills folder that starts with a frontmatter (`---`): written as a skill, never loaded.
   * Files without frontmatter and the usual documents (README, CHANGELOG…) are notes, not reported.
   */
  private isFlatSkill(file: string, e: { name: string; isFile: boolean; isSymbolicLink: boolean }): boolean {
    if (!/\.md$/i.test(e.name) || FLAT_NOTES.test(e.name) || !this.isFile(file, e)) return false;
    try {
      const head = this.fs.readFile(file).subarray(0, 8).toString('utf8').replace(/^\uFEFF/, '');
      return /^---[ \t]*\r?\n/.test(head);
    } catch {
      return false;
    }
  }

  private push(base: Omit<ClaudeEntry, 'meta' | 'loaded'> & { meta?: ClaudeMeta }, loaded: boolean, notLoadedReason?: string, notLoadedCode?: NotLoadedCode): ClaudeEntry {
    if (loaded && base.level === 'plugin' && this.pluginFailure !== undefined) {
      loaded = false;
      notLoadedReason = `the plugin does not load: ${this.pluginFailure}`;
      notLoadedCode = 'plugin-invalid';
    }
    let meta = base.meta;
    if (loaded && meta === undefined) {
      meta = this.readMeta(base.path);
      if (meta === undefined) { loaded = false; notLoadedReason = 'the file cannot be read'; notLoadedCode = 'unreadable'; }
    }
    const entry: ClaudeEntry = { ...base, meta: meta ?? {}, loaded };
    if (!loaded) {
      entry.invocation = null;
      delete entry.bareInvocation;
      entry.notLoadedReason = notLoadedReason;
      entry.notLoadedCode = notLoadedCode;
    }
    this.entries.push(entry);
    return entry;
  }

  private notLoaded(kind: ClaudeSource, level: ClaudeLevel, file: string, root: string, code: NotLoadedCode, reason: string): void {
    const dir = path.dirname(file);
    const folderName = path.basename(dir);
    this.push({ kind, level, path: file, dir, root, folderName, displayName: folderName, name: folderName, invocation: null }, false, reason, code);
  }

  /** SKILL.md files below `dir` (not following links), up to `depth` levels: reported as never loaded. */
  private deepSkills(dir: string, level: ClaudeLevel, root: string, depth: number, code: NotLoadedCode, reason: (file: string) => string, skip?: ReadonlySet<string>): void {
    const listing = this.list(dir);
    if (!listing) return;
    for (const e of listing.entries) {
      if (!e.isDirectory || SKIPPED_FOLDERS.has(e.name)) continue;
      const sub = path.join(dir, e.name);
      if (skip?.has(sub)) continue;
      const subListing = this.fs.readDir(sub);
      if (subListing?.some((x) => x.name === 'SKILL.md' && x.isFile)) {
        const file = path.join(sub, 'SKILL.md');
        this.notLoaded('skill', level, file, root, code, reason(file));
      }
      if (depth > 1) this.deepSkills(sub, level, root, depth - 1, code, reason, skip);
    }
  }

  /**
   * A skills folder: its direct child folders with `SKILL.md` (exact case) are skills named by the folder.
   * `synced` (any case) is reserved; SKILL.md files further down are reported as never loaded.
   */
  skillsFolder(folder: string, level: ClaudeLevel, opts: { nestedDir?: string; syncedHere?: boolean; skillsDirPlugins?: boolean } = {}): void {
    const listing = this.list(folder);
    if (!listing) return;
    for (const e of listing.entries) {
      if (SKIPPED_FOLDERS.has(e.name)) continue;
      const dir = path.join(folder, e.name);
      if (this.isFlatSkill(dir, e)) {
        // docs/debug-your-config.md: "Skill file is at `.claude/skills/name.md` instead of in a folder".
        const stem = e.name.slice(0, -3);
        this.push({ kind: 'skill', level, path: dir, dir: folder, root: folder, folderName: stem, displayName: stem, name: stem, invocation: null }, false,
          `a skill is a folder holding SKILL.md (.claude/skills/${stem}/SKILL.md), not a file ${e.name} in the skills folder`, 'flat-file');
        continue;
      }
      if (!this.isDir(dir, e)) continue;
      const childListing = this.list(dir);
      if (!childListing) continue;
      const hasSkillMd = childListing.names.has('SKILL.md');
      if (e.name.toLowerCase() === 'synced') {
        if (hasSkillMd) this.notLoaded('skill', level, path.join(dir, 'SKILL.md'), folder, 'reserved', `the folder name \`${e.name}\` is reserved (any capitalization) for skills synced from claude.ai; Claude Code skips a skill authored there`);
        if (opts.syncedHere && e.name === 'synced') this.syncedFolder(dir);
        else this.deepSkills(dir, level, folder, DEEP_SKILL_DEPTH, 'reserved', () => `inside the reserved \`${e.name}\` folder; only direct children of ${folder} are skills`);
        continue;
      }
      if (childListing.names.has('.claude-plugin') && this.fs.stat(path.join(dir, '.claude-plugin', 'plugin.json'))?.isFile) {
        if (opts.skillsDirPlugins !== false) {
          const manifest = this.manifest(dir);
          this.plugin(dir, pluginName(manifest, e.name), manifest);
        } else if (hasSkillMd) {
          this.notLoaded('skill', level, path.join(dir, 'SKILL.md'), folder, 'plugin-elsewhere', 'a skills-directory plugin (it has .claude-plugin/plugin.json) loads only from the .claude/skills of the folder Claude Code starts in');
        }
        continue;
      }
      if (!hasSkillMd) {
        const wrongCase = childListing.entries.find((x) => x.name.toLowerCase() === 'skill.md');
        if (wrongCase) {
          this.notLoaded('skill', level, path.join(dir, wrongCase.name), folder, 'file-case', `the file must be named exactly \`SKILL.md\`, not \`${wrongCase.name}\``);
          continue;
        }
        // Misplaced SKILL.md files are looked for in real folders only: a link (to `/`, say) is never searched.
        if (!e.isSymbolicLink) this.deepSkills(dir, level, folder, DEEP_SKILL_DEPTH, 'deeper', (file) => `only direct children of ${folder} are skills; ${path.relative(folder, file).split(path.sep).join('/')} is deeper`);
        continue;
      }
      const file = path.join(dir, 'SKILL.md');
      const real = this.fs.realPath(dir) ?? dir;
      const first = this.realDirs.get(real);
      const base = {
        kind: 'skill' as const, level, path: file, dir, root: folder, folderName: e.name, displayName: e.name, name: e.name,
        invocation: `/${e.name}`, ...(opts.nestedDir !== undefined ? { nestedDir: opts.nestedDir, onDemand: true } : {}),
      };
      if (first) {
        this.push({ ...base, meta: {} }, false, `the same folder as ${first.dir} (reached through a link); Claude Code loads it once`, 'link-duplicate');
        continue;
      }
      const entry = this.push(base, true);
      if (entry.loaded) {
        this.realDirs.set(real, entry);
        if (entry.meta.name) entry.displayName = entry.meta.name;
      }
    }
  }

  /** `~/.claude/skills/synced/<x>/SKILL.md`: skills downloaded from claude.ai. */
  private syncedFolder(folder: string): void {
    const listing = this.list(folder);
    if (!listing) return;
    for (const e of listing.entries) {
      const dir = path.join(folder, e.name);
      if (!this.isDir(dir, e) || !this.fs.readDir(dir)?.some((x) => x.name === 'SKILL.md')) continue;
      const entry = this.push({
        kind: 'skill', level: 'synced', path: path.join(dir, 'SKILL.md'), dir, root: folder, folderName: e.name,
        displayName: e.name, name: e.name, invocation: `/${e.name}`,
      }, true);
      if (entry.loaded && entry.meta.name) entry.displayName = entry.meta.name;
    }
  }

  /** A commands folder: `<name>.md` → `/name`, `<sub>/<name>.md` → `/sub:name`. */
  commandsFolder(folder: string, level: ClaudeLevel, opts: { plugin?: string; prefix?: string[]; depth?: number; root?: string } = {}): void {
    const listing = this.list(folder);
    if (!listing) return;
    const prefix = opts.prefix ?? [];
    const depth = opts.depth ?? COMMANDS_DEPTH;
    for (const e of listing.entries) {
      if (SKIPPED_FOLDERS.has(e.name) || e.name.startsWith('.')) continue;
      const p = path.join(folder, e.name);
      if (e.name.endsWith('.md') && this.isFile(p, e)) this.commandFile(p, level, [...prefix, e.name.slice(0, -3)], opts.root ?? folder, opts.plugin);
      else if (depth > 1 && this.isDir(p, e)) this.commandsFolder(p, level, { ...opts, prefix: [...prefix, e.name], depth: depth - 1, root: opts.root ?? folder });
    }
  }

  commandFile(file: string, level: ClaudeLevel, parts: string[], root: string, plugin?: string): void {
    const own = parts.join(':');
    const name = plugin !== undefined ? `${plugin}:${own}` : own;
    this.push({
      kind: 'command', level, path: file, dir: path.dirname(file), root, folderName: parts[parts.length - 1], displayName: own,
      name, invocation: `/${name}`, ...(plugin !== undefined ? { plugin, bareInvocation: `/${parts[parts.length - 1]}` } : {}),
    }, true);
  }

  manifest(root: string): Record<string, unknown> | undefined {
    const file = path.join(root, '.claude-plugin', 'plugin.json');
    if (!this.fs.stat(file)?.isFile) return undefined;
    try {
      const data: unknown = JSON.parse(this.fs.readFile(file).toString('utf8'));
      if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
      this.problems.push({ code: 'plugins-invalid', path: file, message: 'the plugin manifest is not a JSON object' });
    } catch (e) {
      this.problems.push({ code: 'plugins-invalid', path: file, message: `the plugin manifest is not valid JSON (${(e as Error).message})` });
    }
    return undefined;
  }

  private pluginSkill(plugin: string, root: string, dir: string, folderName: string, pluginRootSkill: boolean): void {
    const file = path.join(dir, 'SKILL.md');
    const entry = this.push({
      kind: 'skill', level: 'plugin', path: file, dir, root, folderName, displayName: folderName, name: `${plugin}:${folderName}`,
      invocation: `/${plugin}:${folderName}`, plugin, bareInvocation: `/${folderName}`,
    }, true);
    if (!entry.loaded) return;
    // In a plugin, frontmatter `name` replaces the last part of the command (for a plugin-root SKILL.md, the whole of it).
    const last = entry.meta.name ?? (pluginRootSkill ? path.basename(root) : folderName);
    entry.displayName = entry.meta.name ?? folderName;
    entry.name = `${plugin}:${last}`;
    entry.invocation = `/${entry.name}`;
    entry.bareInvocation = `/${last}`;
  }

  /**
   * A plugin's skills folder. `listed`: the folders the manifest's `skills` lists, each read as a skills folder of its
   * own: one of them inside this folder (`"skills": ["./skills/documents"]`) holds skills, not files too deep.
   */
  private pluginSkillsDir(plugin: string, root: string, dir: string, listed?: ReadonlySet<string>): void {
    const listing = this.list(dir);
    if (!listing) return;
    if (listing.names.has('SKILL.md') && dir !== root) {
      this.pluginSkill(plugin, root, dir, path.basename(dir), false);
      return;
    }
    for (const e of listing.entries) {
      if (SKIPPED_FOLDERS.has(e.name) || e.name.startsWith('.')) continue;
      const sub = path.join(dir, e.name);
      if (listed?.has(sub) || !this.isDir(sub, e)) continue;
      if (this.fs.readDir(sub)?.some((x) => x.name === 'SKILL.md')) this.pluginSkill(plugin, root, sub, e.name, false);
      else this.deepSkills(sub, 'plugin', dir, DEEP_SKILL_DEPTH, 'deeper', (file) => `only direct children of ${dir} are skills; ${path.relative(dir, file).split(path.sep).join('/')} is deeper`, listed);
    }
  }

  /** One plugin: `skills/<dir>/SKILL.md` (+ manifest `skills` folders), else a root SKILL.md; `commands/` (or manifest `commands`). */
  plugin(root: string, name: string, manifest: Record<string, unknown> | undefined): void {
    this.pluginFailure = manifestError(this.fs, root) ?? marketplaceError(this.fs, root, manifest);
    try {
      this.pluginComponents(root, name, manifest);
    } finally {
      this.pluginFailure = undefined;
    }
  }

  private pluginComponents(root: string, name: string, manifest: Record<string, unknown> | undefined): void {
    const paths = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const extraSkills = paths(manifest?.skills).map((p) => path.resolve(root, p));
    const skillsDir = path.join(root, 'skills');
    const hasSkillsDir = this.fs.stat(skillsDir)?.isDirectory === true;
    const listed = new Set(extraSkills.filter((d) => d !== root && d !== skillsDir));
    if (hasSkillsDir) this.pluginSkillsDir(name, root, skillsDir, listed);
    for (const d of extraSkills) {
      if (d === root) {
        if (this.fs.readDir(root)?.some((x) => x.name === 'SKILL.md')) this.pluginSkill(name, root, root, path.basename(root), true);
      } else if (d !== skillsDir) this.pluginSkillsDir(name, root, d, listed);
    }
    if (!hasSkillsDir && manifest?.skills === undefined && this.fs.readDir(root)?.some((x) => x.name === 'SKILL.md')) {
      this.pluginSkill(name, root, root, path.basename(root), true);
    }
    const commands = manifest?.commands !== undefined ? paths(manifest.commands).map((p) => path.resolve(root, p)) : [path.join(root, 'commands')];
    for (const c of commands) {
      const st = this.fs.stat(c);
      if (st?.isDirectory) this.commandsFolder(c, 'plugin', { plugin: name });
      else if (st?.isFile && c.endsWith('.md')) this.commandFile(c, 'plugin', [path.basename(c, '.md')], path.dirname(c), name);
    }
  }

  /** The plugins installed under `<configDir>/plugins` (installed_plugins.json; else a bounded search of its cache). */
  installedPlugins(configDir: string, enabled: Record<string, boolean>): void {
    const pluginsDir = path.join(configDir, 'plugins');
    const file = path.join(pluginsDir, 'installed_plugins.json');
    if (this.fs.stat(file)?.isFile) {
      let data: unknown;
      try { data = JSON.parse(this.fs.readFile(file).toString('utf8')); } catch (e) {
        this.problems.push({ code: 'plugins-invalid', path: file, message: `not valid JSON (${(e as Error).message}); no installed plugin is loaded` });
        return;
      }
      const plugins = data && typeof data === 'object' ? (data as { plugins?: unknown }).plugins : undefined;
      if (!plugins || typeof plugins !== 'object') {
        this.problems.push({ code: 'plugins-invalid', path: file, message: 'no `plugins` object; no installed plugin is loaded' });
        return;
      }
      for (const [key, value] of Object.entries(plugins as Record<string, unknown>)) {
        if (enabled[key] === false) continue;
        for (const install of Array.isArray(value) ? value : [value]) {
          const p = install && typeof install === 'object' ? (install as { installPath?: unknown }).installPath : undefined;
          if (typeof p !== 'string' || !p || !this.fs.stat(p)?.isDirectory) continue;
          const manifest = this.manifest(p);
          this.plugin(p, pluginName(manifest, key.split('@')[0] || path.basename(p)), manifest);
        }
      }
      return;
    }
    const search = (dir: string, depth: number): void => {
      const listing = this.list(dir);
      if (!listing) return;
      if (listing.names.has('.claude-plugin') && this.fs.stat(path.join(dir, '.claude-plugin', 'plugin.json'))?.isFile) {
        const manifest = this.manifest(dir);
        this.plugin(dir, pluginName(manifest, path.basename(dir)), manifest);
        return;
      }
      if (depth <= 0) return;
      for (const e of listing.entries) if (e.isDirectory && !SKIPPED_FOLDERS.has(e.name)) search(path.join(dir, e.name), depth - 1);
    };
    search(path.join(pluginsDir, 'cache'), PLUGIN_SEARCH_DEPTH);
  }

  /** Nested `.claude/skills` below `startDir` (not the start folder's own), by a bounded walk. */
  nestedFolders(startDir: string, boundary: string, maxDepth: number): Array<{ dir: string; skills: string }> {
    const found: Array<{ dir: string; skills: string }> = [];
    const visited = new Set<string>();
    const inside = (real: string) => real === boundary || real.startsWith(boundary.endsWith(path.sep) ? boundary : boundary + path.sep);
    const walk = (dir: string, depth: number): void => {
      const real = this.fs.realPath(dir) ?? dir;
      if (visited.has(real) || !inside(real)) return;
      visited.add(real);
      const listing = this.list(dir);
      if (!listing) return;
      if (dir !== startDir && listing.names.has('.claude')) {
        const skills = path.join(dir, '.claude', 'skills');
        if (this.fs.stat(skills)?.isDirectory) found.push({ dir, skills });
      }
      if (depth >= maxDepth) return;
      for (const e of listing.entries) {
        if (e.name.startsWith('.') || SKIPPED_FOLDERS.has(e.name)) continue;
        const sub = path.join(dir, e.name);
        if (e.isDirectory || (e.isSymbolicLink && this.fs.stat(sub)?.isDirectory)) walk(sub, depth + 1);
      }
    };
    walk(startDir, 0);
    return found;
  }
}

function precedence(e: ClaudeEntry): number {
  return (e.kind === 'skill' ? 0 : 100) + LEVEL_RANK[e.level];
}

function levelWords(e: ClaudeEntry): string {
  return `${e.level} ${e.kind}`;
}

function shadow(loser: ClaudeEntry, winner: ClaudeEntry): void {
  loser.shadowedBy = winner.path;
  let why: string;
  if (loser.level === 'synced') why = 'a skill synced from claude.ai yields to any other command of the same name';
  else if (winner.kind === 'skill' && loser.kind === 'command') why = 'a skill wins over a command of the same name';
  else if (winner.level === loser.level) why = `the ${winner.level} folder closer to the start folder wins`;
  else why = 'managed > personal > project > additional folders';
  loser.shadowReason = `${levelWords(winner)} ${winner.invocation} at ${winner.path} wins: ${why}`;
}

/**
 * A command name as Claude Code compares a synced skill's name with the others: compatibility forms folded (NFKC), dash
 * variants as `-`, spacing and invisible characters dropped, lower case. Look-alike letters of other alphabets stay apart.
 */
export function foldCommandName(name: string): string {
  return name.normalize('NFKC').replace(/[\u2010-\u2015\u2212\ufe58\ufe63]/g, '-').replace(/[\s\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, '').toLowerCase();
}

/** Decides names and winners over the collected entries (in collection order within each level). */
function resolvePrecedence(entries: ClaudeEntry[], settings: ClaudeSettings, bundledOff: boolean): void {
  const loaded = entries.filter((e) => e.loaded);
  // 1. Managed, personal, project, additional skills and commands, and plugins' namespaced names.
  const byName = new Map<string, ClaudeEntry[]>();
  for (const e of loaded) {
    if (e.level === 'nested' || e.level === 'synced') continue;
    const list = byName.get(e.name);
    if (list) list.push(e); else byName.set(e.name, [e]);
  }
  for (const list of byName.values()) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => precedence(a) - precedence(b));
    for (const loser of sorted.slice(1)) shadow(loser, sorted[0]);
  }
  // 2. Nested skills keep their folder name unless it clashes; then the directory-qualified name.
  const nested = loaded.filter((e) => e.level === 'nested');
  const nestedCount = new Map<string, number>();
  for (const e of nested) nestedCount.set(e.name, (nestedCount.get(e.name) ?? 0) + 1);
  for (const e of nested) {
    if (byName.has(e.name) || (nestedCount.get(e.name) ?? 0) > 1 || builtinCommand(e.name)) {
      e.name = `${e.nestedDir}:${e.folderName}`;
      e.invocation = `/${e.name}`;
    }
  }
  // 3. Claude Code's own names: built-in commands, workflows and aliases win; a bundled skill is replaced.
  const taken = new Set<string>();
  for (const e of loaded) {
    if (e.level === 'synced') continue;
    taken.add(e.name);
    const b = builtinCommand(e.name);
    if (!b) continue;
    const active = activeBuiltin(e.name, bundledOff);
    const winner = b.kind === 'bundled-skill' || !active ? 'entry' : 'builtin';
    e.builtinClash = { name: b.name, kind: b.kind, ...(b.aliasOf ? { aliasOf: b.aliasOf } : {}), winner };
    if (winner === 'builtin' && !e.shadowedBy) {
      e.shadowedBy = `builtin:/${b.name}`;
      e.shadowReason = b.kind === 'alias'
        ? `/${b.name} is Claude Code's alias of /${b.aliasOf}, which always wins`
        : `/${b.name} is a Claude Code built-in ${b.kind === 'workflow' ? 'workflow' : 'command'}, which always wins`;
    }
  }
  // 4. A plugin's bare `/name` works only while nothing else uses that name.
  const bare = new Map<string, number>();
  for (const e of loaded) if (e.bareInvocation) bare.set(e.bareInvocation, (bare.get(e.bareInvocation) ?? 0) + 1);
  for (const e of loaded) {
    if (!e.bareInvocation) continue;
    const n = e.bareInvocation.slice(1);
    if (taken.has(n) || builtinCommand(n) || (bare.get(e.bareInvocation) ?? 0) > 1) delete e.bareInvocation;
  }
  // 5. A synced skill is skipped when any other command has its name, even a built-in that is unavailable.
  for (const e of loaded) {
    if (e.level !== 'synced') continue;
    if (!settings.syncClaudeAiSkills) {
      e.loaded = false;
      e.invocation = null;
      e.notLoadedReason = '`syncClaudeAiSkills` is false: Claude Code hides the skills synced from claude.ai';
      e.notLoadedCode = 'sync-off';
      continue;
    }
    // Names compare folded: "Claude Code ignores case, spacing, and invisible characters, and treats compatibility forms
    // such as fullwidth letters and dash variants as their plain equivalents, so a synced `Commit` can't load beside a
    // local `commit`" (docs/skills.md).
    const folded = foldCommandName(e.name);
    const winner = byName.get(e.name)?.find((x) => !x.shadowedBy)
      ?? loaded.find((x) => x !== e && x.level !== 'synced' && !x.shadowedBy && (foldCommandName(x.name) === folded || (x.bareInvocation !== undefined && foldCommandName(x.bareInvocation.slice(1)) === folded)))
      ?? loaded.find((x) => x !== e && x.level !== 'synced' && (foldCommandName(x.name) === folded || (x.bareInvocation !== undefined && foldCommandName(x.bareInvocation.slice(1)) === folded)));
    if (winner) shadow(e, winner);
    else if (builtinCommand(e.name) || builtinCommand(folded)) {
      const builtin = builtinCommand(e.name) ? e.name : folded;
      e.shadowedBy = `builtin:/${builtin}`;
      e.shadowReason = `/${builtin} is a Claude Code name; a skill synced from claude.ai yields to it`;
    }
  }
  // 6. skillOverrides by command name (never for plugin entries).
  for (const e of loaded) {
    if (e.level === 'plugin') continue;
    const o = settings.skillOverrides[e.name];
    if (o !== undefined) e.override = o;
  }
}

/** Levels a managed `strictPluginOnlyCustomization` lock on skills stops (plugin and managed skills still load). */
const USER_LEVELS: ReadonlySet<ClaudeLevel> = new Set(['personal', 'project', 'additional', 'nested', 'synced']);

/**
 * Entries an administrator's policy keeps from loading: with `strictPluginOnlyCustomization` (skills), every personal,
 * project, `--add-dir` and synced skill and command ("Claude Code stops loading skills from `~/.claude/skills/` and
 * `.claude/skills/`, custom commands from `~/.claude/commands/` and `.claude/commands/`, skills under `--add-dir`
 * directories, and skills synced from your claude.ai account", docs/settings-reference.md); with
 * `CLAUDE_CODE_DISABLE_POLICY_SKILLS=1`, managed skills ("skip loading skills from the system-wide managed skills
 * directory", docs/env-vars.md).
 */
function applyPolicy(entries: ClaudeEntry[], settings: ClaudeSettings, env: Readonly<Record<string, string | undefined>>): void {
  const noManagedSkills = env.CLAUDE_CODE_DISABLE_POLICY_SKILLS === '1';
  if (!settings.strictPluginOnlySkills && !noManagedSkills) return;
  for (const e of entries) {
    if (!e.loaded) continue;
    let reason: string | undefined;
    if (settings.strictPluginOnlySkills && USER_LEVELS.has(e.level)) reason = 'managed settings set `strictPluginOnlyCustomization` for skills: only plugin and managed skills load';
    else if (noManagedSkills && e.level === 'managed' && e.kind === 'skill') reason = '`CLAUDE_CODE_DISABLE_POLICY_SKILLS=1`: Claude Code skips the managed skills folder';
    if (reason === undefined) continue;
    e.loaded = false;
    e.invocation = null;
    delete e.bareInvocation;
    e.notLoadedReason = reason;
    e.notLoadedCode = 'policy';
  }
}

/**
 * Whether a folder inside the repository is git-ignored: the `.gitignore` files from the repository root down to the
 * folder's parent, later (deeper) patterns over earlier ones, `!` re-including. Returns the pattern that ignores it (or
 * one of its parents; git never looks inside an ignored folder), else undefined.
 */
function gitIgnoredMatcher(fs: FileSystem, repoRoot: string): (dir: string) => string | undefined {
  const cache = new Map<string, Array<{ re: RegExp; negate: boolean; text: string }>>();
  const patternsOf = (folder: string) => {
    let list = cache.get(folder);
    if (list) return list;
    list = [];
    let text = '';
    try {
      if (fs.stat(path.join(folder, '.gitignore'))?.isFile) text = fs.readFile(path.join(folder, '.gitignore')).toString('utf8');
    } catch { /* unreadable: nothing ignored by it */ }
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/\s+$/, '');
      if (!line || line.startsWith('#')) continue;
      const negate = line.startsWith('!');
      try { list.push({ re: globToRegExp(negate ? line.slice(1) : line), negate, text: line }); } catch { /* malformed: ignored */ }
    }
    cache.set(folder, list);
    return list;
  };
  return (dir) => {
    const rel = path.relative(repoRoot, dir);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    const parts = rel.split(path.sep);
    // Each folder from the top: once one is ignored, nothing below it is looked at.
    for (let depth = 1; depth <= parts.length; depth++) {
      let hit: string | undefined;
      for (let up = 0; up < depth; up++) {
        const base = path.join(repoRoot, ...parts.slice(0, up));
        const relHere = parts.slice(up, depth).join('/');
        for (const p of patternsOf(base)) if (p.re.test(relHere)) hit = p.negate ? undefined : p.text;
      }
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
}

/** Builds the model for a start folder. */
export function buildClaudeModel(fs: FileSystem, opts: ClaudeModelOptions): ClaudeModel {
  const startDir = path.resolve(opts.startDir);
  const shellEnv = opts.env ?? {};
  const repo = findRepoRoot(fs, startDir);
  const repoRoot = repo ?? startDir;
  const configDir = opts.home !== undefined ? claudeConfigDir(opts.home, shellEnv) : undefined;
  const managedDir = opts.managedDir === null ? undefined : opts.managedDir ?? defaultManagedDir(opts.platform ?? process.platform);
  const settings = opts.settings ?? readClaudeSettings(fs, { projectDir: startDir, configDir, managedDir, repoRoot: repo, home: opts.home });
  const env = effectiveEnv(shellEnv, settings);
  const bundledDisabled = bundledSkillsDisabled(settings, env);
  const b = new Builder(fs, opts.readMeta ?? defaultMetaReader(fs));

  const claudeDirs: Array<{ base: string; level: ClaudeLevel; skillsDirPlugins: boolean }> = [];
  if (managedDir !== undefined) claudeDirs.push({ base: path.join(managedDir, '.claude'), level: 'managed', skillsDirPlugins: true });
  if (configDir !== undefined) claudeDirs.push({ base: configDir, level: 'personal', skillsDirPlugins: true });
  projectFolders(startDir, repo).forEach((d, i) => claudeDirs.push({ base: path.join(d, '.claude'), level: 'project', skillsDirPlugins: i === 0 }));
  for (const d of opts.additionalDirs ?? []) claudeDirs.push({ base: path.join(path.resolve(startDir, d), '.claude'), level: 'additional', skillsDirPlugins: false });

  const seenBases = new Set<string>();
  for (const c of claudeDirs) {
    const real = fs.realPath(c.base) ?? c.base;
    if (seenBases.has(real)) continue;
    seenBases.add(real);
    const skills = path.join(c.base, 'skills');
    b.skillsFolder(skills, c.level, { syncedHere: c.level === 'personal', skillsDirPlugins: c.skillsDirPlugins });
  }
  for (const c of claudeDirs) {
    const real = fs.realPath(c.base) ?? c.base;
    if (seenBases.has(`commands:${real}`)) continue;
    seenBases.add(`commands:${real}`);
    b.commandsFolder(path.join(c.base, 'commands'), c.level);
  }
  for (const p of opts.pluginDirs ?? []) {
    const root = path.resolve(startDir, p);
    const manifest = b.manifest(root);
    b.plugin(root, pluginName(manifest, path.basename(root)), manifest);
  }
  if (configDir !== undefined && opts.installedPlugins !== false) b.installedPlugins(configDir, settings.enabledPlugins);
  if (opts.nested !== false) {
    const boundary = fs.realPath(opts.workspaceRoot ?? repoRoot) ?? path.resolve(opts.workspaceRoot ?? repoRoot);
    const found = opts.nestedFolders
      ? opts.nestedFolders.filter((d) => path.resolve(d) !== startDir).map((d) => ({ dir: path.resolve(d), skills: path.join(path.resolve(d), '.claude', 'skills') }))
      : b.nestedFolders(startDir, boundary, opts.maxDepth ?? 8);
    const ignored = repo !== undefined ? gitIgnoredMatcher(fs, repo) : undefined;
    for (const n of found) {
      const from = b.entries.length;
      b.skillsFolder(n.skills, 'nested', { nestedDir: path.relative(startDir, n.dir).split(path.sep).join('/'), skillsDirPlugins: false });
      const rule = ignored?.(n.dir);
      if (rule === undefined) continue;
      // changelog 2.1.69: "Fixed a security issue where nested skill discovery could load skills from gitignored directories".
      for (const e of b.entries.slice(from)) {
        if (!e.loaded) continue;
        e.loaded = false;
        e.invocation = null;
        e.notLoadedReason = `the folder is git-ignored (${rule}): Claude Code does not discover nested skills there`;
        e.notLoadedCode = 'git-ignored';
      }
    }
  }
  const entries = b.entries;
  applyPolicy(entries, settings, env);
  resolvePrecedence(entries, settings, bundledDisabled);
  return {
    startDir, repoRoot, configDir, managedDir, entries, settings, env, bundledDisabled,
    problems: [...settings.problems, ...b.problems],
  };
}
