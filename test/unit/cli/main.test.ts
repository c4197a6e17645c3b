import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../src/cli/main';
import { nodeFileSystem } from '../../../src/core/base/fs';

function run(argv: string[]) {
  let out = '';
  let err = '';
  return main({ argv, cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: (t) => { err += t; } })
    .then((code) => ({ code, out, err }));
}

test('no command prints usage to stderr and exits 2', async () => {
  const r = await run([]);
  assert.equal(r.code, 2);
  assert.match(r.err, /Usage: skillflow/);
});

test('an unknown command exits 2 with a message', async () => {
  const r = await run(['frobnicate']);
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown command 'frobnicate'/);
});

test('--help prints usage to stdout and exits 0', async () => {
  const r = await run(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.out, /skillflow validate|validate \[PATH/);
});

test('--help says in one line what each command does; --version prints the package version', async () => {
  const r = await run(['--help']);
  for (const command of ['validate', 'list', 'resolve', 'listing', 'package', 'new', 'workflow status', 'checkpoint']) {
    assert.match(r.out, new RegExp(`^  ${command}\\b.* {2,}[a-z].{20,}$`, 'm'), `a line for ${command}`);
  }
  const pkg = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync('package.json', 'utf8'))) as { version: string };
  for (const flag of ['--version', '-v']) {
    const v = await run([flag]);
    assert.deepEqual([v.code, v.out], [0, `skillflow ${pkg.version}\n`]);
  }
});
