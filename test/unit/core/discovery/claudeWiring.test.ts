// Discovery with Claude Code's model applied, case by case against Claude Code's documents (docs/claude-code-model.md),
// each on a small fixture tree.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import type { Profile } from '../../../../src/core/base/types';
import { discover } from '../../../../src/core/discovery/discover';
import { loadCommand, validateCommandText } from '../../../../src/core/discovery/load';
import type { SkillEntry } from '../../../../src/core/skillmd/model';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

function run(ws: string, opts: { home?: string; managedDir?: string | null; profile?: Profile; additionalDirs?: string[] } = {}) {
  return discover(nodeFileSystem, { workspaceFolders: [ws], profile: opts.profile ?? 'claude-code', managedDir: opts.managedDir ?? null, home: opts.home, additionalDirs: opts.additionalDirs });
}

function at(skills: readonly SkillEntry[], dir: string, rel: string): SkillEntry {
  const file = path.join(dir, rel);
  const found = skills.find((s) => s.skillMdPath === file);
  assert.ok(found, `no entry for ${rel}: ${skills.map((s) => s.skillMdPath).join(', ')}`);
  return found;
}

const codes = (s: SkillEntry) => s.problems.map((p) => `${p.severity} ${p.code}`);

test('a folder hello/ with `name: hi` answers /hello; hi is only its display name', () => {
  const ws = tempTree({ '.claude/skills/hello/SKILL.md': skillMd('hi') });
  try {
    const s = at(run(ws).skills, ws, '.claude/skills/hello/SKILL.md');
    assert.deepEqual([s.invocation, s.displayName, s.name, s.level, s.source, s.loaded, s.shadowedBy], ['/hello', 'hi', 'hi', 'project', 'skill', true, undefined]);
    const same = tempTree({ '.claude/skills/hello/SKILL.md': skillMd('hello') });
    try { assert.equal(at(run(same).skills, same, '.claude/skills/hello/SKILL.md').displayName, undefined); } finally { removeTree(same); }
  } finally { removeTree(ws); }
});

test('managed > personal > project: the lower levels are shadowed, naming the winner', () => {
  const managed = tempTree({ '.claude/skills/audit/SKILL.md': skillMd('audit') });
  const home = tempTree({ '.claude/skills/audit/SKILL.md': skillMd('audit'), '.claude/skills/deploy/SKILL.md': skillMd('deploy') });
  const ws = tempTree({ '.claude/skills/audit/SKILL.md': skillMd('audit'), '.claude/skills/deploy/SKILL.md': skillMd('deploy') });
  try {
    const { skills } = run(ws, { home, managedDir: managed });
    const m = at(skills, managed, '.claude/skills/audit/SKILL.md');
    const pAudit = at(skills, home, '.claude/skills/audit/SKILL.md');
    const wAudit = at(skills, ws, '.claude/skills/audit/SKILL.md');
    assert.deepEqual([m.level, m.shadowedBy], ['managed', undefined]);
    assert.deepEqual([pAudit.level, pAudit.shadowedBy], ['personal', m.skillMdPath]);
    assert.deepEqual([wAudit.level, wAudit.shadowedBy], ['project', m.skillMdPath]);
    const wDeploy = at(skills, ws, '.claude/skills/deploy/SKILL.md');
    assert.equal(wDeploy.shadowedBy, path.join(home, '.claude', 'skills', 'deploy', 'SKILL.md'));
    assert.deepEqual(codes(wDeploy), ['info shadowed']);
    assert.ok(wDeploy.problems[0].message.includes(wDeploy.shadowedBy!), wDeploy.problems[0].message);
    assert.deepEqual([wDeploy.problems[0].line, wDeploy.problems[0].column], [2, 7], 'at the name value');
    assert.deepEqual(codes(at(skills, home, '.claude/skills/deploy/SKILL.md')), []);
  } finally { removeTree(managed); removeTree(home); removeTree(ws); }
});

test('.claude/skills/group/x/SKILL.md is never loaded: skill-not-loaded (error in claude-code, off in spec and upload)', () => {
  const ws = tempTree({ '.claude/skills/group/x/SKILL.md': skillMd('x'), '.claude/skills/ok/SKILL.md': skillMd('ok') });
  try {
    const s = at(run(ws).skills, ws, '.claude/skills/group/x/SKILL.md');
    assert.deepEqual([s.loaded, s.invocation], [false, null]);
    assert.match(s.notLoadedReason!, /only direct children .* group\/x\/SKILL\.md is deeper/);
    const p = s.problems.find((x) => x.code === 'skill-not-loaded')!;
    assert.deepEqual([p.severity, p.line, p.column], ['error', 2, 7]);
    assert.match(p.message, /Claude Code never loads this file/);
    for (const profile of ['spec', 'upload'] as const) {
      assert.deepEqual(at(run(ws, { profile }).skills, ws, '.claude/skills/group/x/SKILL.md').problems.filter((x) => x.code === 'skill-not-loaded'), [], profile);
    }
    assert.deepEqual(codes(at(run(ws).skills, ws, '.claude/skills/ok/SKILL.md')), []);
  } finally { removeTree(ws); }
});

test('the folder name synced is reserved in any capitalization: a skill there is skill-not-loaded', () => {
  const ws = tempTree({ '.claude/skills/Synced/SKILL.md': skillMd('synced'), '.claude/skills/synced/inner/SKILL.md': skillMd('inner') });
  try {
    const { skills } = run(ws);
    for (const rel of ['.claude/skills/Synced/SKILL.md', '.claude/skills/synced/inner/SKILL.md']) {
      const s = at(skills, ws, rel);
      assert.equal(s.loaded, false, rel);
      assert.match(s.notLoadedReason!, /reserved/, rel);
      assert.ok(codes(s).includes('error skill-not-loaded'), rel);
    }
  } finally { removeTree(ws); }
});

test('.claude/commands/deploy.md is indexed as /deploy; a skill deploy wins over it; `name` in a command is reported as ignored', () => {
  const ws = tempTree({
    '.claude/commands/deploy.md': '---\nname: ship\ndescription: Deploy the app.\n---\n\nDeploy it.\n',
    '.claude/commands/frontend/component.md': 'Make a component.\n',
    '.claude/commands/tidy.md': `---\nargument-hint: "[file]"\n---\nTidy <file> $1.\n`,
    '.claude/commands/long.md': `---\ndescription: Explain <code> ${'in detail '.repeat(160)}\n---\nExplain.\n`,
    '.claude/skills/deploy/SKILL.md': skillMd('deploy'),
  });
  try {
    const { skills } = run(ws);
    const cmd = at(skills, ws, '.claude/commands/deploy.md');
    const skill = at(skills, ws, '.claude/skills/deploy/SKILL.md');
    assert.deepEqual([cmd.source, cmd.invocation, cmd.level, cmd.loaded, cmd.name, cmd.dir], ['command', '/deploy', 'project', true, 'deploy', cmd.skillMdPath]);
    assert.equal(cmd.shadowedBy, skill.skillMdPath);
    assert.match(cmd.shadowReason!, /a skill wins over a command/);
    // shadowed at line 1 (a command's `name` is not its name), then the ignored key.
    assert.deepEqual(codes(cmd), ['info shadowed', 'warning unknown-key']);
    assert.match(cmd.problems[1].message, /Claude Code ignores `name` in a command file/);
    assert.equal(skill.shadowedBy, undefined);
    const nested = at(skills, ws, '.claude/commands/frontend/component.md');
    assert.equal(nested.invocation, '/frontend:component');
    // Frontmatter and its description are optional in a command (its first line describes it): no problem, no name rule.
    assert.deepEqual(codes(nested), []);
    assert.deepEqual(codes(at(skills, ws, '.claude/commands/tidy.md')), []);
    // Spec and upload limits do not bind a command; Claude Code's listing cut does.
    assert.deepEqual(codes(at(skills, ws, '.claude/commands/long.md')), ['warning listing-length']);
    assert.equal(nested.description, 'Make a component.');
  } finally { removeTree(ws); }
});

test('a command validated from its text (an open editor) has the problems loadCommand gives it from disk', () => {
  const texts = [
    '---\nname: ship\npaths: src\ncolour: red\n---\nRun [it](scripts/run.sh) and `./scripts/gh.sh`.\n',
    'No frontmatter: [gone](docs/gone.md).\n',
    '---\ndescription: [unquoted\n---\nBroken YAML.\n',
  ];
  const ws = tempTree(Object.fromEntries(texts.map((t, i) => [`.claude/commands/c${i}.md`, t])));
  try {
    texts.forEach((text, i) => {
      const file = path.join(ws, '.claude', 'commands', `c${i}.md`);
      for (const profile of ['claude-code', 'spec'] as const) {
        const fromDisk = loadCommand(nodeFileSystem, file, profile).problems;
        assert.deepEqual(validateCommandText(text, file, profile, nodeFileSystem).problems, fromDisk, `c${i} ${profile}`);
        if (i < 2) assert.ok(fromDisk.length > 0, `c${i} has problems`);
      }
    });
  } finally { removeTree(ws); }
});

test('a skill folder reachable twice through a link loads once', () => {
  const ws = tempTree({ '.claude/skills/real/SKILL.md': skillMd('real') });
  try {
    fs.symlinkSync(path.join(ws, '.claude', 'skills', 'real'), path.join(ws, '.claude', 'skills', 'zlink'), 'dir');
    const { skills } = run(ws);
    assert.deepEqual(skills.map((s) => [path.relative(ws, s.skillMdPath), s.loaded]), [['.claude/skills/real/SKILL.md', true]]);
  } finally { removeTree(ws); }
});

test('nested apps/web/.claude/skills/deploy keeps /deploy alone and becomes /apps/web:deploy on a clash', () => {
  const ws = tempTree({ 'apps/web/.claude/skills/deploy/SKILL.md': skillMd('deploy'), 'apps/web/.claude/skills/lint/SKILL.md': skillMd('lint') });
  try {
    let nested = at(run(ws).skills, ws, 'apps/web/.claude/skills/deploy/SKILL.md');
    assert.deepEqual([nested.level, nested.invocation, nested.loaded], ['nested', '/deploy', true]);
    fs.mkdirSync(path.join(ws, '.claude', 'skills', 'deploy'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.claude', 'skills', 'deploy', 'SKILL.md'), skillMd('deploy'));
    const { skills } = run(ws);
    nested = at(skills, ws, 'apps/web/.claude/skills/deploy/SKILL.md');
    assert.deepEqual([nested.invocation, nested.shadowedBy], ['/apps/web:deploy', undefined]);
    assert.deepEqual(codes(nested), []);
    assert.equal(at(skills, ws, 'apps/web/.claude/skills/lint/SKILL.md').invocation, '/lint');
  } finally { removeTree(ws); }
});

test('builtin-clash: /help is a built-in command (it wins); /code-review replaces the bundled skill', () => {
  const ws = tempTree({ '.claude/skills/help/SKILL.md': skillMd('help'), '.claude/skills/code-review/SKILL.md': skillMd('code-review') });
  try {
    const { skills } = run(ws);
    const help = at(skills, ws, '.claude/skills/help/SKILL.md');
    assert.equal(help.shadowedBy, 'builtin:/help');
    assert.deepEqual(codes(help), ['warning builtin-clash']);
    assert.match(help.problems[0].message, /\/help is a Claude Code built-in command, which always wins/);
    const review = at(skills, ws, '.claude/skills/code-review/SKILL.md');
    assert.equal(review.shadowedBy, undefined);
    assert.deepEqual(codes(review), ['warning builtin-clash']);
    assert.match(review.problems[0].message, /replaces Claude Code's bundled skill \/code-review/);
    assert.deepEqual(run(ws, { profile: 'spec' }).skills.flatMap((s) => s.problems.filter((p) => p.code === 'builtin-clash')), []);
  } finally { removeTree(ws); }
});

test('unreachable: user-invocable false with disable-model-invocation true; an agent naming a skill the model may not invoke', () => {
  const ws = tempTree({
    '.claude/skills/hidden/SKILL.md': '---\nname: hidden\ndescription: Nobody runs it.\nuser-invocable: false\ndisable-model-invocation: true\n---\n',
    '.claude/skills/manual/SKILL.md': '---\nname: manual\ndescription: Only typed.\ndisable-model-invocation: true\n---\n',
    '.claude/skills/fine/SKILL.md': skillMd('fine'),
    '.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills:\n  - manual\n  - fine\n---\n\nHelp.\n',
  });
  try {
    const d = run(ws);
    assert.deepEqual(codes(at(d.skills, ws, '.claude/skills/hidden/SKILL.md')), ['warning unreachable']);
    assert.deepEqual(codes(at(d.skills, ws, '.claude/skills/manual/SKILL.md')), []);
    const agent = d.agents.find((a) => a.name === 'helper')!;
    assert.deepEqual(agent.problems.map((p) => [p.code, p.severity, p.line]), [['unreachable', 'warning', 5]]);
    assert.match(agent.problems[0].message, /'manual'.*disable-model-invocation: true/);
  } finally { removeTree(ws); }
});

test('.agents/skills and .github/skills are validated, not loaded by Claude Code, and get no skill-not-loaded', () => {
  const ws = tempTree({ '.agents/skills/a/SKILL.md': skillMd('a', 'Has <angle> brackets.'), '.github/skills/b/SKILL.md': skillMd('b') });
  try {
    const { skills } = run(ws);
    const a = at(skills, ws, '.agents/skills/a/SKILL.md');
    assert.deepEqual([a.loaded, a.invocation, a.level], [false, null, 'project']);
    assert.match(a.notLoadedReason!, /Claude Code does not read skills from \.agents\/skills/);
    assert.deepEqual(codes(a), ['warning description-angle-brackets']);
    assert.deepEqual(codes(at(skills, ws, '.github/skills/b/SKILL.md')), []);
  } finally { removeTree(ws); }
});

test('a plugin folder in the workspace is level plugin: /<plugin>:<name>', () => {
  const ws = tempTree({ 'tools/.claude-plugin/plugin.json': '{"name":"tools"}', 'tools/skills/fmt/SKILL.md': skillMd('pretty'), 'tools/commands/go.md': 'Go.\n' });
  try {
    const { skills } = run(ws);
    const fmt = at(skills, ws, 'tools/skills/fmt/SKILL.md');
    assert.deepEqual([fmt.level, fmt.invocation, fmt.scope, fmt.loaded], ['plugin', '/tools:pretty', 'plugin', true]);
    assert.equal(at(skills, ws, 'tools/commands/go.md').invocation, '/tools:go');
  } finally { removeTree(ws); }
});

test('additional folders (--add-dir) load their .claude/skills at level additional', () => {
  const extra = tempTree({ '.claude/skills/shared/SKILL.md': skillMd('shared') });
  const ws = tempTree({ '.claude/skills/own/SKILL.md': skillMd('own') });
  try {
    const s = at(run(ws, { additionalDirs: [extra] }).skills, extra, '.claude/skills/shared/SKILL.md');
    assert.deepEqual([s.level, s.invocation], ['additional', '/shared']);
  } finally { removeTree(extra); removeTree(ws); }
});
