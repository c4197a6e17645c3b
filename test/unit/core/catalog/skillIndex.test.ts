import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem, type FileSystem } from '../../../../src/core/base/fs';
import { SkillIndex } from '../../../../src/core/catalog/skillIndex';
import { childNodes, rootNodes, walkTree } from '../../../../src/core/catalog/treeModel';

function skillMd(name: string, description = `Does ${name} things. Use when asked.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
}

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-index-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  write('.claude/skills/alpha/SKILL.md', skillMd('alpha'));
  write('.claude/skills/alpha/scripts/run.sh', 'echo hi\n');
  write('.claude/skills/workflow-build/SKILL.md', skillMd('workflow-build'));
  write('.claude/skills/beta/SKILL.md', skillMd('beta'));
  write('.claude/agents/builder.md', '---\nname: builder\ndescription: Builds.\nskills:\n  - workflow-build\n  - gamma\n---\nBody\n');
  return ws;
}

/**
 * Records file reads (to prove a change re-reads only the touched skill) and folder listings and real-path lookups
 * (what Claude Code's model rebuild does per skill folder).
 */
function countingFs(): { fs: FileSystem; reads: string[]; listed: string[] } {
  const reads: string[] = [];
  const listed: string[] = [];
  return {
    reads,
    listed,
    fs: {
      ...nodeFileSystem,
      readFile(p) { reads.push(p); return nodeFileSystem.readFile(p); },
      readFileTransient(p, size) { reads.push(p); return nodeFileSystem.readFileTransient!(p, size); },
      readDir(p) { listed.push(p); return nodeFileSystem.readDir(p); },
      realPath(p) { listed.push(p); return nodeFileSystem.realPath(p); },
    },
  };
}

test('the index loads lazily; the tree lists the project skills under one Project group, by command', () => {
  const ws = workspace();
  try {
    const { fs: cfs, reads } = countingFs();
    const index = new SkillIndex(cfs, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    assert.equal(index.loaded, false);
    assert.equal(reads.length, 0, 'nothing is read before the first request');
    index.ensureLoaded();
    assert.deepEqual(index.skills.map((s) => s.name), ['alpha', 'beta', 'workflow-build']);
    const [project, agents] = rootNodes(index);
    assert.equal(project.kind === 'level' && project.label, 'Project');
    assert.equal(agents.kind, 'agents');
    assert.deepEqual(childNodes(index, project).map((n) => n.kind === 'skill' && path.basename(n.dir)), ['alpha', 'beta', 'workflow-build']);
    const alpha = childNodes(index, project)[0];
    assert.deepEqual(childNodes(index, alpha).map((n) => (n.kind === 'file' || n.kind === 'folder') && n.relPath), ['SKILL.md', 'scripts']);
    const scripts = childNodes(index, alpha)[1];
    const run = childNodes(index, scripts)[0];
    assert.equal(run.kind === 'file' && run.isScript && run.relPath, 'scripts/run.sh');
    const builder = childNodes(index, agents)[0];
    assert.deepEqual(childNodes(index, builder).map((n) => n.kind === 'boundSkill' && [n.name, n.dir ? path.basename(n.dir) : undefined]), [['workflow-build', 'workflow-build'], ['gamma', undefined]]);
    assert.equal(walkTree(index), 13);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('applyChanges re-reads only the touched skill, and reports added and removed skills as structural', () => {
  const ws = workspace();
  try {
    const { fs: cfs, reads } = countingFs();
    const index = new SkillIndex(cfs, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const alphaMd = path.join(ws, '.claude/skills/alpha/SKILL.md');

    reads.length = 0;
    fs.writeFileSync(alphaMd, skillMd('alpha', 'Changed: now with a colon'));
    let change = index.applyChanges([alphaMd]);
    assert.deepEqual(reads.filter((r) => r.endsWith('.md')), [alphaMd]);
    assert.deepEqual([...change.skills], [path.dirname(alphaMd)]);
    assert.equal(change.structural, false);
    assert.deepEqual(index.skillByFile(alphaMd)?.problems.map((p) => p.code), ['yaml-syntax']);

    const gammaMd = path.join(ws, '.claude/skills/gamma/SKILL.md');
    fs.mkdirSync(path.dirname(gammaMd));
    fs.writeFileSync(gammaMd, skillMd('gamma'));
    change = index.applyChanges([gammaMd]);
    assert.equal(change.structural, true);
    assert.equal(change.agents, true, 'a new skill name re-checks agent bindings');
    assert.deepEqual(index.agents[0].problems.map((p) => p.code), [], 'builder.md now binds an existing gamma');

    fs.rmSync(path.join(ws, '.claude/skills/beta'), { recursive: true });
    change = index.applyChanges([path.join(ws, '.claude/skills/beta')]);
    assert.equal(change.structural, true);
    assert.deepEqual(index.skills.map((s) => s.name), ['alpha', 'gamma', 'workflow-build']);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a command beside a skill of the same name is shadowed, and deleting the skill lets the command answer', () => {
  const ws = workspace();
  try {
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const command = path.join(ws, '.claude/commands/alpha.md');
    fs.mkdirSync(path.dirname(command), { recursive: true });
    fs.writeFileSync(command, '---\ndescription: The old alpha command.\n---\nDo alpha.\n');
    let change = index.applyChanges([command]);
    assert.equal(change.structural, true, 'a new command regroups the tree');
    const alphaDir = path.join(ws, '.claude/skills/alpha');
    const cmd = index.skillByFile(command);
    assert.equal(cmd?.source, 'command');
    assert.equal(cmd?.invocation, '/alpha');
    assert.equal(cmd?.shadowedBy, path.join(alphaDir, 'SKILL.md'));
    const [project] = rootNodes(index);
    assert.deepEqual(childNodes(index, project).map((n) => n.kind === 'skill' && index.skillByDir(n.dir)?.source), ['skill', 'command', 'skill', 'skill'], 'the command right after the skill that shadows it');

    fs.rmSync(alphaDir, { recursive: true });
    change = index.applyChanges([alphaDir]);
    assert.ok(change.skills.has(command), 'the command row changes too');
    assert.equal(index.skillByFile(command)?.shadowedBy, undefined);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a plugin with commands and no skills: the index has its commands, also after a change makes it wire the model again (the root its commands were found in keeps the plugin)', () => {
  const ws = workspace();
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), text);
    };
    write('plugins/tools/.claude-plugin/plugin.json', '{"name":"tools"}\n');
    write('plugins/tools/commands/ship.md', '---\ndescription: Ship the branch.\n---\nShip it.\n');
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const ship = path.join(ws, 'plugins/tools/commands/ship.md');
    assert.equal(index.skillByFile(ship)?.invocation, '/tools:ship');
    // A new project command makes the index wire Claude Code's model again: the plugin's command stays.
    write('.claude/commands/deploy.md', '---\ndescription: Deploy.\n---\nDeploy.\n');
    assert.equal(index.applyChanges([path.join(ws, '.claude/commands/deploy.md')]).structural, true);
    assert.equal(index.skillByFile(path.join(ws, '.claude/commands/deploy.md'))?.invocation, '/deploy');
    assert.equal(index.skillByFile(ship)?.invocation, '/tools:ship');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a duplicate command flags both skills, and deleting one clears the other (the model is applied again)', () => {
  const ws = workspace();
  try {
    fs.mkdirSync(path.join(ws, 'tools/.claude-plugin'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'tools/.claude-plugin/plugin.json'), '{"name":"tools"}');
    fs.mkdirSync(path.join(ws, 'tools/skills/alpha'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'tools/skills/alpha/SKILL.md'), skillMd('alpha'));
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    // In a plugin, `name` is the last part of the command: folder alpha-copy with `name: alpha` is /tools:alpha too.
    const dupMd = path.join(ws, 'tools/skills/alpha-copy/SKILL.md');
    fs.mkdirSync(path.dirname(dupMd));
    fs.writeFileSync(dupMd, skillMd('alpha'));
    const change = index.applyChanges([dupMd]);
    const alphaDir = path.join(ws, 'tools/skills/alpha');
    assert.equal(index.skillByDir(dupMd.replace('/SKILL.md', ''))?.invocation, '/tools:alpha');
    assert.ok(change.skills.has(alphaDir), 'the untouched twin is reported as changed too');
    assert.ok(index.skillByDir(alphaDir)?.problems.some((p) => p.code === 'duplicate-name'));
    fs.rmSync(path.dirname(dupMd), { recursive: true });
    index.applyChanges([path.dirname(dupMd)]);
    assert.equal(index.skillByDir(alphaDir)?.problems.some((p) => p.code === 'duplicate-name'), false);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('a personal skill overrides a project skill of the same folder name; the tree shows Personal first', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-index-empty-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-home-'));
  try {
    fs.mkdirSync(path.join(home, '.claude/skills/tidy'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude/skills/tidy/SKILL.md'), skillMd('tidy', 'Personal tidy.'));
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], home, includePersonal: true, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    assert.deepEqual(rootNodes(index).map((n) => n.id), ['level:personal']);
    assert.equal(index.listingChars(), 'Personal tidy.'.length);

    const md = path.join(ws, '.claude/skills/tidy/SKILL.md');
    fs.mkdirSync(path.dirname(md), { recursive: true });
    fs.writeFileSync(md, skillMd('tidy', 'Project tidy!'));
    const change = index.applyChanges([md]);
    assert.equal(change.structural, true);
    assert.deepEqual(rootNodes(index).map((n) => n.id), ['level:personal', `level:project:${ws}`]);
    const project = index.skillByFile(md);
    assert.equal(project?.shadowedBy, path.join(home, '.claude/skills/tidy/SKILL.md'));
    assert.equal(index.skills.find((s) => s.level === 'personal')?.shadowedBy, undefined);
    assert.equal(index.listingChars(), 'Personal tidy.'.length, 'the shadowed project skill is not listed');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('an edit keeps Claude Code\'s view when only the description changes, and rebuilds it when a deciding key changes', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-index-edit-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-home-'));
  try {
    fs.mkdirSync(path.join(home, '.claude/skills/tidy'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude/skills/tidy/SKILL.md'), skillMd('tidy'));
    const md = path.join(ws, '.claude/skills/tidy/SKILL.md');
    fs.mkdirSync(path.dirname(md), { recursive: true });
    fs.writeFileSync(md, skillMd('tidy'));
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], home, includePersonal: true, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const project = () => index.skills.find((s) => s.skillMdPath === md)!;
    assert.deepEqual(project().problems.map((p) => p.code), ['shadowed']);

    fs.writeFileSync(md, skillMd('tidy', 'A new description. Use when asked.'));
    index.applyChanges([md]);
    assert.deepEqual([project().description, project().shadowedBy, project().problems.map((p) => p.code)], ['A new description. Use when asked.', path.join(home, '.claude/skills/tidy/SKILL.md'), ['shadowed']]);
    const modelEntry = index.models[0].entries.find((e) => e.path === md)!;
    assert.equal(modelEntry.meta.description, 'A new description. Use when asked.', 'the model (and so the listing) sees the new description');

    fs.writeFileSync(md, '---\nname: tidy\ndescription: Hidden.\nuser-invocable: false\ndisable-model-invocation: true\n---\n');
    index.applyChanges([md]);
    assert.deepEqual(project().problems.map((p) => p.code), ['shadowed', 'unreachable']);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a new skill folder re-reads that folder alone: an empty one rebuilds nothing, its SKILL.md then adds the skill', () => {
  const ws = workspace();
  try {
    const { fs: lfs, listed } = countingFs();
    const index = new SkillIndex(lfs, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const skills = path.join(ws, '.claude/skills');
    const gamma = path.join(skills, 'gamma');
    // Two edits, so the folders' listings are known to the index (the first rebuild after a load reads them).
    fs.writeFileSync(path.join(skills, 'alpha/SKILL.md'), skillMd('alpha', 'Changed once. Use when asked.'));
    index.applyChanges([path.join(skills, 'alpha/SKILL.md')]);
    fs.writeFileSync(path.join(skills, 'alpha/SKILL.md'), skillMd('alpha', '[Changed twice, a broken value'));
    index.applyChanges([path.join(skills, 'alpha/SKILL.md')]);

    fs.mkdirSync(gamma);
    listed.length = 0;
    let change = index.applyChanges([gamma]);
    assert.deepEqual([change.structural, change.skills.size, change.agents], [false, 0, false], 'an empty folder is no change');
    assert.deepEqual([...new Set(listed)], [gamma], 'only the new folder is looked at');

    fs.writeFileSync(path.join(gamma, 'SKILL.md'), skillMd('gamma'));
    listed.length = 0;
    change = index.applyChanges([path.join(gamma, 'SKILL.md')]);
    assert.equal(change.structural, true);
    assert.equal(index.skillByDir(gamma)?.invocation, '/gamma');
    const skillFolders = listed.filter((p) => path.dirname(p) === skills);
    assert.deepEqual([...new Set(skillFolders)], [gamma], 'the unchanged skill folders are not listed again');
    assert.equal(index.models[0].entries.find((e) => e.dir === gamma)?.loaded, true, "gamma is in Claude Code's model");

    // A wrong-case file name, and a folder grouping skills one level too deep: what the model reads there is new too.
    fs.renameSync(path.join(gamma, 'SKILL.md'), path.join(gamma, 'skill.md'));
    index.applyChanges([path.join(gamma, 'SKILL.md'), path.join(gamma, 'skill.md')]);
    assert.equal(index.models[0].entries.find((e) => e.dir === gamma)?.notLoadedCode, 'file-case');
    fs.mkdirSync(path.join(skills, 'group/deep'), { recursive: true });
    fs.writeFileSync(path.join(skills, 'group/deep/SKILL.md'), skillMd('deep'));
    index.applyChanges([path.join(skills, 'group')]);
    assert.equal(index.models[0].entries.find((e) => e.dir === path.join(skills, 'group/deep'))?.notLoadedCode, 'deeper');
    fs.mkdirSync(path.join(skills, 'group/deeper'));
    fs.writeFileSync(path.join(skills, 'group/deeper/SKILL.md'), skillMd('deeper'));
    index.applyChanges([path.join(skills, 'group/deeper/SKILL.md')]);
    assert.equal(index.models[0].entries.find((e) => e.dir === path.join(skills, 'group/deeper'))?.notLoadedCode, 'deeper', 'a second misplaced skill is seen too');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('agents in subfolders: a file added there, and the subfolder removed (one event for the folder), re-read the agents', () => {
  const ws = workspace();
  try {
    const index = new SkillIndex(nodeFileSystem, { workspaceFolders: [ws], includePersonal: false, profile: 'claude-code', managedDir: null });
    index.ensureLoaded();
    const sub = path.join(ws, '.claude/agents/review');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'critic.md'), '---\nname: critic\ndescription: Criticises.\n---\n');
    let change = index.applyChanges([path.join(sub, 'critic.md')]);
    assert.equal(change.agents, true);
    assert.deepEqual(index.agents.map((a) => a.name).sort(), ['builder', 'critic']);
    fs.rmSync(sub, { recursive: true });
    change = index.applyChanges([sub]);
    assert.equal(change.agents, true, 'the removed folder alone');
    assert.deepEqual(index.agents.map((a) => a.name), ['builder']);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
