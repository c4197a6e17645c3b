/** Shared plain-data types of the core. Positions are 1-based; `endColumn` is exclusive. */

export type Severity = 'error' | 'warning' | 'info';

/** Validation profiles: what Claude Code accepts, the open Agent Skills spec, and claude.ai upload (docs/rules.md). */
export type Profile = 'claude-code' | 'spec' | 'upload';
export const PROFILES: readonly Profile[] = ['claude-code', 'spec', 'upload'];

/** A 1-based range; `endColumn` is exclusive (a one-character range at column 3 is 3..4). */
export interface Range {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** One finding about one file, with its rule code (docs/rules.md) and where it is. */
export interface Problem extends Range {
  code: string;
  severity: Severity;
  message: string;
  /** The file the problem is in, when it is not the file being validated (e.g. a duplicate's twin). */
  file?: string;
  /** A named case of the rule with its own severities (RULES' `variants`), set where the severity is decided later. */
  variant?: string;
}

/** Where a skill comes from: a project's skills folder, `~/.claude/skills`, or an installed plugin. */
export type Scope = 'project' | 'personal' | 'plugin';

/** Workflow skills are named `workflow-*`; the rest are command skills. */
export type SkillKind = 'workflow' | 'command';
