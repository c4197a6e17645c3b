import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jsonSchemas, RegistrySchema, StatusSchema } from '../../../../src/core/workflow/schema';

test('the committed schemas/ files equal a fresh generation (run `node scripts/gen-schemas.mjs`)', () => {
  const fresh = jsonSchemas();
  for (const name of ['registry', 'status'] as const) {
    const committed = readFileSync(`schemas/${name}.schema.json`, 'utf8');
    assert.equal(committed, `${JSON.stringify(fresh[name], null, 2)}\n`, `schemas/${name}.schema.json is out of date`);
  }
});

test('package.json points jsonValidation at both schema files', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const urls = pkg.contributes.jsonValidation.map((v: { fileMatch: string; url: string }) => `${v.fileMatch} ${v.url}`);
  assert.deepEqual(urls.filter((u: string) => u.includes('.workflow/')), ['**/.workflow/registry.json ./schemas/registry.schema.json', '**/.workflow/**/status.json ./schemas/status.schema.json']);
});

test('the schemas accept the documented shapes and keep unknown fields', () => {
  assert.equal(RegistrySchema.safeParse({ a: 'x/y', b: { workDir: 'z', extra: 1 } }).success, true);
  assert.equal(RegistrySchema.safeParse({ a: 3 }).success, false);
  assert.equal(RegistrySchema.safeParse({ a: { dir: 'x' } }).success, false);
  const status = StatusSchema.safeParse({ phase: 'WORK', mode: 'noplan', transitions: [{ from: 'INIT', to: 'WORK', at: 't' }], extra: true });
  assert.equal(status.success, true);
  assert.equal((status.data as Record<string, unknown>).extra, true);
  assert.equal(StatusSchema.safeParse({ phase: 'DONE' }).success, false);
  assert.equal(StatusSchema.safeParse({ mode: 'full' }).success, false);
  const json = jsonSchemas().status as { required: string[]; properties: Record<string, { enum?: string[] }> };
  assert.deepEqual(json.required, ['phase']);
  assert.deepEqual(json.properties.mode.enum, ['full', 'noplan', 'strategy']);
});
