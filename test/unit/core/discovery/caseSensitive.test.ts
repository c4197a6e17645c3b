// FileSystem.caseSensitive only picks the faster path (an lstat instead of a folder listing): what is found must not change.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { nodeFileSystem, type FileSystem } from '../../../../src/core/base/fs';
import { discover } from '../../../../src/core/discovery/discover';

test('discovery and reference checks give the same skills, problems and references whether or not the file system says names are case-sensitive', () => {
  const folder = path.resolve('test/fixtures');
  const run = (fs: FileSystem) => discover(fs, { workspaceFolders: [folder], profile: 'claude-code', anyFolder: true })
    .skills.map((s) => ({ path: s.skillMdPath, name: s.name, problems: s.problems, references: s.references, files: s.files }));
  const sensitive = run({ ...nodeFileSystem, caseSensitive: true });
  const insensitive = run({ ...nodeFileSystem, caseSensitive: false });
  assert.ok(sensitive.length > 10, `found ${sensitive.length} skills`);
  assert.ok(sensitive.some((s) => s.problems.some((p) => p.code === 'reference-missing')), 'the fixtures exercise reference-missing');
  assert.deepEqual(insensitive, sensitive);
});
