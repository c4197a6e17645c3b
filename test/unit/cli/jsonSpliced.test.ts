// validatePartial.ts jsonSpliced: `--format json`'s output with some skills' blocks and the summary replaced must be,
// byte for byte, what the JSON writer prints for the changed report (cleanOutput applied, as the run memo holds it);
// and when the output does not hold a block as the writer writes it from the old row, nothing is spliced.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { jsonSpliced } from '../../../src/cli/validatePartial';
import { jsonReport, validationReport } from '../../../src/cli/output/report';
import { cleanOutput } from '../../../src/cli/output/clean';
import { displayPaths } from '../../../src/cli/output/paths';
import type { Problem } from '../../../src/core/base/types';
import type { SkillRow } from '../../../src/cli/validateReportMemo';

const CWD = '/w';
const shown = displayPaths(CWD);

/** Names and messages with what the output escapes or must keep: quotes, a backslash, controls, `::`, non-ASCII. */
const text = fc.constantFrom('a', 'deploy', 'x"y', 'back\\slash', 'esc\u001b[2J', 'c1\u0085', '::error::x', 'ünï', 'line\nbreak', 'tab\there');
const problem: fc.Arbitrary<Problem> = fc.record({
  code: fc.constantFrom('reference-missing', 'name-dir-mismatch', 'description-length', 'mention-unknown'),
  severity: fc.constantFrom('error' as const, 'warning' as const, 'info' as const),
  message: text,
  line: fc.integer({ min: 1, max: 40 }),
  column: fc.integer({ min: 1, max: 9 }),
  endLine: fc.integer({ min: 1, max: 40 }),
  endColumn: fc.integer({ min: 1, max: 9 }),
});
const row = (i: number): fc.Arbitrary<SkillRow> => fc.tuple(text, fc.constantFrom('project' as const, 'personal' as const), fc.array(problem, { maxLength: 3 }))
  .map(([name, scope, problems]) => [`/w/skills/s${i}/SKILL.md`, name, scope, 'skill', problems]);

function print(rows: readonly SkillRow[], configs: Array<{ file: string; problems: Problem[] }>): Buffer {
  const report = validationReport({ skills: rows.map(([skillMdPath, name, scope, source, problems]) => ({ skillMdPath, name, scope, source, problems })), agents: [], configs });
  return Buffer.from(cleanOutput(jsonReport(report, shown, { cwd: CWD, profile: 'claude-code' })), 'utf8');
}

test('jsonSpliced: the changed skills\' blocks and the summary spliced in give the bytes the JSON writer prints for the changed report', () => {
  const input = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(
    fc.tuple(...Array.from({ length: n }, (_, i) => row(i))),
    fc.array(fc.tuple(fc.nat(n - 1), fc.array(problem, { maxLength: 3 }), fc.option(text, { nil: undefined })), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  ));
  fc.assert(fc.property(input, ([before, edits, withConfig]) => {
    const configs = withConfig ? [{ file: '/w/.skillflow.json', problems: [{ code: 'config-invalid', severity: 'error' as const, message: 'bad', line: 1, column: 1, endLine: 1, endColumn: 2 }] }] : [];
    const after = before.map((r) => [...r] as SkillRow);
    for (const [i, problems, name] of edits) {
      after[i][4] = problems;
      if (name !== undefined) after[i][1] = name;
    }
    const changed = [...new Set(edits.map(([i]) => i))].map((i) => ({ before: before[i], after: after[i] }));
    const spliced = jsonSpliced(print(before, configs), changed, shown);
    assert.ok(spliced, 'a report printed by the writer is always spliced');
    const expected = print(after, configs);
    assert.equal(spliced.bytes.toString('utf8'), expected.toString('utf8'));
    assert.equal(spliced.errors, (JSON.parse(expected.toString('utf8')) as { summary: { errors: number } }).summary.errors);
  }), { numRuns: 300, seed: 23 });
});

test('jsonSpliced: an output that does not hold a changed skill\'s block as the writer writes it from its old row is not spliced', () => {
  const rows: SkillRow[] = [['/w/skills/a/SKILL.md', 'a', 'project', 'skill', []], ['/w/skills/b/SKILL.md', 'b', 'project', 'skill', []]];
  const printed = print(rows, []);
  const renamed: SkillRow = ['/w/skills/b/SKILL.md', 'b2', 'project', 'skill', []];
  assert.ok(jsonSpliced(printed, [{ before: rows[1], after: renamed }], shown));
  // The memo's row and the output disagree (another name in the row than in the output): the whole report is written.
  assert.equal(jsonSpliced(printed, [{ before: ['/w/skills/b/SKILL.md', 'other', 'project', 'skill', []], after: renamed }], shown), undefined);
  // A skill the output does not list; an output cut short (no summary).
  assert.equal(jsonSpliced(printed, [{ before: ['/w/skills/c/SKILL.md', 'c', 'project', 'skill', []], after: renamed }], shown), undefined);
  assert.equal(jsonSpliced(printed.subarray(0, printed.indexOf('"summary"')), [{ before: rows[1], after: renamed }], shown), undefined);
});
