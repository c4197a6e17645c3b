import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { guardedEdit, MAX_EDIT_BYTES } from '../../../../src/core/base/guardedWrite';
import { loadCheckpoint, saveAnswers } from '../../../../src/core/checkpoint/checkpoint';
import { writeSkillOverride } from '../../../../src/core/claude/settingsEdit';
import { endWorkflow } from '../../../../src/core/workflow/end';
import { failingAt } from '../../helpers/faults';
import { race, type RaceMode, type RaceSurface, withinRaceLimit } from '../../helpers/race';
import { removeTree, tempTree } from '../../helpers/tempTree';

const EDITS = Number(process.env.RACE_EDITS ?? 40);

for (const surface of ['answers', 'end', 'settings'] as RaceSurface[]) {
  for (const mode of ['append', 'rename'] as RaceMode[]) {
    test(`race: ${surface} against a second process that ${mode === 'append' ? 'writes in place' : 'replaces the file by rename'}: lines lost only within the documented limit`, () => {
      const r = race(surface, mode, EDITS);
      assert.ok(r.written > 10, `the other process wrote ${r.written} lines`);
      assert.ok(r.ok > 0, `no write landed: ${r.failed.slice(0, 3).join(' | ')}`);
      const detail = `${r.lost.length} of ${r.written} lines lost; ${r.ok} writes ok, failures: ${r.failed.slice(0, 3).join(' | ')}`;
      // What another process appends or renames in while Skillflow replaces the file is put back when it lands while
      // the replaced file is watched (the settle after the rename and the read-back); a writer descheduled longer than
      // that, or a replacement by rename in the two system calls between the last check and our rename, can still
      // lose a line (Node has no renameat2 RENAME_EXCHANGE). Measured 0–2 in a few hundred on a loaded 2-core machine,
      // against 30–40 % lost before.
      assert.ok(withinRaceLimit(r.lost.length, r.written), detail);
    });
  }
}

const CONTEXT = `---\nskill: code-review\nstatus: AWAIT\n---\n# Checkpoint: code-review\n\n## Progress Summary\nPaused.\n\n## Questions\n\n### Q1: Which branch?\nType: single\nOptions:\n- main\n- develop\nAnswer:\n`;
const STATUS = '{\n  "phase": "PLAN",\n  "mode": "full",\n  "transitions": []\n}\n';

function workflowTree(status: string | Buffer = STATUS): string {
  return tempTree({ '.workflow/registry.json': '{\n  "k": "wd"\n}\n', 'wd/status.json': status });
}

test('a status.json that is a link inside the workspace is edited at its target; mode kept; hard links stay one file', () => {
  const root = workflowTree();
  try {
    nodeFs.renameSync(nodePath.join(root, 'wd/status.json'), nodePath.join(root, 'real-status.json'));
    nodeFs.symlinkSync('../real-status.json', nodePath.join(root, 'wd/status.json'));
    nodeFs.chmodSync(nodePath.join(root, 'real-status.json'), 0o664);
    nodeFs.linkSync(nodePath.join(root, '.workflow/registry.json'), nodePath.join(root, 'registry-link.json'));
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED', { now: new Date(0) });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.ok(nodeFs.lstatSync(nodePath.join(root, 'wd/status.json')).isSymbolicLink(), 'the link is still a link');
    assert.match(nodeFs.readFileSync(nodePath.join(root, 'real-status.json'), 'utf8'), /"phase": "CANCELLED"/);
    assert.equal(nodeFs.statSync(nodePath.join(root, 'real-status.json')).mode & 0o777, 0o664);
    assert.equal(nodeFs.readFileSync(nodePath.join(root, 'registry-link.json'), 'utf8').includes('"k"'), false, 'the hard link sees the edit');
  } finally { removeTree(root); }
});

test('a .claude that links out of the workspace is refused: nothing is created or written there', () => {
  const base = tempTree({ 'elsewhere/keep.txt': 'x' });
  try {
    const root = nodePath.join(base, 'ws');
    nodeFs.mkdirSync(root);
    nodeFs.symlinkSync('../elsewhere', nodePath.join(root, '.claude'));
    const r = writeSkillOverride(nodeFileSystem, root, nodePath.join(root, '.claude/settings.local.json'), 'review', 'off');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /outside/);
    assert.deepEqual(nodeFs.readdirSync(nodePath.join(base, 'elsewhere')), ['keep.txt']);
  } finally { removeTree(base); }
});

test('an 8 MB string in status.json is refused with a message, not a RangeError', () => {
  const big = `{\n  "phase": "PLAN",\n  "mode": "full",\n  "blob": "${'a'.repeat(8 * 1024 * 1024)}",\n  "transitions": []\n}\n`;
  const root = workflowTree(big);
  try {
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, new RegExp(`larger than ${MAX_EDIT_BYTES} bytes`));
  } finally { removeTree(root); }
});

test('Latin-1 bytes elsewhere in status.json or settings.local.json: refused, every byte kept', () => {
  const status = Buffer.from('{\n  "phase": "PLAN",\n  "mode": "full",\n  "title": "Caf\xe9",\n  "transitions": []\n}\n', 'latin1');
  const root = workflowTree(status);
  try {
    const r = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED');
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /not UTF-8/);
    assert.ok(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json')).equals(status));
    const settings = nodePath.join(root, '.claude/settings.local.json');
    nodeFs.mkdirSync(nodePath.dirname(settings));
    const bytes = Buffer.from('{ "note": "Caf\xe9" }\n', 'latin1');
    nodeFs.writeFileSync(settings, bytes);
    const s = writeSkillOverride(nodeFileSystem, root, settings, 'review', 'off');
    assert.equal(s.ok, false);
    assert.ok(nodeFs.readFileSync(settings).equals(bytes));
  } finally { removeTree(root); }
});

test('a NUL-prefixed heading line is never swallowed by an answer: the file is refused', () => {
  const text = CONTEXT.replace('Answer:\n', 'Answer:\n\0\0### Q2: Hidden?\nAnswer: keep me\n');
  const root = tempTree({ '.agent/tmp/n-context.md': text });
  try {
    const cp = loadCheckpoint(nodeFileSystem, root, '.agent/tmp/n-context.md');
    assert.ok(cp.ok);
    const r = saveAnswers(nodeFileSystem, cp.checkpoint, { Q1: 'main' });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /NUL/);
    assert.equal(nodeFs.readFileSync(nodePath.join(root, '.agent/tmp/n-context.md'), 'utf8'), text);
  } finally { removeTree(root); }
});

test('a failure or a kill at any step leaves the old or the new content, and the next write leaves no temp file', () => {
  for (const code of ['ENOSPC', 'EIO', 'KILL']) {
    for (let k = 1; k < 40; k++) {
      const root = tempTree({ 'f.txt': 'old\n' });
      const file = nodePath.join(root, 'f.txt');
      try {
        const edit = (b: Buffer | undefined) => ({ ok: true as const, data: Buffer.from(b!.toString().replace('old', 'new')) });
        const r = guardedEdit(file, edit, { root, sys: failingAt(k, code) });
        const now = nodeFs.readFileSync(file, 'utf8');
        assert.ok(now === 'old\n' || now === 'new\n', `${code} at ${k}: ${JSON.stringify(now)}`);
        if (r.ok) assert.equal(now, 'new\n');
        if (code !== 'KILL') assert.deepEqual(nodeFs.readdirSync(root), ['f.txt'], `${code} at ${k}`);
        const again = guardedEdit(file, edit, { root });
        assert.equal(again.ok, true);
        assert.equal(nodeFs.readFileSync(file, 'utf8'), 'new\n');
        assert.deepEqual(nodeFs.readdirSync(root), ['f.txt'], `${code} at ${k}: the retry cleans up`);
      } finally { removeTree(root); }
    }
  }
});

test('Cancel stopped between status.json and registry.json is finished by running it again', () => {
  const root = workflowTree();
  try {
    // registry.json's edit fails (a full disk): status.json is written, the message says so.
    const registry = nodePath.join(root, '.workflow/registry.json');
    nodeFs.chmodSync(nodePath.join(root, '.workflow'), 0o555);
    let r;
    try { r = endWorkflow(nodeFileSystem, root, 'k', 'FAILED', { now: new Date(0) }); } finally { nodeFs.chmodSync(nodePath.join(root, '.workflow'), 0o755); }
    if (process.getuid?.() === 0) return; // root ignores the folder's mode
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /^status\.json now says FAILED, but 'k' could not be removed from registry\.json: .*Run the same action again to finish\.$/);
    assert.match(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json'), 'utf8'), /"phase": "FAILED"/);
    const again = endWorkflow(nodeFileSystem, root, 'k', 'FAILED', { now: new Date(0) });
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(JSON.parse(nodeFs.readFileSync(registry, 'utf8')).k, undefined);
    assert.equal((JSON.parse(nodeFs.readFileSync(nodePath.join(root, 'wd/status.json'), 'utf8')) as { transitions: unknown[] }).transitions.length, 1, 'no second transition');
  } finally { removeTree(root); }
});
