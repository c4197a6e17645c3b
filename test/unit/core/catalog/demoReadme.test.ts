// The demo README's skill table names entries as the Skills tree shows them: by command (without the `/`), by
// display name, or for an entry Claude Code never loads, by name.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { SkillIndex } from '../../../../src/core/catalog/skillIndex';
import { entryLabel } from '../../../../src/core/catalog/treeModel';

test('examples/demo-workspace/README.md names every listed skill as the tree does', () => {
  const demo = path.resolve('examples', 'demo-workspace');
  const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [demo], includePersonal: false, profile: 'claude-code', managedDir: null });
  index.ensureLoaded();
  const namesOf = (s: (typeof index.skills)[number]) => [entryLabel(s).replace(/^\//, ''), ...(s.displayName ? [s.displayName] : [])];
  const shown = new Set([...index.skills.flatMap(namesOf), ...index.agents.map((a) => a.name)]);
  const readme = fs.readFileSync(path.join(demo, 'README.md'), 'utf8');
  const rows = readme.split('\n').filter((l) => l.startsWith('| `'));
  assert.ok(rows.length >= 8, 'the skills table is there');
  // The first column, as the tree shows each entry ("(command file)" / "(agent)" say which of two of a name).
  const named = rows.flatMap((l) => [...l.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  const unknown = named.filter((n) => !shown.has(n));
  assert.deepEqual(unknown, [], `README names not in the tree: ${unknown.join(', ')}`);
  for (const s of index.skills.filter((x) => x.level === 'project')) {
    assert.ok(namesOf(s).some((n) => named.includes(n)), `README does not mention ${entryLabel(s)} (${s.skillMdPath})`);
  }
});
