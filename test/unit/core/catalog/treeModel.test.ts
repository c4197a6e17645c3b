// The Skills tree model shows Claude Code's view: rows labelled by command, grouped by level in precedence order,
// commands beside skills, shadowed and never-loaded rows marked with the reason (entries as discovery fills them in).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ClaudeLevel } from '../../../../src/core/claude/types';
import type { SkillEntry } from '../../../../src/core/skillmd/model';
import { childNodes, displayPaths, entryLabel, entryRow, levelNodeIdOf, rootNodes, searchOrder, walkTree, type SkillsNode, type TreeSource } from '../../../../src/core/catalog/treeModel';

const WS = path.resolve('/work/app');
const OTHER = path.resolve('/work/lib');
const HOME = path.resolve('/home/ada');

type Spec = Partial<SkillEntry> & { file: string; level: ClaudeLevel };

function entry(spec: Spec): SkillEntry {
  const { file, ...rest } = spec;
  const source = rest.source ?? (file.endsWith('SKILL.md') ? 'skill' : 'command');
  const dir = source === 'skill' ? path.dirname(file) : file;
  const folderName = source === 'skill' ? path.basename(dir) : path.basename(file, '.md');
  const scope = spec.level === 'plugin' ? 'plugin' : spec.level === 'personal' || spec.level === 'managed' || spec.level === 'synced' ? 'personal' : 'project';
  return {
    name: folderName, folderName, dir, skillMdPath: file, root: { path: path.dirname(dir), scope, workspaceFolder: scope === 'project' ? WS : undefined },
    scope, kind: folderName.startsWith('workflow-') ? 'workflow' : 'command', invocation: `/${folderName}`, source, loaded: true,
    description: `Does ${folderName} things.`, tokenEstimate: 10, files: source === 'skill' ? ['SKILL.md'] : [], references: [], problems: [], stamp: '1',
    ...rest,
  };
}

function source(skills: SkillEntry[], folders = [WS]): TreeSource {
  const sorted = [...skills].sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir));
  const byDir = new Map(sorted.map((s) => [s.dir, s]));
  return { skills: sorted, agents: [], options: { workspaceFolders: folders, home: HOME }, skillByDir: (d) => byDir.get(d) };
}

const skillFile = (base: string, name: string) => path.join(base, '.claude', 'skills', name, 'SKILL.md');
const commandFile = (base: string, name: string) => path.join(base, '.claude', 'commands', `${name}.md`);

/** [group label, [row labels]] for the whole top level. */
function outline(index: TreeSource): Array<[string, string[]]> {
  return rootNodes(index).map((n) => {
    assert.equal(n.kind, 'level');
    const label = (n as Extract<SkillsNode, { kind: 'level' }>).label;
    return [label, childNodes(index, n).map((c) => {
      const s = index.skillByDir((c as { dir: string }).dir)!;
      return entryRow(s, '', { home: HOME, workspaceFolders: index.options.workspaceFolders }).label;
    })];
  });
}

test('rows are labelled by command; groups follow Claude Code precedence: managed, personal, project, additional, nested, plugin, synced', () => {
  const index = source([
    entry({ file: skillFile(WS, 'deploy'), level: 'project', shadowedBy: skillFile(HOME, 'deploy') }),
    entry({ file: skillFile(HOME, 'deploy'), level: 'personal' }),
    entry({ file: path.join('/etc/claude-code/.claude/skills/policy/SKILL.md'), level: 'managed' }),
    entry({ file: skillFile(path.join(WS, 'apps', 'web'), 'build'), level: 'nested' }),
    entry({ file: path.join(WS, 'plugins', 'tools', 'skills', 'lint', 'SKILL.md'), level: 'plugin', invocation: '/tools:lint', root: { path: path.join(WS, 'plugins', 'tools', 'skills'), scope: 'plugin', plugin: 'tools' } }),
    entry({ file: skillFile(path.resolve('/extra'), 'shared'), level: 'additional' }),
    entry({ file: path.join(HOME, '.claude', 'skills', 'synced', 'notes', 'SKILL.md'), level: 'synced' }),
    entry({ file: skillFile(path.dirname(WS), 'root-skill'), level: 'project' }),
  ]);
  assert.deepEqual(outline(index), [
    ['Managed', ['/policy']],
    ['Personal', ['/deploy']],
    ['Project', ['/deploy']],
    ['Project · work', ['/root-skill']],
    ['Additional folders', ['/shared']],
    ['Nested', ['/build']],
    ['Plugin · tools', ['/tools:lint']],
    ['Synced from claude.ai', ['/notes']],
  ]);
  const parent = rootNodes(index)[3];
  assert.equal(parent.kind === 'level' && parent.parentFolder, true, 'a project level above the workspace folder is marked as a parent folder');
  const nested = index.skills.find((s) => s.level === 'nested')!;
  assert.equal(entryRow(nested, 'Builds.', { workspaceFolders: [WS] }).description, 'apps/web · Builds.', 'a nested row names its package folder');
  assert.equal(levelNodeIdOf(index, nested), `level:nested:${WS}`);
});

test('two workspace folders get a Project group each, in folder order', () => {
  const index = source([entry({ file: skillFile(OTHER, 'b'), level: 'project' }), entry({ file: skillFile(WS, 'a'), level: 'project' })], [WS, OTHER]);
  assert.deepEqual(outline(index), [['Project · app', ['/a']], ['Project · lib', ['/b']]]);
});

test('the command is the label, a differing display name leads the description', () => {
  const hello = entry({ file: skillFile(WS, 'hello'), level: 'project', name: 'hi', displayName: 'hi' });
  const row = entryRow(hello, 'Greets.', { workspaceFolders: [WS] });
  assert.deepEqual(row, { label: '/hello', description: 'hi · Greets.', state: 'loaded' });
  const same = entry({ file: skillFile(WS, 'deploy'), level: 'project' });
  assert.equal(entryRow(same, 'Deploys.', { workspaceFolders: [WS] }).description, 'Deploys.', 'no display name when it is the command');
});

test('commands sit beside skills, a command right after the skill that shadows it; never-loaded entries last', () => {
  const index = source([
    entry({ file: commandFile(WS, 'deploy'), level: 'project', shadowedBy: skillFile(WS, 'deploy'), shadowReason: `project skill /deploy at ${skillFile(WS, 'deploy')} wins: a skill wins over a command of the same name` }),
    entry({ file: skillFile(WS, 'deploy'), level: 'project' }),
    entry({ file: commandFile(WS, 'standup'), level: 'project' }),
    entry({ file: skillFile(WS, 'build'), level: 'project' }),
    entry({ file: path.join(WS, '.claude', 'skills', 'drafts', 'format-sql', 'SKILL.md'), level: 'project', loaded: false, invocation: null, notLoadedReason: 'below a direct child of .claude/skills' }),
  ]);
  const [project] = rootNodes(index);
  const rows = childNodes(index, project).map((n) => index.skillByDir((n as { dir: string }).dir)!);
  assert.deepEqual(rows.map((s) => [entryRow(s, '', { workspaceFolders: [WS] }).label, s.source, entryRow(s, '', { workspaceFolders: [WS] }).state]), [
    ['/build', 'skill', 'loaded'],
    ['/deploy', 'skill', 'loaded'],
    ['/deploy', 'command', 'shadowed'],
    ['/standup', 'command', 'loaded'],
    ['format-sql', 'skill', 'notLoaded'],
  ]);
  // A command has no files under it: its row opens it.
  assert.deepEqual(childNodes(index, childNodes(index, project)[2]), []);
  assert.deepEqual(childNodes(index, childNodes(index, project)[0]).map((n) => n.kind === 'file' && n.relPath), ['SKILL.md']);
  assert.equal(walkTree(index), 1 + 5 + 3, 'level, five rows, the SKILL.md of each skill folder that loads or not');
});

test('shadowed and never-loaded rows say so and carry the reason, with home paths as ~/', () => {
  const winner = skillFile(HOME, 'deploy');
  const loser = entry({
    file: skillFile(WS, 'deploy'), level: 'project', shadowedBy: winner,
    shadowReason: `personal skill /deploy at ${winner} wins: managed > personal > project > additional folders`,
  });
  const row = entryRow(loser, 'Deploys.', { home: HOME, workspaceFolders: [WS] });
  assert.equal(row.state, 'shadowed');
  assert.equal(row.description, '(shadowed) · Deploys.');
  assert.equal(row.reason, 'personal skill /deploy at ~/.claude/skills/deploy/SKILL.md wins: managed > personal > project > additional folders');

  const deep = entry({ file: path.join(WS, '.claude', 'skills', 'group', 'x', 'SKILL.md'), level: 'project', loaded: false, invocation: null, notLoadedReason: 'Claude Code loads only the direct children of .claude/skills' });
  const deepRow = entryRow(deep, 'Does x.', { workspaceFolders: [WS] });
  assert.deepEqual(deepRow, { label: 'x', description: '(not loaded) · Does x.', state: 'notLoaded', reason: 'Claude Code loads only the direct children of .claude/skills' });

  const builtin = entry({ file: skillFile(WS, 'help'), level: 'project', shadowedBy: 'builtin:/help', shadowReason: '/help is a Claude Code built-in command, which always wins' });
  assert.equal(entryRow(builtin, '', { workspaceFolders: [WS] }).reason, '/help is a Claude Code built-in command, which always wins');
});

test('the grouping is computed once per skills array', () => {
  const skills = [entry({ file: skillFile(WS, 'a'), level: 'project' })];
  const index = source(skills);
  const first = rootNodes(index)[0];
  assert.equal(rootNodes(index)[0], first, 'the same level node object while the array is the same');
  const changed = source([...index.skills, entry({ file: skillFile(HOME, 'a'), level: 'personal' })]);
  assert.deepEqual(rootNodes(changed).map((n) => n.id), ['level:personal', `level:project:${WS}`]);
});

test('paths in reasons read relative to the workspace folder (named when there are several) and ~/ under home', () => {
  const text = `project skill /x at ${skillFile(WS, 'x')} wins; ${skillFile(HOME, 'y')}`;
  assert.equal(displayPaths(text, { home: HOME, workspaceFolders: [WS] }), 'project skill /x at .claude/skills/x/SKILL.md wins; ~/.claude/skills/y/SKILL.md');
  assert.equal(displayPaths(text, { home: HOME, workspaceFolders: [WS, OTHER] }), 'project skill /x at app/.claude/skills/x/SKILL.md wins; ~/.claude/skills/y/SKILL.md');
});

test('search order: the entry that answers a command first, then what it shadows, never-loaded entries last', () => {
  const command = entry({ file: commandFile(WS, 'review'), level: 'project', shadowedBy: skillFile(WS, 'review') });
  const skill = entry({ file: skillFile(WS, 'review'), level: 'project' });
  const personal = entry({ file: skillFile(HOME, 'deploy'), level: 'personal' });
  const shadowedProject = entry({ file: skillFile(WS, 'deploy'), level: 'project', shadowedBy: skillFile(HOME, 'deploy') });
  const lost = entry({ file: path.join(WS, '.claude', 'skills', 'drafts', 'x', 'SKILL.md'), level: 'project', invocation: null, loaded: false, name: 'a-draft' });
  const order = searchOrder([lost, shadowedProject, command, personal, skill]);
  assert.deepEqual(order.map((s) => `${entryLabel(s)} ${s.source}${s.shadowedBy ? ' shadowed' : ''}`), [
    '/deploy skill', '/deploy skill shadowed', '/review skill', '/review command shadowed', 'a-draft skill',
  ]);
});
