// The demo README's skill table names skills as the Skills tree shows them (by `name`, not by folder).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { SkillIndex } from '../../../../src/core/catalog/skillIndex';

test('examples/demo-workspace/README.md names every listed skill as the tree does', () => {
  const demo = path.resolve('examples', 'demo-workspace');
  const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [demo], includePersonal: false, profile: 'claude-code' });
  index.ensureLoaded();
  const shown = new Set(index.skills.flatMap((s) => [s.name, ...(s.invocation ? [s.invocation.slice(1)] : [])]));
  const readme = fs.readFileSync(path.join(demo, 'README.md'), 'utf8');
  const rows = readme.split('\n').filter((l) => l.startsWith('| `'));
  assert.ok(rows.length >= 8, 'the skills table is there');
  const named = rows.flatMap((l) => [...l.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  const unknown = named.filter((n) => !shown.has(n));
  assert.deepEqual(unknown, [], `README names not in the tree: ${unknown.join(', ')}`);
  for (const s of index.skills.filter((x) => x.scope === 'project' && x.source === 'skill')) assert.ok(named.includes(s.name), `README does not mention ${s.name}`);
});
