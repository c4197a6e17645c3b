// `node scripts/bench-lsp.mjs [EDITS]` (part of `npm run bench`): the language server over 10,000 edits of one
// SKILL.md (default): core time per re-validation (target < 1 ms) and heap after each quarter (flat). The harness is
// test/lsp/bench-harness.ts, bundled here and run with --expose-gc.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const edits = process.argv[2] ?? '10000';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-lsp-build-'));
const out = path.join(dir, 'bench-lsp.js');
try {
  await esbuild.build({
    entryPoints: ['test/lsp/bench-harness.ts'], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning',
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  const r = spawnSync(process.execPath, ['--expose-gc', out, edits], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
