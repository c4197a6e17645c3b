// `skillflow validate --fix` / `--fix-dry-run` through the CLI on a copy of the demo workspace: the certain fixes
// (the same as the editor's Fix all: test/integration/fixAll.test.ts compares them file by file), every other byte
// kept, the report of what is left; a rule turned off is not fixed; usage errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, tempTree, writeTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd: string, home: string) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, home, managedDir: null, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

function demoCopy(): { dir: string; ws: string; home: string } {
  const dir = tempTree({ 'home/.keep': '' });
  const ws = path.join(dir, 'ws');
  fs.cpSync('examples/demo-workspace', ws, { recursive: true });
  return { dir, ws, home: path.join(dir, 'home') };
}

function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r); else out.set(r, fs.readFileSync(path.join(root, r), 'latin1'));
    }
  };
  walk('');
  return out;
}

const FIXED = {
  '.claude/skills/broken-yaml/SKILL.md': ['description: Summarise a log file: errors first, then warnings', "description: 'Summarise a log file: errors first, then warnings'"],
  '.claude/skills/hello/SKILL.md': ['name: hi\n', 'name: hello\n'],
  '.claude/skills/mismatched-name/SKILL.md': ['name: renamed-skill\ndescription: Explain a <file> or a <symbol>', 'name: mismatched-name\ndescription: Explain a file or a symbol'],
};

test('validate --fix-dry-run on the demo workspace: a diff git apply accepts, nothing written, exit 1; --fix then writes the same', async () => {
  const { dir, ws, home } = demoCopy();
  try {
    const before = snapshot(ws);
    const dry = await run(['validate', '--fix-dry-run'], ws, home);
    assert.equal(dry.code, 1, dry.err);
    assert.match(dry.err, /4 fixes in 3 files would be applied/);
    assert.deepEqual(dry.out.match(/^\+\+\+ b\/.*$/gm), Object.keys(FIXED).map((f) => `+++ b/${f}`));
    assert.deepEqual(snapshot(ws), before, 'a dry run writes nothing');

    const fixed = await run(['validate', '--fix', '--format', 'json'], ws, home);
    assert.match(fixed.err, /applied 4 fixes in 3 files/);
    const after = snapshot(ws);
    for (const [file, text] of before) {
      const want = Object.prototype.hasOwnProperty.call(FIXED, file) ? text.replace(FIXED[file as keyof typeof FIXED][0], FIXED[file as keyof typeof FIXED][1]) : text;
      assert.notEqual(want === text, Object.prototype.hasOwnProperty.call(FIXED, file), `${file}: the expected change is in the demo`);
      assert.equal(after.get(file), want, file);
    }
    assert.equal(after.size, before.size, 'no file added (no temp file left)');
    // The report is of the fixed files: the fixed problems are gone, the others stay.
    const report = JSON.parse(fixed.out) as { skills: Array<{ path: string; problems: Array<{ code: string }> }> };
    const codes = (p: string) => report.skills.find((s) => s.path === p)?.problems.map((x) => x.code) ?? [];
    assert.deepEqual(codes('.claude/skills/hello/SKILL.md'), []);
    assert.deepEqual(codes('.claude/skills/mismatched-name/SKILL.md'), []);
    assert.ok(codes('.claude/skills/no-description/SKILL.md').includes('description-missing'), 'a placeholder is never written');

    // The dry run's diff, applied by git to the original tree, gives the same files.
    const again = demoCopy();
    try {
      const d = await run(['validate', '--fix-dry-run'], again.ws, again.home);
      const git = spawnSync('git', ['apply', '-p1', '-'], { cwd: again.ws, input: d.out, encoding: 'utf8' });
      assert.equal(git.status, 0, git.stderr);
      assert.deepEqual(snapshot(again.ws), after);
    } finally {
      removeTree(again.dir);
    }
    const nothing = await run(['validate', '--fix-dry-run'], ws, home);
    assert.deepEqual([nothing.code, nothing.out, nothing.err], [0, '', 'skillflow validate: nothing to fix\n']);
  } finally {
    removeTree(dir);
  }
});

test('validate --fix: a rule turned off (config or disable comment) is not fixed; a file that is not UTF-8 is left alone; usage errors', async () => {
  const dir = tempTree({
    'home/.keep': '',
    'ws/.skillflow.json': '{"rules": {"name-case": "off", "name-charset": "off", "name-dir-mismatch": "off"}}',
    'ws/.claude/skills/a-skill/SKILL.md': '---\nname: A_Skill\ndescription: Does a. Use it in tests.\n---\n# A\n',
    'ws/.claude/skills/b-skill/SKILL.md': '---\nname: other\r\ndescription: Does <b>. Use it in tests.\r\n---\r\n# B\r\n\r\n<!-- skillflow-disable name-dir-mismatch -->\r\n',
  });
  const ws = path.join(dir, 'ws');
  const home = path.join(dir, 'home');
  try {
    writeTree(ws, { '.claude/skills/c-skill/SKILL.md': Buffer.concat([Buffer.from('---\nname: c_skill\ndescription: Does <c> \xff. Use it.\n---\n', 'latin1')]) });
    const r = await run(['validate', '--fix', '--profile', 'spec'], ws, home);
    assert.match(r.err, /applied 1 fix in 1 file/, r.err);
    // Not text (file-not-text): no other rule runs on it, so nothing is fixed and its bytes stay as they are.
    assert.match(r.out, /c-skill\/SKILL\.md:1:1: error file-not-text/, r.out);
    const read = (s: string) => fs.readFileSync(path.join(ws, '.claude/skills', s, 'SKILL.md'), 'latin1');
    assert.equal(read('a-skill'), '---\nname: A_Skill\ndescription: Does a. Use it in tests.\n---\n# A\n', 'the name rules are off');
    assert.equal(read('b-skill'), '---\nname: other\r\ndescription: Does b. Use it in tests.\r\n---\r\n# B\r\n\r\n<!-- skillflow-disable name-dir-mismatch -->\r\n', 'CRLF kept; the disabled rename not made');
    assert.ok(read('c-skill').includes('<c> \xff'));
    const both = await run(['validate', '--fix', '--fix-dry-run'], ws, home);
    assert.equal(both.code, 2);
    assert.match(both.err, /--fix or --fix-dry-run, not both/);
    const fmt = await run(['validate', '--fix-dry-run', '--format', 'json'], ws, home);
    assert.equal(fmt.code, 2);
  } finally {
    removeTree(dir);
  }
});

test('validate --fix fixes agent and command files too: the tool-name and agent-tools-key fixes the editor offers', async () => {
  const dir = tempTree({
    'home/.keep': '',
    'ws/.claude/agents/review/reviewer.md': '---\nname: reviewer\ndescription: Reviews.\ntools: Read, web_fetch\ndisallowed-tools: Bash\n---\nReview.\n',
    'ws/.claude/commands/ship.md': '---\ndescription: Ships.\nallowed-tools: Bash(git push:*), web_fetch\n---\nShip it.\n',
  });
  const ws = path.join(dir, 'ws');
  const home = path.join(dir, 'home');
  try {
    const dry = await run(['validate', '--fix-dry-run'], ws, home);
    assert.equal(dry.code, 1, dry.err);
    assert.match(dry.out, /\+allowed-tools: Bash\(git push:\*\), WebFetch/);
    assert.match(dry.out, /\+tools: Read, WebFetch\n\+disallowedTools: Bash/);
    const r = await run(['validate', '--fix'], ws, home);
    assert.match(r.err, /applied 3 fixes in 2 files/, r.err);
    assert.equal(fs.readFileSync(path.join(ws, '.claude/agents/review/reviewer.md'), 'utf8'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read, WebFetch\ndisallowedTools: Bash\n---\nReview.\n');
    assert.equal(fs.readFileSync(path.join(ws, '.claude/commands/ship.md'), 'utf8'), '---\ndescription: Ships.\nallowed-tools: Bash(git push:*), WebFetch\n---\nShip it.\n');
    assert.equal(r.code, 0, r.out);
  } finally {
    removeTree(dir);
  }
});
