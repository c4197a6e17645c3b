// `npm run test:package`: the packaging tests (test/package/*.test.mjs) with node's test runner: the npm tarball
// installed into an empty project, the GitHub Action's steps run as GitHub runs them, the pre-commit hooks under the
// real `pre-commit`. They use dist/ as built: the build runs first unless SKILLFLOW_E2E_SKIP_BUILD=1 (npm test built it).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

if (process.env.SKILLFLOW_E2E_SKIP_BUILD !== '1') {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const filter = process.argv[2];
const files = readdirSync('test/package').filter((f) => f.endsWith('.test.mjs') && (!filter || f.includes(filter))).map((f) => join('test/package', f));
if (!files.length) { console.error('no packaging tests found under test/package'); process.exit(1); }
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
