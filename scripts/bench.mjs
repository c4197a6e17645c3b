// `npm run bench` (after `node esbuild.mjs`): how fast is Skillflow's validation, side by side with the
// core of Anthropic's quick_validate.py in Python, on N generated skills (default 10,000; `--n N`).
//
// Skills are cloned from test/fixtures/corpus under new names (same sizes and companion files, hard-linked
// where possible), and about 3 % are deliberately broken. Printed, in one run:
//   - whole-process wall time of `node dist/cli.js validate <dir> --format json` and of a Python loop doing
//     what quick_validate does at its core (read SKILL.md, regex the frontmatter, yaml.safe_load, key checks),
//     and the ratio (target: Skillflow at least 3x faster, goal 5x); and what starting Node alone costs here
//     (`node -e 0`, part of every validate run, e.g. when the environment makes it load extra CA certificates);
//   - in-process time to re-validate one changed skill (median of many loadSkill runs; target < 1 ms);
//   - discovery time of a 1,000-skill workspace (what the skills tree pays on a full load);
//   - reference extraction alone over the N skills (bench-extract.mjs: CPU time of one pass in a fresh process);
//   - the language server over 10,000 edits: core time per re-validation and heap (bench-lsp.mjs).
// Flags: --n N, --runs R (process runs per side, median reported; default 3), --keep (keep the temp folder).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { corpusDir, generate as generateSkills, loadTemplates, repo } from './bench-skills.mjs';
import { childrenCpuMs, median } from './bench-lib.mjs';

const cli = path.join(repo, 'dist', 'cli.js');

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) { console.error(`bench: --${name} needs a positive integer`); process.exit(2); }
  return v;
}
const N = flag('n', 10_000);
const RUNS = flag('runs', 3);
const keep = process.argv.includes('--keep');

if (!fs.existsSync(cli)) { console.error('bench: dist/cli.js is missing; run `node esbuild.mjs` first (npm run bench does).'); process.exit(2); }
if (!fs.existsSync(corpusDir)) { console.error(`bench: ${corpusDir} is missing`); process.exit(2); }
const templates = loadTemplates();
const generate = (root, count) => generateSkills(templates, root, count);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-'));
const bigRoot = path.join(tmp, 'big', 'skills');
const workspace = path.join(tmp, 'workspace');

// ---------- the Python side: the core of quick_validate.py over every skill folder ----------
const PYTHON = String.raw`
import os, re, sys
import yaml
ALLOWED = {"name", "description", "license", "allowed-tools", "metadata", "compatibility"}
def check(skill_dir):
    p = os.path.join(skill_dir, "SKILL.md")
    if not os.path.exists(p): return "SKILL.md not found"
    with open(p, encoding="utf-8") as f: content = f.read()
    if not content.startswith("---"): return "No YAML frontmatter found"
    m = re.match(r"^---\n(.*?)\n---", content, re.DOTALL)
    if not m: return "Invalid frontmatter format"
    try:
        fm = yaml.safe_load(m.group(1))
    except yaml.YAMLError as e:
        return "Invalid YAML in frontmatter: %s" % e
    if not isinstance(fm, dict): return "Frontmatter must be a YAML dictionary"
    extra = set(fm) - ALLOWED
    if extra: return "Unexpected key(s): %s" % ", ".join(sorted(extra))
    if "name" not in fm: return "Missing 'name'"
    if "description" not in fm: return "Missing 'description'"
    name = fm["name"]
    if not isinstance(name, str): return "name must be a string"
    name = name.strip()
    if name:
        if not re.match(r"^[a-z0-9-]+$", name): return "name should be hyphen-case"
        if name.startswith("-") or name.endswith("-") or "--" in name: return "bad hyphens"
        if len(name) > 64: return "name too long"
    desc = fm["description"]
    if not isinstance(desc, str): return "description must be a string"
    desc = desc.strip()
    if desc:
        if "<" in desc or ">" in desc: return "description has angle brackets"
        if len(desc) > 1024: return "description too long"
    comp = fm.get("compatibility", "")
    if comp and (not isinstance(comp, str) or len(comp) > 500): return "bad compatibility"
    return None
root = sys.argv[1]
bad = 0
total = 0
for entry in sorted(os.listdir(root)):
    d = os.path.join(root, entry)
    if not os.path.isdir(d): continue
    total += 1
    if check(d) is not None: bad += 1
print("%d skills, %d invalid" % (total, bad))
`;

function timeProcess(cmd, args) {
  const c0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const c1 = childrenCpuMs();
  const cpu = c0 === undefined || c1 === undefined ? undefined : c1 - c0;
  return { ms, cpu, status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(3)} ms`;
}

try {
  const tGen = performance.now();
  const broken = generate(bigRoot, N);
  generate(path.join(workspace, '.claude', 'skills'), 1000);
  console.log(`Generated ${N} skills (${broken} deliberately broken) from ${templates.length} corpus skills in ${fmtMs(performance.now() - tGen)}: ${bigRoot}`);

  // Whole-process runs, alternating sides so both see the same cache state.
  const nodeRuns = [];
  const pyRuns = [];
  const nodeCpu = [];
  const pyCpu = [];
  let nodeSummary = '';
  let pySummary = '';
  const probe = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' });
  const pySkipped = probe.error ? `python3 not found (${probe.error.message})` : probe.status !== 0 ? 'python3 cannot import yaml (PyYAML is not installed)' : undefined;
  const startRuns = [];
  for (let run = 0; run < RUNS; run++) {
    startRuns.push(timeProcess(process.execPath, ['-e', '0']).ms);
    const n = timeProcess(process.execPath, [cli, 'validate', bigRoot, '--format', 'json', '--no-cache']);
    if (n.status !== 0 && n.status !== 1) { console.error(`bench: skillflow validate exited ${n.status}: ${n.stderr}`); process.exit(1); }
    nodeRuns.push(n.ms);
    if (n.cpu !== undefined) nodeCpu.push(n.cpu);
    if (run === 0) {
      const s = JSON.parse(n.stdout).summary;
      nodeSummary = `${s.skills} skills, ${s.errors} errors, ${s.warnings} warnings`;
    }
    if (pySkipped) continue;
    const p = timeProcess('python3', ['-c', PYTHON, bigRoot]);
    if (p.status !== 0) { console.error(`bench: python exited ${p.status}: ${p.stderr}`); process.exit(1); }
    pyRuns.push(p.ms);
    if (p.cpu !== undefined) pyCpu.push(p.cpu);
    pySummary = p.stdout.trim();
  }

  // In-process: bundle the core once and time loadSkill / validateSkillMd / discover.
  const bundle = path.join(tmp, 'core.cjs');
  await esbuild.build({
    stdin: {
      contents: [
        "export { loadSkill } from './src/core/discovery/load';",
        "export { discover } from './src/core/discovery/discover';",
        "export { validateSkillMd } from './src/core/validation/validateSkill';",
        "export { nodeFileSystem } from './src/core/base/fs';",
      ].join('\n'),
      resolveDir: repo,
      loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, logLevel: 'warning',
  });
  const core = createRequire(import.meta.url)(bundle);
  const typical = templates.find((t) => t.folder === 'brainstorming') ?? templates[0];
  const index = templates.indexOf(typical);
  const folder = `${typical.folder}-${index}`;
  const root = { path: bigRoot, scope: 'project' };
  const skillMdPath = path.join(bigRoot, folder, 'SKILL.md');
  const text = fs.readFileSync(skillMdPath, 'utf8');
  const reval = [];
  const textOnly = [];
  for (let i = 0; i < 50; i++) core.loadSkill(core.nodeFileSystem, root, folder, 'claude-code');
  for (let i = 0; i < 1000; i++) {
    // A "changed" skill: touch the file so nothing can be served from a stale read.
    if (i % 10 === 0) fs.writeFileSync(skillMdPath, text);
    const t0 = performance.now();
    const entry = core.loadSkill(core.nodeFileSystem, root, folder, 'claude-code');
    reval.push(performance.now() - t0);
    if (!entry) throw new Error('loadSkill returned nothing');
  }
  const ctx = { profile: 'claude-code', folderName: folder, skillDir: path.join(bigRoot, folder), rootDir: bigRoot };
  for (let i = 0; i < 1000; i++) {
    const t0 = performance.now();
    core.validateSkillMd(text, ctx, core.nodeFileSystem);
    textOnly.push(performance.now() - t0);
  }
  const discoverRuns = [];
  let discovered = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const d = core.discover(core.nodeFileSystem, { workspaceFolders: [workspace], profile: 'claude-code' });
    discoverRuns.push(performance.now() - t0);
    discovered = d.skills.length;
  }

  const nodeMs = median(nodeRuns);
  const cpuText = (runs) => (runs.length ? `; CPU ${fmtMs(median(runs))}` : '');
  const rows = [
    [`skillflow validate --format json (node)`, `${fmtMs(nodeMs)}`, `median of ${nodeRuns.length}; ${(nodeMs * 1000 / N).toFixed(0)} µs/skill${cpuText(nodeCpu)}; ${nodeSummary}`],
  ];
  let ratioText = 'n/a';
  if (pyRuns.length) {
    const pyMs = median(pyRuns);
    rows.push(['quick_validate core (python3 + PyYAML)', fmtMs(pyMs), `median of ${pyRuns.length}; ${(pyMs * 1000 / N).toFixed(0)} µs/skill${cpuText(pyCpu)}; ${pySummary}`]);
    ratioText = `${(pyMs / nodeMs).toFixed(1)}x faster than Python in wall time (target 3x, goal 5x): ${pyMs / nodeMs >= 3 ? 'met' : 'NOT met'}`;
    if (nodeCpu.length && pyCpu.length) ratioText += `; ${(median(pyCpu) / median(nodeCpu)).toFixed(1)}x in CPU time`;
  } else {
    rows.push(['quick_validate core (python3 + PyYAML)', 'skipped', pySkipped]);
  }
  rows.push(['ratio', '', ratioText]);
  const startMs = median(startRuns);
  rows.push(['Node start-up alone (node -e 0)', fmtMs(startMs), `median of ${startRuns.length}; part of the validate time above${process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS is set: Node parses that CA bundle at every start)' : ''}`]);
  const revalMs = median(reval);
  rows.push([`re-validate one changed skill (loadSkill)`, fmtMs(revalMs), `median of ${reval.length}, '${folder}' (${text.length} chars); target < 1 ms: ${revalMs < 1 ? 'met' : 'NOT met'}`]);
  rows.push(['validateSkillMd on its text alone', fmtMs(median(textOnly)), `median of ${textOnly.length}`]);
  rows.push(['discover a 1,000-skill workspace', fmtMs(median(discoverRuns)), `median of ${discoverRuns.length}; ${discovered} skills; first run ${fmtMs(discoverRuns[0])}`]);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  console.log('');
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
  // Reference extraction alone over the same skills, in a fresh process (bench-extract.mjs prints one line).
  const extract = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bench-extract.mjs'), '--dir', bigRoot], { stdio: 'inherit' });
  if (extract.status !== 0) process.exitCode = extract.status ?? 1;
} finally {
  if (keep) console.log(`\nkept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}

// The Skills tree's own code path (extension index + tree model): first render for the demo and a 1,000-skill workspace.
console.log('');
const tree = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bench-tree.mjs')], { stdio: 'inherit' });
if (tree.status !== 0) process.exitCode = tree.status ?? 1;

// The Claude Code model on a generated 300-skill workspace: model build, listing, resolve, What Claude Sees render.
console.log('');
const claudeBench = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bench-claude.mjs')], { stdio: 'inherit' });
if (claudeBench.status !== 0) process.exitCode = claudeBench.status ?? 1;

// The language server: 10,000 edits of one SKILL.md, core time per re-validation and heap (bench-lsp.mjs).
console.log('');
const lspBench = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bench-lsp.mjs')], { stdio: 'inherit', cwd: repo });
if (lspBench.status !== 0) process.exitCode = lspBench.status ?? 1;

// The validate cache: warm, one file changed and cold runs beside the read-only floor; cold at 1k / 10k / 20k skills.
console.log('');
const cacheBench = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bench-cache.mjs')], { stdio: 'inherit' });
if (cacheBench.status !== 0) process.exitCode = cacheBench.status ?? 1;
