import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DebouncedWork } from '../../../../src/extension/util/idle';

test('DebouncedWork runs the last scheduled task once per key and reports idle after it', async () => {
  const work = new DebouncedWork();
  const ran: string[] = [];
  work.schedule('a', 20, () => { ran.push('a1'); });
  work.schedule('a', 20, () => { ran.push('a2'); });
  work.schedule('b', 5, async () => { await new Promise((r) => setTimeout(r, 30)); ran.push('b'); });
  assert.equal(work.idle, false);
  await work.whenIdle();
  assert.deepEqual(ran.sort(), ['a2', 'b']);
  assert.equal(work.idle, true);
});

test('whenIdle resolves at once when nothing is pending, and a throwing task still settles', async () => {
  const work = new DebouncedWork();
  await work.whenIdle();
  work.schedule('x', 1, () => { throw new Error('boom'); });
  await work.whenIdle();
  assert.equal(work.idle, true);
});
