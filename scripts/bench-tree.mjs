// `node scripts/bench-tree.mjs [--n N] [--keep]`: the Skills tree's code path outside VS Code — the core catalog's
// SkillIndex (core discovery + validation) and tree model, bundled as the extension bundles them. Prints:
//   - first tree render: cold index load + the rows VS Code asks for on first paint (top level, the expanded
//     level groups), for examples/demo-workspace and a generated N-skill workspace (default 1,000);
//   - a full walk of every node (every skill expanded);
//   - re-indexing one changed skill (median), what a file watcher event costs;
//   - first diagnostics on a cold start of the N-skill workspace: the index load plus the problems grouped by file
//     (what the extension publishes right after activation without a start-up cache; target: within 1 s for 1,000 skills);
//   - first Problems on a cold start with a warm start-up cache (src/extension/skills/startupCache.ts): opening the
//     cache and checking each kept file's trace (target: within 1 s for 10,000 skills: `--n 10000`), then the
//     background load that replaces them;
//   - a skill folder written on disk to its row in the tree model: the index update, what the tree provider checks to
//     refresh only the new skill's level group (top-level ids, the Agents group) and that group's rows, which the
//     workbench asks for again (median; the extension applies the skills root's own watcher events on the next tick;
//     target: the tree within 300 ms; the e2e times the row in the real workbench).
// bench.mjs may call it (`--json` prints one JSON line instead of text).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argN = process.argv.indexOf('--n');
const N = argN === -1 ? 1000 : Number(process.argv[argN + 1]);
if (!Number.isInteger(N) || N <= 0) { console.error('bench-tree: --n needs a positive integer'); process.exit(2); }
const keep = process.argv.includes('--keep');
const json = process.argv.includes('--json');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-tree-'));
const bundle = path.join(tmp, 'tree.cjs');
await esbuild.build({
  stdin: {
    contents: [
      "export { SkillIndex } from './src/core/catalog/skillIndex';",
      "export { rootNodes, childNodes, walkTree, levelNodeIdOf, agentsSignature } from './src/core/catalog/treeModel';",
      "export { nodeFileSystem } from './src/core/base/fs';",
      "export { openStartupCache } from './src/extension/skills/startupCache';",
    ].join('\n'),
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: bundle, logLevel: 'warning',
});
const { SkillIndex, rootNodes, childNodes, walkTree, levelNodeIdOf, agentsSignature, nodeFileSystem, openStartupCache } = createRequire(import.meta.url)(bundle);

function generate(workspace, count) {
  const root = path.join(workspace, '.claude', 'skills');
  for (let i = 0; i < count; i++) {
    const kind = i % 10 === 0 ? 'workflow' : 'cmd';
    const name = `${kind}-${String(i).padStart(5, '0')}`;
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    // About 3 % are broken (a `: ` in a plain value), so badges and problems are part of the cost.
    const description = i % 33 === 0 ? `Handles task ${i}: with an unquoted colon` : `Handles task ${i} for the team. Use when the user asks about area ${i % 97}.`;
    // A typical body: 40 lines, two references (the shape of the real-world corpus).
    const body = Array.from({ length: 40 }, (_, l) => `Step ${l + 1}: check the output of the previous step before going on.`).join('\n')
      + '\n\nFollow [the guide](references/guide.md) and run `scripts/run.sh`.';
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\nallowed-tools: Read Grep\n---\n# ${name}\n\n${body}\n`);
    fs.writeFileSync(path.join(dir, 'references', 'guide.md'), '# Guide\n');
    fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), 'echo run\n');
  }
  fs.mkdirSync(path.join(workspace, '.claude', 'agents'), { recursive: true });
  for (let a = 0; a < 20; a++) {
    fs.writeFileSync(path.join(workspace, '.claude', 'agents', `agent-${a}.md`), `---\nname: agent-${a}\ndescription: Agent ${a}.\nskills:\n  - workflow-${String(a * 10).padStart(5, '0')}\n---\nBody\n`);
  }
}

/** Cold load + the rows of the first paint (top level and the expanded level groups). */
function firstRender(workspace) {
  const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [workspace], includePersonal: false, profile: 'claude-code' });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  index.ensureLoaded();
  let rows = 0;
  for (const top of rootNodes(index)) {
    rows++;
    // Level groups open expanded; the Agents group too (its agents stay collapsed).
    rows += childNodes(index, top).length;
  }
  const cpu = process.cpuUsage(cpu0);
  return { index, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, loadMs: index.lastLoadMs, rows };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const results = {};
try {
  // Warm the module (yaml parser JIT) on a tiny workspace so the figures are the index's, not the bundle's start-up.
  const warm = path.join(tmp, 'warm');
  generate(warm, 3);
  firstRender(warm);

  const demoCopy = path.join(tmp, 'demo-workspace');
  fs.cpSync(path.join(repo, 'examples', 'demo-workspace'), demoCopy, { recursive: true });
  const demo = firstRender(demoCopy);
  results.demo = { skills: demo.index.skills.length, firstRenderMs: demo.ms, firstRenderCpuMs: demo.cpuMs, rows: demo.rows };

  const big = path.join(tmp, `ws-${N}`);
  generate(big, N);
  const r = firstRender(big);
  const t1 = performance.now();
  const nodes = walkTree(r.index);
  const walkMs = performance.now() - t1;

  const changed = path.join(big, '.claude', 'skills', 'cmd-00001', 'SKILL.md');
  const original = fs.readFileSync(changed, 'utf8');
  const times = [];
  for (let i = 0; i < 25; i++) {
    fs.writeFileSync(changed, original.replace('Handles task 1 ', `Handles task 1 (edit ${i}) `));
    const t = performance.now();
    const change = r.index.applyChanges([changed]);
    times.push(performance.now() - t);
    if (change.skills.size < 1) throw new Error('the changed skill was not re-read');
  }
  // Cold start to first diagnostics: a fresh index (as activation makes one), loaded, problems grouped per file.
  const d0 = performance.now();
  const dcpu0 = process.cpuUsage();
  const cold = new SkillIndex(nodeFileSystem, { workspaceFolders: [big], includePersonal: false, profile: 'claude-code' });
  cold.ensureLoaded();
  const byFile = new Map();
  for (const s of cold.skills) for (const p of s.problems) {
    const file = p.file ?? s.skillMdPath;
    byFile.set(file, [...(byFile.get(file) ?? []), p]);
  }
  for (const a of cold.agents) byFile.set(a.path, a.problems);
  const firstDiagnosticsMs = performance.now() - d0;
  const dcpu = process.cpuUsage(dcpu0);
  const firstDiagnosticsCpuMs = (dcpu.user + dcpu.system) / 1000;
  const generatedSkills = cold.skills.length;
  if (![...byFile.values()].some((list) => list.some((p) => p.code === 'yaml-syntax'))) throw new Error('no yaml-syntax problem in the generated workspace');

  // Cold start with a warm start-up cache (src/extension/skills/startupCache.ts): a session loads through the cache and
  // writes it with the problems it showed; the next activation opens it and has the problems of every file whose
  // trace still holds (what it publishes at once), then loads in the background (unchanged skills from the cache).
  // A few seconds pass first, as between two sessions: files changed within 2 s of a load are hashed, not trusted.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
  const storage = { scheme: 'file', fsPath: path.join(tmp, 'storage') };
  const indexOptions = { workspaceFolders: [big], includePersonal: false, profile: 'claude-code' };
  const session = new SkillIndex(nodeFileSystem, indexOptions);
  const writer = openStartupCache(storage, session.options);
  session.ensureLoaded(writer);
  const w0 = performance.now();
  writer.keepProblems(nodeFileSystem, session.problemsByFile());
  writer.save();
  const cacheWriteMs = performance.now() - w0;
  const cacheBytes = fs.statSync(path.join(storage.fsPath, 'skills-cache-v1.json')).size;
  const cachedTimes = [];
  const cachedCpu = [];
  const revalidateTimes = [];
  const revalidateCpu = [];
  let cachedFiles = 0;
  for (let i = 0; i < 5; i++) {
    const c0 = performance.now();
    const cc0 = process.cpuUsage();
    const startIndex = new SkillIndex(nodeFileSystem, indexOptions);
    const cache = openStartupCache(storage, startIndex.options);
    const shown = cache.shownProblems(nodeFileSystem);
    cachedTimes.push(performance.now() - c0);
    const cc = process.cpuUsage(cc0);
    cachedCpu.push((cc.user + cc.system) / 1000);
    cachedFiles = shown.length;
    // The background load that replaces them.
    const r0 = performance.now();
    const rc0 = process.cpuUsage();
    startIndex.ensureLoaded(cache);
    revalidateTimes.push(performance.now() - r0);
    const rc = process.cpuUsage(rc0);
    revalidateCpu.push((rc.user + rc.system) / 1000);
    if (cache.stats.hits < generatedSkills * 0.99) throw new Error(`the start-up cache reused only ${cache.stats.hits} loads`);
  }
  const brokenFiles = [...byFile.values()].filter((list) => list.length > 0).length;
  if (cachedFiles !== brokenFiles) throw new Error(`the start-up cache showed ${cachedFiles} files' problems, the load has ${brokenFiles}`);

  // A skill folder written on disk → its row: applyChanges for the folder, the provider's checks (same top-level
  // groups? Agents unchanged?), then the rows of the one level group the workbench lists again.
  const newFolderTimes = [];
  const newFolderCpu = [];
  let agentsShown = agentsSignature(r.index);
  for (let i = 0; i < 15; i++) {
    const dir = path.join(big, '.claude', 'skills', `appeared-${i}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: appeared-${i}\ndescription: Appeared on disk. Use in the bench.\n---\n# Appeared\n`);
    const rootsBefore = rootNodes(r.index).map((n) => n.id).join('\n');
    const t = performance.now();
    const cpu0 = process.cpuUsage();
    const change = r.index.applyChanges([dir]);
    const sameRoots = rootNodes(r.index).map((n) => n.id).join('\n') === rootsBefore;
    const agentsNow = agentsSignature(r.index);
    const groupId = levelNodeIdOf(r.index, r.index.skillByDir(dir));
    const group = rootNodes(r.index).find((n) => n.id === groupId);
    const found = group !== undefined && childNodes(r.index, group).some((n) => n.id === `skill:${dir}`);
    newFolderTimes.push(performance.now() - t);
    const cpu = process.cpuUsage(cpu0);
    newFolderCpu.push((cpu.user + cpu.system) / 1000);
    if (!found || !change.structural || !sameRoots || agentsNow !== agentsShown) throw new Error(`appeared-${i} is not in its level group, or more than that group changed`);
    agentsShown = agentsNow;
  }

  results.startupCache = { firstProblemsMedianMs: median(cachedTimes), firstProblemsMedianCpuMs: median(cachedCpu), files: cachedFiles, backgroundLoadMedianMs: median(revalidateTimes), backgroundLoadMedianCpuMs: median(revalidateCpu), cacheWriteMs, cacheBytes };
  results.generated = { skills: generatedSkills, firstDiagnosticsMs, firstDiagnosticsCpuMs, newFolderToRowMedianMs: median(newFolderTimes), newFolderToRowMedianCpuMs: median(newFolderCpu), firstRenderMs: r.ms, firstRenderCpuMs: r.cpuMs, indexLoadMs: r.loadMs, rows: r.rows, fullWalkNodes: nodes, fullWalkMs: walkMs, oneSkillChangeMedianMs: median(times) };

  if (json) {
    console.log(JSON.stringify(results));
  } else {
    console.log('Skills tree (extension index + tree model, plain Node):');
    console.log(`  first tree render, demo workspace (${results.demo.skills} skills, ${results.demo.rows} rows): ${fmt(results.demo.firstRenderMs)} wall, ${fmt(results.demo.firstRenderCpuMs)} CPU`);
    console.log(`  first tree render, generated workspace (${results.generated.skills} skills, ${results.generated.rows} rows): ${fmt(results.generated.firstRenderMs)} wall, ${fmt(results.generated.firstRenderCpuMs)} CPU (index load ${fmt(results.generated.indexLoadMs)} wall)`);
    console.log(`  machine load average while measuring: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
    console.log(`  full walk of every node (${nodes} nodes): ${fmt(walkMs)}`);
    console.log(`  re-index one changed skill (watcher event), median of ${times.length}: ${results.generated.oneSkillChangeMedianMs.toFixed(2)} ms`);
    console.log(`  first diagnostics, cold start (${results.generated.skills} skills: index load + problems by file): ${fmt(results.generated.firstDiagnosticsMs)} wall, ${fmt(results.generated.firstDiagnosticsCpuMs)} CPU (target: under 1 s)`);
    const sc = results.startupCache;
    console.log(`  first Problems, cold start with a warm start-up cache (open the cache, check each file's trace), median of 5: ${fmt(sc.firstProblemsMedianMs)} wall, ${fmt(sc.firstProblemsMedianCpuMs)} CPU, ${sc.files} files' problems (target: under 1 s); then the background load from the cache ${fmt(sc.backgroundLoadMedianMs)} wall, ${fmt(sc.backgroundLoadMedianCpuMs)} CPU; the cache ${(sc.cacheBytes / 1e6).toFixed(1)} MB, written in ${fmt(sc.cacheWriteMs)}`);
    console.log(`  new skill folder on disk → its tree row (index update + its level group's rows), median of ${newFolderTimes.length}: ${results.generated.newFolderToRowMedianMs.toFixed(1)} ms wall, ${results.generated.newFolderToRowMedianCpuMs.toFixed(1)} ms CPU (target: the row shown under 300 ms after the write; the e2e times it in the workbench)`);
  }
} finally {
  if (keep) console.log(`kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}
