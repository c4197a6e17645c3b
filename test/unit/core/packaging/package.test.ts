import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { packageSkill } from '../../../../src/core/packaging/package';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

function unzipNames(file: string): string[] {
  return Object.keys(unzipSync(new Uint8Array(fs.readFileSync(file))));
}

test('packages <name>.skill with root <name>/, exclusions applied, deterministic order and bytes', () => {
  const dir = tempTree({
    'report/SKILL.md': skillMd('report', 'Writes reports. Use for reports.', 'Run scripts/make.py.\n'),
    'report/scripts/make.py': 'print(1)\n',
    'report/scripts/__pycache__/make.cpython-312.pyc': 'x',
    'report/scripts/old.pyc': 'x',
    'report/references/b.md': 'b\n',
    'report/references/a.md': 'a\n',
    'report/references/evals/keep.md': 'nested evals are kept\n',
    'report/assets/.DS_Store': 'x',
    'report/assets/logo.txt': 'logo\n',
    'report/.DS_Store': 'x',
    'report/evals/evals.json': '{}',
    'report/node_modules/dep/index.js': 'x',
    'outside.txt': 'secret\n',
  });
  try {
    const skillDir = path.join(dir, 'report');
    fs.symlinkSync(path.join(dir, 'outside.txt'), path.join(skillDir, 'assets', 'escape.txt'));
    fs.symlinkSync(path.join(skillDir, 'references', 'a.md'), path.join(skillDir, 'assets', 'alias.md'));
    const out = path.join(dir, 'dist');
    const r = packageSkill(nodeFileSystem, skillDir, out);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.file, path.join(out, 'report.skill'));
    const expected = [
      'report/SKILL.md',
      'report/assets/alias.md',
      'report/assets/logo.txt',
      'report/references/a.md',
      'report/references/b.md',
      'report/references/evals/keep.md',
      'report/scripts/make.py',
    ];
    assert.deepEqual(r.entries, expected);
    assert.deepEqual(r.skipped, ['assets/escape.txt']);
    assert.deepEqual(unzipNames(r.file), expected);
    const unzipped = unzipSync(new Uint8Array(fs.readFileSync(r.file)));
    assert.equal(Buffer.from(unzipped['report/assets/alias.md']).toString(), 'a\n');
    assert.equal(Buffer.from(unzipped['report/SKILL.md']).toString(), fs.readFileSync(path.join(skillDir, 'SKILL.md'), 'utf8'));
    // Deflate, not stored: the compression method in the first local header is 8.
    const bytes = fs.readFileSync(r.file);
    assert.equal(bytes.readUInt32LE(0), 0x04034b50);
    assert.equal(bytes.readUInt16LE(8), 8);
    // Same input, same bytes.
    const first = bytes;
    const again = packageSkill(nodeFileSystem, skillDir, out);
    assert.ok(again.ok);
    assert.ok(first.equals(fs.readFileSync(again.file)));
    // No temp files left next to the output.
    assert.deepEqual(fs.readdirSync(out), ['report.skill']);
  } finally { removeTree(dir); }
});

test('the output file inside the skill folder is not packaged into itself', () => {
  const dir = tempTree({ 'tiny/SKILL.md': skillMd('tiny') });
  try {
    const skillDir = path.join(dir, 'tiny');
    const first = packageSkill(nodeFileSystem, skillDir, skillDir);
    assert.ok(first.ok);
    const second = packageSkill(nodeFileSystem, skillDir, skillDir);
    assert.ok(second.ok);
    assert.deepEqual(second.entries, ['tiny/SKILL.md']);
  } finally { removeTree(dir); }
});

test('refuses on upload-profile errors and writes nothing, not even the output folder', () => {
  const dir = tempTree({
    // Valid in claude-code, but 'claude' is reserved and '<' is an error under upload.
    'claude-helper/SKILL.md': skillMd('claude-helper', 'Helps with <tags>.'),
  });
  try {
    const out = path.join(dir, 'dist');
    const r = packageSkill(nodeFileSystem, path.join(dir, 'claude-helper'), out);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.message, "Not packaged: 'claude-helper' has 2 errors under the upload profile.");
    assert.deepEqual(r.problems.map((p) => [p.code, p.severity, p.line]), [['name-reserved', 'error', 2], ['description-angle-brackets', 'error', 3]]);
    assert.equal(fs.existsSync(out), false);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['claude-helper']);
  } finally { removeTree(dir); }
});

test('refuses a folder without SKILL.md and a missing folder', () => {
  const dir = tempTree({ 'empty/readme.txt': 'x' });
  try {
    assert.deepEqual(packageSkill(nodeFileSystem, path.join(dir, 'empty'), dir), { ok: false, message: `No SKILL.md in ${path.join(dir, 'empty')}.`, problems: [] });
    assert.deepEqual(packageSkill(nodeFileSystem, path.join(dir, 'nope'), dir), { ok: false, message: `Not a folder: ${path.join(dir, 'nope')}.`, problems: [] });
  } finally { removeTree(dir); }
});

test('warnings do not block packaging and are returned', () => {
  const dir = tempTree({ 'folder/SKILL.md': skillMd('other-name') });
  try {
    const r = packageSkill(nodeFileSystem, path.join(dir, 'folder'), dir);
    assert.ok(r.ok);
    assert.deepEqual(r.entries, ['folder/SKILL.md']);
    assert.deepEqual(r.problems.map((p) => [p.code, p.severity]), [['name-dir-mismatch', 'warning']]);
  } finally { removeTree(dir); }
});
