// saveAnswers against a file the paused skill changed while the user answered: a change outside the questions is
// kept and the answers land beside it; a changed question refuses the write (`changed`), nothing written.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckpoint, saveAnswers } from '../../../../src/core/checkpoint/checkpoint';
import { nodeFileSystem } from '../../../../src/core/base/fs';

const CONTEXT = '---\nskill: code-review\nstatus: AWAIT\n---\n## Progress Summary\nReviewed 12 of 20 files.\n\n## Questions\n\n### Q1: Which branch?\nType: single\nOptions:\n- main\n- develop\nAnswer:\n\n### Q2: Anything to skip?\nType: text\nAnswer:\n';

function setUp(): { ws: string; file: string; done: () => void } {
  const ws = mkdtempSync(join(tmpdir(), 'skillflow-save-'));
  mkdirSync(join(ws, '.agent', 'tmp'), { recursive: true });
  const file = join(ws, '.agent', 'tmp', 'code-review-context.md');
  writeFileSync(file, CONTEXT);
  return { ws, file, done: () => rmSync(ws, { recursive: true, force: true }) };
}

test('saveAnswers: the skill updated its progress summary meanwhile: kept, and the answers land', () => {
  const { ws, file, done } = setUp();
  try {
    const loaded = loadCheckpoint(nodeFileSystem, ws, '.agent/tmp/code-review-context.md');
    assert.ok(loaded.ok);
    const updated = CONTEXT.replace('Reviewed 12 of 20 files.', 'Reviewed 13 of 20 files (updated by the skill).');
    writeFileSync(file, updated);
    const saved = saveAnswers(nodeFileSystem, loaded.checkpoint, { Q1: 'main', Q2: 'vendor/' });
    assert.ok(saved.ok, saved.ok ? '' : saved.message);
    assert.equal(readFileSync(file, 'utf8'), updated.replace('- develop\nAnswer:\n', '- develop\nAnswer: main\n').replace('Type: text\nAnswer:\n', 'Type: text\nAnswer: vendor/\n'));
  } finally {
    done();
  }
});

test('saveAnswers: a question changed meanwhile: refused as changed, the file left as the skill wrote it', () => {
  const { ws, file, done } = setUp();
  try {
    const loaded = loadCheckpoint(nodeFileSystem, ws, '.agent/tmp/code-review-context.md');
    assert.ok(loaded.ok);
    const updated = CONTEXT.replace('### Q2: Anything to skip?', '### Q2: Anything to skip (paths or globs)?');
    writeFileSync(file, updated);
    const saved = saveAnswers(nodeFileSystem, loaded.checkpoint, { Q1: 'main', Q2: 'vendor/' });
    assert.equal(saved.ok, false);
    assert.equal(!saved.ok && 'changed' in saved && saved.changed, true);
    assert.equal(readFileSync(file, 'utf8'), updated);
  } finally {
    done();
  }
});
