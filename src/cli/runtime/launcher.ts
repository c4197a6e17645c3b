/**
 * `dist/cli.js`: starts the CLI bundle (`dist/skillflow.js`) from V8's code cache when the build left one.
 *
 * Compiling the bundle is a fixed cost of every `skillflow` run (tens of milliseconds, more than the rest of a small
 * run). `node esbuild.mjs` runs the CLI once with SKILLFLOW_CODE_CACHE=write, which stores what V8 compiled in
 * `dist/skillflow.js.cache`; later runs hand that to V8 instead of compiling again. The cache is bound to the bundle
 * it was made from: the build appends a line `// skillflow-build <sha1>` to the bundle and writes the same id first in
 * the cache file, and a cache whose id differs (a rebuilt bundle, e.g. by `--watch`) is not used. V8 checks the rest
 * (its version and flags; it rejects data from another Node and compiles as usual). Without a usable cache the bundle
 * is compiled as `require` would: the only difference is speed. SKILLFLOW_CODE_CACHE=report says on stderr which
 * happened (`used`, `rejected` by V8, or `none`), or `run memo used` when `validate --cache` was printed from its run memo
 * (src/cli/validateMemo.ts) without starting the bundle.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import type * as V8 from 'node:v8';
import * as vm from 'node:vm';
import { fastValidate } from '../validateMemo';

const BUNDLE = path.join(__dirname, 'skillflow.js');
const CACHE = `${BUNDLE}.cache`;
const BUILD_MARK = '\n// skillflow-build ';

/**
 * V8 flags for a CLI run, set before the bundle is compiled. A cold `validate` is short and runs each hot function
 * over thousands of files once: V8's optimizing compiler, which inlines callees up to 920 bytes of bytecode into each
 * function it optimizes, spent about a quarter of the run's CPU time compiling (perf, on its background threads).
 * A smaller inlining budget compiles far less for code nearly as fast: measured A/B on the bench skills (medians,
 * alternating runs, docs/architecture.md "The cold run") CPU fell ~12 % at 1,000 and 10,000 skills and ~5 % at 20,000.
 * Tiering up a little later (twice V8's interrupt budget) leaves fewer lukewarm functions to compile: another 2-7 %.
 * The flags are part of what V8 checks a code cache against: the build's cache-writing run sets the same ones.
 */
const CLI_V8_FLAGS = '--max-inlined-bytecode-size-cumulative=300 --interrupt-budget=135168';

/** The build id at the end of the bundle, if the build put one there. */
function buildId(source: string): string | undefined {
  const at = source.lastIndexOf(BUILD_MARK);
  return at < 0 ? undefined : source.slice(at + BUILD_MARK.length).trim() || undefined;
}

/** The V8 data of the cache file when it was made from this bundle (its first line is `<id>\n`). */
function readCache(id: string | undefined): Buffer | undefined {
  if (id === undefined) return undefined;
  let data: Buffer;
  try { data = fs.readFileSync(CACHE); } catch { return undefined; }
  const eol = data.indexOf(10);
  return eol > 0 && data.toString('latin1', 0, eol) === id ? data.subarray(eol + 1) : undefined;
}

/** Starts the bundle (everything but the warm path of `validate --cache`). */
function start(): void {
  // (node:v8 is loaded here, not at the top: loading it costs a few milliseconds that the run memo's path does not pay.)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('node:v8') as typeof V8).setFlagsFromString(CLI_V8_FLAGS);
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const id = buildId(source);
  const writing = process.env.SKILLFLOW_CODE_CACHE === 'write';
  const cachedData = writing ? undefined : readCache(id);
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  if (process.env.SKILLFLOW_CODE_CACHE === 'report') {
    process.stderr.write(`skillflow: code cache ${cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'}\n`);
  }
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = module.paths;
  if (writing && id !== undefined) {
    // At exit: the functions the run compiled are in the cache too (V8 compiles most of them lazily, on first call).
    process.once('exit', () => fs.writeFileSync(CACHE, Buffer.concat([Buffer.from(`${id}\n`, 'latin1'), script.createCachedData()])));
  }
  (script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void)
    .call(bundle.exports, bundle.exports, bundle.require.bind(bundle) as NodeJS.Require, bundle, BUNDLE, __dirname);
}

/**
 * A reader that stopped reading (`skillflow validate | head`, a closed terminal): Node reports the failed write as an
 * 'error' event on the stream, and without a listener that ends the run with an "Unhandled 'error' event" stack trace
 * and exit code 1. The rest of the output goes nowhere, as with any command-line tool; the run ends as it would have
 * (its exit code, the cache files it writes). Not for the language server: its standard streams are the protocol's
 * channel, handled by its connection library.
 */
function ignoreClosedReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    });
  }
}

if (process.argv[2] !== 'lsp') ignoreClosedReaders();
// `skillflow validate --cache` where nothing changed since the last run: printed from the run memo without loading
// the bundle (src/cli/validateMemo.ts). SKILLFLOW_CODE_CACHE=write (the build's run) always runs the bundle.
if (process.env.SKILLFLOW_CODE_CACHE === 'write' || !fastValidate()) start();
