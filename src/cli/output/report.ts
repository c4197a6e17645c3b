/**
 * What `skillflow validate` prints, by output format: a ValidationReport goes to the writer of the format asked for.
 * A new format is one more ReportWriter in REPORT_WRITERS (its name becomes a `--format` choice).
 */
import type { Problem } from '../../core/base/types';
import type { AgentEntry, SkillEntry } from '../../core/skillmd/model';
import { plural, problemJson, problemText } from './problems';

/** Everything one validate run found, with its problem counts. */
export interface ValidationReport {
  skills: SkillEntry[];
  agents: AgentEntry[];
  errors: number;
  warnings: number;
  infos: number;
}

/** The report for what was found: the problems of every skill and agent counted by severity. */
export function validationReport(found: { skills: SkillEntry[]; agents: AgentEntry[] }): ValidationReport {
  const report: ValidationReport = { skills: found.skills, agents: found.agents, errors: 0, warnings: 0, infos: 0 };
  const count = (problems: Problem[]) => {
    for (const p of problems) {
      if (p.severity === 'error') report.errors++;
      else if (p.severity === 'warning') report.warnings++;
      else report.infos++;
    }
  };
  found.skills.forEach((s) => count(s.problems));
  found.agents.forEach((a) => count(a.problems));
  return report;
}

/** Turns a report into the text printed on stdout; `shown` gives a file's path as the CLI prints it (output/paths.ts). */
export type ReportWriter = (report: ValidationReport, shown: (file: string) => string) => string;

/** `--format json`: skills and agents with their problems, and the counts. */
export const jsonReport: ReportWriter = (report, shown) => {
  const json = {
    skills: report.skills.map((s) => ({ path: shown(s.skillMdPath), name: s.name, scope: s.scope, problems: s.problems.map(problemJson) })),
    agents: report.agents.map((a) => ({ path: shown(a.path), name: a.name, problems: a.problems.map(problemJson) })),
    summary: { skills: report.skills.length, errors: report.errors, warnings: report.warnings, infos: report.infos, agents: report.agents.length },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
};

/** `--format text`: one problem line each, sorted by file and position (the problem matcher's format), then a summary line. */
export const textReport: ReportWriter = (report, shown) => {
  const lines: Array<{ file: string; p: Problem; text: string }> = [];
  const line = (file: string, p: Problem) => {
    const shownPath = shown(file);
    lines.push({ file: shownPath, p, text: problemText(shownPath, p) });
  };
  for (const s of report.skills) for (const p of s.problems) line(p.file ?? s.skillMdPath, p);
  for (const a of report.agents) for (const p of a.problems) line(p.file ?? a.path, p);
  lines.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) || x.p.line - y.p.line || x.p.column - y.p.column || (x.p.code < y.p.code ? -1 : x.p.code > y.p.code ? 1 : 0));
  let text = lines.map((l) => `${l.text}\n`).join('');
  text += `${plural(report.skills.length, 'skill')} checked: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
  if (report.agents.length) text += `; ${plural(report.agents.length, 'agent')} checked`;
  return `${text}\n`;
};

/** The writer of each `--format` value (the first is the default). */
export const REPORT_WRITERS = { text: textReport, json: jsonReport } satisfies Record<string, ReportWriter>;
export type ReportFormat = keyof typeof REPORT_WRITERS;
export const REPORT_FORMATS = Object.keys(REPORT_WRITERS) as ReportFormat[];
