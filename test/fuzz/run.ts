// The fuzz runner: `node out/fuzz/run.js [--runs N] [--target X] [--property P] [--seed S] [--timing] [--ceiling-ms M]`.
// Prints per target and property: inputs tried, failures, the slowest input and the slowest under 100 KB (size + CPU
// ms), the wall time. A failure's shrunk
// counterexample is saved to test-results/fuzz/<target>.<property>.json. Exit code 1 when any property failed.
import * as fc from 'fast-check';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { TARGETS, type Property } from './targets';

interface Args {
  runs: number;
  target?: string;
  property?: string;
  seed: number;
  timing: boolean;
  /** Per-input CPU-time ceiling for inputs under 100 KB (larger inputs: proportionally more). */
  ceilingMs: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 1000, seed: 20261124, timing: false, ceilingMs: 100 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--runs') args.runs = Number(next());
    else if (a === '--target') args.target = next();
    else if (a === '--property') args.property = next();
    else if (a === '--seed') args.seed = Number(next());
    else if (a === '--timing') args.timing = true;
    else if (a === '--ceiling-ms') args.ceilingMs = Number(next());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs must be a positive integer');
  return args;
}

function cpuMs(fn: () => void): number {
  const t0 = process.cpuUsage();
  fn();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

/** The CPU-time ceiling of an input of `size` bytes: `ceiling` up to 100 KB, then growing linearly. */
function ceilingFor(size: number, ceiling: number): number {
  return ceiling * Math.max(1, size / 100_000);
}

function serialise(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { base64: value.toString('base64'), utf8: value.toString('utf8').slice(0, 2000) };
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(serialise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialise(v)]));
  return value;
}

/** One input's size and CPU time (the least of three measurements when the first was over the ceiling), and what it was. */
interface Timed {
  size: number;
  ms: number;
  what?: string;
}

/** A short preview of an input: its text (a Buffer as UTF-8), long strings cut, at most 100 characters. */
function preview(input: unknown): string {
  const plain = (v: unknown): unknown => {
    if (Buffer.isBuffer(v)) v = v.toString('utf8');
    if (typeof v === 'string') return v.length > 40 ? `${v.slice(0, 40)}…(${v.length})` : v;
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    return v;
  };
  const text = JSON.stringify(plain(input)) ?? String(input);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

interface Outcome {
  target: string;
  property: string;
  tried: number;
  failures: number;
  slowest: Timed;
  /** The slowest input under 100 KB (the size the time promise is about). */
  slowestSmall: Timed;
  counterexample?: string;
}

function runProperty(target: string, p: Property, args: Args): Outcome {
  const out: Outcome = { target, property: p.name, tried: 0, failures: 0, slowest: { size: 0, ms: 0 }, slowestSmall: { size: 0, ms: 0 } };
  const timed = p.timing === true;
  if (timed && !args.timing) return out;
  const predicate = (input: unknown) => {
    out.tried++;
    let ms = cpuMs(() => p.check(input));
    const size = p.size(input);
    const checked = (timed || args.timing) && !p.untimed;
    // A slow input (over the ceiling, or the slowest so far) is measured twice more: the machine is shared and a garbage
    // collection can land on any input, so slow means slow every time, and an input's time is the least of the three.
    if (!p.untimed && ((checked && ms > ceilingFor(size, args.ceilingMs)) || ms > out.slowest.ms || (size < 100_000 && ms > out.slowestSmall.ms))) {
      ms = Math.min(ms, cpuMs(() => p.check(input)), cpuMs(() => p.check(input)));
    }
    if (checked && ms > ceilingFor(size, args.ceilingMs)) {
      throw new Error(`${size} bytes took ${ms.toFixed(1)} ms of CPU (ceiling ${ceilingFor(size, args.ceilingMs).toFixed(0)} ms)`);
    }
    if (ms > out.slowest.ms) out.slowest = { size, ms, what: (p.describe ?? preview)(input) };
    if (size < 100_000 && ms > out.slowestSmall.ms) out.slowestSmall = { size, ms, what: (p.describe ?? preview)(input) };
  };
  // Warm the JIT so that the first inputs are not reported as slow.
  if (args.timing && !p.untimed) {
    try { fc.sample(p.arb, { numRuns: 200, seed: args.seed + 1 }).forEach((i) => p.check(i)); } catch { /* reported below */ }
  }
  const details = fc.check(fc.property(p.arb, predicate), { numRuns: args.runs, seed: args.seed, endOnFailure: false });
  if (details.failed) {
    out.failures = details.numShrinks >= 0 ? Math.max(1, details.failures.length) : 1;
    const dir = 'test-results/fuzz';
    nodeFs.mkdirSync(dir, { recursive: true });
    const file = nodePath.join(dir, `${target}.${p.name}.json`);
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    nodeFs.writeFileSync(file, `${JSON.stringify({
      target, property: p.name, seed: details.seed, path: details.counterexamplePath, error: error.slice(0, 4000),
      counterexample: serialise(details.counterexample?.[0]),
    }, null, 2)}\n`);
    out.counterexample = `${file}: ${error.split('\n')[0].slice(0, 200)}`;
  }
  return out;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const targets = TARGETS.filter((t) => !args.target || t.name === args.target);
  if (!targets.length) throw new Error(`no target ${args.target}; targets: ${TARGETS.map((t) => t.name).join(', ')}`);
  const outcomes: Outcome[] = [];
  const t0 = Date.now();
  for (const t of targets) {
    for (const p of t.properties) {
      if (args.property && p.name !== args.property) continue;
      const started = Date.now();
      const o = runProperty(t.name, p, args);
      if (!o.tried) continue;
      outcomes.push(o);
      const fmt = (x: Timed) => `${String(x.size).padStart(8)} B ${x.ms.toFixed(1).padStart(7)} ms${x.what ? ` (${x.what})` : ''}`;
      console.log(`${t.name.padEnd(10)} ${p.name.padEnd(30)} ${String(o.tried).padStart(7)} inputs  ${String(o.failures).padStart(2)} failed  slowest ${fmt(o.slowest)}  under 100 KB ${fmt(o.slowestSmall)}  ${((Date.now() - started) / 1000).toFixed(0)} s`);
      if (o.counterexample) console.log(`  ✖ ${o.counterexample}`);
    }
  }
  const failed = outcomes.filter((o) => o.failures > 0);
  const tried = outcomes.reduce((n, o) => n + o.tried, 0);
  console.log(`fuzz: ${outcomes.length} properties, ${tried} inputs, ${failed.length} failing, ${((Date.now() - t0) / 1000).toFixed(1)} s (seed ${args.seed}${args.timing ? `, CPU ceiling ${args.ceilingMs} ms per 100 KB` : ', no timing'})`);
  process.exitCode = failed.length ? 1 : 0;
}

main();
