/**
 * Resolves the reference candidates of one SKILL.md body (references/markdown.ts finds them) against the skill folder,
 * or for `other-skill/…` the skills root, then the plugin root in plugin layouts, and reports `reference-missing`,
 * `reference-outside` (a milder variant when the target stays in the repository) and `reference-backslash`.
 */
import * as nodePath from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../base/fs';
import type { Emit } from '../base/rules';
import { detach } from '../base/text';
import { isPlainDir } from '../base/pathJoin';
import type { SkillReference } from '../skillmd/model';
import { KNOWN_SEGMENTS, type ReferenceCandidate } from './extract';

/** The path of the entry of `dir` whose name equals `name` but for letter case, if any. */
function caseTwin(entries: Map<string, DirEntry>, dir: string, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const other of entries.keys()) if (other.toLowerCase() === lower) return nodePath.join(dir, other);
  return undefined;
}

/**
 * Plain targets take the fast path (ReferenceResolver.resolvePlain) where paths are POSIX and names case-sensitive
 * (`fs.caseSensitive`: an lstat then answers what a folder listing would, more cheaply).
 */
function fastPaths(fs: FileSystem): boolean {
  return fs.caseSensitive && nodePath.sep === '/';
}

/** True when `target` is `base` or below it; both absolute and normalised (string test: no `path.relative` cost). */
function isInside(base: string, target: string): boolean {
  if (target === base) return true;
  const prefix = base.endsWith(nodePath.sep) ? base : base + nodePath.sep;
  return target.startsWith(prefix);
}

/**
 * `path.join(base, ...segments)` for a normalised absolute `base` and segments without separators, '' or '.':
 * plain concatenation when no segment is '..' (POSIX), which is what path.join gives then, without its normalising pass.
 */
function joinUnder(base: string, segments: string[]): string {
  if (nodePath.sep !== '/' || base.endsWith('/') || segments.includes('..')) return nodePath.join(base, ...segments);
  return `${base}/${segments.join('/')}`;
}

function decode(target: string): string {
  try { return decodeURIComponent(target); } catch { return target; }
}

/** A candidate's target as a path: a link's decoded, `\` read as `/`. */
function writtenPath(c: ReferenceCandidate): string {
  return (c.kind === 'link' ? decode(c.target) : c.target).replace(/\\/g, '/');
}

/**
 * `path.resolve(p)`, without its normalising pass for a POSIX path it would return unchanged (absolute, no '//', '.'
 * or '..' segment, no trailing '/'), as discovery's skill and root folders are: two per skill are otherwise a
 * tenth of the reference checks' own work.
 */
function absolute(p: string): string {
  const normal = nodePath.sep === '/' && p.length > 1 && p.charCodeAt(0) === 0x2f && p.charCodeAt(p.length - 1) !== 0x2f
    && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
  return normal ? p : nodePath.resolve(p);
}

/**
 * A target written the plain way, `folder/file.md`: no empty, '.' or '..' segment, no '\', and in a link no '%'
 * (decoding changes nothing then). Below a skill folder it resolves by concatenation.
 */
function isPlain(t: string, kind: ReferenceCandidate['kind']): boolean {
  if (t.includes('\\') || (kind === 'link' && t.includes('%'))) return false;
  for (let start = 0; ;) {
    let end = t.indexOf('/', start);
    if (end < 0) end = t.length;
    const length = end - start;
    if (length === 0 || (t.charCodeAt(start) === 0x2e && (length === 1 || (length === 2 && t.charCodeAt(start + 1) === 0x2e)))) return false;
    if (end === t.length) return true;
    start = end + 1;
  }
}

/** How one written target resolves (memoised per call: bodies repeat the same targets). */
interface Resolution {
  resolved: string;
  crossSkill: boolean;
  exists: boolean;
  outside: boolean;
  viaSymlink: boolean;
  /** With viaSymlink: the real path the link leads to (of the target's deepest existing folder when it is missing). */
  realTarget?: string;
  /** Written relative to the skills root (`other-skill/…`): messages then speak of the root. */
  rootRelative: boolean;
  /** The skill a cross-skill reference points into. */
  otherSkill?: string;
  /** An existing path that differs only in letter case (it would not be found on Linux). */
  caseHint?: string;
  /** Written as an absolute path (`/etc/hosts`, `file:///…`). */
  absolute?: boolean;
}

/** A path below the skill folder as lstat found it, with the names below it asked for so far (the fast path's cache). */
interface PathNode {
  path: string;
  stat: FileStat | undefined;
  children: Map<string, PathNode> | undefined;
}

/** What the fast path leaves to the general one. */
const GENERAL = Symbol('general');

/**
 * Resolves the reference targets of one skill against the skill (or, for `other-skill/…`, the skills root), with
 * per-skill caches: a body names the same files and folders many times. Folder listings (one readDir per folder)
 * answer "exists?" and "symlink?" for every file in it, without an exception per missing file.
 */
class ReferenceResolver {
  readonly skill: string;
  readonly root: string | undefined;
  private stats: Map<string, FileStat | undefined> | undefined;
  private lists: Map<string, Map<string, DirEntry> | undefined> | undefined;
  /** The skill folder, root of the fast path's lstat tree; undefined where the fast path is off. */
  private readonly tree: PathNode | undefined;

  constructor(skillDir: string, rootDir: string | undefined, private readonly fs: FileSystem, fast: boolean) {
    this.skill = absolute(skillDir);
    this.root = rootDir === undefined ? undefined : absolute(rootDir);
    this.tree = fast && this.skill !== '/' ? { path: this.skill, stat: undefined, children: undefined } : undefined;
  }

  resolve(c: ReferenceCandidate): Resolution | undefined {
    if (this.tree !== undefined) {
      // A leading './' (or several) changes nothing: `./references/a.md` is `references/a.md`.
      let from = 0;
      while (c.target.startsWith('./', from)) from += 2;
      const target = from ? c.target.slice(from) : c.target;
      if (isPlain(target, c.kind)) {
        const res = this.resolvePlain(target, c.kind, this.tree);
        if (res !== GENERAL) return res;
      }
    }
    return this.resolveGeneral(c);
  }

  private stat(p: string): FileStat | undefined {
    const stats = (this.stats ??= new Map());
    if (!stats.has(p)) stats.set(p, this.fs.stat(p));
    return stats.get(p);
  }

  private list(dir: string): Map<string, DirEntry> | undefined {
    const lists = (this.lists ??= new Map());
    if (!lists.has(dir)) {
      const entries = this.fs.readDir(dir);
      lists.set(dir, entries ? new Map(entries.map((e) => [e.name, e])) : undefined);
    }
    return lists.get(dir);
  }

  private isDir(p: string): boolean {
    return this.stat(p)?.isDirectory === true;
  }

  /**
   * The entry `name` of the folder at `parent` (an lstat, asked once: the tree keeps the answer, so a read cache
   * below need not; paths inside one skill are asked about by that skill only).
   */
  private child(parent: PathNode, name: string): PathNode {
    parent.children ??= new Map();
    let node = parent.children.get(name);
    if (node === undefined) {
      const path = `${parent.path}/${name}`;
      node = { path, stat: this.fs.lstatUncached ? this.fs.lstatUncached(path) : this.fs.lstat(path), children: undefined };
      parent.children.set(name, node);
    }
    return node;
  }

  /**
   * `resolveGeneral` for a plain `target` (isPlain: the candidate's, without a leading './') where names are
   * case-sensitive: it lands in the skill, so the path is a concatenation and each component one cached lstat.
   * Links on the way, references into other skills and listings that contradict an lstat are left to the general
   * path (GENERAL).
   */
  private resolvePlain(target: string, kind: ReferenceCandidate['kind'], tree: PathNode): Resolution | undefined | typeof GENERAL {
    let slash = target.indexOf('/');
    const first = slash < 0 ? target : target.slice(0, slash);
    let node = this.child(tree, first);
    if (node.stat?.isSymbolicLink) return GENERAL;
    if (!KNOWN_SEGMENTS.has(first) && node.stat?.isDirectory !== true) {
      // Not a folder of the skill: a sibling skill's (the general path resolves it against the root), or, for a bare path, prose.
      if (this.root !== undefined && slash >= 0 && this.isDir(this.root === '/' ? `/${first}` : `${this.root}/${first}`)) return GENERAL;
      if (kind === 'path') return undefined;
    }
    const resolved = `${this.skill}/${target}`;
    let dir = tree;
    let name = first;
    for (;;) {
      if (node.stat === undefined) {
        const missing = this.missing(dir.path, name);
        if (missing === GENERAL) return GENERAL;
        return { resolved, crossSkill: false, exists: false, outside: false, viaSymlink: false, rootRelative: false, caseHint: missing.caseHint };
      }
      if (node.stat.isSymbolicLink) return GENERAL;
      if (slash < 0) return { resolved, crossSkill: false, exists: true, outside: false, viaSymlink: false, rootRelative: false };
      const start = slash + 1;
      slash = target.indexOf('/', start);
      name = slash < 0 ? target.slice(start) : target.slice(start, slash);
      dir = node;
      node = this.child(node, name);
    }
  }

  /**
   * `name` in folder `dir` was not found by lstat, and the folders above exist and are no links (lstat is exact
   * there): only the folder's listing can tell more — a name that differs in case (the hint). A listing that has the
   * exact name after all is left to the listing walk (GENERAL).
   */
  private missing(dir: string, name: string): { caseHint?: string } | typeof GENERAL {
    const entries = this.list(dir);
    if (entries === undefined) return {};
    return entries.has(name) ? GENERAL : { caseHint: caseTwin(entries, dir, name) };
  }

  /** Walks the listings from `from` down to `target`: does it exist, is a symlink on the way, is there a case-only twin? */
  private probeByListing(from: string, target: string): { exists: boolean; symlinked: boolean; caseHint?: string } {
    const parts = target === from ? [] : target.slice(from.length).split(nodePath.sep).filter(Boolean);
    let dir = from;
    for (const part of parts) {
      const entries = this.list(dir);
      if (!entries) return { exists: this.stat(target) !== undefined, symlinked: false };
      const entry = entries.get(part);
      if (!entry) return { exists: false, symlinked: false, caseHint: caseTwin(entries, dir, part) };
      if (entry.isSymbolicLink) return { exists: this.stat(target) !== undefined, symlinked: true };
      dir = nodePath.join(dir, part);
    }
    return { exists: true, symlinked: false };
  }

  /**
   * `probeByListing`, answered by one lstat per path component where names are case-sensitive (Linux) and the path
   * exists without links: no folder listing then. A missing component or a link goes to the listings (case hints,
   * links resolved as before).
   */
  private probe(from: string, target: string): { exists: boolean; symlinked: boolean; caseHint?: string } {
    if (!this.fs.caseSensitive) return this.probeByListing(from, target);
    for (let at = from.endsWith(nodePath.sep) ? from.length : from.length + 1; at <= target.length;) {
      let next = target.indexOf(nodePath.sep, at);
      if (next < 0) next = target.length;
      if (next > at) {
        const s = this.fs.lstat(target.slice(0, next));
        if (s !== undefined && s.isSymbolicLink) return this.probeByListing(from, target);
        if (s === undefined) {
          const missing = this.missing(target.slice(0, Math.max(at - 1, 1)), target.slice(at, next));
          return missing === GENERAL ? this.probeByListing(from, target) : { exists: false, symlinked: false, caseHint: missing.caseHint };
        }
      }
      at = next + 1;
    }
    return { exists: true, symlinked: false };
  }

  /** The entry `name` of folder `dir` (as its listing has it): an lstat where names are case-sensitive. */
  private entryOf(dir: string, name: string): { isDirectory: boolean; isSymbolicLink: boolean } | undefined {
    return this.fs.caseSensitive ? this.fs.lstat(nodePath.join(dir, name)) : this.list(dir)?.get(name);
  }

  /** The real path of `p`'s deepest existing ancestor (`p` itself when it exists), not above `stop`. */
  private realAncestor(p: string, stop: string): string | undefined {
    for (let at = p; ; at = nodePath.dirname(at)) {
      const real = this.fs.realPath(at);
      if (real !== undefined || at.length <= stop.length || at === nodePath.dirname(at)) return real;
    }
  }

  /** Any target: decoded, normalised, resolved against the skill or the root, probed for links and case twins. */
  private resolveGeneral(c: ReferenceCandidate): Resolution | undefined {
    const { skill, root } = this;
    const written = writtenPath(c);
    const segments = written.split('/').filter((seg) => seg !== '' && seg !== '.');
    if (!segments.length) return undefined;
    const first = segments[0];
    let resolved = joinUnder(skill, segments);
    let rootRelative = false;

    if (first !== '..' && !KNOWN_SEGMENTS.has(first)) {
      const entry = this.entryOf(skill, first);
      const inSkill = entry !== undefined && (entry.isDirectory || (entry.isSymbolicLink && this.isDir(nodePath.join(skill, first))));
      if (!inSkill) {
        if (root && segments.length > 1 && this.isDir(nodePath.join(root, first))) {
          resolved = joinUnder(root, segments);
          rootRelative = true;
        } else if (c.kind === 'path') {
          return undefined; // prose like "input/output.txt": not a reference unless it names a folder of the skill
        }
      }
    }

    // Where did it land? In the skill; in a sibling skill of the same root (cross-skill); or outside.
    let crossSkill = false;
    let otherSkill: string | undefined;
    let physicalBase = skill;
    let outside = !isInside(skill, resolved);
    if (outside && root && isInside(root, resolved) && resolved !== root) {
      const sibling = resolved.slice(root.length).split(nodePath.sep).filter(Boolean)[0];
      if (sibling !== nodePath.basename(skill) && this.isDir(nodePath.join(root, sibling))) {
        crossSkill = true;
        otherSkill = sibling;
        physicalBase = nodePath.join(root, sibling);
        outside = false;
      }
    }
    if (outside) return { resolved, crossSkill, exists: this.stat(resolved) !== undefined, outside, viaSymlink: false, rootRelative };

    const { exists, symlinked, caseHint } = this.probe(physicalBase, resolved);
    let viaSymlink = false;
    let realTarget: string | undefined;
    if (symlinked) {
      // The skill folder itself may be a link (a linked skill); only links below it can lead out. A missing target is
      // judged by the real path of its deepest existing folder: a link out of the skill leads out whether or not the
      // file exists there.
      const realBase = this.fs.realPath(physicalBase);
      const real = exists ? this.fs.realPath(resolved) : this.realAncestor(resolved, physicalBase);
      if (realBase && real && !isInside(realBase, real)) { outside = true; viaSymlink = true; realTarget = real; }
    }
    return { resolved, crossSkill, exists, outside, viaSymlink, realTarget, rootRelative, otherSkill, caseHint };
  }
}

/** Where a skill sits: the plugin root holding it and the repository (or workspace) around it, if any. */
interface Bounds {
  /** The nearest folder above the skill with `.claude-plugin/plugin.json`. */
  plugin?: string;
  /** The nearest folder at or above the skill holding `.git`. */
  repository?: string;
}

/**
 * Plugin root and repository of the skill folder `skill` (absolute): one or two stats per folder above it. What lies
 * above the skill is the same for every skill of a folder: with a read cache (`fs.isReadCache`: answers that do not
 * change) it is looked up once per folder (the returned object is shared: not to be modified).
 */
function findBounds(skill: string, fs: FileSystem): Bounds {
  if (fs.stat(isPlainDir(skill) ? `${skill}/.git` : nodePath.join(skill, '.git')) !== undefined) return { repository: skill };
  const parent = nodePath.dirname(skill);
  if (parent === skill) return {};
  let memo: Map<string, Bounds> | undefined;
  if (fs.isReadCache) {
    memo = boundsByFolder.get(fs);
    if (!memo) boundsByFolder.set(fs, (memo = new Map()));
    const known = memo.get(parent);
    if (known) return known;
  }
  const bounds = boundsFrom(parent, fs);
  memo?.set(parent, bounds);
  return bounds;
}

/** findBounds' answers per folder above a skill, per read cache. */
const boundsByFolder = new WeakMap<FileSystem, Map<string, Bounds>>();

/** The plugin root (`.claude-plugin/plugin.json`) and repository (`.git`) nearest at or above `start`, a folder above a skill. */
function boundsFrom(start: string, fs: FileSystem): Bounds {
  const bounds: Bounds = {};
  for (let dir = start, depth = 1; depth < 64; depth++) {
    const plain = isPlainDir(dir); // then the paths below are concatenations (path.join would normalize them again)
    if (bounds.plugin === undefined && fs.stat(plain ? `${dir}/.claude-plugin/plugin.json` : nodePath.join(dir, '.claude-plugin', 'plugin.json'))?.isFile) bounds.plugin = dir;
    if (fs.stat(plain ? `${dir}/.git` : nodePath.join(dir, '.git')) !== undefined) { bounds.repository = dir; break; }
    const up = nodePath.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return bounds;
}

/**
 * The path `c`'s target names when read from the folder `from`, when it exists there and stays inside `base` (the plugin
 * root or project folder a path may be written relative to; a command's folder inside its project). A target that
 * climbs with '../' is only read this way from a folder below `base` (`from` other than `base`).
 */
function existingIn(base: string, from: string, c: ReferenceCandidate, fs: FileSystem): string | undefined {
  const written = writtenPath(c);
  if (from === base && written.startsWith('../')) return undefined; // climbs from the skill, not from the plugin root
  const resolved = nodePath.resolve(from, written);
  return isInside(base, resolved) && resolved !== base && fs.stat(resolved) !== undefined ? resolved : undefined;
}

/** Where the references of one SKILL.md (or command file) are resolved from, and what bounds them. */
export interface ReferenceScope {
  /** The skill folder; for a command, the folder of the command file. */
  skillDir: string;
  /** The skills root holding the skill: `other-skill/…` resolves against it. */
  rootDir?: string;
  /**
   * The project folder of a project skill or command (the folder holding its `.claude`): Claude Code runs commands
   * there, so a path that exists there is found; a command's paths are read from it first.
   */
  project?: string;
  /** The workspace folder holding the skill: with no repository around it, a target inside it stays in the workspace. */
  workspaceFolder?: string;
  /** A command file: its paths are read from the project folder, then from the command's folder; no skill folder to leave. */
  command?: boolean;
  /** A personal skill (`~/.claude/skills`): like a project skill, never installed elsewhere. */
  personal?: boolean;
}

/**
 * stayingIn for the real path a symlink leads to: the bounds are compared by their real paths too. Claude Code keeps
 * a link that stays in the plugin and copies the target of one that stays in the marketplace when it installs a
 * plugin (plugins-reference.md, "Share files within a marketplace with symlinks").
 */
function linkStaysIn(real: string | undefined, bounds: Bounds, where: ReferenceScope, fs: FileSystem): string | undefined {
  if (real === undefined) return undefined;
  const r = (p: string | undefined) => (p === undefined ? undefined : fs.realPath(p) ?? p);
  return stayingIn(real, { plugin: r(bounds.plugin), repository: r(bounds.repository) }, { ...where, project: r(where.project), workspaceFolder: r(where.workspaceFolder) });
}

/** What an outside target stays in ('the repository', 'the plugin', …), if anything short of the machine. */
function stayingIn(resolved: string, bounds: Bounds, where: ReferenceScope): string | undefined {
  if (bounds.repository !== undefined) return isInside(bounds.repository, resolved) ? 'the repository' : undefined;
  if (bounds.plugin !== undefined && isInside(bounds.plugin, resolved)) return 'the plugin';
  if (where.project !== undefined && isInside(where.project, resolved)) return 'the project folder';
  if (where.workspaceFolder !== undefined && isInside(where.workspaceFolder, resolved)) return 'the workspace folder';
  return undefined;
}

/**
 * How a candidate with an anchor resolves: an absolute path as itself; `${CLAUDE_SKILL_DIR}/…` against the skill
 * folder only; `${CLAUDE_PLUGIN_ROOT}/…` against the plugin root (`plugin`; undefined outside a plugin, where Claude
 * Code does not substitute it: skills.md, "Substituted only in plugin skills"). Undefined: not checked.
 */
function resolveAnchored(c: ReferenceCandidate, skill: string, plugin: () => string | undefined, fs: FileSystem): Resolution | undefined {
  const written = writtenPath(c);
  let base: string | undefined;
  if (c.anchor === 'absolute') base = skill;
  else if (c.anchor === 'skill') base = skill;
  else base = plugin();
  if (base === undefined) return undefined;
  const resolved = nodePath.resolve(base, written);
  const exists = fs.stat(resolved) !== undefined;
  return { resolved, crossSkill: false, exists, outside: c.anchor === 'absolute' || !isInside(base, resolved), viaSymlink: false, rootRelative: c.anchor === 'plugin', absolute: c.anchor === 'absolute' };
}

/** A target resolved once (by kind and target as written): what it resolved to, the target detached, its hint. */
interface Known {
  res: Resolution;
  target: string;
  hint?: string;
}

/**
 * Resolves candidates against the skill (or, for `other-skill/…`, the skills root), then the plugin root and the
 * project folder, and emits reference-missing / -outside / -backslash. A command's candidates resolve against its
 * project folder, then the command's folder.
 * `fast`: whether plain targets may take the fast path (tests compare both ways).
 */
export function resolveReferences(candidates: ReferenceCandidate[], where: ReferenceScope, fs: FileSystem, emit: Emit, fast = fastPaths(fs)): SkillReference[] {
  const refs: SkillReference[] = [];
  if (!candidates.length) return refs;
  const command = where.command === true && where.project !== undefined;
  const project = where.project === undefined ? undefined : absolute(where.project);
  const resolver = new ReferenceResolver(command ? project! : where.skillDir, command ? undefined : where.rootDir, fs, fast);
  const { skill, root } = resolver;
  const commandDir = command ? absolute(where.skillDir) : undefined;
  // Memoised by kind and target as written (null: not a reference), with the target detached: a target cut from a
  // line would keep the whole file's text alive for as long as the reference lives.
  const links = new Map<string, Known | null>();
  const paths = new Map<string, Known | null>();
  let bounds: Bounds | undefined; // looked up on the first reference that leaves the skill or is missing
  // The "did you mean" of a missing target, looked up once per target (a body may repeat one link many times).
  const meant = (k: Known, c: ReferenceCandidate) => (k.hint ??= command ? '' : nearMissHint(c, skill, root, (bounds ??= findBounds(skill, fs)).repository ?? root ?? skill, fs));
  for (const c of candidates) {
    const memo = c.kind === 'link' ? links : paths;
    const key = c.anchor === undefined ? c.target : `${c.anchor}\u0000${c.target}`;
    let known = memo.get(key);
    if (known === undefined) {
      let res = c.anchor !== undefined
        ? (command && c.anchor === 'skill' ? undefined : resolveAnchored(c, skill, () => (bounds ??= findBounds(skill, fs)).plugin, fs))
        : resolver.resolve(c);
      if (c.anchor !== undefined) {
        // Read exactly where the variable or the absolute path says: no other folder is tried.
      } else if (commandDir !== undefined && (res === undefined || res.outside || !res.exists)) {
        // A command's path may also be written from the command's own folder (`../../tests/…` from .claude/commands).
        const there = existingIn(skill, commandDir, c, fs);
        if (there !== undefined) res = { resolved: there, crossSkill: false, exists: true, outside: false, viaSymlink: false, rootRelative: false };
      } else if (res && !res.crossSkill && (res.outside || !res.exists)) {
        // In a plugin, a path may be written relative to the plugin root (`references/shared.md` beside `skills/`); in
        // a project, relative to the project folder, where Claude Code runs commands (`node scripts/check.mjs`).
        const plugin = (bounds ??= findBounds(skill, fs)).plugin;
        const there = (plugin === undefined ? undefined : existingIn(plugin, plugin, c, fs)) ?? (project === undefined ? undefined : existingIn(project, project, c, fs));
        if (there !== undefined) res = { ...res, resolved: there, exists: true, outside: false, viaSymlink: false, caseHint: undefined };
      }
      known = res ? { res, target: detach(c.target) } : null;
      memo.set(key, known);
    }
    if (known === null) continue;
    const { res } = known;
    // Where an outside target stays: nothing short of the machine for an absolute path.
    const b = res.outside ? (bounds ??= findBounds(skill, fs)) : undefined;
    const within = b === undefined || res.absolute ? undefined : res.viaSymlink ? linkStaysIn(res.realTarget, b, where, fs) : stayingIn(res.resolved, b, where);
    // A relative link that climbs out of the repository (or workspace) is a path whatever it looks like or finds there.
    const leavesAll = res.outside && within === undefined && !res.absolute && c.kind === 'link';
    // An example or placeholder that names no file; in a command, a path in prose or code names a file of the project
    // that may be one the command writes ("Writes `tests/reports/audit.md`"): only its links must lead somewhere.
    if ((c.tentative || (command && c.kind === 'path')) && !res.exists && !leavesAll) continue;
    refs.push({ target: known.target, range: c.range, crossSkill: res.crossSkill, resolvedPath: res.resolved, exists: res.exists });
    if (c.target.includes('\\')) {
      emit('reference-backslash', c.range, `'${c.target}' uses '\\' as a separator, which only Windows reads; write '${c.target.replace(/\\/g, '/')}'`);
    }
    // A plugin skill's target outside the plugin root: Claude Code installs a copy of the plugin folder only
    // (plugins-reference.md, "Paths that traverse outside the plugin root … will not work after installation").
    // A link in the plugin that leads elsewhere in the marketplace is copied in its place: linkStaysIn judged it.
    const plugin = b?.plugin !== undefined && !command && project === undefined && !where.personal ? b.plugin : undefined;
    const leavesPlugin = plugin !== undefined && within !== undefined && !res.viaSymlink && !isInside(plugin, res.resolved);
    const scope = command ? 'the project folder' : res.crossSkill ? `skill '${res.otherSkill}'` : res.rootRelative ? (c.anchor === 'plugin' ? 'the plugin root' : 'the skills root') : 'the skill folder';
    if (res.outside && res.absolute) {
      // `/docs/x.md`, a file of the repository as GitHub reads the link: say so, and how to write it.
      const fromRoot = res.exists ? undefined : repositoryRooted(c, b?.repository, fs);
      const file = fromRoot === undefined ? undefined : nodePath.join(b!.repository!, fromRoot);
      const outsidePlugin = file !== undefined && plugin !== undefined && !isInside(plugin, file);
      const fix = file === undefined ? '' : outsidePlugin
        ? 'copy the file into the plugin (an installed plugin has only its own folder)'
        : `write '${nodePath.relative(commandDir ?? skill, file).split(nodePath.sep).join('/')}' (a packaged skill has only its own folder: copy the file into it for that)`;
      emit('reference-outside', c.range, fromRoot !== undefined
        ? `'${c.target}' is an absolute path, and nothing is there; the repository has '${fromRoot}' (GitHub reads a leading '/' from the repository root, Claude Code does not): ${fix}`
        : `'${c.target}' is an absolute path: it names a file of this machine only; reference files inside the skill (or another skill as other-skill/folder/file)`);
    } else if (leavesPlugin) {
      emit('reference-outside', c.range, `'${c.target}' leaves the plugin root: it will not work after installation (Claude Code copies the plugin folder to its cache, without files outside it)${res.exists ? '' : '; it does not exist either'}`);
    } else if (res.outside && within !== undefined && !res.exists) {
      // Inside the repository, what matters first is that the file is not there.
      emit('reference-missing', c.range, `'${c.target}' does not exist (it would be outside ${command ? 'the project folder' : 'the skill folder'})${meant(known, c)}`);
    } else if (res.outside && (within === undefined || !command)) {
      // (A command is not packaged: a file it names in the repository is where it will be.) A project or personal
      // skill is never installed elsewhere: a file of its own repository is where it will be too (in claude-code).
      const own = project !== undefined || where.personal === true;
      emit('reference-outside', c.range, res.viaSymlink
        ? `'${c.target}' resolves through a symlink to outside ${scope}${within === undefined ? '' : ` (it stays in ${within}, but a packaged or uploaded skill does not have it)`}`
        : within !== undefined
          ? `'${c.target}' leaves ${scope} (it stays in ${within}, but a packaged or uploaded skill does not have it)`
          : `'${c.target}' leaves ${scope}${b?.repository === undefined ? '' : ' and the repository'}; ${command ? 'reference files of the project' : 'reference files inside the skill (or another skill as other-skill/folder/file)'}${res.exists ? '' : meant(known, c)}`,
      within === undefined ? undefined : own ? 'own-repository' : 'in-repository');
    } else if (!res.exists) {
      const place = command ? ' in the project folder or beside the command' : res.crossSkill ? ` (in skill '${res.otherSkill}')` : c.anchor === 'plugin' ? ' in the plugin' : ' in this skill';
      const hint = res.caseHint ? `; '${nodePath.relative(res.crossSkill ? root ?? skill : skill, res.caseHint).split(nodePath.sep).join('/')}' exists, but names are case-sensitive`
        : res.crossSkill ? '' : meant(known, c);
      emit('reference-missing', c.range, `'${c.target}' does not exist${place}${hint}`);
    }
  }
  return refs;
}

/**
 * For a relative target that finds nothing, where it is one slip away from a path that exists: one `../` too many or
 * too few, or the first folder's name in the singular for the plural or the other way round (`reference/x.md` in a
 * skill with `references/x.md`). Returns `; did you mean '<path>'?` (with what the path names, for a skill beside this
 * one), or '' when no alternative or more than one exists. Each alternative costs one stat, on missing references only.
 * Alternatives stay below `limit` (the repository, else the skills root): nothing outside is suggested.
 */
function nearMissHint(c: ReferenceCandidate, skill: string, root: string | undefined, limit: string | undefined, fs: FileSystem): string {
  if (c.anchor !== undefined) return '';
  const written = writtenPath(c);
  if (written.startsWith('/') || written.startsWith('~') || /^[A-Za-z]:/.test(written)) return '';
  const segments = written.split('/').filter((seg) => seg !== '' && seg !== '.');
  let up = 0;
  while (up < segments.length && segments[up] === '..') up++;
  const rest = segments.slice(up);
  // (Nothing that climbs again further on: each alternative is a plain path below the folder it climbs to.)
  if (rest.length === 0 || rest.includes('..')) return '';
  const options: { up: number; parts: string[] }[] = [];
  if (up > 2) options.push({ up: 1, parts: rest }); // `../../../b/` for the skill `../b/` beside this one
  if (up > 0) options.push({ up: up - 1, parts: rest });
  options.push({ up: up + 1, parts: rest });
  const first = rest[0];
  if (rest.length > 1 && /^[A-Za-z][\w-]*[A-Za-z]$/.test(first)) {
    options.push({ up, parts: [first.endsWith('s') ? first.slice(0, -1) : `${first}s`, ...rest.slice(1)] });
  }
  let found: { up: number; text: string } | undefined;
  for (const o of options) {
    const at = nodePath.resolve(skill, ...Array<string>(o.up).fill('..'), ...o.parts);
    // Not back into this skill by climbing out of it, nor outside the repository (else the skills root).
    if (o.up > 0 && isInside(skill, at)) continue;
    if (limit !== undefined && !isInside(limit, at)) continue;
    if (fs.stat(at) === undefined) continue;
    if (found !== undefined) return ''; // two ways to read it: no guess
    found = { up: o.up, text: `${'../'.repeat(o.up)}${o.parts.join('/')}${written.endsWith('/') ? '/' : ''}` };
  }
  if (found === undefined) return '';
  const beside = found.up === 1 && root !== undefined && nodePath.dirname(skill) === root;
  return `; did you mean '${found.text}'?${beside ? ' (the skill beside this one)' : ''}`;
}

/**
 * For a link written `/docs/x.md` (not `file://`) that names nothing on this machine: the path from the repository root
 * (`docs/x.md`) when the repository has that file, as GitHub reads such a link; else undefined.
 */
function repositoryRooted(c: ReferenceCandidate, repository: string | undefined, fs: FileSystem): string | undefined {
  if (repository === undefined || c.kind !== 'link' || !c.target.startsWith('/') || c.target.startsWith('//')) return undefined;
  if (c.range.endColumn - c.range.column !== c.target.length) return undefined; // `file:///…`: a file URL, no repository path
  const rel = nodePath.normalize(decode(c.target)).replace(/^\/+/, '');
  if (rel === '' || rel.startsWith('..')) return undefined;
  return fs.stat(nodePath.join(repository, rel)) !== undefined ? rel.split(nodePath.sep).join('/') : undefined;
}

/** The nearest folder at or above `start`, up to `stop` (inclusive) or the file system root, holding `.claude-plugin/marketplace.json`. */
function marketplaceAbove(start: string, stop: string | undefined, fs: FileSystem): string | undefined {
  for (let dir = start, depth = 0; depth < 64; depth++) {
    if (fs.stat(nodePath.join(dir, '.claude-plugin', 'marketplace.json'))?.isFile) return dir;
    const up = nodePath.dirname(dir);
    if (dir === stop || up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** The folder of `name` among the skill's and plugin's script folders, if one holds a file of that name. */
function scriptNamed(name: string, skill: string, plugin: string, fs: FileSystem): string | undefined {
  for (const dir of [nodePath.join(skill, 'scripts'), skill, nodePath.join(plugin, 'scripts'), plugin]) {
    const p = nodePath.join(dir, name);
    if (fs.stat(p)?.isFile) return p;
  }
  return undefined;
}

/** `${CLAUDE_SKILL_DIR}/…` (inside the skill) or `${CLAUDE_PLUGIN_ROOT}/…` for a file of the plugin. */
function variablePath(file: string, skill: string, plugin: string): string {
  const rel = (base: string) => nodePath.relative(base, file).split(nodePath.sep).join('/');
  return isInside(skill, file) ? `\${CLAUDE_SKILL_DIR}/${rel(skill)}` : `\${CLAUDE_PLUGIN_ROOT}/${rel(plugin)}`;
}

/**
 * The script paths of a plugin skill's commands (commands.ts), read the way they run once the plugin is installed:
 * Claude Code copies the plugin folder to its cache and runs commands in the user's project (plugins-reference.md),
 * so a path that exists only from the source repository's root (`python3 plugins/a/skills/b/scripts/c.py`) breaks:
 * `script-source-path`, with the `${CLAUDE_SKILL_DIR}/…` (or `${CLAUDE_PLUGIN_ROOT}/…`) path to write. A path that
 * exists nowhere while the skill or plugin has a script of that name (`uv run cli.py`, the file is `scripts/cli.py`) is
 * `reference-missing`. Any other path may be a file of the user's project (`python manage.py`): not reported.
 */
export function checkScriptPaths(candidates: ReferenceCandidate[], where: ReferenceScope, fs: FileSystem, emit: Emit): void {
  if (!candidates.length || where.command === true || where.project !== undefined || where.personal === true) return;
  const skill = absolute(where.skillDir);
  const bounds = findBounds(skill, fs);
  const plugin = bounds.plugin;
  if (plugin === undefined) return;
  let roots: string[] | undefined; // where the source repository's commands run from: its root, the marketplace, the workspace
  const seen = new Set<string>();
  for (const c of candidates) {
    const t = c.target;
    // `scripts/x.py`: a file of the skill, which the reference checks already look for (in prose and inline code).
    if (KNOWN_SEGMENTS.has(t.slice(0, t.indexOf('/')))) continue;
    if (fs.stat(nodePath.resolve(skill, t)) !== undefined || fs.stat(nodePath.resolve(plugin, t)) !== undefined) continue;
    roots ??= [bounds.repository, marketplaceAbove(nodePath.dirname(plugin), bounds.repository, fs), where.workspaceFolder]
      .filter((r): r is string => r !== undefined && r !== plugin);
    let source: string | undefined;
    for (const r of roots) {
      const p = nodePath.resolve(r, t);
      if (fs.stat(p)?.isFile) { source = p; break; }
    }
    const key = `${c.range.line}:${c.range.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (source !== undefined) {
      if (isInside(plugin, source)) {
        emit('script-source-path', c.range, `Write '${variablePath(source, skill, plugin)}': '${t}' is a path from the source repository's root, which does not exist where the installed plugin runs (Claude Code copies the plugin to its cache and runs commands in the user's project)`);
      } else {
        emit('script-source-path', c.range, `'${t}' exists only in the source repository, outside the plugin: the installed plugin does not have it (Claude Code copies only the plugin folder to its cache)`);
      }
      continue;
    }
    const named = c.tentative ? undefined : scriptNamed(nodePath.basename(t), skill, plugin, fs);
    if (named !== undefined) emit('reference-missing', c.range, `'${t}' does not exist where the command runs; the script is '${variablePath(named, skill, plugin)}'`);
  }
}
