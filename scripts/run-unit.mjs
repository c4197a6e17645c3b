// Runs the bundled unit tests (out/test/unit/**/*.test.js) with node:test. Extra args pass through (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  let found = [];
  let entries = [];
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return found; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) found = found.concat(find(p));
    else if (e.name.endsWith('.test.js')) found.push(p);
  }
  return found;
}

const filter = process.argv[2];
const files = find('out/test/unit').filter((f) => !filter || f.includes(filter)).sort();
if (!files.length) { console.error('no unit tests found under out/test/unit (run scripts/build-tests.mjs first)'); process.exit(1); }
const result = spawnSync(process.execPath, ['--test', '--test-reporter=dot', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
