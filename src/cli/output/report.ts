/**
 * What `skillflow validate` prints, by output format: a ValidationReport goes to the writer of the format asked for.
 * A new format is one more ReportWriter in REPORT_WRITERS (its name becomes a `--format` choice).
 */
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { Problem, Profile } from '../../core/base/types';
import type { AgentEntry, SkillEntry } from '../../core/skillmd/model';
import { plural, problemJson, problemText } from './problems';
import type { ProblemJson, ValidateResult } from './validateResult';
import { formatSarif } from './sarif';
import { formatGithub } from './github';
import { ruleHelpUri, toolVersion } from './ruleDocs';

/** What a report says of a skill (or command file): all the writers read of its entry. */
export type ReportSkill = Pick<SkillEntry, 'skillMdPath' | 'name' | 'scope' | 'source' | 'problems'>;
/** What a report says of an agent. */
export type ReportAgent = Pick<AgentEntry, 'path' | 'name' | 'problems'>;

/** Everything one validate run found, with its problem counts. */
export interface ValidationReport {
  skills: ReportSkill[];
  agents: ReportAgent[];
  /** `.skillflow.json` files with problems of their own. */
  configs: Array<{ file: string; problems: Problem[] }>;
  errors: number;
  warnings: number;
  infos: number;
}

/** The report for what was found: the problems of every skill and agent counted by severity. */
export function validationReport(found: { skills: ReportSkill[]; agents: ReportAgent[]; configs?: Array<{ file: string; problems: Problem[] }> }): ValidationReport {
  const report: ValidationReport = { skills: found.skills, agents: found.agents, configs: found.configs ?? [], errors: 0, warnings: 0, infos: 0 };
  const count = (problems: Problem[]) => {
    for (const p of problems) {
      if (p.severity === 'error') report.errors++;
      else if (p.severity === 'warning') report.warnings++;
      else report.infos++;
    }
  };
  found.skills.forEach((s) => count(s.problems));
  found.agents.forEach((a) => count(a.problems));
  report.configs.forEach((c) => count(c.problems));
  return report;
}

/** The run a report comes from: the folder paths are shown relative to, and the profile. */
export interface ReportRun {
  cwd: string;
  profile: Profile;
}

/**
 * Turns a report into the text printed on stdout; `shown` gives a file's path as the CLI prints it (output/paths.ts).
 */
export type ReportWriter = (report: ValidationReport, shown: (file: string) => string, run: ReportRun) => string;

/**
 * The report as `--format json` prints it (the SARIF and GitHub writers read the same structure). A problem that lies
 * in another file than its entry (a duplicate's twin) has that file's `path`; `configs` is there only when a config
 * file has problems.
 */
export function reportJson(report: ValidationReport, shown: (file: string) => string): ValidateResult {
  const json = (own: string) => (p: Problem): ProblemJson => (p.file !== undefined && p.file !== own ? { ...problemJson(p), path: shown(p.file) } : problemJson(p));
  const result: ValidateResult = {
    skills: report.skills.map((s) => ({ path: shown(s.skillMdPath), name: s.name, scope: s.scope, problems: s.problems.map(json(s.skillMdPath)) })),
    agents: report.agents.map((a) => ({ path: shown(a.path), name: a.name, problems: a.problems.map(json(a.path)) })),
    summary: { skills: report.skills.length, errors: report.errors, warnings: report.warnings, infos: report.infos, agents: report.agents.length },
  };
  if (report.configs.length) result.configs = report.configs.map((c) => ({ path: shown(c.file), problems: c.problems.map(json(c.file)) }));
  return result;
}

/** `--format json`: skills and agents with their problems, and the counts. */
export const jsonReport: ReportWriter = (report, shown) => `${JSON.stringify(reportJson(report, shown), null, 2)}\n`;

/** `--format sarif`: SARIF 2.1.0 for code scanning (output/sarif.ts). */
export const sarifReport: ReportWriter = (report, shown, run) => formatSarif(reportJson(report, shown), {
  profile: run.profile,
  ruleHelpUri,
  version: toolVersion(),
  srcRoot: pathToFileURL(path.resolve(run.cwd)).href.replace(/\/?$/, '/'),
});

/** `--format github`: GitHub Actions workflow annotations (output/github.ts). */
export const githubReport: ReportWriter = (report, shown) => formatGithub(reportJson(report, shown));

/** `--format text`: one problem line each, sorted by file and position (the problem matcher's format), then a summary line. */
export const textReport: ReportWriter = (report, shown) => {
  const lines: Array<{ file: string; p: Problem; text: string }> = [];
  const line = (file: string, p: Problem) => {
    const shownPath = shown(file);
    lines.push({ file: shownPath, p, text: problemText(shownPath, p) });
  };
  for (const s of report.skills) for (const p of s.problems) line(p.file ?? s.skillMdPath, p);
  for (const a of report.agents) for (const p of a.problems) line(p.file ?? a.path, p);
  for (const c of report.configs) for (const p of c.problems) line(p.file ?? c.file, p);
  lines.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) || x.p.line - y.p.line || x.p.column - y.p.column || (x.p.code < y.p.code ? -1 : x.p.code > y.p.code ? 1 : 0));
  let text = lines.map((l) => `${l.text}\n`).join('');
  // Command files are entries too, but not skills: counted apart.
  const commands = report.skills.filter((s) => s.source === 'command').length;
  const checked = commands ? `${plural(report.skills.length - commands, 'skill')}, ${plural(commands, 'command file')}` : plural(report.skills.length, 'skill');
  text += `${checked} checked: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
  if (report.agents.length) text += `; ${plural(report.agents.length, 'agent')} checked`;
  return `${text}\n`;
};

/** Text for one Markdown table cell: pipes escaped, line breaks as spaces. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');
}

/** `--format markdown`: the counts, then one table row per problem (a GitHub job summary, a pull request comment). */
export const markdownReport: ReportWriter = (report, shown) => {
  const rows: string[] = [];
  const row = (file: string, p: Problem) => rows.push(`| ${p.severity} | \`${markdownCell(shown(file))}:${p.line}:${p.column}\` | [${p.code}](${ruleHelpUri(p.code)}) | ${markdownCell(p.message)} |`);
  for (const s of report.skills) for (const p of s.problems) row(p.file ?? s.skillMdPath, p);
  for (const a of report.agents) for (const p of a.problems) row(p.file ?? a.path, p);
  for (const c of report.configs) for (const p of c.problems) row(p.file ?? c.file, p);
  let text = `### Skillflow: ${plural(report.skills.length, 'skill')}${report.agents.length ? ` and ${plural(report.agents.length, 'agent')}` : ''} checked\n\n`;
  text += `${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}, ${report.infos} info\n`;
  if (rows.length) text += `\n| Severity | Where | Rule | Problem |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`;
  return text;
};

/** The writer of each `--format` value (the first is the default). */
export const REPORT_WRITERS = { text: textReport, json: jsonReport, sarif: sarifReport, github: githubReport, markdown: markdownReport } satisfies Record<string, ReportWriter>;
export type ReportFormat = keyof typeof REPORT_WRITERS;
export const REPORT_FORMATS = Object.keys(REPORT_WRITERS) as ReportFormat[];
