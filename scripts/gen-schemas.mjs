// Writes schemas/registry.schema.json and schemas/status.schema.json from the zod schemas in
// src/core/workflow/schema.ts (a unit test checks the committed files equal a fresh generation).
import * as esbuild from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'skillflow-schemas-'));
try {
  const outfile = join(dir, 'schema.cjs');
  await esbuild.build({ entryPoints: ['src/core/workflow/schema.ts'], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'warning' });
  const { jsonSchemas } = createRequire(import.meta.url)(outfile);
  const schemas = jsonSchemas();
  mkdirSync('schemas', { recursive: true });
  for (const [name, schema] of Object.entries(schemas)) {
    writeFileSync(join('schemas', `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
    console.log(`wrote schemas/${name}.schema.json`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
