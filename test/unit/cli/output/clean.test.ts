import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { outputViolation } from '../../helpers/outputCheck';
import { removeTree, tempTree } from '../../helpers/tempTree';

const HOSTILE = 'x\u001b]0;title\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m\u0085y';

async function run(cwd: string, argv: string[]): Promise<string> {
  let out = '';
  await main({ argv, cwd, fs: nodeFileSystem, env: {}, home: cwd, managedDir: null, out: (t) => { out += t; }, err: (t) => { out += t; } });
  return out;
}

test('no CLI output carries a control character from a file, and no human-readable line starts a workflow command', async () => {
  const root = tempTree({
    [`.claude/skills/ok/SKILL.md`]: `---\nname: ok\ndescription: "Use it ${HOSTILE.split('\u001b').join('\\e')} when asked."\n---\n# ok ${HOSTILE}\n`,
    '.workflow/registry.json': JSON.stringify({ [`k${HOSTILE}\n::error file=a::x`]: 'wd' }),
    'wd/status.json': JSON.stringify({ phase: 'PLAN', mode: 'full', title: HOSTILE, transitions: [] }),
  });
  try {
    // A folder whose name carries a line feed, a workflow command and an escape sequence.
    const evil = nodePath.join(root, '.claude/skills', `bad\n::error file=x.yml::pwned ${HOSTILE}`);
    nodeFs.mkdirSync(evil, { recursive: true });
    nodeFs.writeFileSync(nodePath.join(evil, 'SKILL.md'), `---\nname: Bad Name${HOSTILE}\ndescription: ${HOSTILE}\n---\n`);
    const runs: Array<[string[], string]> = [];
    for (const format of ['text', 'json', 'sarif', 'github']) runs.push([['validate', root, '--format', format], format]);
    for (const format of ['text', 'json']) {
      runs.push([['list', root, '--format', format], format]);
      runs.push([['listing', root, '--format', format], format]);
      runs.push([['workflow', 'status', '--root', root, '--format', format], format]);
    }
    for (const [argv, format] of runs) {
      const out = await run(root, argv);
      assert.ok(out.length > 0, argv.join(' '));
      assert.equal(outputViolation(out, format), undefined, `${argv.join(' ')}:\n${out.slice(0, 2000)}`);
      if (format === 'json' || format === 'sarif') JSON.parse(out);
    }
    // The folder name's line feed is shown, not obeyed.
    assert.match(await run(root, ['validate', root]), /\\:\\:error file=x\.yml::pwned/);
  } finally { removeTree(root); }
});

test('cleanOutput gives what the plain replace over every line start gives (with and without `::` anywhere)', async () => {
  const { cleanOutput, escapeControls } = await import('../../../../src/cli/output/clean');
  const plain = (t: string) => escapeControls(t).replace(/^([ \t]*)::/gm, '$1\\:\\:');
  const pieces = ['::', ':', ' ', '\t', '\n', '\r\n', 'a', '::error', '\u001b', '\u0085', 'x::y', '  ::'];
  let seed = 7;
  const next = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
  for (let n = 0; n < 3000; n++) {
    let t = '';
    for (let k = next() % 12; k > 0; k--) t += pieces[next() % pieces.length];
    assert.equal(cleanOutput(t), plain(t), JSON.stringify(t));
  }
});
