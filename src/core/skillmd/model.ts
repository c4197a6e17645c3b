/**
 * The contract of the skills core: what discovery, parsing and validation return.
 * The extension and the CLI consume only these shapes. Positions: 1-based, endColumn exclusive.
 */
import type { McpServersInReach } from '../claude/tools';
import type { Problem, Profile, Range, Scope, SkillKind } from '../base/types';
import type { ClaudeLevel, ClaudeSource } from '../claude/types';

/** A top-level frontmatter key with the exact source ranges of the key and of its value. */
export interface FrontmatterKey {
  key: string;
  keyRange: Range;
  /** Range of the value node (for a block value: from its first to its last character). Absent for `key:` with no value. */
  valueRange?: Range;
  /** The parsed JS value (string, number, boolean, array, object, null). */
  value: unknown;
}

/** SKILL.md (or agent .md) split into frontmatter and body, with positions. Never throws. */
export interface ParsedSkillMd {
  hasBom: boolean;
  /** True when the file starts with a `---` line (after an optional BOM). */
  hasFrontmatter: boolean;
  /** True when the closing `---` was found. */
  frontmatterClosed: boolean;
  /** The parsed mapping, or undefined when absent / not a mapping / YAML error. */
  data: Record<string, unknown> | undefined;
  keys: FrontmatterKey[];
  /** 1-based line of the first frontmatter content line (the line after the opening `---`). */
  frontmatterStartLine: number;
  /** 1-based line of the first body line (the line after the closing `---`), or 1 when there is no frontmatter. */
  bodyStartLine: number;
  body: string;
  /** Problems found while parsing (frontmatter-missing, -unclosed, yaml-syntax, frontmatter-not-mapping, bom). */
  problems: Problem[];
}

/** A path reference found in a skill's body: `references/x.md` or `other-skill/references/y.md`. */
export interface SkillReference {
  /** The text as written (without a `#fragment` or `?query`). */
  target: string;
  range: Range;
  /** True when the first segment names another skill in the same skills root. */
  crossSkill: boolean;
  /** Absolute resolved path (may not exist). */
  resolvedPath: string;
  exists: boolean;
}

/** Where skills were found: a directory whose immediate subdirectories are skills. */
export interface SkillsRoot {
  path: string;
  scope: Scope;
  /** For project roots: the workspace folder that holds it. */
  workspaceFolder?: string;
  /** For plugin roots: the plugin name (from plugin.json `name`, else the folder name). */
  plugin?: string;
}

/** One indexed skill. */
export interface SkillEntry {
  /** `name` from the frontmatter when it is a string, else the folder name. */
  name: string;
  folderName: string;
  dir: string;
  /** Path of SKILL.md (or of the lower-case skill.md when only that exists). */
  skillMdPath: string;
  root: SkillsRoot;
  scope: Scope;
  kind: SkillKind;
  /**
   * The command Claude Code answers to (docs/claude-code-model.md): the folder name for managed, personal, project and
   * additional skills (`/deploy`), the file name for commands, `/<plugin>:<name or folder>` for plugin skills, the
   * directory-qualified `/apps/web:deploy` for a nested skill whose name clashes; null when Claude Code never loads it.
   */
  invocation: string | null;
  /** Frontmatter `name` when it differs from the command name (in a personal or project skill it is only a label). */
  displayName?: string;
  /** Where Claude Code loads it from (folders it never reads, such as `.agents/skills`, count as `project`, not loaded). */
  level: ClaudeLevel;
  /** A skill folder's SKILL.md, or a `.claude/commands/<name>.md` file (then `dir` is the file itself: a command has no folder). */
  source: ClaudeSource;
  /** Claude Code loads it (at startup, or for `nested` skills once Claude works in their folder). */
  loaded: boolean;
  /** Why Claude Code never loads it (set exactly when `loaded` is false). */
  notLoadedReason?: string;
  description?: string;
  /** Rough token estimate of the whole SKILL.md (chars / 4). */
  tokenEstimate: number;
  /** Files directly relevant for the tree: SKILL.md, scripts/*, references/*, assets/* (relative paths). */
  files: string[];
  references: SkillReference[];
  problems: Problem[];
  /**
   * Set when a higher-precedence entry answers the same command (managed > personal > project; skill > command):
   * the winner's path, or `builtin:/<name>` when one of Claude Code's own commands wins.
   */
  shadowedBy?: string;
  /** Why it is shadowed (set with shadowedBy). */
  shadowReason?: string;
  /**
   * mtime + size of SKILL.md when it was read; lets an index skip unchanged skills. Nothing `validate` prints may depend
   * on it: its run memo leaves it out of an entry's digest (core/cache/loadCache.ts entryDigest).
   */
  stamp: string;
  /**
   * Whether SKILL.md holds the text `skillflow-disable` after a `<!--` (a rule-disabling comment may be there);
   * undefined when loading did not search it (a file without problems or mentions, or one not read). Rule configuration reads the
   * file again only when this is not false.
   */
  mentionsDisable?: boolean;
}

/** One indexed agent (`.claude/agents/<name>.md`). */
export interface AgentEntry {
  name: string;
  path: string;
  description?: string;
  model?: string;
  tools?: string[];
  /** Names from `skills:`, in order. */
  skills: string[];
  workspaceFolder?: string;
  scope: Scope;
  problems: Problem[];
  /**
   * True for a file without a `name` (no frontmatter, or frontmatter without the key): Claude Code treats it as
   * documentation kept beside the agents (docs/sub-agents.md), so it is no agent and has no problems.
   */
  documentation?: boolean;
}

/** What a full discovery returns. */
export interface Discovery {
  roots: SkillsRoot[];
  skills: SkillEntry[];
  agents: AgentEntry[];
}

/** Context a single-file validation needs beyond the text. */
export interface ValidationContext {
  profile: Profile;
  /** Folder name of the skill (for name-dir-mismatch). */
  folderName: string;
  /** Absolute skill directory (for reference checks); omit to skip reference checks. */
  skillDir?: string;
  /** The skills root holding the skill (cross-skill references resolve against it). */
  rootDir?: string;
  /** The plugin's name for a skill in a plugin's `skills/` folder: its `name` is then also the command (`/<plugin>:<name>`). */
  plugin?: string;
  /** The project folder (holding `.claude`) of a project skill or command: paths that exist there are found. */
  project?: string;
  /** The workspace folder holding the skill: with no repository around it, what a reference may stay in. */
  workspaceFolder?: string;
  /** A command file (`skillDir` is its folder): its paths are read from the project folder first. */
  command?: boolean;
  /** A personal skill (`~/.claude/skills`): never installed elsewhere, like a project skill. */
  personal?: boolean;
  /** The MCP servers in reach (asked only when a tools list names one; validateParsed looks them up when absent). */
  mcp?: () => McpServersInReach | undefined;
}
