// `node scripts/bench-claude.mjs [--n N] [--keep]`: the Claude Code model (src/core/claude) on a generated
// workspace of N project skills (default 300) plus commands, personal skills and a nested package. Prints the
// cold model build (read every SKILL.md from disk), the listing computation (median of 50), a resolve, and the
// What Claude Sees view's render from the model (view model + HTML, the pure code the extension host runs; median
// of 20). Targets: listing well under 100 ms for 300 skills (pure arithmetic over the loaded entries); the view's
// render under 500 ms.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argN = process.argv.indexOf('--n');
const N = argN === -1 ? 300 : Number(process.argv[argN + 1]);
if (!Number.isInteger(N) || N <= 0) { console.error('bench-claude: --n needs a positive integer'); process.exit(2); }
const keep = process.argv.includes('--keep');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-claude-'));
const bundle = path.join(tmp, 'claude.cjs');
await esbuild.build({
  stdin: {
    contents: "export { buildClaudeModel } from './src/core/claude/load'; export { computeListing } from './src/core/claude/listing'; export { resolveCommand } from './src/core/claude/resolve'; export { nodeFileSystem } from './src/core/base/fs';"
      + " export { buildListingViewModel, renderListingHtml, parseContextWindow } from './src/webview/listingView';",
    resolveDir: repo, loader: 'ts',
  },
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: bundle, logLevel: 'warning',
});
const claude = createRequire(import.meta.url)(bundle);

const work = path.join(tmp, 'repo');
const home = path.join(tmp, 'home');
const write = (file, text) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text); };
write(path.join(work, '.git', 'HEAD'), 'ref: refs/heads/main\n');
for (let i = 0; i < N; i++) {
  const name = `skill-${String(i).padStart(4, '0')}`;
  const description = `Handles task ${i} for the team. `.repeat(1 + (i % 7)) + `Use when the user asks about area ${i % 97}.`;
  write(path.join(work, '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nBody.\n`);
}
for (let i = 0; i < 20; i++) write(path.join(work, '.claude', 'commands', `cmd-${i}.md`), `---\ndescription: Command ${i}.\n---\nDo it.\n`);
for (let i = 0; i < 10; i++) write(path.join(home, '.claude', 'skills', `skill-${String(i).padStart(4, '0')}`, 'SKILL.md'), '---\ndescription: Personal.\n---\n');
write(path.join(work, 'apps', 'web', '.claude', 'skills', 'skill-0001', 'SKILL.md'), '---\ndescription: Nested.\n---\n');

const opts = { startDir: work, home, managedDir: null };
let t = performance.now();
const model = claude.buildClaudeModel(claude.nodeFileSystem, opts);
const build = performance.now() - t;
const times = [];
let listing;
for (let i = 0; i < 50; i++) {
  t = performance.now();
  listing = claude.computeListing(model.entries, model.settings, { env: model.env });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
t = performance.now();
const r = claude.resolveCommand(model, '/skill-0001');
const resolve = performance.now() - t;
// What Claude Sees: the view model and HTML from the model and listing, as the view builds them on every change.
const contextWindow = claude.parseContextWindow('200k');
const renders = [];
let html = '';
for (let i = 0; i < 20; i++) {
  t = performance.now();
  const ids = new Map();
  const vm = claude.buildListingViewModel({
    model, listing, contextWindow, folders: [{ id: '0', name: 'repo' }], folderId: '0',
    idOf: (f) => { if (!ids.has(f)) ids.set(f, `e${ids.size + 1}`); return ids.get(f); },
  });
  html = claude.renderListingHtml(vm);
  renders.push(performance.now() - t);
}
const firstRender = renders[0];
renders.sort((a, b) => a - b);
const renderMs = renders[10];
console.log(`entries: ${model.entries.length} (${model.entries.filter((e) => e.loaded).length} loaded)`);
console.log(`model build, cold (reads every SKILL.md): ${build.toFixed(1)} ms`);
console.log(`listing on a generated ${N}-skill workspace (median of 50): ${times[25].toFixed(2)} ms  budget ${listing.budget}, used ${listing.used}, ${listing.entries.filter((e) => e.shown === 'dropped').length} dropped`);
console.log(`What Claude Sees render (view model + HTML) for ${N} skills (median of 20): ${renderMs.toFixed(2)} ms, first ${firstRender.toFixed(1)} ms, ${(html.length / 1024).toFixed(0)} KiB of HTML; target < 500 ms: ${firstRender < 500 && renderMs < 500 ? 'met' : 'NOT met'}`);
console.log(`resolve /skill-0001: ${resolve.toFixed(2)} ms  winner ${r.winner?.level}, ${r.shadowed.length} shadowed`);
if (!keep) fs.rmSync(tmp, { recursive: true, force: true }); else console.log(`kept ${tmp}`);
