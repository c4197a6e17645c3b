// Links that leave the repository or workspace, absolute links, `${CLAUDE_SKILL_DIR}` / `${CLAUDE_PLUGIN_ROOT}` paths,
// plugin skills that leave the plugin root and project skills that link into their own repository (issue 24, items
// 10–12). Each rests on a line of Claude Code's documents (mirror ericbuess/claude-code-docs, quoted in
// docs/claude-code-model.md, "References that leave the skill").
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discover } from '../../../../src/core/discovery/discover';
import type { Profile } from '../../../../src/core/base/types';
import { extractReferences } from '../../../../src/core/references/markdown';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

/** `code severity 'target'` of each reference problem of the skill at `rel`, discovered in `workspace`. */
function problems(workspace: string, rel: string, profile: Profile = 'claude-code', home?: string): string[] {
  const d = discover(nodeFileSystem, { workspaceFolders: [workspace], profile, anyFolder: true, home: home ?? nodePath.join(workspace, 'no-home'), managedDir: null });
  const entry = d.skills.find((s) => s.skillMdPath === nodePath.join(home ?? workspace, rel));
  assert.ok(entry, `${rel} discovered`);
  return entry.problems.filter((p) => p.code.startsWith('reference-')).map((p) => `${p.code} ${p.severity} ${/'([^']*)'/.exec(p.message)?.[1] ?? ''}`);
}

function withTree(files: Record<string, string>, fn: (tmp: string) => void): void {
  const tmp = tempTree(files);
  try { fn(tmp); } finally { removeTree(tmp); }
}

const skill = (name: string, body: string) => skillMd(name, `The ${name} skill. Use it in tests.`, body);

// skills.md: "**Project skills**: Commit `.claude/skills/` to version control" — a project skill travels with its
// repository, so a file outside the repository is on the author's machine only. plugins-reference.md: "**Outside the
// marketplace:** the symlink is skipped for security. This prevents plugins from pulling arbitrary host files such as
// system paths into the cache."
test('item 10: a link that leaves the repository is an error whatever exists there; absolute links too', () => {
  withTree({
    'ws/.claude/skills/y/SKILL.md': skill('y', [
      '[passwd](../../../../etc/passwd) [hosts](/etc/hosts) [url](file:///etc/hosts) [route](/api/route)',
      '[gone](../../../../far/away.md) [inside](../../../README.md)',
    ].join('\n') + '\n'),
    'ws/README.md': 'r',
    // `../../../../etc/passwd` from the skill lands here, beside the project folder: it exists, and is still outside.
    'etc/passwd': 'p',
  }, (tmp) => {
    nodeFs.mkdirSync(nodePath.join(tmp, 'ws', '.git'));
    for (const profile of ['claude-code', 'spec', 'upload'] as const) {
      const found = problems(nodePath.join(tmp, 'ws'), '.claude/skills/y/SKILL.md', profile);
      // `/api/route` (no extension, nothing there) is a site route, not a file: not reported. README.md: below.
      assert.deepEqual(found.filter((p) => !p.endsWith('README.md')), [
        'reference-outside error ../../../../etc/passwd',
        'reference-outside error /etc/hosts',
        'reference-outside error /etc/hosts',
        'reference-outside error ../../../../far/away.md',
      ], profile);
    }
  });
});

test('a link written from the repository root (/docs/x.md, as GitHub reads it) says so and how to write it; still an error', () => {
  // terrylica/cc-skills: `[ADR](/docs/adr/2026-01-22-polars-preference-hook.md)` in a skill five folders down.
  withTree({
    'repo/docs/adr/a.md': 'a',
    'repo/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
    'repo/plugins/p/NOTES.md': 'n',
    'repo/plugins/p/skills/s/SKILL.md': skill('s', '[adr](/docs/adr/a.md) [notes](/plugins/p/NOTES.md) [gone](/docs/adr/b.md) [url](file:///docs/adr/a.md)\n'),
    'repo/.claude/skills/t/SKILL.md': skill('t', 'See [adr](/docs/adr/a.md).\n'),
  }, (tmp) => {
    nodeFs.mkdirSync(nodePath.join(tmp, 'repo', '.git'));
    const messages = (rel: string) => {
      const d = discover(nodeFileSystem, { workspaceFolders: [nodePath.join(tmp, 'repo')], profile: 'claude-code', anyFolder: true, home: nodePath.join(tmp, 'no-home'), managedDir: null });
      return d.skills.find((x) => x.skillMdPath === nodePath.join(tmp, 'repo', rel))!.problems.filter((p) => p.code === 'reference-outside').map((p) => `${p.severity} ${p.message.replace(/^'[^']*' is an absolute path/, '')}`);
    };
    const plain = ': it names a file of this machine only; reference files inside the skill (or another skill as other-skill/folder/file)';
    const github = "(GitHub reads a leading '/' from the repository root, Claude Code does not)";
    assert.deepEqual(messages('plugins/p/skills/s/SKILL.md'), [
      // Outside the plugin: only a copy inside it travels with an installed plugin.
      `error , and nothing is there; the repository has 'docs/adr/a.md' ${github}: copy the file into the plugin (an installed plugin has only its own folder)`,
      `error , and nothing is there; the repository has 'plugins/p/NOTES.md' ${github}: write '../../NOTES.md' (a packaged skill has only its own folder: copy the file into it for that)`,
      `error ${plain}`,
      `error ${plain}`, // a file URL names a file of this machine, whatever the repository holds
    ]);
    assert.deepEqual(messages('.claude/skills/t/SKILL.md'), [
      `error , and nothing is there; the repository has 'docs/adr/a.md' ${github}: write '../../../docs/adr/a.md' (a packaged skill has only its own folder: copy the file into it for that)`,
    ]);
  });
});

/** `code target meant` of each reference problem of skill `folder` in `<tmp>/repo` (a repository): `meant` is the path a
 * "did you mean" hint names, else `-`. */
function meantPaths(tmp: string, folder: string): string[] {
  nodeFs.mkdirSync(nodePath.join(tmp, 'repo', '.git'), { recursive: true });
  const d = discover(nodeFileSystem, { workspaceFolders: [nodePath.join(tmp, 'repo')], profile: 'claude-code', anyFolder: true, home: nodePath.join(tmp, 'no-home'), managedDir: null });
  return d.skills.find((x) => x.folderName === folder)!.problems.filter((p) => p.code.startsWith('reference-'))
    .map((p) => `${p.code} ${/'([^']*)'/.exec(p.message)![1]} ${/did you mean '([^']*)'/.exec(p.message)?.[1] ?? '-'}`);
}

test('a path that climbs one folder too many past a skill beside this one says which path was meant', () => {
  // yigitkonur/skills-by-yigitkonur: `[x](../../../build-mcp-server-sdk-v1/)` from skills/audit-agentic-mcp/SKILL.md.
  withTree({
    'repo/skills/a/SKILL.md': skill('a', '[b](../../../b/) [guide](../../b/guide.md) [gone](../../../nope/) [self](../../../a/SKILL.md) [missing](../../../b/gone.md) [back](../../../b/../b/guide.md)\n'),
    'repo/skills/b/SKILL.md': skill('b', 'B.\n'),
    'repo/skills/b/guide.md': 'g',
  }, (tmp) => {
    assert.deepEqual(meantPaths(tmp, 'a'), [
      'reference-outside ../../../b/ ../b/',
      'reference-missing ../../b/guide.md ../b/guide.md',
      'reference-outside ../../../nope/ -', // nothing of that name beside it
      'reference-outside ../../../a/SKILL.md -', // this skill's own folder: no skill beside it
      'reference-outside ../../../b/gone.md -', // the sibling has no such file either
      'reference-outside ../../../b/../b/guide.md -', // climbs again: not looked up
    ]);
  });
});

test('a missing path one slip from one that exists says which: the plural folder, one ../ too few, never a guess between two', () => {
  // K-Dense-AI/claude-scientific-skills neuropixels-analysis: `reference/standard_workflow.md` beside `references/`;
  // wshobson/agents review-agent-setup: `../agents/review-policy-author.md` for the plugin's `../../agents/…`.
  withTree({
    'repo/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
    'repo/plugins/p/agents/author.md': 'a',
    'repo/plugins/p/skills/s/SKILL.md': skill('s', [
      'Read [w](reference/workflow.md), [a](../agents/author.md), [gone](reference/gone.md), [both](../reference/x.md).',
      'Also [t](script/run.sh) and [outside](../../../../etc/x.md) and [self](../s/reference/workflow.md).',
    ].join('\n') + '\n'),
    'repo/plugins/p/skills/s/references/workflow.md': 'w',
    'repo/plugins/p/skills/s/scripts/run.sh': 'r',
    // `../reference/x.md`: `reference/x.md` and `../references/x.md` both exist: two readings, no hint.
    'repo/plugins/p/skills/s/reference/x.md': 'x',
    'repo/plugins/p/skills/references/x.md': 'x',
    'repo/etc/x.md': 'outside the plugin, inside the repository',
  }, (tmp) => {
    assert.deepEqual(meantPaths(tmp, 's'), [
      'reference-missing reference/workflow.md references/workflow.md',
      'reference-missing ../agents/author.md ../../agents/author.md',
      'reference-missing reference/gone.md -', // nothing of that name under references/ either
      'reference-missing ../reference/x.md -', // two paths exist: no guess
      'reference-missing script/run.sh scripts/run.sh',
      'reference-outside ../../../../etc/x.md -', // one ../ fewer is the repository's etc/x.md: it leaves the plugin anyway
      'reference-missing ../s/reference/workflow.md -', // climbs out and back in: not looked up
    ]);
  });
});

test('item 10: an absolute link is read as the path itself (file:///, percent escapes), with its exact range', () => {
  const c = extractReferences('[a](file:///etc/hosts) [b](</etc/my%20file.md#x>) [c](//cdn/x.js) [d](file://host/x.md)\n', 4);
  assert.deepEqual(c.map((x) => [x.target, x.anchor, x.range.column, x.range.endColumn, x.tentative === true]), [
    ['/etc/hosts', 'absolute', 5, 22, true],
    ['/etc/my%20file.md', 'absolute', 29, 46, false],
  ]);
});

// skills.md: "`${CLAUDE_SKILL_DIR}` | The directory containing the skill's `SKILL.md` file. For plugin skills, this is the
// skill's subdirectory within the plugin, not the plugin root." and "`${CLAUDE_PLUGIN_ROOT}` | The plugin's
// installation directory. Substituted only in plugin skills."
test('item 11: ${CLAUDE_SKILL_DIR}/… and ${CLAUDE_PLUGIN_ROOT}/… are resolved and checked like relative paths', () => {
  const body = [
    'Run `python3 ${CLAUDE_SKILL_DIR}/scripts/render.py` and `bash ${CLAUDE_SKILL_DIR}/scripts/gone.sh`.',
    'Shared: `node "${CLAUDE_PLUGIN_ROOT}"/lib/shared.js`, `$CLAUDE_PLUGIN_ROOT/lib/missing.js`.',
    'Not the skill folder\'s: ${CLAUDE_SKILL_DIR}/lib/shared.js (it is the plugin\'s).',
    '```bash',
    'python3 ${CLAUDE_PLUGIN_ROOT}/scripts/example-in-a-block.py',
    '```',
    'A template: `${CLAUDE_SKILL_DIR}/scripts/<name>.py`, a glob: `${CLAUDE_SKILL_DIR}/references/*.md`.',
  ].join('\n') + '\n';
  withTree({
    'p/.claude-plugin/plugin.json': '{"name":"p"}',
    'p/lib/shared.js': 's',
    'p/skills/a/SKILL.md': skill('a', body),
    'p/skills/a/scripts/render.py': 'r',
    'proj/.claude/skills/b/SKILL.md': skill('b', body),
    'proj/.claude/skills/b/scripts/render.py': 'r',
    'proj/lib/shared.js': 's',
  }, (tmp) => {
    assert.deepEqual(problems(tmp, 'p/skills/a/SKILL.md'), [
      'reference-missing warning scripts/gone.sh',
      'reference-missing warning lib/missing.js',
      'reference-missing warning lib/shared.js',
    ]);
    // A project skill: `${CLAUDE_PLUGIN_ROOT}` is not substituted there, so those paths are not checked; the
    // skill-folder paths are, and `${CLAUDE_SKILL_DIR}/lib/shared.js` is not the project's lib/shared.js.
    assert.deepEqual(problems(tmp, 'proj/.claude/skills/b/SKILL.md'), [
      'reference-missing warning scripts/gone.sh',
      'reference-missing warning lib/shared.js',
    ]);
  });
});

// plugins-reference.md: "Copied plugins cannot reference files outside their directory. Paths that traverse outside
// the plugin root (such as `../shared-utils`) will not work after installation because those external files are not
// copied to the cache." skills.md: "**Project skills**: Commit `.claude/skills/` to version control".
test('item 12: a plugin skill\'s link out of the plugin root is an error; a project or personal skill\'s link into its own repository is nothing in claude-code', () => {
  withTree({
    'repo/CLAUDE.md': 'c',
    'repo/crates/x/src/lib.rs': 'l',
    'repo/shared/guide.md': 'g',
    'repo/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
    'repo/plugins/p/README.md': 'r',
    'repo/plugins/p/skills/a/SKILL.md': skill('a', '[guide](../../../../shared/guide.md) [gone](../../../../shared/gone.md) [readme](../../README.md)\n'),
    'repo/.claude/skills/y/SKILL.md': skill('y', '[claude](../../../CLAUDE.md) [lib](../../../crates/x/src/lib.rs) [gone](../../../crates/x/src/gone.rs)\n'),
    'home/.claude/skills/z/SKILL.md': skill('z', '[claude](../../CLAUDE.md)\n'),
    'home/.claude/CLAUDE.md': 'c',
  }, (tmp) => {
    nodeFs.mkdirSync(nodePath.join(tmp, 'repo', '.git'));
    const repo = nodePath.join(tmp, 'repo');
    const home = nodePath.join(tmp, 'home');
    assert.deepEqual(problems(repo, 'plugins/p/skills/a/SKILL.md'), [
      'reference-outside error ../../../../shared/guide.md',
      'reference-outside error ../../../../shared/gone.md',
      // Inside the plugin, outside the skill: a packaged skill loses it (a warning, as before).
      'reference-outside warning ../../README.md',
    ]);
    const own: Record<Profile, string[]> = {
      'claude-code': [],
      spec: ['reference-outside info ../../../CLAUDE.md', 'reference-outside info ../../../crates/x/src/lib.rs'],
      upload: ['reference-outside error ../../../CLAUDE.md', 'reference-outside error ../../../crates/x/src/lib.rs'],
    };
    for (const profile of ['claude-code', 'spec', 'upload'] as const) {
      // The missing file is missing in every profile.
      assert.deepEqual(problems(repo, '.claude/skills/y/SKILL.md', profile), [...own[profile], 'reference-missing warning ../../../crates/x/src/gone.rs'], profile);
    }
    // A personal skill: never installed elsewhere either (~/.claude/CLAUDE.md is where it runs).
    assert.deepEqual(problems(repo, '.claude/skills/z/SKILL.md', 'claude-code', home), []);
    assert.deepEqual(problems(repo, '.claude/skills/z/SKILL.md', 'upload', home), ['reference-outside error ../../CLAUDE.md']);
  });
});

// Prose that names where the file is, and example markers in other languages: the mention is no file of the skill
// (skills.md: "Reference supporting files from `SKILL.md` so Claude knows what each file contains").
test('prose: a sentence that says where the file is, and example markers in other languages, are not reported missing', () => {
  const lines = [
    '`cd` to `../other-skill/` and run `scripts/x1.py`.',
    'cd into ../tools/ then run scripts/x2.py',
    'Read the **other-skill** skill\'s `examples/a.json` first.',
    'Read this skill\'s `scripts/own.py` and `scripts/own2.py`.',
    '例如 `references/cn1.md`。Then `references/cn-after.md`.',
    '（如 `references/cn2.md`）',
    '如果需要，请查看 `references/cn3.md`',
    'z. B. `references/de.md`',
    'p. ej. `references/es.md`',
    'par ex. `references/fr.md`',
    'e.g. `references/en.md`',
  ];
  const c = extractReferences(lines.join('\n') + '\n', 1);
  assert.deepEqual(c.map((x) => `${x.target}${x.tentative ? ' (tentative)' : ''}`), [
    'scripts/x1.py (tentative)',
    'scripts/x2.py (tentative)',
    'examples/a.json (tentative)',
    'scripts/own.py',
    'scripts/own2.py',
    'references/cn1.md (tentative)',
    'references/cn-after.md',
    'references/cn2.md (tentative)',
    // "如果" is "if": no example.
    'references/cn3.md',
    'references/de.md (tentative)',
    'references/es.md (tentative)',
    'references/fr.md (tentative)',
    'references/en.md (tentative)',
  ]);
});
