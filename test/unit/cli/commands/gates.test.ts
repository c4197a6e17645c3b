// The CI gates: `listing --fail-on truncated|name-only|dropped` (with --context-window) and `resolve --all`
// (`--fail-on ambiguous`), run in-process through main().
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd: string, home?: string) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, home, managedDir: null, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

const LONG = `Writes release notes from the merged pull requests. ${'Use it when a release is cut and the notes are due. '.repeat(40)}`;

test('listing --fail-on: truncated < name-only < dropped, each level failing on itself and worse; --context-window shrinks the budget', async () => {
  const ws = tempTree({
    '.claude/skills/alpha/SKILL.md': skillMd('alpha', LONG),
    '.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Short one. Use it in tests.'),
  });
  const quiet = tempTree({
    '.claude/settings.json': JSON.stringify({ skillOverrides: { gamma: 'name-only' } }),
    '.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Short one. Use it in tests.'),
  });
  const clean = tempTree({ '.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Short one. Use it in tests.') });
  try {
    const codes = async (dir: string, window?: number) => {
      const w = window === undefined ? [] : ['--context-window', String(window)];
      const out: number[] = [];
      for (const level of ['truncated', 'name-only', 'dropped']) out.push((await run(['listing', ...w, '--fail-on', level], dir)).code);
      return out;
    };
    assert.deepEqual(await codes(clean), [0, 0, 0], 'everything shown in full');
    assert.deepEqual(await codes(ws), [1, 0, 0], 'alpha is truncated (over skillListingMaxDescChars)');
    assert.deepEqual(await codes(quiet), [1, 1, 0], 'gamma is name-only');
    assert.deepEqual(await codes(ws, 1000), [1, 1, 1], 'a 1,000-token window drops a description');
    const failed = await run(['listing', '--context-window', '1000', '--fail-on', 'dropped'], ws);
    assert.match(failed.err, /^skillflow listing: \/alpha is dropped in the listing \(--fail-on dropped\)$/m);
    assert.match(failed.out, /characters used/, 'the listing is still printed');
    const truncated = await run(['listing', '--fail-on', 'truncated'], ws);
    assert.equal(truncated.err, 'skillflow listing: /alpha is truncated in the listing (--fail-on truncated)\n');
    const bad = await run(['listing', '--fail-on', 'absent'], ws);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /must be one of truncated, name-only, dropped/);
  } finally {
    removeTree(ws); removeTree(quiet); removeTree(clean);
  }
});

test('resolve --all: every command more than one file answers to, across levels; exit 1 only with --fail-on ambiguous', async () => {
  const home = tempTree({ '.claude/skills/deploy/SKILL.md': skillMd('deploy', 'Personal deploy.') });
  const ws = tempTree({
    '.claude/skills/deploy/SKILL.md': skillMd('deploy', 'Project deploy.'),
    '.claude/skills/hello/SKILL.md': skillMd('hello', 'Says hello.'),
    '.claude/commands/hello.md': 'Say hello as a command.\n',
    '.claude/skills/solo/SKILL.md': skillMd('solo', 'Alone.'),
  });
  const clean = tempTree({ '.claude/skills/solo/SKILL.md': skillMd('solo', 'Alone.') });
  try {
    const r = await run(['resolve', '--all', '--format', 'json', '--home', home], ws);
    assert.equal(r.code, 0, r.err);
    const all = JSON.parse(r.out) as Array<{ command: string; winner: { path: string; level: string } | null; shadowed: Array<{ path: string }> }>;
    assert.deepEqual(all.map((x) => [x.command, x.winner?.level, x.shadowed.length]), [['/deploy', 'personal', 1], ['/hello', 'project', 1]]);
    assert.deepEqual(all[1].shadowed.map((s) => s.path), ['.claude/commands/hello.md']);
    const gated = await run(['resolve', '--all', '--fail-on', 'ambiguous', '--home', home], ws);
    assert.equal(gated.code, 1);
    assert.match(gated.out, /^\/hello → project skill \.claude\/skills\/hello\/SKILL\.md$/m);
    assert.match(gated.out, /^2 commands answered by more than one file$/m);
    const ok = await run(['resolve', '--all', '--fail-on', 'ambiguous'], clean);
    assert.deepEqual([ok.code, ok.out], [0, '0 commands answered by more than one file\n']);
    const misuse = await run(['resolve', '/hello', '--fail-on', 'ambiguous'], ws);
    assert.deepEqual([misuse.code, misuse.err], [2, 'skillflow resolve: --fail-on goes with --all\n']);
  } finally {
    removeTree(home); removeTree(ws); removeTree(clean);
  }
});

test('--format markdown (the job summary): validate gives the counts and a table row per problem; listing the budget and the entries not in full', async () => {
  const ws = tempTree({
    '.claude/skills/alpha/SKILL.md': skillMd('Alpha_One', 'Tidy <a|b> up. Use it in tests.'),
    '.claude/skills/gamma/SKILL.md': skillMd('gamma', LONG),
  });
  try {
    const v = await run(['validate', '--format', 'markdown'], ws);
    const lines = v.out.split('\n');
    assert.equal(lines[0], '### Skillflow: 2 skills checked');
    assert.match(v.out, /^\d+ errors?, \d+ warnings?, \d+ info$/m);
    assert.ok(lines.includes('| Severity | Where | Rule | Problem |'));
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Severity') && !l.startsWith('| ---'));
    assert.ok(rows.some((l) => /^\| (error|warning) \| `\.claude\/skills\/alpha\/SKILL\.md:2:7` \| \[name-case\]\([^)]*docs\/rules\.md#name-case\) \| /.test(l)), rows.join('\n'));
    assert.ok(rows.every((l) => l.split(/(?<!\\)\|/).length === 6), 'a pipe in a message is escaped');
    const l = await run(['listing', '--format', 'markdown'], ws);
    assert.match(l.out, /^### Skill listing budget\n\n\d+ of \d+ characters used \(\d+ %, a 200,000-token context window\); 1 full, 1 truncated\n/);
    assert.match(l.out, /^\| `\/gamma` \| truncated \| description \+ when_to_use is \d+ characters; the listing keeps \d+ \(skillListingMaxDescChars\) \|$/m);
  } finally {
    removeTree(ws);
  }
});

test('validate --changed FILE...: the entries the changed files concern (own file, a file in a skill folder, a linked file, a plugin manifest)', async () => {
  const ws = tempTree({
    '.claude/skills/alpha/SKILL.md': skillMd('alpha', 'Alpha. Use it in tests.', '# A\n\nSee [guide](../../../docs/guide.md).\n'),
    '.claude/skills/alpha/scripts/run.sh': 'echo\n',
    '.claude/skills/beta/SKILL.md': skillMd('beta'),
    '.claude/commands/ship.md': 'Ship it.\n',
    '.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nHelp.\n',
    'docs/guide.md': '# Guide\n',
    'plugins/p/.claude-plugin/plugin.json': '{"name": "p"}',
    'plugins/p/skills/gamma/SKILL.md': skillMd('gamma'),
    'README.md': '# R\n',
  });
  try {
    const concerned = async (...files: string[]) => {
      const r = await run(['validate', '--changed', '--format', 'json', ...files], ws);
      const j = JSON.parse(r.out) as { skills: Array<{ path: string }>; agents: Array<{ path: string }> };
      return [...j.skills.map((s) => s.path), ...j.agents.map((a) => a.path)];
    };
    assert.deepEqual(await concerned('.claude/skills/beta/SKILL.md'), ['.claude/skills/beta/SKILL.md']);
    assert.deepEqual(await concerned('.claude/skills/alpha/scripts/run.sh'), ['.claude/skills/alpha/SKILL.md']);
    assert.deepEqual(await concerned('docs/guide.md'), ['.claude/skills/alpha/SKILL.md'], 'the skill linking the changed file');
    assert.deepEqual(await concerned('.claude/commands/ship.md', '.claude/agents/helper.md'), ['.claude/commands/ship.md', '.claude/agents/helper.md']);
    assert.deepEqual(await concerned('plugins/p/.claude-plugin/plugin.json'), ['plugins/p/skills/gamma/SKILL.md']);
    assert.deepEqual(await concerned('README.md'), []);
  } finally {
    removeTree(ws);
  }
});
