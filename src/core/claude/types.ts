/**
 * Skillflow's model of what Claude Code loads: every skill and command file it would see, the command each one
 * answers to, and who wins a shared name. docs/claude-code-model.md gives the documented facts behind it.
 */
import type { SkillOverride } from './values';

/**
 * Where an entry comes from, highest precedence first. `nested`: a `.claude/skills` below the start folder (loads
 * once Claude works there); `synced`: a skill downloaded from claude.ai into `~/.claude/skills/synced/`.
 */
export type ClaudeLevel = 'managed' | 'personal' | 'project' | 'additional' | 'plugin' | 'nested' | 'synced';
export type ClaudeSource = 'skill' | 'command';

/**
 * Why Claude Code does not load a file: `deeper` (below a direct child of a skills folder), `reserved` (inside a
 * folder named `synced`), `plugin-elsewhere` (a skills-directory plugin outside the start folder's `.claude/skills`),
 * `file-case` (`skill.md`), `link-duplicate` (a folder already loaded through another path), `unreadable`,
 * `sync-off` (`syncClaudeAiSkills: false`), `policy` (managed `strictPluginOnlyCustomization`, or
 * `CLAUDE_CODE_DISABLE_POLICY_SKILLS` for managed skills), `plugin-invalid` (its plugin's manifest is refused), `git-ignored` (a nested `.claude/skills` in a git-ignored folder), `flat-file` (a `.md` file with frontmatter directly in a skills folder, not a
 * folder with `SKILL.md`).
 */
export type NotLoadedCode = 'deeper' | 'reserved' | 'plugin-elsewhere' | 'file-case' | 'link-duplicate' | 'unreadable' | 'sync-off' | 'flat-file' | 'policy' | 'plugin-invalid' | 'git-ignored';

/** What the model needs from a SKILL.md or command file's frontmatter. */
export interface ClaudeMeta {
  /** `name` (a display label, except for plugin skills where it is the last part of the command). */
  name?: string;
  /** `description`, or the body's first paragraph when absent. */
  description?: string;
  whenToUse?: string;
  disableModelInvocation?: boolean;
  userInvocable?: boolean;
}

/** Reads one SKILL.md / command file; undefined when it cannot be read (the entry is then not loaded). */
export type ClaudeMetaReader = (path: string) => ClaudeMeta | undefined;

export type BuiltinKind = 'command' | 'bundled-skill' | 'workflow' | 'alias';

/** A name shared with one of Claude Code's own commands or bundled skills. */
export interface BuiltinClash {
  /** The built-in name (without `/`). */
  name: string;
  kind: BuiltinKind;
  /** What the built-in is an alias of, for kind `alias`. */
  aliasOf?: string;
  /** Who answers `/name`: the built-in (commands, workflows, aliases) or this entry (it replaces a bundled skill). */
  winner: 'builtin' | 'entry';
}

/** One skill or command file as Claude Code sees it. */
export interface ClaudeEntry {
  kind: ClaudeSource;
  level: ClaudeLevel;
  /** The SKILL.md or command `.md` file. */
  path: string;
  /** The skill folder (for a command: the folder holding the file). */
  dir: string;
  /** The skills or commands folder it was found in (for a plugin: the plugin root). */
  root: string;
  /** The skill folder's name, or the command file's name without `.md`. */
  folderName: string;
  /** What listings show: frontmatter `name` for skills, else the command name. */
  displayName: string;
  /** The command name without `/` (`deploy`, `frontend:component`, `my-plugin:review`, `apps/web:deploy`). */
  name: string;
  /** What the user types (`/deploy`); null when Claude Code never loads the file. */
  invocation: string | null;
  /** Plugin skills: the bare `/name` that also invokes it while no other command uses that name. */
  bareInvocation?: string;
  loaded: boolean;
  notLoadedReason?: string;
  /** What kind of "not loaded" it is (set with notLoadedReason); the first three are mistakes an author can fix. */
  notLoadedCode?: NotLoadedCode;
  /** Nested skills: they load the first time Claude reads or edits a file in `nestedDir`. */
  onDemand?: boolean;
  /** Nested skills: the package folder relative to the start folder, `/`-separated (`apps/web`). */
  nestedDir?: string;
  /** The winner's path (`builtin:/help` or `bundled:/code-review` for Claude Code's own) when this entry loses its name. */
  shadowedBy?: string;
  shadowReason?: string;
  /** Plugin entries: the plugin name (the command namespace). */
  plugin?: string;
  builtinClash?: BuiltinClash;
  /** The `skillOverrides` state in force (never for plugin entries, which it does not apply to). */
  override?: SkillOverride;
  meta: ClaudeMeta;
}

/** A problem found while building the model (unreadable settings, a bad value): shown, never thrown. */
export interface ClaudeProblem {
  code: 'settings-invalid' | 'settings-value' | 'env-value' | 'plugins-invalid';
  path: string;
  message: string;
  /** 1-based, when known. */
  line?: number;
  column?: number;
}
