// Runs the bundled unit tests (out/test/unit/**/*.test.js) with node:test. Extra args pass through (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { findFiles } from './find-files.mjs';

const filter = process.argv[2];
const files = findFiles('out/test/unit', /\.test\.js$/).filter((f) => !filter || f.includes(filter)).sort();
if (!files.length) { console.error('no unit tests found under out/test/unit (run scripts/build-tests.mjs first)'); process.exit(1); }
const result = spawnSync(process.execPath, ['--test', '--test-reporter=dot', '--test-reporter-destination=stdout', '--test-reporter=./scripts/unit-totals.mjs', '--test-reporter-destination=stdout', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
