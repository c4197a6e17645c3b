/**
 * The skills index behind the tree, the diagnostics of closed files and Search Skills.
 * vscode-free on purpose (the bench runs it in plain Node): the extension feeds it changed paths.
 * Keys skills by folder; a change re-reads only the skills whose folders it touched.
 */
import * as path from 'node:path';
import type { DirEntry, FileSystem } from '../base/fs';
import type { Problem, Profile } from '../base/types';
import type { AgentEntry, SkillEntry, SkillsRoot } from '../skillmd/model';
import type { ClaudeModel } from '../claude/load';
import { discover, knownSkillNames, wireClaudeModel } from '../discovery/discover';
import { carryClaudeView, modelBlockedSkills } from '../discovery/claudeWiring';
import { findSkillsRoots, listSkillFolders } from '../discovery/roots';
import { type AgentDir, loadAgentDir, loadAgents } from '../discovery/agents';
import { loadSkill, type LoadedSkillEntry, type SkillLoader } from '../discovery/load';

export interface SkillIndexOptions {
  workspaceFolders: string[];
  /** Home directory for personal skills, commands, user settings and installed plugins; ignored when includePersonal is false. */
  home?: string;
  includePersonal: boolean;
  profile: Profile;
  /** The managed-settings folder; the OS default when undefined, none when null. */
  managedDir?: string | null;
  /** `--add-dir` folders (absolute, or relative to each workspace folder). */
  additionalDirs?: readonly string[];
  /** The environment (`CLAUDE_CONFIG_DIR`); none when undefined. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What one update changed: skill folders whose entries changed (added, edited, removed, or re-flagged by cross-skill rules). */
export interface IndexChange {
  skills: Set<string>;
  /** Skill folders that appeared or disappeared, or roots that changed: the tree's grouping must be rebuilt. */
  structural: boolean;
  agents: boolean;
}

/** How a load may go through a cache: its loader, and a view of the file system that it watches. */
export interface LoadVia {
  loader: SkillLoader;
  observe(fs: FileSystem): FileSystem;
}

/** Anything below a `.claude/agents` folder (a file, or a subfolder that was removed or added): agents are re-read. */
const AGENT_FILE = /[\\/]\.claude[\\/]agents([\\/]|$)/;
/** A command file or folder, or a Claude Code settings file: what Claude Code loads changes as a whole. */
const CLAUDE_WIDE = /[\\/]\.claude[\\/](commands([\\/]|$)|settings(\.local)?\.json$)/;

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function problemSignature(s: SkillEntry): string {
  return `${s.invocation ?? ''}|${s.loaded}|${s.level}|${s.shadowedBy ?? ''}|${s.problems.map((p) => `${p.code}@${p.line}:${p.column}`).join(',')}`;
}

export class SkillIndex {
  private rootList: SkillsRoot[] = [];
  private readonly skillsByDir = new Map<string, LoadedSkillEntry>();
  private modelList: ClaudeModel[] = [];
  private agentList: AgentEntry[] = [];
  /** The agent folders of the last full load (projects' `.claude/agents`, plugins' `agents`). */
  private agentDirs: AgentDir[] = [];
  private loadedFlag = false;
  private sorted: SkillEntry[] | undefined;
  /**
   * What the model's rebuild read of each skill folder (a direct child of a skills root): its listing and real path,
   * kept until an event touches that folder, so a new skill folder costs one folder's reads, not every skill's.
   */
  private readonly folderReads = new Map<string, { dir?: DirEntry[] | null; real?: string | null }>();
  /** Duration of the last full load in milliseconds. */
  lastLoadMs = 0;

  constructor(private readonly fs: FileSystem, private opts: SkillIndexOptions) {}

  get loaded(): boolean { return this.loadedFlag; }
  get options(): Readonly<SkillIndexOptions> { return this.opts; }
  get roots(): readonly SkillsRoot[] { return this.rootList; }
  get agents(): readonly AgentEntry[] { return this.agentList; }
  /** Claude Code's model of each workspace folder, in order (docs/claude-code-model.md). */
  get models(): readonly ClaudeModel[] { return this.modelList; }

  /** Every indexed skill, sorted by name then path (one array until the index changes: the tree asks for it per row). */
  get skills(): readonly SkillEntry[] {
    this.sorted ??= [...this.skillsByDir.values()].sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir));
    return this.sorted;
  }

  skillByDir(dir: string): SkillEntry | undefined {
    return this.skillsByDir.get(dir);
  }

  /** The indexed skill whose SKILL.md (or skill.md) is `file`, or the command whose file it is (a command's `dir` is its file). */
  skillByFile(file: string): SkillEntry | undefined {
    const entry = this.skillsByDir.get(path.dirname(file)) ?? this.skillsByDir.get(file);
    return entry && entry.skillMdPath === file ? entry : undefined;
  }

  /** The skill whose folder contains `file` (any depth), or the command that is `file`. */
  skillContaining(file: string): SkillEntry | undefined {
    const own = this.skillsByDir.get(file);
    if (own) return own;
    for (const root of this.rootList) {
      if (!isInside(file, root.path)) continue;
      const folder = path.relative(root.path, file).split(path.sep)[0];
      const entry = this.skillsByDir.get(path.join(root.path, folder));
      if (entry) return entry;
    }
    return undefined;
  }

  /**
   * Every problem of the loaded skills and agents by the file it is in (a problem's `file`, else its SKILL.md or agent
   * file); every SKILL.md and agent file is there, with an empty list when it has none.
   */
  problemsByFile(): Map<string, Problem[]> {
    const byFile = new Map<string, Problem[]>();
    const add = (file: string, p: Problem) => {
      const list = byFile.get(file) ?? [];
      list.push(p);
      byFile.set(file, list);
    };
    for (const s of this.skills) {
      byFile.set(s.skillMdPath, byFile.get(s.skillMdPath) ?? []);
      for (const p of s.problems) add(p.file ?? s.skillMdPath, p);
    }
    for (const a of this.agents) {
      byFile.set(a.path, byFile.get(a.path) ?? []);
      for (const p of a.problems) add(p.file ?? a.path, p);
    }
    return byFile;
  }

  /** Names an agent's `skills:` may use: command and frontmatter names, and `plugin:name` for plugin skills. */
  knownSkillNames(): Set<string> {
    return knownSkillNames([...this.skillsByDir.values()]);
  }

  private startOptions() {
    return {
      home: this.opts.includePersonal ? this.opts.home : undefined,
      managedDir: this.opts.managedDir,
      additionalDirs: this.opts.additionalDirs,
      env: this.opts.env,
      profile: this.opts.profile,
    };
  }

  /**
   * Loads everything once (the first tree render or a command asks). `via`: the editor's start-up cache
   * (core/cache/loadCache.ts): its loader loads the skills, and every question of the load goes through `observe`.
   */
  ensureLoaded(via?: LoadVia): void {
    if (!this.loadedFlag) this.reload(via);
  }

  /** Forgets what was loaded: the next ensureLoaded() loads everything again (the editor's cold start, in tests). */
  unload(): void {
    this.loadedFlag = false;
  }

  /** Full re-scan (Refresh, profile or folder changes). */
  reload(via?: LoadVia): void {
    const started = performance.now();
    const discovery = discover(via ? via.observe(this.fs) : this.fs, { ...this.startOptions(), workspaceFolders: this.opts.workspaceFolders, loader: via?.loader });
    this.folderReads.clear();
    this.rootList = discovery.roots;
    this.modelList = discovery.models;
    this.sorted = undefined;
    this.skillsByDir.clear();
    for (const s of discovery.skills) this.skillsByDir.set(s.dir, s);
    this.agentList = discovery.agents;
    this.agentDirs = discovery.agentDirs ?? [];
    this.loadedFlag = true;
    this.lastLoadMs = performance.now() - started;
  }

  /** Changes the options; returns true when a loaded index was rebuilt. */
  setOptions(opts: Partial<SkillIndexOptions>): boolean {
    this.opts = { ...this.opts, ...opts };
    if (!this.loadedFlag) return false;
    this.reload();
    return true;
  }

  /** Applies file-system changes (created, changed or deleted paths); re-reads only the affected skills. */
  applyChanges(paths: Iterable<string>): IndexChange {
    const change: IndexChange = { skills: new Set(), structural: false, agents: false };
    if (!this.loadedFlag) return change;
    this.sorted = undefined;
    const dirty = new Map<string, { root: SkillsRoot; folderName: string }>();
    const foldersToRescan = new Set<string>();
    let agentsDirty = false;
    let personalDirty = false;

    for (const p of paths) {
      this.forgetReads(p);
      if (CLAUDE_WIDE.test(p)) { personalDirty = true; continue; }
      if (AGENT_FILE.test(p) || this.agentDirs.some((d) => d.plugin !== undefined && (p === d.dir || isInside(p, d.dir)))) agentsDirty = true;
      // The deepest root holding it (a misplaced `.claude/skills/group/x` has a root of its own inside `.claude/skills`).
      let root: SkillsRoot | undefined;
      for (const r of this.rootList) if ((isInside(p, r.path) || p === r.path) && (!root || r.path.length > root.path.length)) root = r;
      if (root && p !== root.path) {
        const folderName = path.relative(root.path, p).split(path.sep)[0];
        dirty.set(path.join(root.path, folderName), { root, folderName });
        continue;
      }
      if (root && p === root.path && this.fs.stat(p)?.isDirectory) continue;
      // Outside every known root (or a root itself disappeared): a skills root may have appeared or gone.
      if (agentsDirty && !root) continue;
      const folder = this.opts.workspaceFolders.find((f) => isInside(p, f) || p === f);
      if (folder) foldersToRescan.add(folder);
      else if (this.opts.home && isInside(p, this.opts.home)) personalDirty = true;
    }

    if (personalDirty) {
      const before = new Set(this.skillsByDir.keys());
      this.reload();
      for (const d of new Set([...before, ...this.skillsByDir.keys()])) change.skills.add(d);
      return { skills: change.skills, structural: true, agents: true };
    }

    for (const folder of foldersToRescan) {
      const fresh = findSkillsRoots(this.fs, folder).map((r) => ({ ...r, workspaceFolder: r.workspaceFolder ?? folder }));
      const old = this.rootList.filter((r) => r.scope !== 'personal' && (r.workspaceFolder === folder || isInside(r.path, folder)));
      const freshPaths = new Set(fresh.map((r) => r.path));
      const oldPaths = new Set(old.map((r) => r.path));
      for (const r of old) {
        if (freshPaths.has(r.path)) continue;
        for (const [dir, s] of this.skillsByDir) {
          if (s.root.path === r.path) { this.skillsByDir.delete(dir); change.skills.add(dir); change.structural = true; }
        }
      }
      for (const r of fresh) {
        if (oldPaths.has(r.path)) continue;
        change.structural = true;
        for (const name of listSkillFolders(this.fs, r)) dirty.set(path.join(r.path, name), { root: r, folderName: name });
      }
      this.rootList = [...this.rootList.filter((r) => !oldPaths.has(r.path) || freshPaths.has(r.path)), ...fresh.filter((r) => !oldPaths.has(r.path))];
    }

    const before = new Map([...this.skillsByDir].map(([d, s]) => [d, problemSignature(s)]));
    const namesBefore = [...this.skillsByDir.values()].map((s) => s.name).sort().join('\n');
    // The model is built again only when what it reads may have changed; an edit that keeps the skill's place, name
    // range and Claude Code metadata keeps Claude Code's view of it.
    let remodel = change.structural || foldersToRescan.size > 0;
    for (const [dir, { root, folderName }] of dirty) {
      const old = this.skillsByDir.get(dir);
      const fresh = loadSkill(this.fs, root, folderName, this.opts.profile);
      // A folder just made, with nothing in it yet (its SKILL.md comes next): nothing Claude Code reads changed.
      if (!fresh && !old && this.fs.readDir(dir)?.length === 0) continue;
      if (!fresh || !old || !carryClaudeView(old, fresh, this.modelList)) remodel = true;
      if (!fresh) {
        if (old) { this.skillsByDir.delete(dir); change.skills.add(dir); change.structural = true; }
        continue;
      }
      if (!old || old.name !== fresh.name || old.kind !== fresh.kind) change.structural = true;
      if (!old || old.stamp !== fresh.stamp || old.files.join('\n') !== fresh.files.join('\n') || old.description !== fresh.description) {
        change.skills.add(dir);
      }
      this.skillsByDir.set(dir, fresh);
    }
    if (dirty.size === 0 && !change.structural && !agentsDirty) return change;

    if (remodel || change.structural) this.rewire();
    for (const [dir, s] of this.skillsByDir) {
      if (before.get(dir) !== problemSignature(s)) change.skills.add(dir);
    }
    const namesAfter = [...this.skillsByDir.values()].map((s) => s.name).sort().join('\n');
    if (agentsDirty || namesAfter !== namesBefore) {
      this.reloadAgents();
      change.agents = true;
    }
    return change;
  }

  /** Claude Code's model over the current entries again (no file is re-read but those the model finds anew). */
  private rewire(): void {
    const wired = wireClaudeModel(this.modelFileSystem(), this.rootList.filter((r) => r.scope !== 'personal'), [...this.skillsByDir.values()], this.opts.workspaceFolders, this.startOptions());
    const known = new Set(this.rootList.map((r) => r.path));
    for (const r of wired.roots) if (!known.has(r.path)) { known.add(r.path); this.rootList.push(r); }
    this.skillsByDir.clear();
    for (const s of wired.skills) this.skillsByDir.set(s.dir, s);
    this.modelList = wired.models;
  }

  /** Drops what folderReads knows of `changed`, of the folders above it and of those below it. */
  private forgetReads(changed: string): void {
    if (!this.folderReads.size) return;
    for (let dir = changed; ; dir = path.dirname(dir)) {
      this.folderReads.delete(dir);
      if (path.dirname(dir) === dir) break;
    }
    const below = changed + path.sep;
    for (const dir of this.folderReads.keys()) if (dir.startsWith(below)) this.folderReads.delete(dir);
  }

  /**
   * The file system for a model rebuild: the listing and real path of a skill folder (a direct child of a skills root,
   * not a root itself) come from folderReads when known.
   */
  private modelFileSystem(): FileSystem {
    const fs = this.fs;
    const roots = new Set(this.rootList.map((r) => r.path));
    const reads = (p: string) => {
      if (!roots.has(path.dirname(p)) || roots.has(p)) return undefined;
      let known = this.folderReads.get(p);
      if (!known) this.folderReads.set(p, known = {});
      return known;
    };
    return {
      caseSensitive: fs.caseSensitive,
      stat: (p) => fs.stat(p),
      lstat: (p) => fs.lstat(p),
      lstatUncached: fs.lstatUncached && ((p) => fs.lstatUncached!(p)),
      readDir(p) {
        const known = reads(p);
        if (!known) return fs.readDir(p);
        if (known.dir === undefined) known.dir = fs.readDir(p) ?? null;
        return known.dir ?? undefined;
      },
      readFile: (p) => fs.readFile(p),
      readFileTransient: fs.readFileTransient && ((p, size) => fs.readFileTransient!(p, size)),
      realPath(p) {
        const known = reads(p);
        if (!known) return fs.realPath(p);
        if (known.real === undefined) known.real = fs.realPath(p) ?? null;
        return known.real ?? undefined;
      },
      writeFileAtomic: (p, data) => fs.writeFileAtomic(p, data),
      editFile: fs.editFile && ((p, edit, options) => fs.editFile!(p, edit, options)),
      mkdirp: (p) => fs.mkdirp(p),
    };
  }

  private reloadAgents(): void {
    const known = this.knownSkillNames();
    const blocked = modelBlockedSkills(this.modelList);
    const pluginDirs = this.agentDirs.filter((d) => d.plugin !== undefined);
    this.agentList = [
      ...this.opts.workspaceFolders.flatMap((f) => loadAgents(this.fs, f, known, blocked)),
      ...pluginDirs.flatMap((d) => loadAgentDir(this.fs, d, known, blocked)),
    ];
  }

  /** Sum of the description lengths of the skills Claude Code would list (shadowed and never-loaded ones are not). */
  listingChars(): number {
    let sum = 0;
    for (const s of this.skillsByDir.values()) if (s.loaded && !s.shadowedBy) sum += s.description?.length ?? 0;
    return sum;
  }
}
