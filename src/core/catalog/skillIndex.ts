/**
 * The skills index behind the tree, the diagnostics of closed files and Search Skills.
 * vscode-free on purpose (the bench runs it in plain Node): the extension feeds it changed paths.
 * Keys skills by folder; a change re-reads only the skills whose folders it touched.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import type { Profile } from '../base/types';
import type { AgentEntry, SkillEntry, SkillsRoot } from '../skillmd/model';
import { applyCrossSkillRules } from '../discovery/crossSkill';
import { discover } from '../discovery/discover';
import { findSkillsRoots, listSkillFolders } from '../discovery/roots';
import { loadAgents } from '../discovery/agents';
import { loadSkill } from '../discovery/load';

export interface SkillIndexOptions {
  workspaceFolders: string[];
  /** Home directory for personal skills; ignored when includePersonal is false. */
  home?: string;
  includePersonal: boolean;
  profile: Profile;
}

/** What one update changed: skill folders whose entries changed (added, edited, removed, or re-flagged by cross-skill rules). */
export interface IndexChange {
  skills: Set<string>;
  /** Skill folders that appeared or disappeared, or roots that changed: the tree's grouping must be rebuilt. */
  structural: boolean;
  agents: boolean;
}

const AGENT_FILE = /[\\/]\.claude[\\/]agents[\\/][^\\/]+\.md$/;

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function problemSignature(s: SkillEntry): string {
  return `${s.shadowedBy ?? ''}|${s.problems.map((p) => `${p.code}@${p.line}:${p.column}`).join(',')}`;
}

export class SkillIndex {
  private rootList: SkillsRoot[] = [];
  private readonly skillsByDir = new Map<string, SkillEntry>();
  private agentList: AgentEntry[] = [];
  private loadedFlag = false;
  private sorted: SkillEntry[] | undefined;
  /** Duration of the last full load in milliseconds. */
  lastLoadMs = 0;

  constructor(private readonly fs: FileSystem, private opts: SkillIndexOptions) {}

  get loaded(): boolean { return this.loadedFlag; }
  get options(): Readonly<SkillIndexOptions> { return this.opts; }
  get roots(): readonly SkillsRoot[] { return this.rootList; }
  get agents(): readonly AgentEntry[] { return this.agentList; }

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

  /** The skill whose folder contains `file` (any depth). */
  skillContaining(file: string): SkillEntry | undefined {
    for (const root of this.rootList) {
      if (!isInside(file, root.path)) continue;
      const folder = path.relative(root.path, file).split(path.sep)[0];
      const entry = this.skillsByDir.get(path.join(root.path, folder));
      if (entry) return entry;
    }
    return undefined;
  }

  /** Names an agent's `skills:` may use: `name`, and `plugin:name` for plugin skills. */
  knownSkillNames(): Set<string> {
    const known = new Set<string>();
    for (const s of this.skillsByDir.values()) {
      known.add(s.name);
      if (s.root.plugin !== undefined) known.add(`${s.root.plugin}:${s.name}`);
    }
    return known;
  }

  /** Loads everything once (the first tree render or a command asks). */
  ensureLoaded(): void {
    if (!this.loadedFlag) this.reload();
  }

  /** Full re-scan (Refresh, profile or folder changes). */
  reload(): void {
    const started = performance.now();
    const discovery = discover(this.fs, {
      workspaceFolders: this.opts.workspaceFolders,
      home: this.opts.includePersonal ? this.opts.home : undefined,
      profile: this.opts.profile,
    });
    this.rootList = discovery.roots;
    this.sorted = undefined;
    this.skillsByDir.clear();
    for (const s of discovery.skills) this.skillsByDir.set(s.dir, s);
    this.agentList = discovery.agents;
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
      if (AGENT_FILE.test(p)) agentsDirty = true;
      const root = this.rootList.find((r) => isInside(p, r.path) || p === r.path);
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
    for (const [dir, { root, folderName }] of dirty) {
      const old = this.skillsByDir.get(dir);
      const fresh = loadSkill(this.fs, root, folderName, this.opts.profile);
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

    applyCrossSkillRules([...this.skillsByDir.values()]);
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

  private reloadAgents(): void {
    const known = this.knownSkillNames();
    this.agentList = this.opts.workspaceFolders.flatMap((f) => loadAgents(this.fs, f, known));
  }

  /** Sum of the description lengths of the skills Claude Code would list (shadowed ones are hidden). */
  listingChars(): number {
    let sum = 0;
    for (const s of this.skillsByDir.values()) if (!s.shadowedBy) sum += s.description?.length ?? 0;
    return sum;
  }
}
