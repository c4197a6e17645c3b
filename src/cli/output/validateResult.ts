/**
 * The result of `skillflow validate` as one plain structure: what `--format json` prints, and what the SARIF and
 * GitHub formatters read. Paths are relative to the folder the command ran in, with `/` separators.
 */
import type { Profile, Severity } from '../../core/base/types';

export interface ProblemJson {
  code: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Set when the problem is in another file than the entry it belongs to (a duplicate's twin). */
  path?: string;
}

export interface ValidateResult {
  skills: Array<{ path: string; name: string; scope: string; problems: ProblemJson[] }>;
  agents: Array<{ path: string; name: string; problems: ProblemJson[] }>;
  /** `.skillflow.json` files with problems of their own; present only when there are any. */
  configs?: Array<{ path: string; problems: ProblemJson[] }>;
  summary: { skills: number; errors: number; warnings: number; infos: number; agents: number };
}

/** Every problem of a result with the path of the file it is in, in output order. */
export function resultProblems(result: ValidateResult): Array<{ path: string; problem: ProblemJson }> {
  const out: Array<{ path: string; problem: ProblemJson }> = [];
  for (const c of result.configs ?? []) for (const problem of c.problems) out.push({ path: problem.path ?? c.path, problem });
  for (const s of result.skills) for (const problem of s.problems) out.push({ path: problem.path ?? s.path, problem });
  for (const a of result.agents) for (const problem of a.problems) out.push({ path: problem.path ?? a.path, problem });
  return out;
}

/** The options a formatter needs beyond the result. */
export interface FormatOptions {
  profile: Profile;
  /** Absolute URI of a rule's section in docs/rules.md. */
  ruleHelpUri: (code: string) => string;
  /** The tool's version (SARIF `tool.driver.version`). */
  version?: string;
}
