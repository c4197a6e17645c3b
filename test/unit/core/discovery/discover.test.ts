import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discover, discoverPath } from '../../../../src/core/discovery/discover';
import { findSkillsRoots } from '../../../../src/core/discovery/roots';
import { loadAgents } from '../../../../src/core/discovery/agents';
import { loadSkill, MAX_SKILL_MD_BYTES } from '../../../../src/core/discovery/load';
import type { SkillEntry } from '../../../../src/core/skillmd/model';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

const WORKSPACE = path.resolve('test/fixtures/discovery/workspace');
const CORPUS = path.resolve('test/fixtures/corpus');

function rel(p: string, base = WORKSPACE): string {
  return path.relative(base, p).split(path.sep).join('/');
}

test('workspace discovery: .claude/.agents/.github roots, nested package roots, both plugin.json locations', () => {
  const d = discover(nodeFileSystem, { workspaceFolders: [WORKSPACE], profile: 'claude-code' });
  assert.deepEqual(d.roots.map((r) => [rel(r.path), r.scope, r.plugin ?? '']), [
    ['.agents/skills', 'project', ''],
    ['.claude/skills', 'project', ''],
    ['.github/skills', 'project', ''],
    ['my-plugin/skills', 'plugin', 'toolkit'],
    // A top-level plugin.json is not Claude Code's manifest (.claude-plugin/plugin.json): the plugin is named after its folder.
    ['other-plugin/skills', 'plugin', 'other-plugin'],
    ['packages/app/.claude/skills', 'project', ''],
  ]);
  for (const r of d.roots) assert.equal(r.workspaceFolder, WORKSPACE);
  const byName = new Map(d.skills.map((s) => [s.name, s]));
  // docs/example is not in a skills root and .hidden is never searched.
  assert.deepEqual([...byName.keys()].sort(), ['alpha', 'beta', 'delta', 'fmt', 'gamma', 'lint', 'workflow-release']);
  assert.equal(byName.get('fmt')!.invocation, '/toolkit:fmt');
  assert.equal(byName.get('fmt')!.scope, 'plugin');
  assert.equal(byName.get('lint')!.invocation, '/other-plugin:lint');
  assert.equal(byName.get('lint')!.level, 'plugin');
  assert.equal(byName.get('alpha')!.invocation, '/alpha');
  assert.equal(byName.get('workflow-release')!.kind, 'workflow');
  assert.equal(byName.get('alpha')!.kind, 'command');
  for (const s of d.skills) assert.deepEqual(s.problems, [], `${s.name}: ${JSON.stringify(s.problems)}`);
});

test('loadSkill fills the entry: files, references, description, tokens, stamp', () => {
  const root = { path: path.join(WORKSPACE, '.claude', 'skills'), scope: 'project' as const, workspaceFolder: WORKSPACE };
  const s = loadSkill(nodeFileSystem, root, 'alpha', 'claude-code')!;
  const text = fs.readFileSync(path.join(root.path, 'alpha', 'SKILL.md'), 'utf8');
  const st = fs.statSync(path.join(root.path, 'alpha', 'SKILL.md'));
  assert.equal(s.name, 'alpha');
  assert.equal(s.folderName, 'alpha');
  assert.equal(s.dir, path.join(root.path, 'alpha'));
  assert.equal(s.skillMdPath, path.join(root.path, 'alpha', 'SKILL.md'));
  assert.deepEqual(s.files, ['SKILL.md', 'scripts/run.sh', 'references/guide.md']);
  assert.equal(s.description, 'Formats release notes from the changelog. Use when the user asks for release notes.');
  assert.equal(s.tokenEstimate, Math.ceil(text.length / 4));
  assert.equal(s.stamp, `${st.mtimeMs}:${st.size}`);
  assert.deepEqual(s.references.map((r) => [r.target, r.exists, r.crossSkill]).sort(), [['references/guide.md', true, false], ['scripts/run.sh', true, false]]);
  assert.equal(loadSkill(nodeFileSystem, root, 'no-such-skill', 'claude-code'), undefined);
});

test('agents: .claude/agents/*.md with agent-skill-missing against the discovered skills', () => {
  const d = discover(nodeFileSystem, { workspaceFolders: [WORKSPACE], profile: 'claude-code' });
  assert.equal(d.agents.length, 1);
  const a = d.agents[0];
  assert.equal(a.name, 'reviewer');
  assert.equal(a.scope, 'project');
  assert.equal(a.workspaceFolder, WORKSPACE);
  assert.deepEqual(a.skills, ['workflow-release', 'no-such-skill']);
  assert.deepEqual(a.problems.map((p) => [p.code, p.line]), [['agent-skill-missing', 8]]);
  assert.deepEqual(loadAgents(nodeFileSystem, WORKSPACE, new Set(['workflow-release', 'no-such-skill']))[0].problems, []);
});

test('anyFolder: any folder holding a skill is a root (docs/example), still skipping hidden folders', () => {
  const roots = findSkillsRoots(nodeFileSystem, WORKSPACE, { anyFolder: true });
  assert.deepEqual(roots.map((r) => rel(r.path)), [
    '.agents/skills', '.claude/skills', '.github/skills', 'docs', 'my-plugin/skills', 'other-plugin/skills', 'packages/app/.claude/skills',
  ]);
});

test('skips .git and node_modules, and bounds the depth', () => {
  const dir = tempTree({
    '.git/.claude/skills/a/SKILL.md': skillMd('a'),
    'node_modules/pkg/.claude/skills/b/SKILL.md': skillMd('b'),
    'x/node_modules/.claude/skills/c/SKILL.md': skillMd('c'),
    'ok/.claude/skills/d/SKILL.md': skillMd('d'),
    '1/2/3/4/5/.claude/skills/deep/SKILL.md': skillMd('deep'),
  });
  try {
    const names = (maxDepth?: number) => discover(nodeFileSystem, { workspaceFolders: [dir], profile: 'claude-code', maxDepth, anyFolder: true }).skills.map((s) => s.name).sort();
    // The root of `deep` (1/2/3/4/5/.claude/skills) is 7 levels down: beyond the default bound of 6.
    assert.deepEqual(names(), ['d']);
    assert.deepEqual(names(6), ['d']);
    assert.deepEqual(names(7), ['d', 'deep']);
  } finally { removeTree(dir); }
});

test('a symlink loop is followed once; a symlinked skill folder is found inside the workspace, not outside it', () => {
  const dir = tempTree({
    'proj/.claude/skills/a/SKILL.md': skillMd('a'),
    'proj/shared/inner/SKILL.md': skillMd('inner'),
    'a-shared/linked/SKILL.md': skillMd('linked'),
  });
  try {
    fs.symlinkSync(path.join(dir, 'proj'), path.join(dir, 'proj', 'loop'), 'dir');
    fs.symlinkSync(dir, path.join(dir, 'proj', '.claude', 'skills', 'a', 'up'), 'dir');
    fs.symlinkSync(path.join(dir, 'a-shared', 'linked'), path.join(dir, 'proj', '.claude', 'skills', 'linked'), 'dir');
    fs.symlinkSync(path.join(dir, 'proj', 'shared', 'inner'), path.join(dir, 'proj', '.claude', 'skills', 'inner'), 'dir');
    const d = discover(nodeFileSystem, { workspaceFolders: [path.join(dir, 'proj')], profile: 'claude-code', maxDepth: 20 });
    assert.deepEqual(d.roots.map((r) => rel(r.path, dir)), ['proj/.claude/skills']);
    // `linked` leads out of the workspace folder `proj`: the search does not follow it, but Claude Code loads a linked
    // skill folder of its skills folder ("Claude Code follows the symlink and reads SKILL.md from the target").
    assert.deepEqual(d.skills.map((s) => [s.name, s.loaded]).sort(), [['a', true], ['inner', true], ['linked', true]]);
    const whole = discover(nodeFileSystem, { workspaceFolders: [dir], profile: 'claude-code', maxDepth: 20, anyFolder: true });
    // a-shared/linked and the link to it are one skill, loaded once: at the path Claude Code loads (a nested level).
    assert.deepEqual(whole.skills.filter((s) => s.name === 'linked').map((s) => [rel(s.dir, dir), s.level, s.loaded]), [['proj/.claude/skills/linked', 'nested', true]]);
    assert.equal(whole.skills.filter((s) => s.name === 'a').length, 1);
  } finally { removeTree(dir); }
});

test('a SKILL.md over 1 MiB is reported as file-too-large and not parsed', () => {
  const big = skillMd('big', 'A huge skill.', 'x'.repeat(Math.ceil(1.1 * 1024 * 1024)));
  const dir = tempTree({ '.claude/skills/big-one/SKILL.md': big });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [dir], profile: 'claude-code' });
    assert.equal(d.skills.length, 1);
    const s = d.skills[0];
    assert.ok(Buffer.byteLength(big) > MAX_SKILL_MD_BYTES);
    assert.equal(s.name, 'big-one', 'not parsed, so the folder name stands in');
    assert.equal(s.description, undefined);
    assert.deepEqual(s.problems.map((p) => [p.code, p.severity, p.line, p.column]), [['file-too-large', 'error', 1, 1]]);
    assert.match(s.problems[0].message, new RegExp(`^SKILL.md is ${Buffer.byteLength(big)} bytes, over the 1048576-byte limit`));
  } finally { removeTree(dir); }
});

test('a folder with only skill.md is a skill-md-case error, not parsed', () => {
  const dir = tempTree({ '.claude/skills/lower/skill.md': skillMd('other-name') });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [dir], profile: 'spec' });
    assert.equal(d.skills.length, 1);
    const s = d.skills[0];
    assert.equal(s.skillMdPath, path.join(dir, '.claude', 'skills', 'lower', 'skill.md'));
    assert.equal(s.name, 'lower');
    assert.deepEqual(s.problems.map((p) => [p.code, p.severity]), [['skill-md-case', 'error']]);
    assert.match(s.problems[0].message, /has 'skill\.md' but no 'SKILL\.md'/);
  } finally { removeTree(dir); }
});

test('duplicate-name: two project levels answer /deploy (the closer one runs); one `name` in two folders is no clash', () => {
  const repo = tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.claude/skills/deploy/SKILL.md': skillMd('deploy'),
    'app/.claude/skills/deploy/SKILL.md': skillMd('deploy'),
    'app/.claude/skills/one/SKILL.md': skillMd('same'),
    'app/.claude/skills/two/SKILL.md': `---\ndescription: Second.\nname:   same\n---\n`,
    'app/.github/skills/deploy/SKILL.md': skillMd('deploy'),
  });
  try {
    const app = path.join(repo, 'app');
    const d = discover(nodeFileSystem, { workspaceFolders: [app], profile: 'claude-code', managedDir: null });
    const near = d.skills.find((s) => s.skillMdPath === path.join(app, '.claude', 'skills', 'deploy', 'SKILL.md'))!;
    const far = d.skills.find((s) => s.skillMdPath === path.join(repo, '.claude', 'skills', 'deploy', 'SKILL.md'))!;
    const dup = (s: SkillEntry) => s.problems.filter((p) => p.code === 'duplicate-name');
    assert.deepEqual(dup(near).map((p) => [p.severity, p.line, p.column, p.endLine, p.endColumn]), [['error', 2, 7, 2, 13]]);
    assert.match(dup(near)[0].message, /Claude Code runs this one/);
    assert.match(dup(far)[0].message, new RegExp(`Claude Code runs ${near.skillMdPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, not this one`));
    assert.equal(far.shadowedBy, near.skillMdPath);
    assert.deepEqual(far.problems.filter((p) => p.code === 'shadowed'), [], 'a duplicate is not also reported shadowed');
    // Folders `one` and `two` both say `name: same`: their commands are /one and /two.
    for (const f of ['one', 'two']) assert.deepEqual(d.skills.find((s) => s.folderName === f)!.problems.filter((p) => p.code === 'duplicate-name'), []);
    // .github/skills is not Claude Code's: indexed, not loaded, no clash.
    const github = d.skills.find((s) => s.dir.includes(`${path.sep}.github${path.sep}`))!;
    assert.equal(github.loaded, false);
    assert.deepEqual(github.problems, []);
  } finally { removeTree(repo); }
});

test('shadowed: a personal skill wins over a project skill of the same folder name (the project one gets the info)', () => {
  const home = tempTree({
    '.claude/skills/deploy/SKILL.md': skillMd('deploy'),
    '.claude/skills/mine/SKILL.md': skillMd('mine'),
  });
  const ws = tempTree({ '.claude/skills/deploy/SKILL.md': skillMd('deploy') });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [ws], home, profile: 'claude-code', managedDir: null });
    assert.deepEqual(d.roots.map((r) => [r.path, r.scope]), [[path.join(ws, '.claude', 'skills'), 'project'], [path.join(home, '.claude', 'skills'), 'personal']]);
    const personal = d.skills.find((s) => s.level === 'personal' && s.name === 'deploy')!;
    const project = d.skills.find((s) => s.level === 'project' && s.name === 'deploy')!;
    assert.equal(project.shadowedBy, personal.skillMdPath);
    assert.deepEqual(project.problems.map((p) => [p.code, p.severity, p.line, p.column]), [['shadowed', 'info', 2, 7]]);
    assert.ok(project.problems[0].message.includes(personal.skillMdPath), 'the message names the winner');
    assert.equal(personal.shadowedBy, undefined);
    assert.deepEqual(personal.problems, []);
    assert.equal(d.skills.find((s) => s.name === 'mine')!.shadowedBy, undefined);
  } finally { removeTree(home); removeTree(ws); }
});

test('installed plugins under ~/.claude/plugins: from installed_plugins.json, else a bounded search', () => {
  const home = tempTree({
    '.claude/plugins/cache/mkt/tools/1.0.0/.claude-plugin/plugin.json': '{"name":"tools"}',
    '.claude/plugins/cache/mkt/tools/1.0.0/skills/hammer/SKILL.md': skillMd('hammer'),
    '.claude/plugins/cache/mkt/old/0.1.0/.claude-plugin/plugin.json': '{"name":"old"}',
    '.claude/plugins/cache/mkt/old/0.1.0/skills/rusty/SKILL.md': skillMd('rusty'),
  });
  try {
    const searched = discover(nodeFileSystem, { workspaceFolders: [], home, profile: 'claude-code', managedDir: null });
    assert.deepEqual(searched.skills.map((s) => [s.invocation, s.scope, s.level]).sort(), [['/old:rusty', 'plugin', 'plugin'], ['/tools:hammer', 'plugin', 'plugin']]);
    const installPath = path.join(home, '.claude', 'plugins', 'cache', 'mkt', 'tools', '1.0.0');
    fs.writeFileSync(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'tools@mkt': [{ scope: 'user', installPath }] } }));
    const d = discover(nodeFileSystem, { workspaceFolders: [], home, profile: 'claude-code', managedDir: null });
    assert.deepEqual(d.skills.map((s) => [s.invocation, s.scope]), [['/tools:hammer', 'plugin']]);
  } finally { removeTree(home); }
});

test('an installed plugin skill with a display name: the name-case warning says the name is also the command', () => {
  const home = tempTree({
    '.claude/plugins/cache/mkt/tools/1.0.0/.claude-plugin/plugin.json': '{"name":"tools"}',
    '.claude/plugins/cache/mkt/tools/1.0.0/skills/hammer-time/SKILL.md': '---\nname: Hammer Time\ndescription: Hits things.\n---\n',
    '.claude/skills/saw-blade/SKILL.md': '---\nname: Saw Blade\ndescription: Cuts things.\n---\n',
  });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [], home, profile: 'claude-code', managedDir: null });
    const caseOf = (folder: string) => d.skills.find((s) => s.folderName === folder)!.problems.find((p) => p.code === 'name-case')!;
    assert.equal(caseOf('hammer-time').severity, 'warning');
    assert.match(caseOf('hammer-time').message, /Claude Code also makes it the command \(\/tools:Hammer Time\)/);
    assert.match(caseOf('saw-blade').message, /Claude Code shows it as a label only in a personal or project skill \(the command is \/saw-blade\)/);
  } finally { removeTree(home); }
});

test('a plugin folder without a manifest that a marketplace lists (the manifest is optional) is a plugin named after its folder', () => {
  const ws = tempTree({
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'mkt',
      owner: { name: 'Me' },
      metadata: { pluginRoot: './extras' },
      plugins: [
        { name: 'dev-kit', source: './plugins/plugin-dev' },
        { name: 'fmt', source: 'formatter' },
        { name: 'everything', source: './', skills: ['./skills/root-skill'] },
        { name: 'remote', source: { source: 'github', repo: 'o/r' } },
      ],
    }),
    'plugins/plugin-dev/skills/agent-development/SKILL.md': skillMd('agent-development'),
    'extras/formatter/skills/tidy/SKILL.md': skillMd('tidy'),
    'plugins/unlisted/skills/stray/SKILL.md': skillMd('stray'),
    'skills/root-skill/SKILL.md': skillMd('root-skill'),
    'broken/.claude-plugin/marketplace.json': '{"plugins": [{"name": "half", "source": "./p',
    'broken/p/skills/half-skill/SKILL.md': skillMd('half-skill'),
  });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [ws], home: path.join(ws, 'no-home'), profile: 'claude-code', managedDir: null, anyFolder: true });
    const of = (folder: string) => { const s = d.skills.find((e) => e.folderName === folder)!; return [s.scope, s.root.plugin ?? '', s.invocation]; };
    assert.deepEqual(of('agent-development'), ['plugin', 'plugin-dev', '/plugin-dev:agent-development']);
    assert.deepEqual(of('tidy'), ['plugin', 'formatter', '/formatter:tidy'], 'a bare source resolves under metadata.pluginRoot');
    // Not listed, listed as the marketplace root itself, or in a marketplace that does not parse: no plugin.
    for (const folder of ['stray', 'root-skill', 'half-skill']) assert.equal(of(folder)[0], 'project', folder);
  } finally { removeTree(ws); }
});

test('the corpus: 27 skills; superpowers (top-level plugin.json) is a plugin', () => {
  const r = discoverPath(nodeFileSystem, CORPUS, { profile: 'claude-code' });
  assert.ok(r.ok);
  const { skills, roots } = r.discovery;
  assert.equal(skills.length, 27);
  assert.deepEqual(roots.map((x) => [rel(x.path, CORPUS), x.scope, x.plugin ?? '']), [['anthropics-skills', 'project', ''], ['superpowers/skills', 'plugin', 'superpowers']]);
  const tdd = skills.find((s) => s.name === 'test-driven-development')!;
  assert.equal(tdd.invocation, '/superpowers:test-driven-development');
  const errors = skills.flatMap((s) => s.problems.filter((p) => p.severity === 'error').map((p) => `${s.name}:${p.code}`));
  // Claude Code loads every corpus skill as written: no error under the default profile.
  assert.deepEqual(errors, []);
});

test('discoverPath: a SKILL.md, a skill folder, an agent file, and refusals', () => {
  const skillFile = path.join(WORKSPACE, '.claude', 'skills', 'alpha', 'SKILL.md');
  const a = discoverPath(nodeFileSystem, skillFile, { profile: 'claude-code' });
  assert.ok(a.ok);
  assert.deepEqual(a.discovery.skills.map((s) => s.name), ['alpha']);
  const b = discoverPath(nodeFileSystem, path.join(WORKSPACE, 'my-plugin', 'skills', 'fmt'), { profile: 'claude-code' });
  assert.ok(b.ok);
  assert.deepEqual(b.discovery.skills.map((s) => s.invocation), ['/toolkit:fmt']);
  const c = discoverPath(nodeFileSystem, path.join(WORKSPACE, '.claude', 'agents', 'reviewer.md'), { profile: 'claude-code' });
  assert.ok(c.ok);
  assert.deepEqual(c.discovery.agents.map((x) => [x.name, x.problems.map((p) => p.code)]), [['reviewer', ['agent-skill-missing']]]);
  const missing = discoverPath(nodeFileSystem, path.join(WORKSPACE, 'nope'), { profile: 'claude-code' });
  assert.deepEqual(missing, { ok: false, message: `'${path.join(WORKSPACE, 'nope')}' does not exist` });
  const other = discoverPath(nodeFileSystem, path.join(WORKSPACE, 'other-plugin', 'plugin.json'), { profile: 'claude-code' });
  assert.equal(other.ok, false);
});

test('discoverPath: a skill folder of a plugin whose skills folder is also linked from .agents/skills is found', () => {
  const ws = tempTree({ '.claude-plugin/plugin.json': '{"name":"kit"}', 'skills/planner/SKILL.md': skillMd('planner') });
  try {
    fs.mkdirSync(path.join(ws, '.agents'));
    fs.symlinkSync('../skills', path.join(ws, '.agents', 'skills'));
    for (const target of [path.join(ws, 'skills', 'planner'), path.join(ws, 'skills', 'planner', 'SKILL.md'), path.join(ws, 'skills')]) {
      const r = discoverPath(nodeFileSystem, target, { profile: 'claude-code', home: path.join(ws, 'no-home'), managedDir: null });
      assert.ok(r.ok, target);
      assert.deepEqual(r.discovery.skills.map((s) => s.folderName), ['planner'], target);
    }
  } finally { removeTree(ws); }
});

test('a workspace folder that is the home folder keeps ~/.claude/skills personal', () => {
  const home = tempTree({ '.claude/skills/mine/SKILL.md': skillMd('mine') });
  try {
    const d = discover(nodeFileSystem, { workspaceFolders: [home], home, profile: 'claude-code' });
    assert.deepEqual(d.roots.map((r) => [r.path, r.scope]), [[path.join(home, '.claude', 'skills'), 'personal']]);
    assert.deepEqual(d.skills.map((s) => [s.name, s.scope]), [['mine', 'personal']]);
  } finally { removeTree(home); }
});
