// src/cli/runtime/launcher.ts (dist/cli.js): runs the bundle beside it, from V8's code cache only when the cache was made
// from that very bundle; a missing, foreign or corrupt cache changes nothing but speed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

/** A folder with the launcher as cli.js and a small "bundle" skillflow.js that prints what it was given. */
function setup(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-launcher-'));
  esbuild.buildSync({ entryPoints: ['src/cli/runtime/launcher.ts'], outfile: path.join(dir, 'cli.js'), bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
  const bundle = [
    "const os = require('node:os');",
    'function twice(x) { return x * 2; }',
    'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), file: __filename, dir: __dirname, exportsIsThis: this === module.exports, os: typeof os.homedir, twice: twice(21) }));',
    'process.exitCode = 3;',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'skillflow.js'), `${bundle}\n// skillflow-build abc123\n`);
  return dir;
}

function run(dir: string, mode?: string) {
  const r = spawnSync(process.execPath, [path.join(dir, 'cli.js'), 'validate', '--format', 'json'], {
    encoding: 'utf8', env: { ...process.env, SKILLFLOW_CODE_CACHE: mode ?? 'report' },
  });
  return { status: r.status, out: r.stdout, cache: /code cache (\w+)/.exec(r.stderr)?.[1], stderr: r.stderr };
}

test('the launcher runs the bundle as a module: arguments, __filename, __dirname, require, exit code', () => {
  const dir = setup();
  try {
    const r = run(dir);
    assert.equal(r.status, 3, r.stderr);
    assert.deepEqual(JSON.parse(r.out), { args: ['validate', '--format', 'json'], file: path.join(dir, 'skillflow.js'), dir, exportsIsThis: true, os: 'function', twice: 42 });
    assert.equal(r.cache, 'none', 'no cache file yet');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a cache written by a run of the same bundle is used; output is the same with and without it', () => {
  const dir = setup();
  try {
    const plain = run(dir);
    const written = run(dir, 'write');
    assert.equal(written.status, 3);
    const cache = fs.readFileSync(path.join(dir, 'skillflow.js.cache'));
    assert.equal(cache.toString('latin1', 0, cache.indexOf(10)), 'abc123', 'the cache starts with the build id');
    const cached = run(dir);
    assert.equal(cached.cache, 'used');
    assert.equal(cached.out, plain.out);
    assert.equal(cached.status, plain.status);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a cache from another build, a bundle without an id, or corrupt V8 data are not used', () => {
  const dir = setup();
  try {
    run(dir, 'write');
    const cacheFile = path.join(dir, 'skillflow.js.cache');
    const bundleFile = path.join(dir, 'skillflow.js');
    const good = fs.readFileSync(cacheFile);
    const expected = run(dir).out;

    // The bundle was rebuilt (another id): the cache is ignored, even though V8 might accept it.
    const source = fs.readFileSync(bundleFile, 'utf8');
    fs.writeFileSync(bundleFile, source.replace('abc123', 'def456'));
    let r = run(dir);
    assert.equal(r.cache, 'none');
    assert.equal(r.out, expected);

    // A watch build: no id at all.
    fs.writeFileSync(bundleFile, source.replace(/\n\/\/ skillflow-build abc123\n$/, '\n'));
    r = run(dir);
    assert.equal(r.cache, 'none');
    assert.equal(r.out, expected);

    // The right id, garbage after it: V8 rejects the data and compiles as usual.
    fs.writeFileSync(bundleFile, source);
    fs.writeFileSync(cacheFile, Buffer.concat([good.subarray(0, good.indexOf(10) + 1), Buffer.alloc(good.length, 7)]));
    r = run(dir);
    assert.equal(r.cache, 'rejected');
    assert.equal(r.out, expected);
    assert.equal(r.status, 3);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader that stops reading early (`| head`) ends nothing but the output: no stack trace, the run\'s own exit code', () => {
  const dir = setup();
  try {
    // A bundle that prints far more than a pipe holds, in many writes, to stdout and stderr, then goes on and sets its exit code.
    fs.writeFileSync(path.join(dir, 'skillflow.js'), [
      "const line = 'x'.repeat(1000) + '\\n';",
      'for (let i = 0; i < 2000; i++) { process.stdout.write(line); process.stderr.write(line); }',
      // (Later work of the run, after the failed writes were reported: a crash at the first would never do it.)
      "setTimeout(() => { require('node:fs').writeFileSync(process.env.DONE_FILE, 'done'); process.exitCode = 3; }, 100);",
    ].join('\n') + '\n// skillflow-build abc123\n');
    const done = path.join(dir, 'done');
    const errFile = path.join(dir, 'err');
    const cli = path.join(dir, 'cli.js');
    // stdout to a reader that takes 10 bytes and exits (stderr to a file), then both streams to it; PIPESTATUS[0] is
    // the CLI's exit code.
    for (const redirect of [`2>"${errFile}"`, '2>&1']) {
      fs.rmSync(done, { force: true });
      const r = spawnSync('bash', ['-c', `node "${cli}" validate ${redirect} | head -c 10 > /dev/null; echo "exit=\${PIPESTATUS[0]}"`], {
        encoding: 'utf8', env: { ...process.env, DONE_FILE: done },
      });
      assert.match(r.stdout, /exit=3\n$/, `${redirect}: ${r.stdout}\n${r.stderr}`);
      assert.equal(fs.readFileSync(done, 'utf8'), 'done', `${redirect}: the run went on to its end`);
    }
    const err = fs.readFileSync(errFile, 'utf8');
    assert.doesNotMatch(err, /Unhandled|EPIPE/);
    assert.equal(err, `${'x'.repeat(1000)}\n`.repeat(2000), 'stderr got all of its lines');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
