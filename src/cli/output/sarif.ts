/**
 * `skillflow validate --format sarif`: a SARIF 2.1.0 log for code scanning (e.g. GitHub's upload-sarif action).
 * One run; `tool.driver.rules` holds every rule of the rule table (id, summary, a link to its section of
 * docs/rules.md, the level it has in the run's profile); each result has its rule, level, message and a location
 * relative to the folder the command ran in (`%SRCROOT%`) with a region (1-based, end column exclusive, UTF-16).
 */
import type { Severity } from '../../core/base/types';
import { RULES, severityFor } from '../../core/base/rules';
import { type FormatOptions, resultProblems, type ValidateResult } from './validateResult';

type Level = 'error' | 'warning' | 'note' | 'none';
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

/** A relative `/` path as a URI reference (each segment percent-encoded). */
function relativeUri(path: string): string {
  return path.split('/').map((s) => (s === '.' || s === '..' ? s : encodeURIComponent(s))).join('/');
}

/** The SARIF log as an object (JSON.stringify it to print). */
export function sarifLog(result: ValidateResult, opts: FormatOptions & { srcRoot: string }): Record<string, unknown> {
  const codes = Object.keys(RULES).sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const rules = codes.map((code) => {
    const severity = severityFor(code, opts.profile);
    return {
      id: code,
      shortDescription: { text: RULES[code].summary },
      helpUri: opts.ruleHelpUri(code),
      defaultConfiguration: severity ? { level: LEVEL[severity] } : { enabled: false, level: 'none' },
    };
  });
  const results = resultProblems(result).map(({ path, problem: p }) => {
    const r: Record<string, unknown> = {
      ruleId: p.code,
      level: LEVEL[p.severity],
      message: { text: p.message },
      locations: [{
        physicalLocation: {
          artifactLocation: { uri: relativeUri(path), uriBaseId: '%SRCROOT%' },
          region: { startLine: p.line, startColumn: p.column, endLine: p.endLine, endColumn: p.endColumn },
        },
      }],
    };
    const index = ruleIndex.get(p.code);
    if (index !== undefined) r.ruleIndex = index;
    return r;
  });
  const driver: Record<string, unknown> = { name: 'skillflow', rules };
  if (opts.version) driver.version = opts.version;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver },
      originalUriBaseIds: { '%SRCROOT%': { uri: opts.srcRoot } },
      columnKind: 'utf16CodeUnits',
      results,
    }],
  };
}

/** The SARIF log as text. */
export function formatSarif(result: ValidateResult, opts: FormatOptions & { srcRoot: string }): string {
  return `${JSON.stringify(sarifLog(result, opts), null, 2)}\n`;
}
