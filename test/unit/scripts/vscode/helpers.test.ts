import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freshenActiveWorkflows, workbenchUrl } from '../../../../scripts/vscode/helpers.mjs';

function writeStatus(root: string, rel: string, text: string): string {
  const file = path.join(root, '.workflow', rel, 'status.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

test('freshenActiveWorkflows sets updated_at of non-terminal runs to five minutes ago and keeps every other byte', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-harness-'));
  try {
    const plan = '{\n  "phase": "PLAN",\n  "updated_at": "2026-11-21T09:34:12Z",\n  "custom": 1\n}\n';
    const done = '{ "phase": "COMPLETED", "updated_at": "2026-11-20T14:41:05Z" }';
    const broken = '{ "phase": "WORK", "updated_at": ';
    const planFile = writeStatus(root, 'a/x/implement', plan);
    const doneFile = writeStatus(root, 'b/y/implement', done);
    const brokenFile = writeStatus(root, 'c/z/implement', broken);
    const now = Date.parse('2026-12-01T10:00:00.123Z');

    freshenActiveWorkflows(root, now);

    assert.equal(fs.readFileSync(planFile, 'utf8'), plan.replace('2026-11-21T09:34:12Z', '2026-12-01T09:55:00Z'));
    assert.equal(fs.readFileSync(doneFile, 'utf8'), done);
    assert.equal(fs.readFileSync(brokenFile, 'utf8'), broken);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('freshenActiveWorkflows does nothing without a .workflow folder', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-harness-'));
  try {
    freshenActiveWorkflows(root, 0);
    assert.deepEqual(fs.readdirSync(root), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('workbenchUrl encodes the folder and, for extension tests, the dev payload as vscode-remote URIs', () => {
  assert.equal(workbenchUrl('http://127.0.0.1:4000', '/tmp/a b/ws'), 'http://127.0.0.1:4000/?folder=%2Ftmp%2Fa%20b%2Fws');
  const url = new URL(workbenchUrl('http://127.0.0.1:4000', '/ws', { extDev: '/repo', extTests: '/repo/out/index.js' }));
  assert.equal(url.searchParams.get('folder'), '/ws');
  assert.deepEqual(JSON.parse(url.searchParams.get('payload') ?? 'null'), [
    ['extensionDevelopmentPath', 'vscode-remote://127.0.0.1:4000/repo'],
    ['extensionTestsPath', 'vscode-remote://127.0.0.1:4000/repo/out/index.js'],
  ]);
});
