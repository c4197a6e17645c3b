// Recursive file search shared by the test scripts: every file under `dir` whose name matches `pattern`, sorted.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function findFiles(dir, pattern) {
  let found = [];
  let entries = [];
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return found; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) found = found.concat(findFiles(p, pattern));
    else if (pattern.test(e.name)) found.push(p);
  }
  return found.sort();
}
