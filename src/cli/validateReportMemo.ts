/**
 * The report beside the run memo (`validate-report-v1.json` in the cache folder, bound to the recorded run of the memo (its id, kept by the memo's patches)):
 * what a validate run with the cache reported, as the report writers read it (each skill's and agent's problems after
 * the rule configuration and with paths in messages as shown), and the problems each load of the run gave (as the load
 * gave them, before anything else added to them). With it a run where a skill's own problems changed, and nothing else
 * the run reads of it, is printed again from this report with only that skill's problems made again
 * (validatePartial.ts). Only the bundle reads it (never the warm path of dist/cli.js).
 *
 * The file: a header line (magic, format, the memo's id, the checksum of the rest), a line of JSON (ReportMeta), a
 * line of JSON (the number of skills, the agents and the config files of StoredReport), a line of JSON (the names the
 * run looked mentions up among, claudeWiring.ts MentionPool, or null), one line of JSON per skill
 * (SkillRow, in the report's order), then one line per load of the memo (in its order): validateMemo.ts loadLine (its
 * problems and its mentions), or nothing when it had neither. A run that prints one skill's problems again parses
 * that skill's row and that load's line only (and every row when the format is not JSON; a rename that mentions
 * read, the lines of the loads that mention what it reads too).
 */
import type { Problem, Profile, Range, Scope } from '../core/base/types';
import type { ClaudeSource } from '../core/claude/types';
import type { MentionPool } from '../core/discovery/claudeWiring';
import type { SkillMention } from '../core/validation/mentions';
import { checksumOf } from '../core/cache/answers';
import type { ReportFormat, ValidationReport } from './output/report';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { loadLine, writeAtomic } from './validateMemo';

const MAGIC = 'skillflow-validate-report';
/** Bumped whenever what is stored changes. */
const FORMAT = 6;
export const REPORT_FILE = 'validate-report-v1.json';

/** What printing the report again needs besides the report. */
export interface ReportMeta {
  format: ReportFormat;
  profile: Profile;
  /** The folder the run ran in (paths are shown relative to it). */
  cwd: string;
  /** The home folder paths in messages were shown against (`~/`). */
  home: string | null;
  /** `--config FILE` (absolute). */
  config: string | null;
  /**
   * Whether the run read descriptions only for each skill's own problems: no settings file changed the listing's
   * description limit (skillListingMaxDescChars) and no `.skillflow.json` turned `description-overlap` on.
   */
  descriptions: boolean;
  /** The index of the memo's output chunk that is the report, and whether it went out as workflow commands. */
  chunk: number;
  commands: boolean;
  /** The names the run read skills' names against, besides the loaded names: see ReadNames. */
  names: ReadNames;
}

/**
 * The names a validate run compares skills' frontmatter `name`s with, besides each other: every skill's and command's
 * mentions of skills (claudeWiring.ts checkMentions: `mention-unknown`, also for what is close to a name) and every
 * agent's `skills:` entry (`agent-skill-missing`, `unreachable`). A skill renamed to a name none of them is or is close
 * to, from one none of them is or is close to, changes nothing else of the run (validatePartial.ts).
 */
export interface ReadNames {
  mentions: string[];
  agentSkills: string[];
}

/** The ReadNames of a run that found `skills` (every entry, before the rule configuration left any out) and `agents`. */
export function readNames(skills: ReadonlyArray<{ mentions?: ReadonlyArray<{ name: string }> }>, agents: ReadonlyArray<{ skills: readonly string[] }>): ReadNames {
  const mentions = new Set<string>();
  for (const s of skills) for (const m of s.mentions ?? []) mentions.add(m.name);
  return { mentions: [...mentions], agentSkills: [...new Set(agents.flatMap((a) => a.skills))] };
}

/** A report as the writers read it: [SKILL.md, name, scope, source, problems], [agent file, name, problems], [config file, problems]. */
export interface StoredReport {
  skills: SkillRow[];
  agents: Array<[string, string, Problem[]]>;
  configs: Array<[string, Problem[]]>;
}

/** A skill of the report: [SKILL.md, name, scope, source, problems]. */
export type SkillRow = [string, string, Scope, ClaudeSource, Problem[]];

/** What a load gave that the report memo keeps (validateMemo.ts loadLine). */
export interface LoadRecord {
  problems: Problem[];
  /** Its mentions of other skills, in order. */
  mentions: SkillMention[];
  /** Its SKILL.md and its `mentionsDisable` (null: not searched), kept when it has mentions. */
  file?: string;
  disable?: boolean | null;
}

/** The file's bytes, in chunks: `loadProblems[i]` is the memo's load i's loadLine. */
export function reportMemoChunks(memoId: string, meta: ReportMeta, report: ValidationReport, loadProblems: readonly string[], pool?: MentionPool): Buffer[] {
  const rest = { skills: report.skills.length, agents: report.agents.map((a) => [a.path, a.name, a.problems]), configs: report.configs.map((c) => [c.file, c.problems]) };
  const rows = report.skills.map((s) => `${JSON.stringify([s.skillMdPath, s.name, s.scope, s.source, s.problems])}\n`);
  return withHeader(memoId, [Buffer.from([`${JSON.stringify(meta)}\n${JSON.stringify(rest)}\n${poolLine(pool)}\n`, ...rows, ...Array.from(loadProblems, (p) => `${p ?? ''}\n`)].join(''), 'utf8')]);
}

/** The line of the names mentions are looked up among (`null`: none kept). */
function poolLine(pool: MentionPool | undefined): string {
  return JSON.stringify(pool ? { names: [...pool.names], plugins: [...pool.plugins].map(([p, set]) => [p, [...set]]), labels: pool.labels ? [...pool.labels] : null, edited: pool.edited === true } : null);
}

/** The header line (bound to the memo run `memoId`, with the checksum of `body`) and then `body`. */
function withHeader(memoId: string, body: readonly Buffer[]): Buffer[] {
  return [Buffer.from(`${JSON.stringify({ magic: MAGIC, format: FORMAT, memo: memoId, sum: checksumOf(body) })}\n`, 'utf8'), ...body];
}

/** A report memo, read as far as asked: each skill's row and each load's record is parsed when it is asked for. */
export interface OpenedReport {
  meta: ReportMeta;
  agents: StoredReport['agents'];
  configs: StoredReport['configs'];
  /** The index of the row of the skill whose SKILL.md is `file` (undefined when the report has none). */
  skillAt(file: string): number | undefined;
  /** Row i of the skills. */
  skill(i: number): SkillRow;
  /** Every skill's row, in order. */
  skills(): SkillRow[];
  /** What load i gave (undefined when the file has no such load). */
  load(i: number): LoadRecord | undefined;
  /** The loads (by index, in order) whose mentions name one of `names`. */
  mentioning(names: ReadonlySet<string>): number[];
  /**
   * The names the run looked mentions up among (undefined when it kept none: several targets, or a skill renamed
   * since in a run that kept none).
   */
  pool(): MentionPool | undefined;
  /**
   * The file's chunks with skill row i replaced by `rows[i]` and load i's record by `loads[i]` (when given), the meta by
   * `meta` (when given) and the names mentions are looked up among by `pool` (when given; null: none kept), bound to
   * `memoId`.
   */
  bytes(memoId: string, rows: ReadonlyMap<number, SkillRow>, loads: ReadonlyMap<number, LoadRecord>, meta?: ReportMeta, pool?: MentionPool | null): Buffer[];
}

/** The report memo `data` when it is intact, of this format, and bound to the memo run `memoId` (its Meta.id); else undefined. */
export function openReportMemo(data: Buffer | undefined, memoId: string): OpenedReport | undefined {
  try {
    if (!data) return undefined;
    const nl = data.indexOf(10);
    if (nl < 0) return undefined;
    const header = JSON.parse(data.toString('utf8', 0, nl)) as { magic?: unknown; format?: unknown; memo?: unknown; sum?: unknown };
    if (header.magic !== MAGIC || header.format !== FORMAT || header.memo !== memoId) return undefined;
    const body = data.subarray(nl + 1);
    if (header.sum !== checksumOf([body])) return undefined;
    const metaEnd = body.indexOf(10);
    const countsEnd = metaEnd < 0 ? -1 : body.indexOf(10, metaEnd + 1);
    const restEnd = countsEnd < 0 ? -1 : body.indexOf(10, countsEnd + 1);
    if (restEnd < 0 || body[body.length - 1] !== 10) return undefined;
    const meta = JSON.parse(body.toString('utf8', 0, metaEnd)) as ReportMeta;
    const rest = JSON.parse(body.toString('utf8', metaEnd + 1, countsEnd)) as { skills?: unknown; agents?: unknown; configs?: unknown };
    const count = rest.skills;
    if (typeof count !== 'number' || !Array.isArray(rest.agents) || !Array.isArray(rest.configs) || typeof meta.chunk !== 'number' || typeof meta.descriptions !== 'boolean'
      || !Array.isArray(meta.names?.mentions) || !Array.isArray(meta.names.agentSkills)) return undefined;
    // Where each line starts (and, last, where the file ends): the skills' rows, then the loads' records.
    const starts: number[] = [];
    for (let at = restEnd + 1; at < body.length; at = body.indexOf(10, at) + 1) starts.push(at);
    starts.push(body.length);
    if (starts.length - 1 < count) return undefined;
    const line = (i: number) => body.toString('utf8', starts[i], starts[i + 1] - 1);
    /** The line (row or load, by index) that holds the byte at `offset`, -1 before the first. */
    const lineAt = (offset: number): number => {
      let lo = -1;
      let hi = starts.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
      }
      return lo;
    };
    const skill = (i: number): SkillRow => {
      const row = JSON.parse(line(i)) as SkillRow;
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string' || !Array.isArray(row[4])) throw new Error('not a row');
      return row;
    };
    const load = (i: number): LoadRecord | undefined => {
      if (!(i >= 0 && count + i < starts.length - 1)) return undefined;
      const text = line(count + i);
      if (text === '') return { problems: [], mentions: [] };
      const [problems, ranges, file, disable, names, slash] = JSON.parse(text) as unknown[];
      if (!Array.isArray(problems) || !Array.isArray(ranges)) return undefined;
      if (!ranges.length) return { problems: problems as Problem[], mentions: [] };
      if (typeof file !== 'string' || !Array.isArray(names) || !Array.isArray(slash) || names.length !== ranges.length || slash.length !== ranges.length) return undefined;
      const mentions = (ranges as Range[]).map((range, k) => ({ name: String(names[k]), slash: slash[k] === 1, range }));
      return { problems: problems as Problem[], mentions, file, disable: typeof disable === 'boolean' ? disable : null };
    };
    let pool: MentionPool | null | undefined;
    return {
      meta,
      agents: rest.agents as StoredReport['agents'],
      configs: rest.configs as StoredReport['configs'],
      skillAt: (file) => {
        // A row is a line that starts with its SKILL.md's path as JSON writes it.
        const at = body.indexOf(`\n[${JSON.stringify(file)},`, restEnd);
        const i = at < 0 ? -1 : lineAt(at + 1);
        return i >= 0 && i < count && starts[i] === at + 1 ? i : undefined;
      },
      skill,
      skills: () => Array.from({ length: count }, (_, i) => skill(i)),
      load,
      mentioning: (names) => {
        // Each name as JSON writes it, found in the loads' lines; a load whose mentions name one (read back) is taken.
        const found = new Set<number>();
        const loadsFrom = starts[count];
        for (const name of names) {
          const quoted = Buffer.from(JSON.stringify(name), 'utf8');
          for (let at = body.indexOf(quoted, loadsFrom); at >= 0; at = body.indexOf(quoted, at + 1)) found.add(lineAt(at) - count);
        }
        return [...found].sort((a, b) => a - b).filter((i) => load(i)?.mentions.some((m) => names.has(m.name)));
      },
      pool: () => {
        if (pool === undefined) {
          const stored = JSON.parse(body.toString('utf8', countsEnd + 1, restEnd)) as { names?: unknown; plugins?: unknown; labels?: unknown; edited?: unknown } | null;
          pool = stored && Array.isArray(stored.names) && Array.isArray(stored.plugins)
            ? {
              names: new Set(stored.names as string[]),
              plugins: new Map((stored.plugins as Array<[string, string[]]>).map(([p, names]) => [p, new Set(names)])),
              ...(Array.isArray(stored.labels) ? { labels: new Map(stored.labels as Array<[string, number]>) } : {}),
              edited: stored.edited === true,
            }
            : null;
        }
        return pool ?? undefined;
      },
      bytes: (id, rows, loads, newMeta, newPool) => {
        const chunks: Buffer[] = [];
        let from = 0;
        if (newMeta) {
          chunks.push(Buffer.from(JSON.stringify(newMeta), 'utf8'));
          from = metaEnd;
        }
        if (newPool !== undefined) {
          chunks.push(body.subarray(from, countsEnd + 1), Buffer.from(poolLine(newPool ?? undefined), 'utf8'));
          from = restEnd;
        }
        const lines = [...[...rows].map(([i, r]) => [i, JSON.stringify(r)] as const), ...[...loads].map(([i, r]) => [count + i, loadLine(r.problems, r.mentions, r.file ?? '', r.disable ?? undefined)] as const)];
        for (const [i, text] of lines.sort((a, b) => a[0] - b[0])) {
          chunks.push(body.subarray(from, starts[i]), Buffer.from(`${text}\n`, 'utf8'));
          from = starts[i + 1];
        }
        chunks.push(body.subarray(from));
        return withHeader(id, chunks);
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * Writes the report memo of a run whose memo (in `dir`) has the id `memoId`; with none (no memo written), removes
 * any report memo there. Never throws: a report memo that cannot be written only makes such runs run in full.
 */
export function saveReportMemo(dir: string, memoId: string | undefined, meta: ReportMeta, report: ValidationReport, loadProblems: readonly string[], pool?: MentionPool): void {
  const file = path.join(dir, REPORT_FILE);
  try {
    if (memoId === undefined) nodeFs.rmSync(file, { force: true });
    else writeAtomic(file, reportMemoChunks(memoId, meta, report, loadProblems, pool));
  } catch {
    // as above
  }
}
