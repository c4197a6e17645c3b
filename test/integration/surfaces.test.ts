// One truth in every surface: What Claude Sees and Who Answers… in the real extension host say what the CLI's
// `listing --format json` and `resolve --format json` say for the same folder, the same home and the same
// environment: on the demo workspace (its plugin in plugins/ included), then with a personal skill in the home and
// a nested `.claude/skills` below the folder added.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClaudeApi } from '../../src/extension/claude';
import { getApi, getExtension, waitFor, workspaceDir } from './util';

interface CliListing { budget: number; used: number; entries: Array<{ invocation: string; shown: string; chars: number }> }
interface CliEntry { path: string; level: string; source: string }
interface CliResolve { winner?: CliEntry; shadowed: CliEntry[]; builtin: boolean }

/** Runs the built CLI (dist/cli.js of the extension under test) in the workspace folder with the extension host's home. */
function cli(args: string[]): unknown {
  const bin = path.join(getExtension().extensionPath, 'dist', 'cli.js');
  const run = spawnSync(process.execPath, [bin, ...args, '--format', 'json', '--home', os.homedir()], {
    cwd: workspaceDir(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8',
  });
  assert.ok(run.status === 0 || run.status === 1, `skillflow ${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** A path as the CLI prints it: relative to the folder, `~/…` in the home. */
function rel(file: string): string {
  const r = path.relative(workspaceDir(), file);
  if (!r.startsWith('..') && !path.isAbsolute(r)) return r.split(path.sep).join('/');
  const h = path.relative(os.homedir(), file);
  return !h.startsWith('..') && !path.isAbsolute(h) ? `~/${h.split(path.sep).join('/')}` : file;
}

/** The listing as a sorted list (rows for files Claude Code never loads are the view's own: the CLI leaves them out) of `invocation shown chars`, from either surface. */
function listingLines(rows: ReadonlyArray<{ invocation: string; shown: string; chars: number }>): string[] {
  return rows.map((r) => `${r.invocation} ${r.shown} ${r.chars}`).sort();
}

async function compareSurfaces(api: ClaudeApi, commands: string[]): Promise<CliListing> {
  const listing = cli(['listing']) as CliListing;
  // Files an earlier suite wrote or removed reach the index through the watcher: wait for it to settle.
  let vm = api.render();
  try {
    vm = await waitFor(() => { vm = api.render(); return vm?.used === listing.used && vm; }, 15_000, 'the view to count what the CLI counts');
  } catch { /* the assertions below say what differs */ }
  assert.ok(vm);
  assert.equal(vm.budget, listing.budget, 'budget');
  assert.deepEqual(listingLines(vm.rows.filter((r) => !r.reason?.startsWith('never loaded:'))), listingLines(listing.entries), 'the entries and what the listing shows of each');
  assert.equal(vm.used, listing.used, 'characters used');

  for (const command of [...new Set([...commands, ...listing.entries.map((e) => e.invocation)])]) {
    const resolved = cli(['resolve', command]) as CliResolve;
    await api.whoAnswers(command);
    const rows = (api.lastWhoAnswers?.items ?? []).flatMap((i) => (i.row ? [i.row] : []));
    api.closeWhoAnswers();
    const winner = rows.find((r) => r.kind === 'winner');
    assert.equal(winner?.path && rel(winner.path), resolved.winner?.path, `who answers ${command}`);
    assert.equal(rows.some((r) => r.kind === 'builtin'), resolved.builtin, `${command} is a built-in`);
    assert.equal(rows.some((r) => r.kind === 'nothing'), !resolved.winner && !resolved.builtin, `nothing answers ${command}`);
    const shadowed = rows.filter((r) => r.kind === 'shadowed' && r.path).map((r) => rel(r.path!)).sort();
    assert.deepEqual(shadowed, resolved.shadowed.map((s) => s.path).filter((p) => !p.startsWith('bundled:')).sort(), `what ${command} shadows`);
  }
  return listing;
}

describe('One model in every surface', () => {
  let api: ClaudeApi;
  const personal = path.join(os.homedir(), '.claude', 'skills', 'personal-notes');
  const personalHello = path.join(os.homedir(), '.claude', 'skills', 'hello');
  const nestedRoot = () => path.join(workspaceDir(), 'packages', 'app');

  before(async () => {
    api = (await getApi<{ claude: ClaudeApi }>()).claude;
  });

  after(async () => {
    api.closeWhoAnswers();
    fs.rmSync(personal, { recursive: true, force: true });
    fs.rmSync(personalHello, { recursive: true, force: true });
    fs.rmSync(path.join(workspaceDir(), 'packages'), { recursive: true, force: true });
    api.service.refreshNow();
    await api.whenIdle();
  });

  it('the demo workspace: What Claude Sees and Who Answers… agree with the CLI, the plugin skill included', async function () {
    this.timeout(120_000);
    const listing = await compareSurfaces(api, ['/demo-plugin:lint-fix', '/code-review', '/help', '/no-such-command']);
    assert.ok(listing.entries.some((e) => e.invocation === '/demo-plugin:lint-fix'), 'the CLI lists the plugin skill');
    await api.whoAnswers('/demo-plugin:lint-fix');
    assert.equal(api.lastWhoAnswers?.items.find((i) => i.row)?.row?.kind, 'winner', 'the plugin skill answers in the editor too');
    api.closeWhoAnswers();

    // Problems name other files relative to the folder, never by the machine's absolute path.
    const notLoaded = await waitFor(() => vscode.languages.getDiagnostics().flatMap(([, ds]) => ds).find((d) => d.source === 'skillflow' && typeof d.code === 'object' && d.code.value === 'skill-not-loaded'), 20_000, 'the skill-not-loaded problem');
    assert.match(notLoaded.message, /only direct children of \.claude\/skills are skills; drafts\/explain-regex\/SKILL\.md is deeper/);
    const absolute = vscode.languages.getDiagnostics().flatMap(([, ds]) => ds).filter((d) => d.source === 'skillflow' && d.message.includes(workspaceDir()));
    assert.deepEqual(absolute.map((d) => d.message), []);
  });

  it('with a personal skill in the home and a nested .claude/skills below the folder: both surfaces still agree', async function () {
    this.timeout(120_000);
    const skill = (dir: string, name: string, description: string) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`);
    };
    skill(personal, 'personal-notes', 'Keep personal notes on the current task. Use when the user asks to note something.');
    // A personal skill that a project skill of the same name overrides.
    skill(personalHello, 'hello', 'A personal greeting the project skill overrides.');
    skill(path.join(nestedRoot(), '.claude', 'skills', 'app-build'), 'app-build', 'Build the app package. Use when the user asks to build the app.');
    api.service.refreshNow();
    await api.whenIdle();
    const listing = await compareSurfaces(api, ['/personal-notes', '/hello', '/app-build']);
    assert.ok(listing.entries.some((e) => e.invocation === '/personal-notes'), 'the personal skill is listed');
  });
});
