// `list`, `resolve`, `listing` and `--home` / `--managed`, run in-process through main().
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd: string, opts: { home?: string; env?: Record<string, string> } = {}) {
  let out = '';
  let err = '';
  // managedDir null: the machine's own managed folder never leaks into a test; --managed sets one.
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: opts.env ?? {}, home: opts.home, managedDir: null, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

function fixture() {
  const home = tempTree({ '.claude/skills/deploy/SKILL.md': skillMd('deploy', 'Personal deploy.') });
  const managed = tempTree({ '.claude/skills/audit/SKILL.md': skillMd('audit', 'Company audit.') });
  const ws = tempTree({
    '.claude/skills/deploy/SKILL.md': skillMd('deploy', 'Project deploy.'),
    '.claude/skills/hello/SKILL.md': skillMd('hi', 'Says hello.'),
    '.claude/skills/audit/SKILL.md': skillMd('audit', 'Project audit.'),
    '.claude/commands/hello.md': 'Say hello as a command.\n',
    '.claude/skills/group/x/SKILL.md': skillMd('x'),
  });
  return { home, managed, ws, done: () => { removeTree(home); removeTree(managed); removeTree(ws); } };
}

interface ListJson { skills: Array<Record<string, unknown>> }

test('list: every level (personal via --home, managed via --managed), commands, invocation/level/source/loaded/shadowedBy', async () => {
  const f = fixture();
  try {
    const r = await run(['list', '--format', 'json', '--home', f.home, '--managed', f.managed], f.ws);
    assert.equal(r.code, 0, r.err);
    const rows = (JSON.parse(r.out) as ListJson).skills.map((s) => [s.invocation, s.level, s.source, s.loaded, s.shadowedBy, s.path]);
    const managed = f.managed.split(path.sep).join('/');
    assert.deepEqual(rows.sort((a, b) => String(a[5]).localeCompare(String(b[5]))), [
      [null, 'project', 'skill', false, null, '.claude/skills/group/x'],
      ['/audit', 'project', 'skill', true, `${managed}/.claude/skills/audit/SKILL.md`, '.claude/skills/audit'],
      ['/deploy', 'project', 'skill', true, '~/.claude/skills/deploy/SKILL.md', '.claude/skills/deploy'],
      ['/hello', 'project', 'skill', true, null, '.claude/skills/hello'],
      ['/hello', 'project', 'command', true, '.claude/skills/hello/SKILL.md', '.claude/commands/hello.md'],
      ['/deploy', 'personal', 'skill', true, null, '~/.claude/skills/deploy'],
      ['/audit', 'managed', 'skill', true, null, `${managed}/.claude/skills/audit`],
    ].sort((a, b) => String(a[5]).localeCompare(String(b[5]))));
    const hello = (JSON.parse(r.out) as ListJson).skills.find((s) => s.path === '.claude/skills/hello')!;
    assert.deepEqual([hello.name, hello.displayName], ['hi', 'hi']);

    // Without --home / --managed: only the project (the context has no home, and no managed folder).
    const plain = await run(['list', '--format', 'json'], f.ws);
    assert.deepEqual((JSON.parse(plain.out) as ListJson).skills.map((s) => s.level).filter((l) => l !== 'project'), []);

    const text = await run(['list', '--home', f.home], f.ws);
    assert.match(text.out, /^INVOCATION +NAME +LEVEL +TYPE +TOKENS +PATH +STATUS +DESCRIPTION$/m);
    assert.match(text.out, new RegExp(`^/deploy +deploy +project +skill +\\d+ +\\.claude/skills/deploy +shadowed by ~/\\.claude/skills/deploy/SKILL\\.md +Project deploy\\.$`, 'm'));
    assert.match(text.out, /^\/hello +hello +project +command file +\d+ +\.claude\/commands\/hello\.md +shadowed by \.claude\/skills\/hello\/SKILL\.md +Say hello as a command\.$/m);
    assert.match(text.out, /^- +x +project +skill +\d+ +\.claude\/skills\/group\/x +not loaded: only direct children of \.claude\/skills are skills; group\/x\/SKILL\.md is deeper/m);
  } finally { f.done(); }
});

test('validate PATH reports only what is under PATH; the other levels still decide shadowing', async () => {
  const f = fixture();
  try {
    const r = await run(['validate', '.', '--format', 'json', '--home', f.home, '--managed', f.managed], f.ws);
    const report = JSON.parse(r.out) as { skills: Array<{ path: string; problems: Array<{ code: string; severity: string; message: string }> }> };
    assert.deepEqual(report.skills.map((s) => s.path).sort(), [
      '.claude/commands/hello.md', '.claude/skills/audit/SKILL.md', '.claude/skills/deploy/SKILL.md', '.claude/skills/group/x/SKILL.md', '.claude/skills/hello/SKILL.md',
    ]);
    const deploy = report.skills.find((s) => s.path === '.claude/skills/deploy/SKILL.md')!;
    assert.deepEqual(deploy.problems.map((p) => [p.code, p.severity]), [['shadowed', 'info']]);
    // The winner's path in the message as the paths beside it: `~` for the home (--home here), never the machine's layout.
    assert.match(deploy.problems[0].message, /personal skill \/deploy at ~\/\.claude\/skills\/deploy\/SKILL\.md wins/);
    assert.ok(!deploy.problems[0].message.includes(f.home));
    assert.ok(report.skills.find((s) => s.path === '.claude/skills/group/x/SKILL.md')!.problems.some((p) => p.code === 'skill-not-loaded'));
    assert.equal(r.code, 1, 'skill-not-loaded is an error in claude-code');
    // One skill folder: that skill only, shadowed by the personal one still.
    const one = await run(['validate', '.claude/skills/deploy', '--format', 'json', '--home', f.home], f.ws);
    const oneReport = JSON.parse(one.out) as { skills: Array<{ path: string; problems: Array<{ code: string }> }> };
    assert.deepEqual(oneReport.skills.map((s) => [s.path, s.problems.map((p) => p.code)]), [['.claude/skills/deploy/SKILL.md', ['shadowed']]]);
    assert.equal(one.code, 0);
  } finally { f.done(); }
});

test('resolve: the winner, what it shadows and why; exact JSON; exit 0 when something answers, 1 when nothing does', async () => {
  const f = fixture();
  try {
    const r = await run(['resolve', '/deploy', '--format', 'json', '--home', f.home], f.ws);
    assert.equal(r.code, 0);
    const json = JSON.parse(r.out) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['command', 'winner', 'shadowed', 'builtin']);
    const personal = '~/.claude/skills/deploy/SKILL.md';
    assert.deepEqual(json.winner, { path: personal, level: 'personal', source: 'skill' });
    const shadowed = json.shadowed as Array<Record<string, unknown>>;
    assert.deepEqual(shadowed.map((s) => [s.path, s.level, s.source]), [['.claude/skills/deploy/SKILL.md', 'project', 'skill']]);
    assert.deepEqual(Object.keys(shadowed[0]), ['path', 'level', 'source', 'reason']);
    assert.match(String(shadowed[0].reason), /managed > personal > project/);
    assert.equal(json.builtin, false);

    const hello = await run(['resolve', 'hello', '.'], f.ws);
    assert.equal(hello.code, 0);
    assert.equal(hello.out.split('\n')[0], '/hello → project skill .claude/skills/hello/SKILL.md');
    assert.match(hello.out, /shadows project command file \.claude\/commands\/hello\.md: .*a skill wins over a command/);
    // The display name is not a command.
    const hi = await run(['resolve', '/hi', '--format', 'json'], f.ws);
    assert.deepEqual([hi.code, JSON.parse(hi.out)], [1, { command: '/hi', winner: null, shadowed: [], builtin: false, note: 'hi is the display name (`name:`) of /hello, not a command: type /hello' }]);
    const help = await run(['resolve', '/help', '--format', 'json'], f.ws);
    assert.deepEqual([help.code, JSON.parse(help.out).builtin], [0, true]);

    const bad = await run(['resolve'], f.ws);
    assert.deepEqual([bad.code, bad.err], [2, 'skillflow resolve: missing </command>\n']);
    const notFolder = await run(['resolve', '/x', 'nope'], f.ws);
    assert.deepEqual([notFolder.code, notFolder.err], [2, "skillflow resolve: 'nope' does not exist\n"]);
  } finally { f.done(); }
});

test('listing: the listing itself then the figures; JSON budget/used/entries; --context-window and SLASH_COMMAND_TOOL_CHAR_BUDGET', async () => {
  const f = fixture();
  try {
    const r = await run(['listing', '--format', 'json', '--home', f.home], f.ws);
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(r.out) as { budget: number; used: number; entries: Array<{ invocation: string; chars: number; shown: string }> };
    assert.equal(json.budget, 8000, '1% of 200,000 tokens at 4 characters per token');
    const byInvocation = new Map(json.entries.map((e) => [`${e.invocation}:${e.shown}`, e]));
    assert.equal(byInvocation.get('/deploy:full')!.chars, '- deploy: Personal deploy.\n'.length);
    assert.ok(byInvocation.has('/deploy:absent'), 'the shadowed project deploy is absent');
    assert.ok(byInvocation.has('/hello:absent'), 'the shadowed command is absent');
    assert.equal(json.used, json.entries.reduce((n, e) => n + e.chars, 0));
    assert.ok(json.used <= json.budget);

    const small = await run(['listing', '--format', 'json', '--context-window', '1000'], f.ws);
    assert.equal((JSON.parse(small.out) as { budget: number }).budget, 40);
    const env = await run(['listing', '--format', 'json'], f.ws, { env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '30' } });
    const tight = JSON.parse(env.out) as { budget: number; entries: Array<{ shown: string }> };
    assert.equal(tight.budget, 30);
    assert.ok(tight.entries.some((e) => e.shown === 'dropped'), 'over budget, descriptions are dropped');

    const text = await run(['listing', '--home', f.home], f.ws);
    const lines = text.out.split('\n');
    assert.equal(lines[0].startsWith('- '), true, text.out);
    assert.ok(lines.includes('- deploy: Personal deploy.'));
    assert.match(text.out, /^\d+ of 8000 characters used \(budget from skillListingBudgetFraction of a 200,000-token context window\); \d+ entries: /m);
    const bad = await run(['listing', '--context-window', '0'], f.ws);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /'0' is not a context window \(use 200k, 1m or a number of tokens of at least 1000\)/);
    // The values the editor's setting takes.
    for (const [value, budget] of [['1m', 40000], ['200k', 8000], ['1M', 40000], ['500000', 20000]] as const) {
      const r = await run(['listing', '--format', 'json', '--context-window', value], f.ws);
      assert.equal(r.code, 0, `${value}: ${r.err}`);
      assert.equal((JSON.parse(r.out) as { budget: number }).budget, budget, value);
    }
  } finally { f.done(); }
});

test('resolve /<label>: nothing answers, and the note names the command whose display name it is', async () => {
  const ws = tempTree({ '.claude/skills/hello/SKILL.md': skillMd('hi', 'Greets. Use to greet.') });
  try {
    const r = await run(['resolve', '/hi', '--home', ws], ws);
    assert.equal(r.code, 1);
    assert.equal(r.out, '/hi → nothing answers it\n  note: hi is the display name (`name:`) of /hello, not a command: type /hello\n');
  } finally { removeTree(ws); }
});
