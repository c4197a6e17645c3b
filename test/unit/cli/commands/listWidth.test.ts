// `skillflow list` fits its text table to the terminal (COLUMNS, else the terminal's width; a pipe gets it whole): long
// cells are cut with `…`; `--format json` keeps every value whole.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

const LONG = 'Summarise very long log files into a short report, errors first, then warnings and the slowest requests. Use it when a log is too long to read.';

async function run(argv: string[], cwd: string, env: Record<string, string | undefined>, columns?: number) {
  let out = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env, home: `${cwd}/home`, managedDir: null, columns, out: (t) => { out += t; }, err: () => undefined });
  return { code, out };
}

test('list: the text table fits COLUMNS (or the terminal), cells cut with …; JSON keeps the whole description', async () => {
  const ws = tempTree({
    '.claude/skills/log-summariser-with-a-rather-long-folder-name/SKILL.md': skillMd('log-summariser-with-a-rather-long-folder-name', LONG),
    '.claude/skills/tidy/SKILL.md': skillMd('tidy'),
  });
  try {
    const wide = await run(['list'], ws, {});
    const narrow = await run(['list'], ws, { COLUMNS: '120' });
    const terminal = await run(['list'], ws, {}, 130);
    assert.equal(narrow.code, 0);
    const longest = (text: string) => Math.max(...text.trimEnd().split('\n').map((l) => l.length));
    assert.ok(longest(narrow.out) <= 120, narrow.out);
    assert.ok(longest(terminal.out) <= 130, terminal.out);
    assert.ok(wide.out.includes(LONG.slice(0, 79)), 'no terminal, no COLUMNS (a pipe): nothing cut');
    assert.match(narrow.out, /…/);
    assert.ok(!narrow.out.includes(LONG), 'the description is cut in the table');
    const huge = await run(['list'], ws, { COLUMNS: '1000' });
    assert.ok(huge.out.includes('log-summariser-with-a-rather-long-folder-name'), 'a wide terminal shows every cell whole');
    const json = await run(['list', '--format', 'json'], ws, { COLUMNS: '40' });
    assert.ok(json.out.includes(JSON.stringify(LONG)), 'JSON is never cut');
  } finally {
    removeTree(ws);
  }
});
