// The CLI's npm package: `npm pack` holds the bundled CLI and nothing of the source, tests or the extension; installed
// from the tarball into an empty project (no network: the package has no dependency), `npx skillflow validate` runs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NPM_OFFLINE, pack, ROOT, SKILL, sh, tempDir, writeFiles } from './lib.mjs';

test('npm pack: the CLI bundles, schemas and docs only; no dependencies; under 1 MB packed', () => {
  const dir = tempDir();
  try {
    const { files, size } = pack(dir);
    assert.deepEqual(files.filter((f) => !f.startsWith('docs/') && !f.startsWith('schemas/')), [
      'LICENSE', 'README.md', 'dist/cli.js', 'dist/lsp.js', 'dist/skillflow.js', 'dist/validate-worker.js', 'package.json',
    ]);
    assert.ok(files.includes('docs/rules.md'));
    assert.ok(size < 1024 * 1024, `${size} bytes`);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.private, undefined, 'publishable');
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'everything the CLI needs is in its bundle');
    assert.equal(pkg.bin.skillflow, './dist/cli.js');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the packed tarball installed into an empty project: npx skillflow validate finds the error, then passes once fixed', () => {
  const dir = tempDir();
  try {
    const { tarball } = pack(dir);
    const project = path.join(dir, 'project');
    writeFiles(project, {
      'package.json': JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true }),
      '.claude/skills/log-summary/SKILL.md': SKILL('log-summary', 'Summarise a log file. Use it for logs.\nargument-hint: [file] [mode]'),
    });
    sh('npm', ['install', '--no-save', tarball], { cwd: project, env: NPM_OFFLINE, check: 0 });
    assert.deepEqual(fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.')), ['skillflow'], 'nothing but the package');
    assert.ok(!fs.existsSync(path.join(project, 'node_modules', 'skillflow', 'src')), 'no source: no build step');
    const bad = sh('npx', ['--offline', 'skillflow', 'validate'], { cwd: project, env: NPM_OFFLINE });
    assert.equal(bad.status, 1, bad.out);
    assert.match(bad.stdout, /^\.claude\/skills\/log-summary\/SKILL\.md:4:23: error yaml-syntax /m);
    const fix = sh('npx', ['--offline', 'skillflow', 'validate', '--fix'], { cwd: project, env: NPM_OFFLINE });
    assert.equal(fix.status, 0, fix.out);
    assert.match(fs.readFileSync(path.join(project, '.claude/skills/log-summary/SKILL.md'), 'utf8'), /^argument-hint: '\[file\] \[mode\]'$/m);
    const help = sh('npx', ['--offline', 'skillflow', '--help'], { cwd: project, env: NPM_OFFLINE, check: 0 });
    assert.match(help.stdout, /^Usage: skillflow <command>/);
    // The language server is in the package too: `skillflow lsp --stdio` answers initialize.
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    const lsp = spawnSync(process.execPath, [path.join(project, 'node_modules', 'skillflow', 'dist', 'cli.js'), 'lsp', '--stdio'], {
      input: `Content-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`, encoding: 'utf8', timeout: 5000, killSignal: 'SIGKILL',
    });
    assert.match(lsp.stdout, /"serverInfo":\{"name":"skillflow"\}/, lsp.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
