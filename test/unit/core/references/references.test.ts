import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { withReadCache } from '../../../../src/core/discovery/readCache';
import { extractReferences } from '../../../../src/core/references/markdown';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { discover } from '../../../../src/core/discovery/discover';
import { r, rangeOf, skill, summary } from '../../helpers/validation';
import { removeTree, tempTree } from '../../helpers/tempTree';

const ROOT = nodePath.resolve('test/fixtures/validation/root');
const ALPHA = nodePath.join(ROOT, 'alpha');

function targets(body: string): string[] {
  return extractReferences(body, 1).map((c) => `${c.kind}:${c.target}`);
}

function validateAlpha(body: string, profile: 'claude-code' | 'spec' | 'upload' = 'claude-code', skillDir = ALPHA, rootDir: string | null = ROOT) {
  return validateSkillMd(skill('name: alpha\ndescription: d', body), { profile, folderName: nodePath.basename(skillDir), skillDir, rootDir: rootDir ?? undefined }, nodeFileSystem);
}

test('markdown links and images: target and exact range of the target', () => {
  const c = extractReferences('See [the guide](references/guide.md) and ![logo](assets/logo.png "Logo").\n', 10);
  assert.deepEqual(c.map((x) => [x.kind, x.target, rangeOf(x.range)]), [
    ['link', 'references/guide.md', r(10, 17, 10, 36)],
    ['link', 'assets/logo.png', r(10, 50, 10, 65)],
  ]);
});

test('fragments and queries are stripped; the range covers the path only', () => {
  const c = extractReferences('[a](references/guide.md#usage) [b](<references/my file.md?x=1>)', 3);
  assert.deepEqual(c.map((x) => [x.target, rangeOf(x.range)]), [
    ['references/guide.md', r(3, 5, 3, 24)],
    ['references/my file.md', r(3, 37, 3, 58)],
  ]);
});

test('reference definitions count as links', () => {
  assert.deepEqual(targets('[guide]: references/guide.md "The guide"\n'), ['link:references/guide.md']);
});

// (Absolute links and `${CLAUDE_SKILL_DIR}/…` are references: outside.test.ts.)
test('URLs, anchors, home and templated targets are ignored', () => {
  assert.deepEqual(targets([
    '[a](https://example.com/references/x.md) [b](http://x.io) [c](mailto:me@example.com) [d](#section)',
    '[f](~/notes.md) [g](file://host/tmp/x.md) [h](${OTHER_DIR}/x.md) [i](C:/x.md) [j](//cdn/x.md)',
    'Visit https://github.com/anthropics/skills/blob/main/skills/pdf/SKILL.md or www.example.com/scripts/x.py',
    'Mail someone@example.com/scripts or see //cdn/x/y.js',
  ].join('\n')), []);
});

test('bare paths: backticks and prose with a known first segment or an extension', () => {
  assert.deepEqual(targets('Run `scripts/run.py --fast`, read references/guide.md, then assets/logo.png.\nAlso docs/usage.md and ./notes.md and ../beta/references/shared.md.'), [
    'path:scripts/run.py', 'path:references/guide.md', 'path:assets/logo.png', 'path:docs/usage.md', 'path:./notes.md', 'path:../beta/references/shared.md',
  ]);
});

test('bare path ranges are exact', () => {
  const c = extractReferences('x\n  Use `scripts/run.py` now', 7);
  assert.deepEqual(rangeOf(c[0].range), r(8, 8, 8, 22));
});

test('prose with slashes is not a reference', () => {
  assert.deepEqual(targets([
    'Use and/or, input/output, client/server, read/write, TCP/IP, yes/no, e.g. this, i.e. that.',
    'Node.js/TypeScript projects, 24/7 support, 1/2 cup, w/o tests, I/O bound.',
    'Put files in scripts/ or references/ (folders), `src/**/*.ts` globs, `$HOME/x.md`, `{base}/scripts/x.py`.',
    'Call Bash(git:*) or visit example.com/a.md, see path/to/skill and owner/repo.',
  ].join('\n')), []);
});

test('hidden folders are not mistaken for their unhidden names', () => {
  assert.deepEqual(targets('See .claude-plugin/plugin.json and .github/skills/x.md.'), []);
});

test('known first segments count even without an extension; other bare paths need one', () => {
  assert.deepEqual(targets('scripts/review-package and bin/tool and lib/x.py'), ['path:scripts/review-package', 'path:lib/x.py']);
});

test('fenced code blocks: nothing inside is a reference (links, definitions, paths; SMARTS and templates are code)', () => {
  const body = [
    '```bash',
    'python scripts/missing.py',
    '[x](references/inside.md) and handlers[name](args) and list[0](x.md)',
    '[def]: references/def.md',
    '```',
    '~~~',
    'assets/missing.png',
    '~~~',
    'After the fence: `scripts/run.py`',
    '````md',
    '```',
    'still inside references/nope.md',
    '````',
  ].join('\n');
  assert.deepEqual(extractReferences(body, 1).map((c) => `${c.kind}:${c.target}@${c.range.line}:${c.range.column}`), [
    'path:scripts/run.py@9:19',
  ]);
});

test('an unclosed fence hides everything in the rest of the body', () => {
  assert.deepEqual(targets('```\nscripts/a.py\n[l](references/b.md)\n'), []);
});

test('existing references resolve with no problem; SkillReference has the resolved path', () => {
  const res = validateAlpha('See [g](references/guide.md), `scripts/run.py`, assets/logo.png and docs/usage.md.\n');
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references.map((x) => [x.target, x.crossSkill, x.exists, x.resolvedPath]), [
    ['references/guide.md', false, true, nodePath.join(ALPHA, 'references/guide.md')],
    ['scripts/run.py', false, true, nodePath.join(ALPHA, 'scripts/run.py')],
    ['assets/logo.png', false, true, nodePath.join(ALPHA, 'assets/logo.png')],
    ['docs/usage.md', false, true, nodePath.join(ALPHA, 'docs/usage.md')],
  ]);
  assert.deepEqual(rangeOf(res.references[0].range), r(5, 9, 5, 28));
});

test('reference-missing: a warning in every profile at the target', () => {
  for (const profile of ['claude-code', 'spec', 'upload'] as const) {
    const res = validateAlpha('Read [it](references/nope.md) and `scripts/gone.sh`.\n', profile);
    assert.deepEqual(summary(res.problems), ['reference-missing@5:11-5:29', 'reference-missing@5:36-5:51'], profile);
    assert.ok(res.problems.every((p) => p.severity === 'warning'), profile);
    assert.equal(res.problems[0].message, "'references/nope.md' does not exist in this skill");
    assert.deepEqual(res.references.map((x) => x.exists), [false, false]);
  }
});

test('link targets are percent-decoded (and may use <…> for spaces) before resolving', () => {
  const res = validateAlpha('[a](references/my%20notes.md) [b](<references/my notes.md>) [c](references/my%2Gbad.md)\n');
  assert.deepEqual(res.references.map((x) => [x.target, x.exists]), [
    ['references/my%20notes.md', true], ['references/my notes.md', true], ['references/my%2Gbad.md', false],
  ]);
  assert.deepEqual(summary(res.problems), ['reference-missing@5:65-5:87']);
});

test('a markdown link with an unknown first segment is still checked', () => {
  const res = validateAlpha('[x](notes/todo.md) [y](guide.md)\n');
  assert.deepEqual(summary(res.problems), ['reference-missing@5:5-5:18', 'reference-missing@5:24-5:32']);
});

test('a bare path whose first segment is not a skill folder is prose, not a reference', () => {
  const res = validateAlpha('TypeScript/Node.js and input/output.txt and evals/evals.json\n');
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references, []);
});

test('cross-skill references resolve against the skills root', () => {
  const res = validateAlpha('Shared: beta/references/shared.md and [link](beta/references/shared.md) and [rel](../beta/references/shared.md)\n');
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references.map((x) => [x.target, x.crossSkill, x.exists]), [
    ['beta/references/shared.md', true, true],
    ['beta/references/shared.md', true, true],
    ['../beta/references/shared.md', true, true],
  ]);
  assert.equal(res.references[0].resolvedPath, nodePath.join(ROOT, 'beta/references/shared.md'));
});

test('a reference that differs only in letter case is missing, with a hint', () => {
  const res = validateAlpha('[g](references/Guide.md) and beta/References/shared.md\n');
  assert.deepEqual(res.problems.map((p) => p.message), [
    "'references/Guide.md' does not exist in this skill; 'references/guide.md' exists, but names are case-sensitive",
    "'beta/References/shared.md' does not exist (in skill 'beta'); 'beta/references' exists, but names are case-sensitive",
  ]);
});

test('a missing cross-skill target names the other skill', () => {
  const res = validateAlpha('See beta/references/nope.md\n');
  assert.deepEqual(summary(res.problems), ['reference-missing@5:5-5:28']);
  assert.equal(res.problems[0].message, "'beta/references/nope.md' does not exist (in skill 'beta')");
  assert.equal(res.references[0].crossSkill, true);
});

test('without rootDir a sibling name is not resolved as cross-skill', () => {
  const res = validateAlpha('See beta/references/shared.md and [l](beta/references/shared.md)\n', 'claude-code', ALPHA, null);
  assert.deepEqual(summary(res.problems), ['reference-missing@5:39-5:64']);
  assert.equal(res.references.length, 1);
});

test('reference-outside: `..` leaving the repository is an error in every profile; staying inside it, a warning (error in upload)', () => {
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-refs-'));
  try {
    const repo = nodePath.join(tmp, 'repo');
    const root = nodePath.join(repo, 'skills');
    const dir = nodePath.join(root, 'alpha');
    nodeFs.mkdirSync(nodePath.join(repo, '.git'), { recursive: true });
    nodeFs.mkdirSync(dir, { recursive: true });
    nodeFs.writeFileSync(nodePath.join(repo, 'README.md'), 'r');
    nodeFs.writeFileSync(nodePath.join(tmp, 'secret.md'), 's');
    for (const profile of ['claude-code', 'spec', 'upload'] as const) {
      const res = validateAlpha('[up](../../../secret.md) [readme](../../README.md) `../../../secret.md`\n', profile, dir, root);
      assert.deepEqual(summary(res.problems), ['reference-outside@5:6-5:24', 'reference-outside@5:35-5:50', 'reference-outside@5:53-5:71'], profile);
      assert.deepEqual(res.problems.map((p) => p.severity), ['error', profile === 'upload' ? 'error' : 'warning', 'error'], profile);
      assert.match(res.problems[0].message, /leaves the skill folder and the repository/);
      assert.match(res.problems[1].message, /stays in the repository/);
    }
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('a cross-skill path climbing out of the skills root: missing when it stays in the repository, else outside', () => {
  const res = validateAlpha('[x](beta/../../outside.md)\n');
  assert.deepEqual(summary(res.problems), ['reference-missing@5:5-5:26']);
  assert.match(res.problems[0].message, /would be outside the skill folder/);
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-refs-'));
  try {
    const root = nodePath.join(tmp, 'repo', 'skills');
    for (const d of ['.git', 'skills/alpha', 'skills/beta']) nodeFs.mkdirSync(nodePath.join(tmp, 'repo', d), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(tmp, 'outside.md'), 'o');
    const out = validateAlpha('[x](beta/../../../outside.md)\n', 'claude-code', nodePath.join(root, 'alpha'), root);
    assert.deepEqual(summary(out.problems), ['reference-outside@5:5-5:29']);
    assert.match(out.problems[0].message, /leaves the skills root and the repository/);
    assert.equal(out.problems[0].severity, 'error');
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('repository and plugin root through one read cache: each skill of a folder gets its own answer', () => {
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-refs-'));
  try {
    // repo/.git; repo/plugin/.claude-plugin/plugin.json with skills/{a,b}; b has a .git of its own; repo/skills/c.
    const repo = nodePath.join(tmp, 'repo');
    const pluginRoot = nodePath.join(repo, 'plugin', 'skills');
    for (const d of ['.git', 'plugin/.claude-plugin', 'plugin/references', 'plugin/skills/a', 'plugin/skills/b/.git', 'skills/c']) nodeFs.mkdirSync(nodePath.join(repo, d), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(repo, 'plugin', '.claude-plugin', 'plugin.json'), '{"name":"p"}');
    nodeFs.writeFileSync(nodePath.join(repo, 'plugin', 'references', 'shared.md'), 's');
    nodeFs.writeFileSync(nodePath.join(repo, 'README.md'), 'r');
    const body = '[shared](references/shared.md) [readme](../../../README.md) [gone](references/gone.md)\n';
    const run = (fs: typeof nodeFileSystem, dir: string, root: string) =>
      validateSkillMd(skill(`name: ${nodePath.basename(dir)}\ndescription: d`, body), { profile: 'claude-code', folderName: nodePath.basename(dir), skillDir: dir, rootDir: root }, fs);
    const cached = withReadCache(nodeFileSystem);
    const cases: Array<[string, string]> = [[nodePath.join(pluginRoot, 'a'), pluginRoot], [nodePath.join(pluginRoot, 'b'), pluginRoot], [nodePath.join(repo, 'skills', 'c'), nodePath.join(repo, 'skills')]];
    for (const [dir, root] of [...cases, ...cases]) {
      const direct = run(nodeFileSystem, dir, root);
      assert.deepEqual(run(cached, dir, root), direct, dir);
      const codes = direct.problems.map((p) => `${p.code}:${p.message.includes('stays in the repository') ? 'in-repository' : p.message.includes('and the repository') ? 'out-of-repository' : ''}`);
      // a: the plugin root holds references/shared.md; README.md is in the repository but outside the plugin root,
      // which breaks once the plugin is installed (plugins-reference.md: "Paths that traverse outside the plugin root
      // (such as `../shared-utils`) will not work after installation"): an error. b: its own .git is its
      // repository (README.md is outside it) and the plugin root is not looked for past it. c: no plugin, and
      // ../../../README.md is above the repository.
      const expected: Record<string, string[]> = {
        a: ['reference-outside:', 'reference-missing:'],
        b: ['reference-missing:', 'reference-outside:out-of-repository', 'reference-missing:'],
        c: ['reference-missing:', 'reference-outside:out-of-repository', 'reference-missing:'],
      };
      assert.deepEqual(codes, expected[nodePath.basename(dir)], dir);
    }
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

/** Runs `fn` on a fresh temporary folder (no repository above it) holding `files` (path → text). */
function inTempTree(files: Record<string, string>, fn: (tmp: string) => void): void {
  const tmp = tempTree(files);
  try { fn(tmp); } finally { removeTree(tmp); }
}

/** `code severity message` of each problem of the skill or command at `rel` in a discovery of `workspace`. */
function discovered(workspace: string, rel: string): string[] {
  const d = discover(nodeFileSystem, { workspaceFolders: [workspace], profile: 'claude-code', anyFolder: true, home: nodePath.join(workspace, 'no-home'), managedDir: null });
  const entry = d.skills.find((s) => s.skillMdPath === nodePath.join(workspace, rel));
  assert.ok(entry, `${rel} discovered`);
  return entry.problems.map((p) => `${p.code} ${p.severity} ${p.message}`);
}

test('reference-outside without a repository: a warning when the target stays in the plugin, the project or the workspace folder; an error when it leaves them', () => {
  const body = '[readme](../../README.md) [far](../../../../../far.md)\n';
  inTempTree({
    'ws/plugin/.claude-plugin/plugin.json': '{"name":"p"}',
    'ws/plugin/README.md': 'r',
    'ws/plugin/skills/a/SKILL.md': skill('name: a\ndescription: d', body),
    'ws/app/.claude/skills/b/SKILL.md': skill('name: b\ndescription: d', '[notes](../../../NOTES.md)\n'),
    'ws/app/NOTES.md': 'n',
    'ws/skills/c/SKILL.md': skill('name: c\ndescription: d', body),
    'ws/README.md': 'r',
    'far.md': 'f',
  }, (tmp) => {
    const ws = nodePath.join(tmp, 'ws');
    assert.deepEqual(discovered(ws, 'plugin/skills/a/SKILL.md'), [
      "reference-outside warning '../../README.md' leaves the skill folder (it stays in the plugin, but a packaged or uploaded skill does not have it)",
      "reference-outside error '../../../../../far.md' leaves the skill folder; reference files inside the skill (or another skill as other-skill/folder/file)",
    ]);
    // A project skill's file of its own project: never installed elsewhere, no problem in claude-code (outside.test.ts).
    assert.deepEqual(discovered(ws, 'app/.claude/skills/b/SKILL.md'), []);
    assert.deepEqual(discovered(ws, 'skills/c/SKILL.md'), [
      "reference-outside warning '../../README.md' leaves the skill folder (it stays in the workspace folder, but a packaged or uploaded skill does not have it)",
      "reference-outside error '../../../../../far.md' leaves the skill folder; reference files inside the skill (or another skill as other-skill/folder/file)",
    ]);
  });
});

test('a project skill\'s path that exists in the project folder (where Claude Code runs commands) is found; a personal skill has no project', () => {
  const body = '[linter](scripts/lib/linter.mjs) and `node scripts/audit.mjs`, `scripts/gone.mjs`\n';
  inTempTree({
    'ws/.claude/skills/audit/SKILL.md': skill('name: audit\ndescription: d', body),
    'ws/.github/skills/audit/SKILL.md': skill('name: audit\ndescription: d', body),
    'ws/scripts/lib/linter.mjs': 'l',
    'ws/scripts/audit.mjs': 'a',
  }, (tmp) => {
    const ws = nodePath.join(tmp, 'ws');
    assert.deepEqual(discovered(ws, '.claude/skills/audit/SKILL.md'), ["reference-missing warning 'scripts/gone.mjs' does not exist in this skill"]);
    assert.deepEqual(discovered(ws, '.github/skills/audit/SKILL.md'), ["reference-missing warning 'scripts/gone.mjs' does not exist in this skill"]);
    // Read as a skill with no project (a personal skill, or the file alone), the same paths are missing from the skill.
    const dir = nodePath.join(ws, '.claude', 'skills', 'audit');
    const alone = validateSkillMd(skill('name: audit\ndescription: d', body), { profile: 'claude-code', folderName: 'audit', skillDir: dir, rootDir: nodePath.dirname(dir) }, nodeFileSystem);
    assert.deepEqual(alone.problems.map((p) => p.message.split(' ')[0]), ["'scripts/lib/linter.mjs'", "'scripts/audit.mjs'", "'scripts/gone.mjs'"]);
  });
});

test('a command file\'s paths are read from the project folder, then from its own folder; a path a command may write is not reported', () => {
  const body = [
    'Run `./scripts/gh.sh issue view` and [labels](./scripts/labels.sh).',
    'Follow [the playbook](../../tests/playbook.md); see [gone](docs/gone.md).',
    'Writes `tests/reports/audit.md`. Never [this](../../../outside.md).',
    '',
  ].join('\n');
  inTempTree({
    'ws/.claude/commands/triage.md': `---\ndescription: Triage an issue\n---\n${body}`,
    'ws/scripts/gh.sh': 'g',
    'ws/scripts/labels.sh': 'l',
    'ws/tests/playbook.md': 'p',
    'outside.md': 'o',
  }, (tmp) => {
    const ws = nodePath.join(tmp, 'ws');
    assert.deepEqual(discovered(ws, '.claude/commands/triage.md'), [
      "reference-missing warning 'docs/gone.md' does not exist in the project folder or beside the command",
      "reference-outside error '../../../outside.md' leaves the project folder; reference files of the project",
    ]);
  });
});

test('a symlink to a file of the same plugin is a warning (Claude Code keeps it when it installs the plugin); out of every bound, an error', () => {
  inTempTree({
    'ws/plugin/.claude-plugin/plugin.json': '{"name":"p"}',
    'ws/plugin/assets/diagrams/flow.mmd': 'graph',
    'ws/plugin/skills/a/SKILL.md': skill('name: a\ndescription: d', '[flow](assets/flow.mmd) [far](assets/far.md)\n'),
    'far.md': 'f',
  }, (tmp) => {
    const assets = nodePath.join(tmp, 'ws', 'plugin', 'skills', 'a', 'assets');
    nodeFs.mkdirSync(assets);
    nodeFs.symlinkSync('../../../assets/diagrams/flow.mmd', nodePath.join(assets, 'flow.mmd'));
    nodeFs.symlinkSync(nodePath.join(tmp, 'far.md'), nodePath.join(assets, 'far.md'));
    assert.deepEqual(discovered(nodePath.join(tmp, 'ws'), 'plugin/skills/a/SKILL.md'), [
      "reference-outside warning 'assets/flow.mmd' resolves through a symlink to outside the skill folder (it stays in the plugin, but a packaged or uploaded skill does not have it)",
      "reference-outside error 'assets/far.md' resolves through a symlink to outside the skill folder",
    ]);
  });
});

test('near miss: `..` that stays inside the skill is fine', () => {
  const res = validateAlpha('[x](references/../scripts/run.py)\n');
  assert.deepEqual(res.problems, []);
  assert.equal(res.references[0].exists, true);
});

test('no skillDir: no reference checks at all', () => {
  const res = validateSkillMd(skill('name: alpha\ndescription: d', '[x](references/nope.md)\n'), { profile: 'claude-code', folderName: 'alpha' }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references, []);
});

test('a symlink that leads out of the skill is reference-outside', () => {
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-refs-'));
  try {
    const root = nodePath.join(tmp, 'skills');
    const dir = nodePath.join(root, 'alpha');
    nodeFs.mkdirSync(nodePath.join(dir, 'references'), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(tmp, 'secret.md'), 'secret');
    nodeFs.writeFileSync(nodePath.join(dir, 'references', 'real.md'), 'ok');
    nodeFs.symlinkSync(nodePath.join(tmp, 'secret.md'), nodePath.join(dir, 'references', 'leak.md'));
    nodeFs.symlinkSync(nodePath.join(dir, 'references', 'real.md'), nodePath.join(dir, 'references', 'alias.md'));
    nodeFs.symlinkSync(tmp, nodePath.join(dir, 'scripts'));
    const res = validateAlpha('[a](references/leak.md) [b](references/alias.md) `scripts/secret.md`\n', 'claude-code', dir, root);
    assert.deepEqual(summary(res.problems), ['reference-outside@5:5-5:23', 'reference-outside@5:51-5:68']);
    assert.match(res.problems[0].message, /symlink/);
    assert.deepEqual(res.references.map((x) => x.exists), [true, true, true]);
    // A skill folder that is itself a symlink (e.g. a linked personal skill) is fine: only links below it count.
    const linkedRoot = nodePath.join(tmp, 'linked');
    nodeFs.mkdirSync(linkedRoot);
    nodeFs.symlinkSync(dir, nodePath.join(linkedRoot, 'alpha'));
    const viaLink = validateAlpha('[b](references/alias.md) [r](references/real.md)\n', 'claude-code', nodePath.join(linkedRoot, 'alpha'), linkedRoot);
    assert.deepEqual(viaLink.problems, []);
    // …and so is a cross-skill reference into a sibling that is a linked skill; a link out of that sibling is not.
    const gamma = nodePath.join(linkedRoot, 'gamma');
    nodeFs.mkdirSync(nodePath.join(gamma, 'references'), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(gamma, 'references', 'g.md'), 'g');
    const cross = validateAlpha('alpha/references/real.md [g](../gamma/references/g.md) [x](../alpha/references/leak.md)\n', 'claude-code', gamma, linkedRoot);
    const crossProblems = cross.problems.filter((p) => p.code.startsWith('reference-'));
    assert.deepEqual(summary(crossProblems), ['reference-outside@5:60-5:87']);
    assert.match(crossProblems[0].message, /through a symlink to outside skill 'alpha'/);
    assert.deepEqual(cross.references.map((x) => [x.crossSkill, x.exists]), [[true, true], [false, true], [true, true]]);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('a file system that throws does not break validation', () => {
  const boom = () => { throw new Error('boom'); };
  const broken = { ...nodeFileSystem, stat: boom, lstat: boom, realPath: boom, readDir: boom };
  const res = validateSkillMd(skill('name: alpha\ndescription: d', '[x](references/guide.md)\n'), { profile: 'claude-code', folderName: 'alpha', skillDir: ALPHA, rootDir: ROOT }, broken);
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references, []);
});

test('the fixture skill alpha validates clean with its two references', () => {
  const text = nodeFs.readFileSync(nodePath.join(ALPHA, 'SKILL.md'), 'utf8');
  const res = validateSkillMd(text, { profile: 'spec', folderName: 'alpha', skillDir: ALPHA, rootDir: ROOT }, nodeFileSystem);
  assert.deepEqual(res.problems, []);
  assert.deepEqual(res.references.map((x) => x.target), ['references/guide.md', 'scripts/run.py']);
});
