// A node:test reporter that prints the run's totals (tests passed / failed / skipped, duration) and each failure's
// name, so the unit stage reports counts like the integration and e2e stages do. Suites are not counted as tests.
export default async function* totals(source) {
  let pass = 0, fail = 0, skip = 0;
  const failures = [];
  const t0 = Date.now();
  for await (const event of source) {
    const data = event.data;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    if (data.skip || data.todo) skip++;
    else if (event.type === 'test:pass') pass++;
    else { fail++; failures.push(`${data.file ?? ''} › ${data.name}`); }
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  yield `\nunit: ${pass} passing, ${fail} failing${skip ? `, ${skip} skipped` : ''} (${secs} s)\n`;
  for (const f of failures) yield `  FAILED ${f}\n`;
}
