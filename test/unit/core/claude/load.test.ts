import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildClaudeModel, type ClaudeModelOptions } from '../../../../src/core/claude/load';
import type { ClaudeEntry } from '../../../../src/core/claude/types';
import { md, treeFs, type Node } from './treeFs';

const HOME = '/home/u';
const MANAGED = '/etc/claude-code';
const REPO = '/repo';

function model(files: Record<string, Node>, opts: Partial<ClaudeModelOptions> = {}) {
  const fs = treeFs({ 'repo/.git/HEAD': 'ref: main\n', ...files });
  return buildClaudeModel(fs, { startDir: REPO, home: HOME, managedDir: MANAGED, ...opts });
}

function at(m: { entries: ClaudeEntry[] }, path: string): ClaudeEntry {
  const e = m.entries.find((x) => x.path === path);
  assert.ok(e, `no entry for ${path}; have ${m.entries.map((x) => x.path).join(', ')}`);
  return e;
}

const skill = (description = 'Does things. Use when testing.', extra: Record<string, string | boolean> = {}) => md({ description, ...extra });

test('levels: managed > personal > project for the same command; losers name the winner and why', () => {
  const m = model({
    'etc/claude-code/.claude/skills/deploy/SKILL.md': skill(),
    'home/u/.claude/skills/deploy/SKILL.md': skill(),
    'repo/.claude/skills/deploy/SKILL.md': skill(),
    'home/u/.claude/skills/notes/SKILL.md': skill(),
    'repo/.claude/skills/notes/SKILL.md': skill(),
  });
  const managed = at(m, '/etc/claude-code/.claude/skills/deploy/SKILL.md');
  assert.equal(managed.level, 'managed');
  assert.equal(managed.invocation, '/deploy');
  assert.equal(managed.shadowedBy, undefined);
  const personal = at(m, '/home/u/.claude/skills/deploy/SKILL.md');
  assert.equal(personal.shadowedBy, managed.path);
  assert.match(personal.shadowReason!, /managed > personal > project/);
  assert.equal(at(m, '/repo/.claude/skills/deploy/SKILL.md').shadowedBy, managed.path);
  // The documented example: a personal skill wins over the project one.
  assert.equal(at(m, '/repo/.claude/skills/notes/SKILL.md').shadowedBy, '/home/u/.claude/skills/notes/SKILL.md');
  assert.equal(at(m, '/home/u/.claude/skills/notes/SKILL.md').shadowedBy, undefined);
});

test('command name: the folder name for project and personal skills; frontmatter name is only the display label', () => {
  const m = model({ 'repo/.claude/skills/hello/SKILL.md': md({ name: 'hi', description: 'Greets.' }) });
  const e = at(m, '/repo/.claude/skills/hello/SKILL.md');
  assert.equal(e.invocation, '/hello');
  assert.equal(e.name, 'hello');
  assert.equal(e.displayName, 'hi');
  assert.equal(e.folderName, 'hello');
  assert.equal(e.kind, 'skill');
  assert.equal(e.loaded, true);
  assert.deepEqual(e.meta, { name: 'hi', description: 'Greets.' });
});

test('direct children only: a deeper SKILL.md is reported as never loaded, with the reason', () => {
  const m = model({
    'repo/.claude/skills/group/x/SKILL.md': skill(),
    'repo/.claude/skills/group/y/z/SKILL.md': skill(),
    'repo/.claude/skills/ok/SKILL.md': skill(),
    'repo/.claude/skills/ok/templates/inner/SKILL.md': skill(),
  });
  const x = at(m, '/repo/.claude/skills/group/x/SKILL.md');
  assert.equal(x.loaded, false);
  assert.equal(x.invocation, null);
  assert.match(x.notLoadedReason!, /only direct children of \/repo\/\.claude\/skills are skills; group\/x\/SKILL\.md is deeper/);
  assert.equal(at(m, '/repo/.claude/skills/group/y/z/SKILL.md').loaded, false);
  assert.equal(at(m, '/repo/.claude/skills/ok/SKILL.md').loaded, true);
  // A skill's own sub-folders are its files, not skills: not reported.
  assert.equal(m.entries.some((e) => e.path.includes('templates')), false);
});

test('exact case: a folder with skill.md but no SKILL.md is not a skill', () => {
  const m = model({ 'repo/.claude/skills/lower/skill.md': skill() });
  const e = at(m, '/repo/.claude/skills/lower/skill.md');
  assert.equal(e.loaded, false);
  assert.match(e.notLoadedReason!, /exactly `SKILL\.md`/);
});

test('synced is reserved in any case; ~/.claude/skills/synced/<x> holds claude.ai skills that yield to any other command', () => {
  const m = model({
    'repo/.claude/skills/Synced/SKILL.md': skill(),
    'repo/.claude/skills/synced/inner/SKILL.md': skill(),
    'home/u/.claude/skills/synced/from-web/SKILL.md': skill(),
    'home/u/.claude/skills/synced/deploy/SKILL.md': skill(),
    'home/u/.claude/skills/synced/help/SKILL.md': skill(),
    'repo/.claude/skills/deploy/SKILL.md': skill(),
  });
  const reserved = at(m, '/repo/.claude/skills/Synced/SKILL.md');
  assert.equal(reserved.loaded, false);
  assert.match(reserved.notLoadedReason!, /`Synced` is reserved/);
  const inner = at(m, '/repo/.claude/skills/synced/inner/SKILL.md');
  assert.equal(inner.loaded, false);
  assert.match(inner.notLoadedReason!, /reserved `synced` folder/);
  const web = at(m, '/home/u/.claude/skills/synced/from-web/SKILL.md');
  assert.equal(web.level, 'synced');
  assert.equal(web.invocation, '/from-web');
  assert.equal(web.shadowedBy, undefined);
  const syncedDeploy = at(m, '/home/u/.claude/skills/synced/deploy/SKILL.md');
  assert.equal(syncedDeploy.shadowedBy, '/repo/.claude/skills/deploy/SKILL.md');
  assert.match(syncedDeploy.shadowReason!, /synced from claude\.ai yields/);
  assert.equal(at(m, '/home/u/.claude/skills/synced/help/SKILL.md').shadowedBy, 'builtin:/help');
  assert.equal(at(m, '/repo/.claude/skills/deploy/SKILL.md').shadowedBy, undefined);
});

test('a synced skill yields to a local name that differs only by case, spacing, invisible or compatibility characters (docs/skills.md)', () => {
  // docs/skills.md: "When it compares names, Claude Code ignores case, spacing, and invisible characters, and treats
  // compatibility forms such as fullwidth letters and dash variants as their plain equivalents, so a synced `Commit`
  // can't load beside a local `commit`. A name that differs only by a look-alike letter from another alphabet counts as
  // a different name".
  const m = model({
    'home/u/.claude/skills/synced/Commit/SKILL.md': skill(),
    'home/u/.claude/skills/synced/ｒｅｌｅａｓｅ/SKILL.md': skill(),
    'home/u/.claude/skills/synced/code\u2010style/SKILL.md': skill(),
    'home/u/.claude/skills/synced/HELP/SKILL.md': skill(),
    'home/u/.claude/skills/synced/\u0441ommit/SKILL.md': skill(), // Cyrillic с: another name
    'repo/.claude/skills/commit/SKILL.md': skill(),
    'repo/.claude/skills/release/SKILL.md': skill(),
    'repo/.claude/commands/code-style.md': 'Style.\n',
  });
  assert.equal(at(m, '/home/u/.claude/skills/synced/Commit/SKILL.md').shadowedBy, '/repo/.claude/skills/commit/SKILL.md');
  assert.equal(at(m, '/home/u/.claude/skills/synced/ｒｅｌｅａｓｅ/SKILL.md').shadowedBy, '/repo/.claude/skills/release/SKILL.md');
  assert.equal(at(m, '/home/u/.claude/skills/synced/code\u2010style/SKILL.md').shadowedBy, '/repo/.claude/commands/code-style.md');
  assert.equal(at(m, '/home/u/.claude/skills/synced/HELP/SKILL.md').shadowedBy, 'builtin:/help');
  assert.equal(at(m, '/home/u/.claude/skills/synced/\u0441ommit/SKILL.md').shadowedBy, undefined);
  assert.equal(at(m, '/repo/.claude/skills/commit/SKILL.md').shadowedBy, undefined);
});

test('syncClaudeAiSkills false hides synced skills', () => {
  const m = model({
    'home/u/.claude/settings.json': '{"syncClaudeAiSkills": false}',
    'home/u/.claude/skills/synced/from-web/SKILL.md': skill(),
  });
  const e = at(m, '/home/u/.claude/skills/synced/from-web/SKILL.md');
  assert.equal(e.loaded, false);
  assert.match(e.notLoadedReason!, /syncClaudeAiSkills/);
});

test('links: a linked skill folder loads; one target reachable twice loads once; a link loop ends', () => {
  const m = model({
    'shared/tools/SKILL.md': skill(),
    'home/u/.claude/skills/tools': { link: '/shared/tools' },
    'repo/.claude/skills/tools-again': { link: '/shared/tools' },
    'repo/.claude/skills/loop': { link: '/repo/.claude/skills' },
    'repo/.claude/skills/dangling': { link: '/nowhere' },
  });
  const first = at(m, '/home/u/.claude/skills/tools/SKILL.md');
  assert.equal(first.loaded, true);
  assert.equal(first.invocation, '/tools');
  const again = at(m, '/repo/.claude/skills/tools-again/SKILL.md');
  assert.equal(again.loaded, false);
  assert.match(again.notLoadedReason!, /same folder as \/home\/u\/\.claude\/skills\/tools/);
  assert.equal(m.entries.filter((e) => e.loaded).length, 1);
});

test('project levels: the start folder and each parent up to the repository root, closer first; nothing above the root', () => {
  const m = model({
    '.claude/skills/above/SKILL.md': skill(),
    'repo/.claude/skills/root-skill/SKILL.md': skill(),
    'repo/.claude/skills/both/SKILL.md': skill(),
    'repo/pkg/sub/.claude/skills/both/SKILL.md': skill(),
    'repo/pkg/.claude/skills/mid/SKILL.md': skill(),
  }, { startDir: '/repo/pkg/sub' });
  assert.equal(m.repoRoot, '/repo');
  assert.equal(m.entries.some((e) => e.path.startsWith('/.claude')), false);
  assert.equal(at(m, '/repo/.claude/skills/root-skill/SKILL.md').level, 'project');
  assert.equal(at(m, '/repo/pkg/.claude/skills/mid/SKILL.md').loaded, true);
  assert.equal(at(m, '/repo/.claude/skills/both/SKILL.md').shadowedBy, '/repo/pkg/sub/.claude/skills/both/SKILL.md');
});

test('no repository: only the start folder is a project level', () => {
  const fs = treeFs({ 'w/.claude/skills/a/SKILL.md': skill(), '.claude/skills/b/SKILL.md': skill() });
  const m = buildClaudeModel(fs, { startDir: '/w', managedDir: null });
  assert.deepEqual(m.entries.map((e) => e.invocation), ['/a']);
});

test('additional folders (--add-dir): skills and commands load; project wins a shared name', () => {
  const m = model({
    'other/.claude/skills/extra/SKILL.md': skill(),
    'other/.claude/skills/deploy/SKILL.md': skill(),
    'other/.claude/commands/ship.md': skill(),
    'repo/.claude/skills/deploy/SKILL.md': skill(),
  }, { additionalDirs: ['/other'] });
  assert.equal(at(m, '/other/.claude/skills/extra/SKILL.md').level, 'additional');
  assert.equal(at(m, '/other/.claude/commands/ship.md').invocation, '/ship');
  assert.equal(at(m, '/other/.claude/skills/deploy/SKILL.md').shadowedBy, '/repo/.claude/skills/deploy/SKILL.md');
});

test('commands: <name>.md is /name, sub-folders namespace with ":"; a skill wins over a command of the same name', () => {
  const m = model({
    'repo/.claude/commands/deploy.md': md({ description: 'Command deploy.' }),
    'repo/.claude/skills/deploy/SKILL.md': skill(),
    'repo/.claude/commands/frontend/component.md': md({ description: 'Makes a component.', name: 'ignored' }),
    'home/u/.claude/commands/review-all.md': 'Reviews everything.\n',
    'home/u/.claude/commands/lint.md': md({ description: 'Personal lint command.' }),
    'repo/.claude/skills/lint/SKILL.md': skill(),
  });
  const cmd = at(m, '/repo/.claude/commands/deploy.md');
  assert.equal(cmd.kind, 'command');
  assert.equal(cmd.shadowedBy, '/repo/.claude/skills/deploy/SKILL.md');
  assert.match(cmd.shadowReason!, /a skill wins over a command/);
  const comp = at(m, '/repo/.claude/commands/frontend/component.md');
  assert.equal(comp.invocation, '/frontend:component');
  assert.equal(comp.displayName, 'frontend:component');
  const noFront = at(m, '/home/u/.claude/commands/review-all.md');
  assert.equal(noFront.level, 'personal');
  assert.equal(noFront.meta.description, 'Reviews everything.');
  assert.equal(at(m, '/home/u/.claude/commands/lint.md').shadowedBy, '/repo/.claude/skills/lint/SKILL.md');
});

const INSTALLED = JSON.stringify({
  version: 2,
  plugins: {
    'my-plugin@market': [{ installPath: '/home/u/.claude/plugins/cache/market/my-plugin/1.0.0' }],
    'single@market': [{ installPath: '/home/u/.claude/plugins/cache/market/single/2.0.0' }],
    'off@market': [{ installPath: '/home/u/.claude/plugins/cache/market/off/1.0.0' }],
  },
});
const PLUGIN = '/home/u/.claude/plugins/cache/market/my-plugin/1.0.0';

test('plugins: /<plugin>:<folder>, frontmatter name replaces the last part, bare /name while free; root SKILL.md; commands; disabled plugins', () => {
  const m = model({
    'home/u/.claude/plugins/installed_plugins.json': INSTALLED,
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/.claude-plugin/plugin.json': '{"name": "my-plugin"}',
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/skills/review/SKILL.md': skill(),
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/skills/other/SKILL.md': md({ name: 'fancy', description: 'Fancy.' }),
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/skills/deploy/SKILL.md': skill(),
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/commands/hello.md': md({ description: 'Hello.' }),
    'home/u/.claude/plugins/cache/market/single/2.0.0/.claude-plugin/plugin.json': '{"name": "single"}',
    'home/u/.claude/plugins/cache/market/single/2.0.0/SKILL.md': md({ name: 'solo', description: 'Solo.' }),
    'home/u/.claude/plugins/cache/market/off/1.0.0/skills/gone/SKILL.md': skill(),
    'home/u/.claude/settings.json': '{"enabledPlugins": {"off@market": false}}',
    'repo/.claude/skills/deploy/SKILL.md': skill(),
  });
  const review = at(m, `${PLUGIN}/skills/review/SKILL.md`);
  assert.equal(review.level, 'plugin');
  assert.equal(review.plugin, 'my-plugin');
  assert.equal(review.invocation, '/my-plugin:review');
  assert.equal(review.bareInvocation, undefined, '/review is a Claude Code alias (of /code-review), so it is not free');
  const fancy = at(m, `${PLUGIN}/skills/other/SKILL.md`);
  assert.equal(fancy.invocation, '/my-plugin:fancy');
  assert.equal(fancy.bareInvocation, '/fancy');
  assert.equal(fancy.displayName, 'fancy');
  const deploy = at(m, `${PLUGIN}/skills/deploy/SKILL.md`);
  assert.equal(deploy.invocation, '/my-plugin:deploy');
  assert.equal(deploy.bareInvocation, undefined, 'the project /deploy takes the bare name');
  assert.equal(deploy.shadowedBy, undefined, 'plugin skills are namespaced: no clash');
  assert.equal(at(m, `${PLUGIN}/commands/hello.md`).invocation, '/my-plugin:hello');
  assert.equal(at(m, '/home/u/.claude/plugins/cache/market/single/2.0.0/SKILL.md').invocation, '/single:solo');
  assert.equal(m.entries.some((e) => e.path.includes('/off/')), false);
});

test('plugins: a root SKILL.md without name falls back to the plugin folder; ignored when skills/ exists', () => {
  const m = model({}, { pluginDirs: [] });
  assert.equal(m.entries.length, 0);
  const fs = treeFs({
    'p/one/SKILL.md': skill(),
    'p/two/SKILL.md': skill(),
    'p/two/skills/inner/SKILL.md': skill(),
  });
  const m2 = buildClaudeModel(fs, { startDir: '/w', managedDir: null, pluginDirs: ['/p/one', '/p/two'] });
  assert.deepEqual(m2.entries.map((e) => e.invocation), ['/one:one', '/two:inner']);
});

test('installed plugins: a broken installed_plugins.json is a problem, not a crash', () => {
  const m = model({ 'home/u/.claude/plugins/installed_plugins.json': '{"plugins": ' });
  assert.equal(m.problems.length, 1);
  assert.equal(m.problems[0].code, 'plugins-invalid');
});

test('skills-directory plugin: a skills folder child with .claude-plugin/plugin.json is a plugin', () => {
  const m = model({
    'home/u/.claude/skills/tool/.claude-plugin/plugin.json': '{"name": "tool"}',
    'home/u/.claude/skills/tool/skills/x/SKILL.md': skill(),
  });
  const x = at(m, '/home/u/.claude/skills/tool/skills/x/SKILL.md');
  assert.equal(x.level, 'plugin');
  assert.equal(x.invocation, '/tool:x');
});

test('nested .claude/skills below the start folder: on demand, directory-qualified on a clash', () => {
  const m = model({
    'repo/.claude/skills/deploy/SKILL.md': skill(),
    'repo/apps/web/.claude/skills/deploy/SKILL.md': skill(),
    'repo/apps/web/.claude/skills/lint/SKILL.md': skill(),
    'repo/apps/api/.claude/skills/fmt/SKILL.md': skill(),
    'repo/apps/api2/.claude/skills/fmt/SKILL.md': skill(),
    'repo/node_modules/pkg/.claude/skills/hidden/SKILL.md': skill(),
    'repo/apps/escape': { link: '/outside' },
    'outside/.claude/skills/far/SKILL.md': skill(),
    'repo/apps/self': { link: '/repo/apps' },
  });
  const nested = at(m, '/repo/apps/web/.claude/skills/deploy/SKILL.md');
  assert.equal(nested.level, 'nested');
  assert.equal(nested.invocation, '/apps/web:deploy');
  assert.equal(nested.onDemand, true);
  assert.equal(nested.nestedDir, 'apps/web');
  assert.equal(nested.shadowedBy, undefined, 'both stay available');
  assert.equal(at(m, '/repo/.claude/skills/deploy/SKILL.md').invocation, '/deploy');
  assert.equal(at(m, '/repo/apps/web/.claude/skills/lint/SKILL.md').invocation, '/lint');
  assert.equal(at(m, '/repo/apps/api/.claude/skills/fmt/SKILL.md').invocation, '/apps/api:fmt');
  assert.equal(at(m, '/repo/apps/api2/.claude/skills/fmt/SKILL.md').invocation, '/apps/api2:fmt');
  assert.equal(m.entries.some((e) => e.path.includes('node_modules') || e.path.includes('far')), false);
  // The self link reaches /repo/apps again: each real folder is walked once.
  assert.equal(m.entries.filter((e) => e.folderName === 'lint').length, 1);
});

test('built-in names: a built-in command wins; a skill replaces a bundled skill but not its aliases; bundled off frees the alias', () => {
  const files = {
    'repo/.claude/skills/help/SKILL.md': skill(),
    'repo/.claude/skills/code-review/SKILL.md': skill(),
    'repo/.claude/skills/review/SKILL.md': skill(),
    'repo/.claude/commands/deep-research.md': skill(),
  };
  const m = model(files);
  const help = at(m, '/repo/.claude/skills/help/SKILL.md');
  assert.equal(help.shadowedBy, 'builtin:/help');
  assert.deepEqual(help.builtinClash, { name: 'help', kind: 'command', winner: 'builtin' });
  const cr = at(m, '/repo/.claude/skills/code-review/SKILL.md');
  assert.equal(cr.shadowedBy, undefined);
  assert.deepEqual(cr.builtinClash, { name: 'code-review', kind: 'bundled-skill', winner: 'entry' });
  const review = at(m, '/repo/.claude/skills/review/SKILL.md');
  assert.equal(review.shadowedBy, 'builtin:/review');
  assert.match(review.shadowReason!, /alias of \/code-review/);
  assert.equal(at(m, '/repo/.claude/commands/deep-research.md').builtinClash?.kind, 'workflow');

  const off = model({ ...files, 'repo/.claude/settings.json': '{"disableBundledSkills": true}' });
  assert.equal(off.bundledDisabled, true);
  assert.equal(at(off, '/repo/.claude/skills/review/SKILL.md').shadowedBy, undefined);
  assert.equal(at(off, '/repo/.claude/skills/review/SKILL.md').builtinClash?.winner, 'entry');
  assert.equal(at(off, '/repo/.claude/skills/help/SKILL.md').shadowedBy, 'builtin:/help');
  const env = model(files, { env: { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1' } });
  assert.equal(env.bundledDisabled, true);
});

test('skillOverrides apply by command name, never to plugin skills', () => {
  const m = model({
    'repo/.claude/settings.local.json': '{"skillOverrides": {"hello": "name-only", "my-plugin:review": "off", "review": "off"}}',
    'repo/.claude/skills/hello/SKILL.md': md({ name: 'hi', description: 'x' }),
    'home/u/.claude/plugins/installed_plugins.json': INSTALLED,
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/.claude-plugin/plugin.json': '{"name": "my-plugin"}',
    'home/u/.claude/plugins/cache/market/my-plugin/1.0.0/skills/review/SKILL.md': skill(),
  });
  assert.equal(at(m, '/repo/.claude/skills/hello/SKILL.md').override, 'name-only');
  assert.equal(at(m, `${PLUGIN}/skills/review/SKILL.md`).override, undefined);
});

test('CLAUDE_CONFIG_DIR moves the personal folder', () => {
  const m = model({ 'cfg/skills/mine/SKILL.md': skill(), 'home/u/.claude/skills/not-read/SKILL.md': skill() }, { env: { CLAUDE_CONFIG_DIR: '/cfg' } });
  assert.deepEqual(m.entries.map((e) => [e.invocation, e.level]), [['/mine', 'personal']]);
});

test('the managed folder defaults per OS; malformed frontmatter still loads with empty metadata', () => {
  const fs = treeFs({ 'Library/Application Support/ClaudeCode/.claude/skills/m/SKILL.md': '---\nname: [unclosed\n---\nBody.\n' });
  const m = buildClaudeModel(fs, { startDir: '/w', platform: 'darwin' });
  assert.equal(m.managedDir, '/Library/Application Support/ClaudeCode');
  const e = at(m, '/Library/Application Support/ClaudeCode/.claude/skills/m/SKILL.md');
  assert.equal(e.level, 'managed');
  assert.equal(e.loaded, true);
  assert.deepEqual(e.meta, {});
});

test('an injected reader is used for every loaded file; an unreadable file is not loaded', () => {
  const seen: string[] = [];
  const m = model({ 'repo/.claude/skills/a/SKILL.md': 'x', 'repo/.claude/skills/b/SKILL.md': 'x' }, {
    readMeta: (p) => { seen.push(p); return p.includes('/a/') ? { description: 'from the pipeline' } : undefined; },
  });
  assert.deepEqual(seen.sort(), ['/repo/.claude/skills/a/SKILL.md', '/repo/.claude/skills/b/SKILL.md']);
  assert.equal(at(m, '/repo/.claude/skills/a/SKILL.md').meta.description, 'from the pipeline');
  const b = at(m, '/repo/.claude/skills/b/SKILL.md');
  assert.equal(b.loaded, false);
  assert.match(b.notLoadedReason!, /cannot be read/);
});

test('plugin manifest: `skills` adds folders, `commands` replaces commands/; two plugins sharing a bare name lose it', () => {
  const fs = treeFs({
    'p/a/.claude-plugin/plugin.json': JSON.stringify({ name: 'a', skills: ['./extra/', './single'], commands: ['./cmds/only.md'] }),
    'p/a/skills/shared/SKILL.md': md({ description: 'x' }),
    'p/a/extra/more/SKILL.md': md({ description: 'x' }),
    'p/a/single/SKILL.md': md({ description: 'x' }),
    'p/a/commands/skipped.md': md({ description: 'x' }),
    'p/a/cmds/only.md': md({ description: 'x' }),
    'p/b/.claude-plugin/plugin.json': '{"name": "b"}',
    'p/b/skills/shared/SKILL.md': md({ description: 'x' }),
    'p/c/.claude-plugin/plugin.json': '{"name": ',
    'p/c/skills/c-skill/SKILL.md': md({ description: 'x' }),
  });
  const m = buildClaudeModel(fs, { startDir: '/w', managedDir: null, pluginDirs: ['/p/a', '/p/b', '/p/c'] });
  assert.deepEqual(m.entries.map((e) => [e.invocation, e.bareInvocation ?? null]), [
    ['/a:shared', null],
    ['/a:more', '/more'],
    ['/a:single', '/single'],
    ['/a:only', '/only'],
    ['/b:shared', null],
    // A corrupt manifest is a load error (docs/plugins-reference.md: "Plugin <name> has a corrupt manifest file at
    // .claude-plugin/plugin.json. JSON parse error"): the plugin's skill never loads.
    [null, null],
  ]);
  assert.deepEqual(m.entries.at(-1)!.notLoadedCode, 'plugin-invalid');
  assert.match(m.entries.at(-1)!.notLoadedReason!, /not valid JSON/);
  assert.deepEqual(m.problems.map((p) => [p.code, p.path]), [['plugins-invalid', '/p/c/.claude-plugin/plugin.json']]);
});

test('settings.local.json at the repository root applies when Claude Code starts in a subfolder (docs/settings.md)', () => {
  // docs/settings.md: "If you started Claude Code in a subdirectory or a worktree of a git repository, it reads and
  // writes that file at the repository root"; "When the file stays in the starting directory instead: outside a git
  // repository, when the repository root is your home directory".
  const files = {
    'repo/.claude/settings.local.json': '{"skillOverrides": {"deploy": "off"}}',
    'repo/app/.claude/skills/deploy/SKILL.md': skill(),
    'repo/app/.claude/settings.local.json': '{"skillOverrides": {"deploy": "name-only"}}',
  };
  const m = model(files, { startDir: '/repo/app' });
  assert.equal(at(m, '/repo/app/.claude/skills/deploy/SKILL.md').override, 'off');
  assert.ok(m.settings.files.some((f) => f.scope === 'local' && f.path === '/repo/.claude/settings.local.json'));
  // The repository root is the home folder: the start folder's file counts.
  const home = buildClaudeModel(treeFs({ 'home/u/.git/HEAD': 'ref: main\n', 'home/u/.claude/settings.local.json': '{"skillOverrides": {"deploy": "off"}}',
    'home/u/app/.claude/skills/deploy/SKILL.md': skill(), 'home/u/app/.claude/settings.local.json': '{"skillOverrides": {"deploy": "name-only"}}' }),
  { startDir: '/home/u/app', home: HOME, managedDir: MANAGED });
  assert.equal(at(home, '/home/u/app/.claude/skills/deploy/SKILL.md').override, 'name-only');
});

test('managed strictPluginOnlyCustomization stops personal, project and synced skills and commands; CLAUDE_CODE_DISABLE_POLICY_SKILLS stops managed skills', () => {
  // docs/settings-reference.md, strictPluginOnlyCustomization.skills: "Claude Code stops loading skills from
  // `~/.claude/skills/` and `.claude/skills/`, custom commands from `~/.claude/commands/` and `.claude/commands/`, skills
  // under `--add-dir` directories, and skills synced from your claude.ai account, and keeps loading plugin skills,
  // bundled skills, and skills in the managed policy directory." docs/env-vars.md, CLAUDE_CODE_DISABLE_POLICY_SKILLS:
  // "Set to `1` to skip loading skills from the system-wide managed skills directory".
  const files = {
    'etc/claude-code/.claude/skills/audit/SKILL.md': skill(),
    'home/u/.claude/skills/mine/SKILL.md': skill(),
    'home/u/.claude/skills/synced/web/SKILL.md': skill(),
    'repo/.claude/skills/deploy/SKILL.md': skill(),
    'repo/.claude/commands/hello.md': 'Hello.\n',
  };
  for (const strict of ['true', '["skills", "hooks"]']) {
    const m = model({ ...files, 'etc/claude-code/managed-settings.json': `{"strictPluginOnlyCustomization": ${strict}}` });
    for (const p of ['/home/u/.claude/skills/mine/SKILL.md', '/home/u/.claude/skills/synced/web/SKILL.md', '/repo/.claude/skills/deploy/SKILL.md', '/repo/.claude/commands/hello.md']) {
      const e = at(m, p);
      assert.deepEqual([e.loaded, e.invocation, e.notLoadedCode], [false, null, 'policy'], `${strict} ${p}`);
      assert.match(e.notLoadedReason!, /strictPluginOnlyCustomization/);
    }
    assert.equal(at(m, '/etc/claude-code/.claude/skills/audit/SKILL.md').loaded, true);
  }
  // Not locked: an array without "skills", or the setting in a project file (managed scope only).
  assert.equal(at(model({ ...files, 'etc/claude-code/managed-settings.json': '{"strictPluginOnlyCustomization": ["hooks"]}' }), '/repo/.claude/skills/deploy/SKILL.md').loaded, true);
  assert.equal(at(model({ ...files, 'repo/.claude/settings.json': '{"strictPluginOnlyCustomization": true}' }), '/repo/.claude/skills/deploy/SKILL.md').loaded, true);

  const noPolicy = model(files, { env: { CLAUDE_CODE_DISABLE_POLICY_SKILLS: '1' } });
  assert.deepEqual([at(noPolicy, '/etc/claude-code/.claude/skills/audit/SKILL.md').loaded, at(noPolicy, '/etc/claude-code/.claude/skills/audit/SKILL.md').notLoadedCode], [false, 'policy']);
  assert.equal(at(noPolicy, '/repo/.claude/skills/deploy/SKILL.md').loaded, true);
});

test('a nested .claude/skills inside a git-ignored folder is not discovered (changelog 2.1.69)', () => {
  // changelog 2.1.69: "Fixed a security issue where nested skill discovery could load skills from gitignored directories
  // like `node_modules`".
  const m = model({
    'repo/.gitignore': '# build output\nbuild/\n*.tmp\n/vendor\n',
    'repo/build/pkg/.claude/skills/deploy/SKILL.md': skill(),
    'repo/cache.tmp/.claude/skills/tmp/SKILL.md': skill(),
    'repo/vendor/.claude/skills/vendored/SKILL.md': skill(),
    'repo/apps/web/.gitignore': 'generated\n!keep\n',
    'repo/apps/web/generated/.claude/skills/gen/SKILL.md': skill(),
    'repo/apps/web/.claude/skills/web/SKILL.md': skill(),
    'repo/apps/vendor/.claude/skills/not-root/SKILL.md': skill(), // `/vendor` is anchored at the root
  });
  for (const p of ['/repo/build/pkg/.claude/skills/deploy/SKILL.md', '/repo/cache.tmp/.claude/skills/tmp/SKILL.md', '/repo/vendor/.claude/skills/vendored/SKILL.md', '/repo/apps/web/generated/.claude/skills/gen/SKILL.md']) {
    const e = at(m, p);
    assert.deepEqual([e.loaded, e.notLoadedCode], [false, 'git-ignored'], p);
    assert.match(e.notLoadedReason!, /git-ignored/);
  }
  assert.equal(at(m, '/repo/apps/web/.claude/skills/web/SKILL.md').loaded, true);
  assert.equal(at(m, '/repo/apps/vendor/.claude/skills/not-root/SKILL.md').loaded, true);
});
