// unifiedDiff: what `diff -u` prints for a small change, and patches that git apply turns `before` into `after` with.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unifiedDiff } from '../../../../src/core/base/diff';
import { removeTree, tempTree } from '../../helpers/tempTree';
import { rng } from '../../helpers/random';

test('unifiedDiff: one changed line with three lines of context, as diff -u prints it', () => {
  const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
  const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
  assert.equal(unifiedDiff(before, after, 'a/x.md', 'b/x.md'), '--- a/x.md\n+++ b/x.md\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n');
  assert.equal(unifiedDiff(before, before, 'a', 'b'), '');
  assert.equal(unifiedDiff('x', 'y', 'a', 'b'), '--- a\n+++ b\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n');
});

test('unifiedDiff: git apply turns before into after (random edits, CRLF, far-apart changes, no final newline)', () => {
  const dir = tempTree();
  try {
    const rand = rng(21);
    const pick = (n: number) => Math.floor(rand() * n);
    for (let round = 0; round < 30; round++) {
      const eol = round % 3 === 0 ? '\r\n' : '\n';
      const lines = Array.from({ length: 5 + pick(40) }, (_, i) => `line ${i} ${pick(3)}`);
      const changed = lines.map((l) => (rand() < 0.1 ? `${l} changed` : l)).filter(() => rand() > 0.05);
      if (rand() < 0.3) changed.splice(pick(changed.length + 1), 0, 'inserted');
      const before = lines.join(eol) + (round % 4 === 1 ? '' : eol);
      const after = changed.join(eol) + (round % 5 === 2 ? '' : eol);
      const file = path.join(dir, 'f.md');
      fs.writeFileSync(file, before);
      const patch = unifiedDiff(before, after, 'a/f.md', 'b/f.md');
      if (before === after) { assert.equal(patch, ''); continue; }
      const r = spawnSync('git', ['apply', '--unidiff-zero', '-'], { cwd: dir, input: patch, encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stderr}\n${patch}`);
      assert.equal(fs.readFileSync(file, 'utf8'), after, patch);
    }
  } finally {
    removeTree(dir);
  }
});
