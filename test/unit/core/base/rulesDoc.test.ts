import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RULES } from '../../../../src/core/base/rules';

test('docs/rules.md has an anchored section for every rule code (diagnostic code links land there)', () => {
  const doc = readFileSync('docs/rules.md', 'utf8');
  const missing = Object.keys(RULES).filter((code) => !doc.includes(`<a id="${code}"></a>\n\n## ${code}\n`));
  assert.deepEqual(missing, []);
  const documented = [...doc.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(documented.filter((c) => !(c in RULES)), [], 'sections for codes that no longer exist');
});
