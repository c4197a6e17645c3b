// parallelLoader (worker threads for `skillflow validate` on many skills) must give exactly what loading in order gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discoverPath } from '../../../../src/core/discovery/discover';
import { type LoadedSkillEntry, type SkillJob, type SkillLoader } from '../../../../src/core/discovery/load';
import { createParallelLoader, defaultThreads, parallelLoader, spreadOrder } from '../../../../src/cli/runtime/parallel';
import { removeTree, tempTree } from '../../helpers/tempTree';

/** A skills folder with `n` skills cloned from the corpus (some broken, some cross-referencing), plus a duplicate name. */
function manySkills(n: number): string {
  const corpus = path.resolve('test/fixtures/corpus/superpowers/skills');
  const templates = fs.readdirSync(corpus).filter((f) => fs.existsSync(path.join(corpus, f, 'SKILL.md'))).sort();
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const t = templates[i % templates.length];
    let text = fs.readFileSync(path.join(corpus, t, 'SKILL.md'), 'utf8').replace(/^name:.*$/m, `name: ${t}-${i}`);
    if (i % 7 === 3) text = text.replace(/^description:.*$/m, 'description: Use when: broken');
    if (i % 11 === 5) text = text.replace(/^name:.*$/m, 'name: Same-Name');
    if (i % 5 === 1) text += `\nSee [other](../${templates[0]}-0/SKILL.md) and references/missing.md and ${templates[1]}-1/SKILL.md.\n`;
    files[`skills/${t}-${i}/SKILL.md`] = text;
  }
  return tempTree(files);
}

function buildWorker(dir: string): string {
  const outfile = path.join(dir, 'validate-worker.js');
  esbuild.buildSync({ entryPoints: ['src/cli/runtime/validateWorker.ts'], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
  return outfile;
}

function run(dir: string, loader: SkillLoader | undefined) {
  const r = discoverPath(nodeFileSystem, dir, { profile: 'claude-code', listFiles: false, loader });
  assert.ok(r.ok);
  return r.discovery;
}

test('parallelLoader: worker threads give the same skills, problems and order as loading in order', () => {
  const dir = manySkills(230);
  const out = tempTree();
  try {
    const workerFile = buildWorker(out);
    const stats: Array<{ chunks: number; byWorkers: number }> = [];
    const sequential = run(dir, undefined);
    // The workers do every chunk (this thread only waits), in chunks of 7 over two workers.
    const parallel = run(dir, parallelLoader({ workerFile, threads: 3, minJobs: 10, chunk: 7, selfShare: false, onStats: (s) => stats.push(s) }));
    assert.deepEqual(stats, [{ chunks: 33, byWorkers: 33 }]);
    assert.equal(parallel.skills.length, 230);
    assert.deepEqual(parallel.skills, sequential.skills);
    // Same root objects as the discovery's own (not structured-clone copies).
    for (const s of parallel.skills) assert.ok(parallel.roots.includes(s.root));
    const problems = parallel.skills.flatMap((s) => s.problems.map((p) => p.code));
    assert.ok(problems.includes('yaml-syntax'));
    // A plain folder is not one Claude Code reads: no command, and no clash between equal names.
    assert.ok(parallel.skills.every((s) => s.loaded === false && s.invocation === null && s.level === 'project'));
    assert.ok(!problems.includes('duplicate-name'));
    assert.ok(problems.includes('reference-missing'));
    // Shared with this thread: still the same result.
    assert.deepEqual(run(dir, parallelLoader({ workerFile, threads: 2, minJobs: 10, chunk: 3 })), sequential);
    // Pre-started workers serve several calls (batches) in a row, then end.
    const pool = createParallelLoader({ workerFile, threads: 2, minJobs: 10, chunk: 4, selfShare: false, prewarm: true, onStats: (s) => stats.push(s) });
    try {
      assert.deepEqual(run(dir, pool.loader), sequential);
      assert.deepEqual(run(dir, pool.loader), sequential);
    } finally {
      pool.dispose();
      pool.dispose();
    }
    assert.deepEqual(stats.slice(1), [{ chunks: 58, byWorkers: 58 }, { chunks: 58, byWorkers: 58 }]);
    // omitReferences: the same entries with `references` left empty, on every path (workers, this thread, in order).
    const withoutRefs = sequential.skills.map((s) => ({ ...s, references: [] }));
    assert.ok(sequential.skills.some((s) => s.references.length > 0));
    for (const o of [{ chunk: 5 }, { chunk: 5, selfShare: false }, { minJobs: 100000 }]) {
      const p = createParallelLoader({ workerFile, threads: 2, minJobs: 10, omitReferences: true, ...o });
      try {
        assert.deepEqual(run(dir, p.loader).skills, withoutRefs);
      } finally {
        p.dispose();
      }
    }
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});

test('parallelLoader: below the threshold, or without the worker file, it loads in order on this thread', () => {
  const dir = manySkills(30);
  try {
    const sequential = run(dir, undefined);
    assert.deepEqual(run(dir, parallelLoader({ workerFile: path.join(dir, 'no-such-worker.js'), threads: 4, minJobs: 1 })), sequential);
    assert.deepEqual(run(dir, parallelLoader({ threads: 4, minJobs: 1000 })), sequential);
  } finally {
    removeTree(dir);
  }
});

test('parallelLoader: a worker that fails leaves its chunks to this thread (same result)', () => {
  const dir = manySkills(120);
  const out = tempTree({ 'broken-worker.js': "throw new Error('worker cannot start');\n" });
  const crashing = tempTree({
    'crash-worker.js': [
      "const { workerData } = require('node:worker_threads');",
      "workerData.port.on('message', (b) => {",
      '  const c = new Int32Array(b.control);',
      '  for (let k = 0; k < 2; k++) {',
      '    const chunk = Atomics.add(c, 0, 1);',
      "    workerData.port.postMessage({ batch: b.batch, chunk, error: 'boom' });",
      '    Atomics.add(c, 1, 1); Atomics.notify(c, 1);',
      '  }',
      '  // and a stale result of another batch, which must be ignored',
      "    workerData.port.postMessage({ batch: b.batch + 1, chunk: 3, entries: [] });",
      '});',
    ].join('\n'),
  });
  try {
    const sequential = run(dir, undefined);
    const viaBroken = run(dir, parallelLoader({ workerFile: path.join(out, 'broken-worker.js'), threads: 2, minJobs: 1 }));
    assert.deepEqual(viaBroken, sequential);
    const viaCrash = run(dir, parallelLoader({ workerFile: path.join(crashing, 'crash-worker.js'), threads: 2, minJobs: 1 }));
    assert.deepEqual(viaCrash, sequential);
  } finally {
    removeTree(dir);
    removeTree(out);
    removeTree(crashing);
  }
});

// Type-level check that the loader contract is what discovery passes.
const _contract: (jobs: SkillJob[]) => Array<LoadedSkillEntry | undefined> = (jobs) => parallelLoader()(nodeFileSystem, jobs, 'claude-code', {});
void _contract;

test('spreadOrder: every index once, in sweeps of stride 64', () => {
  for (const n of [0, 1, 5, 63, 64, 65, 200, 1000]) {
    const order = Array.from(spreadOrder(n));
    assert.deepEqual([...order].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i), `a permutation of 0…${n - 1}`);
  }
  assert.deepEqual(Array.from(spreadOrder(200)).slice(0, 6), [0, 64, 128, 192, 1, 65]);
});

test('parallelLoader: on this thread only (one thread), skills taken in spread order come back in job order', () => {
  const dir = manySkills(300);
  try {
    const sequential = run(dir, undefined);
    for (const s of sequential.skills) s.references = [];
    const pool = createParallelLoader({ threads: 1, omitReferences: true });
    try {
      assert.deepEqual(run(dir, pool.loader), sequential);
    } finally {
      pool.dispose();
    }
  } finally {
    removeTree(dir);
  }
});

test('defaultThreads: every hardware thread from 3 on; no workers on 1 or 2', () => {
  assert.deepEqual([1, 2, 3, 4, 8, 64].map(defaultThreads), [1, 1, 3, 4, 8, 64]);
});
