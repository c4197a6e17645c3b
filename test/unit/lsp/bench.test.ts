// The language server's bench in small (scripts/bench-lsp.mjs, 2,000 edits): memory stays flat over the edits and the
// core time of one re-validation stays under 1 ms (median). `npm run bench` runs it with 10,000 edits.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

test('2,000 edits: heap flat after warm-up, median core time per re-validation < 1 ms', () => {
  const r = spawnSync(process.execPath, ['scripts/bench-lsp.mjs', '2000'], { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith('BENCH '));
  assert.ok(line, r.stdout);
  const bench = JSON.parse(line.slice(6)) as { medianMs: number; heap: Array<[number, number]> };
  assert.ok(bench.medianMs < 1, `median core time ${bench.medianMs} ms`);
  const [, afterWarmUp] = bench.heap[1];
  const [, atEnd] = bench.heap[bench.heap.length - 1];
  // 1,500 edits after the first quarter: growing by 1 KB per edit would add 1.5 MB.
  assert.ok(atEnd - afterWarmUp < 1, `heap grew from ${afterWarmUp.toFixed(2)} MB to ${atEnd.toFixed(2)} MB`);
});
