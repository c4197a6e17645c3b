// `npm test`: the whole suite, in order — build, unit (plain Node), fuzz (fixed seed, small budget), packaging (npm tarball,
// GitHub Action, pre-commit), then integration, untrusted (restricted mode)
// and e2e in a real VS Code.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts;
const steps = ['build', 'test:unit', 'test:fuzz', 'test:package', 'test:integration', 'test:untrusted', 'test:e2e'].filter((s) => scripts[s]);
for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n=== npm run ${step}`);
  // build + test:unit leave dist/ and out/ fresh, so the VS Code runners need not rebuild them.
  const env = { ...process.env, SKILLFLOW_E2E_SKIP_BUILD: '1' };
  const r = spawnSync('npm', ['run', '--silent', step], { stdio: 'inherit', env });
  console.log(`=== ${step}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
