// Script paths in a plugin skill's commands (issue 19, item 2). plugins-reference.md: "Claude Code copies
// *marketplace* plugins to the user's local **plugin cache** (`~/.claude/plugins/cache`) rather than using them in
// place"; skills.md: "`${CLAUDE_SKILL_DIR}` … Use this in bash injection commands to reference scripts or files bundled
// with the skill, regardless of the current working directory."
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { LineIndex } from '../../../../src/core/base/text';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discover } from '../../../../src/core/discovery/discover';
import { extractScriptCommands } from '../../../../src/core/references/commands';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

function scripts(body: string): string[] {
  return extractScriptCommands(new LineIndex(body), 0, 1).map((c) => `${c.range.line}:${c.range.column}-${c.range.endColumn} ${c.target}${c.tentative ? ' (tentative)' : ''}`);
}

test('commands: scripts run through an interpreter in shell fences and inline code, with exact ranges', () => {
  assert.deepEqual(scripts([
    '```bash',
    'python3 plugins/a/skills/b/scripts/c.py --in x.json',
    'uv run --with pyyaml python tools/gen.py && node "lib/run.mjs"',
    'PYTHONPATH=. python -u cli.py',
    'python /abs/x.py; python ~/x.py; python $DIR/x.py; python <script>.py; python manage.py',
    '```',
    '```python',
    'python3 not/a/command.py',
    '```',
    'Run `bash ./setup.sh` then `uv run cli.py`; prose python x.py is not run.',
    '| `scripts/x.py` | `python3 x.py` |',
  ].join('\n')), [
    '2:9-40 plugins/a/skills/b/scripts/c.py',
    '3:29-41 tools/gen.py',
    '3:51-62 lib/run.mjs',
    '4:24-30 cli.py',
    '5:79-88 manage.py',
    '10:11-21 ./setup.sh',
    '10:36-42 cli.py',
    '11:29-33 x.py (tentative)',
  ]);
});

test('commands: a plugin skill\'s script path from the source repository root is script-source-path; one that exists nowhere but in the skill is reference-missing; the user\'s own files are quiet', () => {
  const body = [
    '```bash',
    'python3 plugins/p/skills/a/scripts/run.py',
    'node plugins/p/lib/shared.js',
    'bash tools/release.sh',
    'uv run cli.py --help',
    'python manage.py migrate',
    'python3 ${CLAUDE_SKILL_DIR}/scripts/run.py',
    'python3 scripts/run.py',
    '```',
  ].join('\n') + '\n';
  const tmp = tempTree({
    'repo/.claude-plugin/marketplace.json': '{"name":"m","owner":{"name":"o"},"plugins":[]}',
    'repo/tools/release.sh': 'r',
    'repo/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
    'repo/plugins/p/lib/shared.js': 's',
    'repo/plugins/p/skills/a/SKILL.md': skillMd('a', 'The a skill. Use it in tests.', body),
    'repo/plugins/p/skills/a/scripts/run.py': 'r',
    'repo/plugins/p/skills/a/scripts/cli.py': 'c',
    'repo/.claude/skills/b/SKILL.md': skillMd('b', 'The b skill. Use it in tests.', body),
  });
  try {
    nodeFs.mkdirSync(nodePath.join(tmp, 'repo', '.git'));
    const repo = nodePath.join(tmp, 'repo');
    const d = discover(nodeFileSystem, { workspaceFolders: [repo], profile: 'claude-code', anyFolder: true, home: nodePath.join(tmp, 'no-home'), managedDir: null });
    const problems = (rel: string) => d.skills.find((s) => s.skillMdPath === nodePath.join(repo, rel))!.problems.map((p) => `${p.code}@${p.line}:${p.column} ${p.message}`);
    assert.deepEqual(problems('plugins/p/skills/a/SKILL.md'), [
      "script-source-path@7:9 Write '${CLAUDE_SKILL_DIR}/scripts/run.py': 'plugins/p/skills/a/scripts/run.py' is a path from the source repository's root, which does not exist where the installed plugin runs (Claude Code copies the plugin to its cache and runs commands in the user's project)",
      "script-source-path@8:6 Write '${CLAUDE_PLUGIN_ROOT}/lib/shared.js': 'plugins/p/lib/shared.js' is a path from the source repository's root, which does not exist where the installed plugin runs (Claude Code copies the plugin to its cache and runs commands in the user's project)",
      "script-source-path@9:6 'tools/release.sh' exists only in the source repository, outside the plugin: the installed plugin does not have it (Claude Code copies only the plugin folder to its cache)",
      "reference-missing@10:8 'cli.py' does not exist where the command runs; the script is '${CLAUDE_SKILL_DIR}/scripts/cli.py'",
    ]);
    // A project skill runs in its own repository: its commands are not read this way.
    assert.deepEqual(problems('.claude/skills/b/SKILL.md'), []);
  } finally {
    removeTree(tmp);
  }
});
