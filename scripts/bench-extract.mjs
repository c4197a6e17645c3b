// `node scripts/bench-extract.mjs [--n N] [--runs R] [--dir DIR] [--source FILE] [--dump FILE] [--json]`: reference
// extraction alone (src/core/references/markdown.ts, `extractReferencesFrom`) over the bench skills (bench-skills.mjs;
// default 10,000), on the line indexes `validate` gives it: a Utf8LineIndex over the file's bytes for a non-ASCII
// UTF-8 SKILL.md with frontmatter, a LineIndex over the text otherwise. The indexes are built before timing.
//
// Printed: the CPU time of the first pass over all skills in a fresh process (JIT warm-up included, in the order
// `validate` takes them: sweeps across the list), which is what one `validate` run pays, and the median of R more
// passes (default 5). CPU time rather than wall time: on a shared machine wall time mostly measures the others.
//   --dir DIR     read the skills under DIR (e.g. made by `node scripts/bench-skills.mjs DIR`) instead of generating
//   --source FILE time another extractor: a TypeScript file exporting extractReferencesFrom with the same contract,
//                 bundled as if it were in src/core/references (e.g. an older version from git)
//   --dump FILE   write every candidate (JSON, one skill a line) to FILE, to compare two extractors' output
//   --json        print one JSON line instead of text
//   --runs 0      the first pass only (e.g. under `valgrind --tool=callgrind node --predictable`, which counts the
//                 instructions of one pass, JIT compilation included, without the noise of a shared machine)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAscii, isUtf8 } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { findSkills, generate, loadTemplates, repo } from './bench-skills.mjs';

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}
function count(name, fallback, least = 1) {
  const v = option(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < least) { console.error(`bench-extract: --${name} needs an integer of at least ${least}`); process.exit(2); }
  return n;
}
const N = count('n', 10_000);
const RUNS = count('runs', 5, 0);
const dirArg = option('dir');
const sourceArg = option('source');
const dumpArg = option('dump');
const json = process.argv.includes('--json');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-extract-'));
try {
  const referencesDir = path.join(repo, 'src', 'core', 'references');
  const bundle = path.join(tmp, 'extract.cjs');
  await esbuild.build({
    stdin: {
      contents: [
        sourceArg
          ? fs.readFileSync(sourceArg, 'utf8')
          : "export { extractReferencesFrom } from './markdown';",
        "export { LineIndex, Utf8LineIndex } from '../base/text';",
        "export { FENCE } from '../skillmd/frontmatter';",
        "export { spreadOrder } from '../../cli/runtime/parallel';",
      ].join('\n'),
      resolveDir: referencesDir,
      sourcefile: sourceArg ? path.join(referencesDir, 'bench-source.ts') : undefined,
      loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, logLevel: 'warning',
  });
  const core = createRequire(import.meta.url)(bundle);

  let root = dirArg;
  if (!root) {
    root = path.join(tmp, 'skills');
    generate(loadTemplates(), root, N);
  }
  const folders = findSkills(root).map((dir) => path.relative(root, dir));

  /** The line index and body start `validate` hands the extractor for one SKILL.md (see validation/bytes.ts). */
  function bodyOf(bytes) {
    const ascii = isAscii(bytes);
    if (!ascii && bytes.length > 0 && bytes[0] === 0x2d && isUtf8(bytes)) {
      const lines = new core.Utf8LineIndex(bytes);
      if (core.FENCE.test(lines.lineText(0))) {
        for (let i = 1; i < lines.lineCount; i++) {
          if (core.FENCE.test(lines.text.slice(lines.starts[i], lines.lineEnd(i)))) {
            return i + 1 < lines.lineCount ? { lines, first: i + 1, line: i + 2 } : undefined;
          }
        }
      }
    }
    const text = bytes.toString(ascii ? 'latin1' : 'utf8').replace(/^\ufeff/, '');
    const lines = new core.LineIndex(text);
    let first = 0;
    if (core.FENCE.test(lines.lineText(0))) {
      for (let i = 1; i < lines.lineCount; i++) if (core.FENCE.test(lines.lineText(i))) { first = i + 1; break; }
    }
    return first < lines.lineCount ? { lines, first, line: first + 1 } : undefined;
  }
  const bodies = [];
  const names = [];
  for (const f of folders) {
    const b = bodyOf(fs.readFileSync(path.join(root, f, 'SKILL.md')));
    if (b) { bodies.push(b); names.push(f); }
  }

  const order = core.spreadOrder(bodies.length);
  function pass() {
    let candidates = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let k = 0; k < order.length; k++) {
      const b = bodies[order[k]];
      candidates += core.extractReferencesFrom(b.lines, b.first, b.line).length;
    }
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, candidates };
  }
  const first = pass();
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(pass());
  const median = (values) => {
    const s = [...values].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };

  if (dumpArg) {
    const out = [];
    for (let k = 0; k < bodies.length; k++) {
      const b = bodies[k];
      out.push(JSON.stringify([names[k], core.extractReferencesFrom(b.lines, b.first, b.line)]));
    }
    fs.writeFileSync(dumpArg, out.join('\n') + '\n');
  }

  const result = {
    skills: bodies.length,
    candidates: first.candidates,
    cpuMs: first.cpuMs,
    wallMs: first.ms,
    warmCpuMs: runs.length ? median(runs.map((r) => r.cpuMs)) : NaN,
    warmWallMs: runs.length ? median(runs.map((r) => r.ms)) : NaN,
    runs: RUNS,
  };
  if (json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`reference extraction: ${result.cpuMs.toFixed(0)} ms for ${result.skills} skills (CPU time of the first pass, JIT warm-up included; wall ${result.wallMs.toFixed(0)} ms; ${result.candidates} candidates; warm passes: CPU ${result.warmCpuMs.toFixed(0)} ms, wall ${result.warmWallMs.toFixed(0)} ms, median of ${RUNS})`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
