// `node scripts/bench-cache.mjs [--n N] [--runs R] [--sizes 1000,10000,20000] [--keep]` (part of `npm run bench`, after
// `node esbuild.mjs`): the validate cache on N generated skills (default 10,000), every figure beside the read-only
// floor measured in the same run (a Node script that lists the skill folders and reads every SKILL.md), runs
// alternating so all see the same machine load; medians of R (default 5). Printed:
//   - floor; warm, nothing changed (printed from the run memo by dist/cli.js: checked); one SKILL.md appended to, split
//     by what happened: its entry the same (the run memo holds but for that skill's load, which is made again, and is
//     printed, patched) or not (a skill whose problems count its body's lines or tokens: the full run, reusing the
//     per-skill cache), one SKILL.md given a link to a missing file (its own problems change: the memo's report printed
//     again with that skill's problems made again: checked), one SKILL.md whose description changed (the same:
//     checked), one SKILL.md given a mention of another skill (the same: checked), one whose `name:` changed and that
//     mentions its new name (the same: checked), one SKILL.md whose `name:` changed to a name nothing reads (the same:
//     checked), one whose `name:` changed to a name another skill mentions (the same, with that skill's lookups made
//     again: checked), one skill folder added (a new load: the full run, taking every other skill's load from the
//     per-skill cache: checked); cold (no cache file: validate and write both); --no-cache; each with its ratio to the
//     floor, and the peak memory (max RSS) of each;
//   - cold (--no-cache) at each of --sizes, per skill, for linearity.
// BENCH_CLI=PATH runs another build's dist/cli.js (an instrumented copy, an A/B).
// The machine's load average is printed too: on a shared machine only the ratios mean anything, CPU ones the most.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generate, loadTemplates, repo } from './bench-skills.mjs';
import { childrenCpuMs, median } from './bench-lib.mjs';

const cli = process.env.BENCH_CLI ?? path.join(repo, 'dist', 'cli.js');
function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  return process.argv[i + 1];
}
const N = Number(flag('n', 10_000));
const RUNS = Number(flag('runs', 5));
const SIZES = String(flag('sizes', '1000,10000,20000')).split(',').map(Number);
const keep = process.argv.includes('--keep');
if (!fs.existsSync(cli)) { console.error('bench-cache: dist/cli.js is missing; run `node esbuild.mjs` first.'); process.exit(2); }

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-cache-'));
const templates = loadTemplates();

// The floor: list the folders, read every SKILL.md (what any validator must at least do).
const floorScript = path.join(tmp, 'floor.cjs');
fs.writeFileSync(floorScript, `const fs = require('fs'); const path = require('path');
let n = 0, bytes = 0;
for (const root of process.argv.slice(2)) for (const e of fs.readdirSync(root, { withFileTypes: true })) {
  if (!e.isDirectory()) continue;
  try { bytes += fs.readFileSync(path.join(root, e.name, 'SKILL.md')).length; n++; } catch {}
}
process.stdout.write(n + ' ' + bytes + '\\n');
`);
// Peak memory of a run: its max RSS, written to stderr at exit (worker threads included: one process).
const rssScript = path.join(tmp, 'rss.cjs');
fs.writeFileSync(rssScript, "process.on('exit', () => process.stderr.write('\\nmaxrss-kb:' + process.resourceUsage().maxRSS + '\\n'));\n");

function run(args, cwd, env) {
  const c0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', rssScript, ...args], { cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, env: env && { ...process.env, ...env } });
  const ms = performance.now() - t0;
  const c1 = childrenCpuMs();
  const cpu = c0 === undefined || c1 === undefined ? NaN : c1 - c0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rss = Number(/maxrss-kb:(\d+)/.exec(r.stderr ?? '')?.[1] ?? NaN) / 1024;
  return { ms, cpu, rss, stdout: r.stdout, stderr: r.stderr };
}
/** Levenshtein distance. */
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

try {
  const work = path.join(tmp, 'w');
  const root = path.join(work, 'skills');
  generate(templates, root, N);
  // Files written within the racy window (2 s) are hashed rather than trusted by their fingerprints: let them age.
  sleep(2500);
  const cacheDir = path.join(tmp, 'cache');
  // SKILLFLOW_CODE_CACHE=report: the CLI says on stderr whether it printed the run memo (the warm path) or started the bundle.
  // Every run with the same environment, as a user's runs have (the run memo keeps the variables a run read: another
  // value of one is another run). SKILLFLOW_CACHE_STATS makes each say how it used the per-skill cache.
  const validate = (extra) => run([cli, 'validate', root, '--format', 'json', ...extra], work, { SKILLFLOW_CODE_CACHE: 'report', SKILLFLOW_CACHE_STATS: '1' });
  const memoUsed = (r) => /skillflow: run memo used/.test(r.stderr);
  const withCache = ['--cache-location', cacheDir];
  const folders = fs.readdirSync(root).sort();
  const SIDES = ['floor', 'warm', 'one', 'oneAgain', 'oneFull', 'link', 'desc', 'mention', 'nameMention', 'name', 'nameRead', 'created', 'cold', 'nocache'];
  const sides = Object.fromEntries(SIDES.map((k) => [k, []]));
  const rss = Object.fromEntries(SIDES.map((k) => [k, []]));
  const cpu = Object.fromEntries(SIDES.map((k) => [k, []]));
  const patched = (r) => /skillflow: run memo held after 1 loads made again/.test(r.stderr);
  const reprinted = (r) => /skillflow: run memo held after 1 loads made again; the problems of 1 printed again/.test(r.stderr);
  let reference;
  /** The names the bench's edits mentioned, and the first folder from `offset` on whose skill's name is not within two edits of one. */
  const mentions = [];
  const farFromMentions = (offset) => {
    for (let k = 0; k < folders.length; k++) {
      const folder = folders[(offset + k) % folders.length];
      const name = /^name: (.*)$/m.exec(fs.readFileSync(path.join(root, folder, 'SKILL.md'), 'utf8'))?.[1] ?? folder;
      if (mentions.every((m) => editDistance(m, name) > 2)) return folder;
    }
    throw new Error('no skill far from the mentions');
  };
  console.log(`bench-cache: ${N} skills, ${RUNS} rounds; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
  for (let i = 0; i < RUNS; i++) {
    const record = (side, r) => { sides[side].push(r.ms); rss[side].push(r.rss); cpu[side].push(r.cpu); return r; };
    record('floor', run([floorScript, root], work));
    fs.rmSync(cacheDir, { recursive: true, force: true });
    const cold = record('cold', validate(withCache));
    const none = record('nocache', validate(['--no-cache']));
    if (cold.stdout !== none.stdout) throw new Error('the cold cached run printed something else than --no-cache');
    reference ??= none.stdout;
    const warm = record('warm', validate(withCache));
    if (warm.stdout !== none.stdout) throw new Error('the warm run printed something else than --no-cache');
    if (!memoUsed(warm) || memoUsed(cold)) throw new Error('the warm run did not print the run memo (or the cold one did)');
    // One file changed (appended to: another size, another mtime), then the same run without the cache to compare.
    const file = path.join(root, folders[(i * 7919) % folders.length], 'SKILL.md');
    fs.appendFileSync(file, `\nChanged in round ${i}.\n`);
    const oneRun = validate(withCache);
    const one = record(reprinted(oneRun) ? 'oneAgain' : patched(oneRun) ? 'one' : 'oneFull', oneRun);
    const after = validate(['--no-cache']);
    if (one.stdout !== after.stdout) throw new Error('the one-changed run printed something else than --no-cache');
    if (memoUsed(one)) throw new Error('the one-changed run printed the run memo as it was');
    // One SKILL.md given a link to a file that is not there: its own problems change (reference-missing), nothing the
    // rest of the run reads of it does, so the memo's report is printed again with that skill's problems made again.
    const linked = path.join(root, folders[(i * 7919 + 2503) % folders.length], 'SKILL.md');
    fs.appendFileSync(linked, `\nSee [the notes](notes-${i}.md).\n`);
    const link = record('link', validate(withCache));
    if (link.stdout !== validate(['--no-cache']).stdout) throw new Error('the link-added run printed something else than --no-cache');
    if (!reprinted(link)) throw new Error(`the link-added run did not print the memo's report again: ${link.stderr.slice(0, 300)}`);
    // One description changed: the rest of the run reads it only for that skill's own problems here (no settings file
    // changes the listing's limit, description-overlap is off), so that skill's problems are made again.
    const other = path.join(root, folders[(i * 7919 + 4999) % folders.length], 'SKILL.md');
    fs.writeFileSync(other, fs.readFileSync(other, 'utf8').replace('description: ', `description: Changed in round ${i}. `));
    const desc = record('desc', validate(withCache));
    if (desc.stdout !== validate(['--no-cache']).stdout) throw new Error('the description-changed run printed something else than --no-cache');
    if (!reprinted(desc)) throw new Error(`the description-changed run did not print the memo's report again: ${desc.stderr.slice(0, 300)}`);
    // One SKILL.md given a mention of another skill: the rest of the run reads a mention's name only to look it up among
    // the names the run loaded (the report memo keeps them), so that skill's problems are made again.
    const mentioning = path.join(root, folders[(i * 7919 + 6007) % folders.length], 'SKILL.md');
    fs.appendFileSync(mentioning, `\nThen use the \`${folders[(i * 7919 + 6011) % folders.length]}\` skill.\n`);
    mentions.push(folders[(i * 7919 + 6011) % folders.length]);
    const mention = record('mention', validate(withCache));
    if (mention.stdout !== validate(['--no-cache']).stdout) throw new Error('the mention-added run printed something else than --no-cache');
    if (!reprinted(mention)) throw new Error(`the mention-added run did not print the memo's report again: ${mention.stderr.slice(0, 300)}`);
    // One `name:` changed and a mention of the new name added to that skill: its own mentions are looked up among the
    // names the run loaded with the new one in them (nothing else mentions either name), so it is printed again.
    // (A skill whose name is not close to a name the bench's edits mention: the mentions' lookups are the next rows'.)
    const both = path.join(root, farFromMentions(i * 7919 + 8803), 'SKILL.md');
    const newName = `mention-target-${String.fromCharCode(97 + (i % 26))}${i * 7919}`;
    fs.writeFileSync(both, `${fs.readFileSync(both, 'utf8').replace(/^name: .*$/m, `name: ${newName}`)}\nUse the \`${newName}\` skill.\n`);
    mentions.push(newName);
    const nameMention = record('nameMention', validate(withCache));
    if (nameMention.stdout !== validate(['--no-cache']).stdout) throw new Error('the name-and-mention-changed run printed something else than --no-cache');
    if (!reprinted(nameMention)) throw new Error(`the name-and-mention-changed run did not print the memo's report again: ${nameMention.stderr.slice(0, 300)}`);
    // One `name:` changed to a name no mention and no agent reads (in a project skill the command is the folder's name:
    // the name is a label), so that skill's name and own problems are printed again.
    const renamed = path.join(root, farFromMentions(i * 7919 + 7507), 'SKILL.md');
    fs.writeFileSync(renamed, fs.readFileSync(renamed, 'utf8').replace(/^name: .*$/m, `name: renamed-in-round-${i}`));
    const name = record('name', validate(withCache));
    if (name.stdout !== validate(['--no-cache']).stdout) throw new Error('the name-changed run printed something else than --no-cache');
    if (!reprinted(name)) throw new Error(`the name-changed run did not print the memo's report again: ${name.stderr.slice(0, 300)}`);
    // One `name:` changed to the name another skill's mention (added above) names: the lookups of the mentions that read
    // the old or the new name are made again among the names with the rename in them, so both skills are printed again.
    const readName = path.join(root, folders[(i * 7919 + 9901) % folders.length], 'SKILL.md');
    fs.writeFileSync(readName, fs.readFileSync(readName, 'utf8').replace(/^name: .*$/m, `name: ${folders[(i * 7919 + 6011) % folders.length]}`));
    const nameRead = record('nameRead', validate(withCache));
    if (nameRead.stdout !== validate(['--no-cache']).stdout) throw new Error('the name-read-by-a-mention run printed something else than --no-cache');
    if (!reprinted(nameRead)) throw new Error(`the name-read-by-a-mention run did not print the memo's report again: ${nameRead.stderr.slice(0, 300)}`);
    // One skill folder added: a new load, so the run goes in full, every other skill's load taken from the per-skill
    // cache (SKILLFLOW_CACHE_STATS says how many: checked).
    const added = path.join(root, `added-in-round-${i}`);
    fs.mkdirSync(added);
    fs.writeFileSync(path.join(added, 'SKILL.md'), `---\nname: added-in-round-${i}\ndescription: A skill added in round ${i}. Use it in the bench.\n---\n\n# Added\n\nSee [the guide](references/guide.md).\n`);
    const total = N + i + 1;
    const full = record('created', validate(withCache));
    if (full.stdout !== validate(['--no-cache']).stdout) throw new Error('the skill-added run printed something else than --no-cache');
    // (The skills edited earlier in the round are loaded again too: a patched memo leaves the per-skill cache as it was.)
    const [, reused, loaded] = /cache: (\d+) reused, (\d+) loaded/.exec(full.stderr) ?? [];
    if (/run memo/.test(full.stderr) || Number(reused) + Number(loaded) !== total || !(Number(loaded) <= 9)) throw new Error(`the skill-added run was not a full run reusing the other loads: ${full.stderr.slice(0, 300)}`);
  }
  const floor = median(sides.floor);
  const floorCpu = median(cpu.floor);
  const row = (label, side) => sides[side].length && console.log(`  ${label.padEnd(42)} wall ${fmt(median(sides[side])).padStart(8)} ${(median(sides[side]) / floor).toFixed(2).padStart(6)}x floor   CPU ${fmt(median(cpu[side])).padStart(8)} ${(median(cpu[side]) / floorCpu).toFixed(2).padStart(6)}x floor   peak ${median(rss[side]).toFixed(0)} MB`);
  console.log(`medians of ${RUNS}, ${N} skills:`);
  row('read-only floor (list + read)', 'floor');
  row('warm, nothing changed', 'warm');
  row(`one appended to, entry same (${sides.one.length} of ${RUNS})`, 'one');
  row(`one appended to, own problems changed (${sides.oneAgain.length})`, 'oneAgain');
  row(`one appended to, full run (${sides.oneFull.length})`, 'oneFull');
  row('one link to a missing file added', 'link');
  row('one description changed', 'desc');
  row('one mention of another skill added', 'mention');
  row('one name + a mention of it', 'nameMention');
  row('one name changed', 'name');
  row('one name another skill mentions', 'nameRead');
  row('one skill folder added (full run)', 'created');
  row('cold (no cache file; writes it)', 'cold');
  row('--no-cache', 'nocache');
  console.log('  (every cached output was byte-identical to the --no-cache output of the same tree)');

  // Linearity of the cold run (--no-cache): per-skill cost at each size, with wall and CPU beside the floor of the same
  // skills (medians of R, alternating).
  console.log(`cold (--no-cache) by size, medians of ${RUNS}, each beside its floor (same sizes, alternating):`);
  for (const n of SIZES) {
    const dir = path.join(tmp, `lin-${n}`, 'skills');
    generate(templates, dir, n);
    const times = [];
    const floors = [];
    const floorCpus = [];
    const mem = [];
    const cpus = [];
    for (let i = 0; i < RUNS; i++) {
      const f = run([floorScript, dir], tmp);
      floors.push(f.ms);
      floorCpus.push(f.cpu);
      const r = run([cli, 'validate', dir, '--format', 'json', '--no-cache'], tmp);
      times.push(r.ms);
      cpus.push(r.cpu);
      mem.push(r.rss);
    }
    const t = median(times);
    const c = median(cpus);
    console.log(`  ${String(n).padStart(6)} skills  wall ${fmt(t).padStart(8)} (${(t / median(floors)).toFixed(2)}x its floor)  CPU ${fmt(c).padStart(8)} (${(c / median(floorCpus)).toFixed(2)}x its floor), ${(c * 1000 / n).toFixed(0)} µs/skill  peak ${median(mem).toFixed(0)} MB`);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  if (keep) console.log(`kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}
