// The demo README's table (examples/demo-workspace/README.md, "What to look at") says which problems each demo file
// shows; this runs `skillflow validate --format json` on a copy of the demo and checks the claims both ways: every
// row's codes are exactly what validate reports for that file, and every file validate reports is in the table.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, tempTree } from '../../helpers/tempTree';

const DEMO = 'examples/demo-workspace';

/** The README's claims: file (a SKILL.md or a command/agent file, relative to the demo) → the codes it shows. */
function readmeClaims(readme: string): Map<string, string[]> {
  const claims = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const cells = /^\|(.*)\|$/.exec(line.trim())?.[1].split(' | ').map((c) => c.trim());
    if (!cells || cells.length !== 4 || !cells[1].startsWith('`')) continue;
    const files = [...cells[1].matchAll(/`([^`]+)`/g)].map((m) => (m[1].endsWith('/') ? `${m[1]}SKILL.md` : m[1]));
    const codes = cells[3] === 'none' ? [] : [...cells[3].matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
    assert.ok(cells[3] === 'none' || codes.length, `a Problems cell is 'none' or codes: ${line}`);
    for (const f of files) {
      assert.ok(!claims.has(f), `${f} is in the table once`);
      claims.set(f, [...codes].sort());
    }
  }
  return claims;
}

test('the demo README says exactly what validate reports for each demo file, and names every file with a problem', async () => {
  const dir = tempTree({ 'home/.keep': '' });
  try {
    const ws = path.join(dir, 'ws');
    fs.cpSync(DEMO, ws, { recursive: true });
    let out = '';
    const code = await main({ argv: ['validate', '.', '--format', 'json'], cwd: ws, fs: nodeFileSystem, env: {}, home: path.join(dir, 'home'), managedDir: null, out: (t) => { out += t; }, err: () => undefined });
    assert.equal(code, 1, 'the demo has errors on purpose');
    const report = JSON.parse(out) as { skills: Array<{ path: string; problems: Array<{ code: string }> }>; agents: Array<{ path: string; problems: Array<{ code: string }> }> };
    const actual = new Map([...report.skills, ...report.agents].map((s) => [s.path, s.problems.map((p) => p.code).sort()]));

    const claims = readmeClaims(fs.readFileSync(path.join(DEMO, 'README.md'), 'utf8'));
    assert.ok(claims.size >= 15, `the table was read (${claims.size} rows)`);
    for (const [file, codes] of claims) {
      assert.ok(actual.has(file), `${file} (in the README) is validated`);
      assert.deepEqual(actual.get(file), codes, `${file}: the README says ${JSON.stringify(codes)}`);
    }
    for (const [file, codes] of actual) {
      assert.ok(claims.has(file), `${file} (${codes.join(', ') || 'no problems'}) is described in the README's table`);
    }
  } finally {
    removeTree(dir);
  }
});

test('the README table reader fails on a claim that does not hold (the check can fail)', () => {
  const claims = readmeClaims('| entry | file | what it shows | Problems |\n|---|---|---|---|\n| `a`, `b` | `.claude/skills/a/`, `.claude/commands/b.md` | x | `unknown-key`, `reference-missing` |\n| `c` | `c.md` | y | none |\n');
  assert.deepEqual([...claims], [['.claude/skills/a/SKILL.md', ['reference-missing', 'unknown-key']], ['.claude/commands/b.md', ['reference-missing', 'unknown-key']], ['c.md', []]]);
});
