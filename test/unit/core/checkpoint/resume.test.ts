import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResumeCommand, chooseResumeMode, resumeInvocation } from '../../../../src/core/checkpoint/resume';
import { loadCheckpoint, validateCheckpoint } from '../../../../src/core/checkpoint/checkpoint';
import { quotePosix, quotePowerShell, shellKindFor } from '../../../../src/core/base/shell';
import { nodeFileSystem } from '../../../../src/core/base/fs';

let dir: string;
let recorder: string;
let log: string;
let canary: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillflow-quote-'));
  recorder = join(dir, 'record');
  log = join(dir, 'args.log');
  canary = join(dir, 'canary');
  // Records each argument it receives, NUL-terminated, so the test sees exactly what arrived.
  writeFileSync(recorder, `#!/bin/sh\n: > "${log}"\nfor a in "$@"; do printf '%s\\0' "$a" >> "${log}"; done\n`);
  chmodSync(recorder, 0o755);
});
after(() => rmSync(dir, { recursive: true, force: true }));

function runThroughSh(commandLine: string): string[] {
  const r = spawnSync('/bin/sh', ['-c', commandLine], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const raw = readFileSync(log, 'utf8');
  return raw.split('\0').slice(0, -1);
}

/** The command line, asserting that it was built. */
function built(r: ReturnType<typeof buildResumeCommand>): string {
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.command;
}

test('resumeInvocation carries the context path as a field, with the protocol args and the slash prompt', () => {
  assert.deepEqual(resumeInvocation('code-review', '.agent/tmp/x-context.md'), {
    skill: 'code-review',
    contextPath: '.agent/tmp/x-context.md',
    args: 'resume CONTEXT_PATH=.agent/tmp/x-context.md',
    prompt: '/code-review resume CONTEXT_PATH=.agent/tmp/x-context.md',
  });
});

test('the default template quotes the whole prompt as one word', () => {
  const cmd = built(buildResumeCommand(undefined, resumeInvocation('code-review', '.agent/tmp/x-context.md'), 'posix'));
  assert.equal(cmd, "claude '/code-review resume CONTEXT_PATH=.agent/tmp/x-context.md'");
});

const NASTY = [
  ".agent/tmp/it's-context.md",
  '.agent/tmp/"quoted"-context.md',
  '.agent/tmp/$(touch CANARY)-context.md',
  '.agent/tmp/`touch CANARY`-context.md',
  '.agent/tmp/a; touch CANARY; echo -context.md',
  ".agent/tmp/'$(touch CANARY)'\"`touch CANARY`\"\\ \\' ${HOME} * ? [a] ~ & | < > #-context.md",
  '',
  "'''",
];

test('sh -c round trip: every hostile path reaches the command as the exact original text', () => {
  for (const raw of NASTY) {
    const path = raw.replace(/CANARY/g, canary);
    const inv = resumeInvocation('code-review', path);
    const cmd = built(buildResumeCommand(`${quotePosix(recorder)} --resume-test \${prompt}`, inv, 'posix'));
    assert.deepEqual(runThroughSh(cmd), ['--resume-test', inv.prompt], JSON.stringify(raw));
    assert.equal(existsSync(canary), false, `command injected by ${JSON.stringify(raw)}`);
  }
});

test('sh -c round trip: ${skill} and ${contextPath} placeholders are quoted too', () => {
  const path = `.agent/tmp/$(touch ${canary}); '"x"'.md`;
  const inv = resumeInvocation('plugin:review', path);
  const cmd = built(buildResumeCommand(`${quotePosix(recorder)} \${skill} \${contextPath} \${prompt}`, inv, 'posix'));
  assert.deepEqual(runThroughSh(cmd), ['plugin:review', path, inv.prompt]);
  assert.equal(existsSync(canary), false);
});

test('answers containing quotes, $(...), backticks, ; and newlines survive quotePosix', () => {
  const values = ["it's", '"a" $(touch X) `touch X`; rm -rf / \n second line', '\\\\ \\n $\'\\x41\''];
  for (const v of values) {
    assert.deepEqual(runThroughSh(`${quotePosix(recorder)} ${quotePosix(v)}`), [v]);
  }
});

test('a template without ${prompt} gets the quoted prompt appended; empty template falls back', () => {
  const inv = resumeInvocation('x', 'a.md');
  assert.equal(built(buildResumeCommand('claude --model opus', inv, 'posix')), "claude --model opus '/x resume CONTEXT_PATH=a.md'");
  assert.equal(built(buildResumeCommand('   ', inv, 'posix')), "claude '/x resume CONTEXT_PATH=a.md'");
});

test('PowerShell quoting doubles straight and typographic single quotes', () => {
  assert.equal(quotePowerShell("it's $(x) `y` \"z\""), "'it''s $(x) `y` \"z\"'");
  assert.equal(quotePowerShell('a\u2019b\u2018c'), "'a\u2019\u2019b\u2018\u2018c'");
  assert.equal(built(buildResumeCommand(undefined, resumeInvocation('x', "it's.md"), 'powershell')), "claude '/x resume CONTEXT_PATH=it''s.md'");
});

test('shellKindFor picks the quoting from the terminal shell path', () => {
  assert.equal(shellKindFor('/bin/bash'), 'posix');
  assert.equal(shellKindFor('/usr/bin/zsh'), 'posix');
  assert.equal(shellKindFor(''), 'posix');
  assert.equal(shellKindFor('C:\\Program Files\\PowerShell\\7\\pwsh.exe'), 'powershell');
  assert.equal(shellKindFor('C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell');
  assert.equal(shellKindFor('C:\\WINDOWS\\System32\\cmd.exe'), undefined);
});

test('chooseResumeMode: untrusted workspaces and cmd.exe always copy', () => {
  assert.deepEqual(chooseResumeMode('terminal', true, 'posix'), { mode: 'terminal' });
  assert.deepEqual(chooseResumeMode(undefined, true, 'powershell'), { mode: 'terminal' });
  assert.deepEqual(chooseResumeMode('clipboard', true, 'posix'), { mode: 'clipboard' });
  assert.deepEqual(chooseResumeMode('terminal', false, 'posix'), { mode: 'clipboard', reason: 'the workspace is not trusted' });
  assert.deepEqual(chooseResumeMode('terminal', true, undefined), { mode: 'clipboard', reason: 'the terminal shell (cmd.exe) has no safe quoting' });
});

test('end to end: a context file with a hostile name resumes with exactly its path, through sh', () => {
  const ws = join(dir, 'ws');
  // Relative `touch` targets: the shell runs in `dir`, so an injection would create dir/CANARY.
  const name = `it's "x" $(touch CANARY) ; \`touch CANARY\` & y-context.md`;
  mkdirSync(join(ws, '.agent', 'tmp'), { recursive: true });
  writeFileSync(join(ws, '.agent', 'tmp', name), '---\nskill: code-review\n---\n### Q1: ok?\nType: confirm\nAnswer: yes\n');
  const loaded = loadCheckpoint(nodeFileSystem, ws, `.agent/tmp/${name}`);
  assert.equal(loaded.ok, true);
  if (!loaded.ok) return;
  const valid = validateCheckpoint(loaded.checkpoint);
  assert.equal(valid.ok, true);
  if (!valid.ok) return;
  assert.equal(valid.invocation.prompt, `/code-review resume CONTEXT_PATH=.agent/tmp/${name}`);
  const cmd = built(buildResumeCommand(`${quotePosix(recorder)} \${prompt}`, valid.invocation, 'posix'));
  assert.deepEqual(runThroughSh(cmd), [valid.invocation.prompt]);
  assert.equal(existsSync(join(dir, 'CANARY')), false);
});

// Regression (hostile file name): `x<Ctrl-U>touch PWNED #-context.md` typed into bash ran `touch PWNED`.
const CONTROL_PATHS = ['x\u0015touch PWNED #-context.md', 'a\u0001b-context.md', 'w\u0017-context.md', 'line\nbreak-context.md', 'cr\r-context.md', 'tab\t-context.md',
  'esc\u001b[2J-context.md', 'del\u007f-context.md', 'c1\u0085-context.md', 'c1\u009b-context.md', 'ls\u2028-context.md', 'ps\u2029-context.md'];

test('the command builder refuses any control character, whatever the shell and wherever it comes from', () => {
  for (const name of CONTROL_PATHS) {
    for (const shell of ['posix', 'powershell'] as const) {
      const r = buildResumeCommand(undefined, resumeInvocation('code-review', `.agent/tmp/${name}`), shell);
      assert.equal(r.ok, false, JSON.stringify(name));
      if (!r.ok) assert.match(r.message, /^The resume command for code-review contains the control character U\+[0-9A-F]{4} \(.+\); it is not typed into a terminal$/);
    }
  }
  const fromTemplate = buildResumeCommand('claude\u0015 ${prompt}', resumeInvocation('x', 'a.md'), 'posix');
  assert.deepEqual(fromTemplate, { ok: false, message: 'The resume command for x contains the control character U+0015 (Ctrl-U); it is not typed into a terminal' });
  // Printable non-ASCII stays allowed.
  assert.equal(built(buildResumeCommand(undefined, resumeInvocation('x', '.agent/tmp/café ü 日本-context.md'), 'posix')), "claude '/x resume CONTEXT_PATH=.agent/tmp/café ü 日本-context.md'");
});

test('end to end: a context file whose name holds Ctrl-U is refused at load with a clear message, nothing to type', () => {
  const ws = join(dir, 'ws-ctrl');
  mkdirSync(join(ws, '.agent', 'tmp'), { recursive: true });
  for (const name of CONTROL_PATHS) {
    writeFileSync(join(ws, '.agent', 'tmp', name), '---\nskill: code-review\n---\n### Q1: ok?\nType: confirm\nAnswer: yes\n');
    const loaded = loadCheckpoint(nodeFileSystem, ws, `.agent/tmp/${name}`);
    assert.equal(loaded.ok, false, JSON.stringify(name));
    if (!loaded.ok) assert.match(loaded.message, /^CONTEXT_PATH contains the control character U\+[0-9A-F]{4} \(.+\); rename the file$/);
  }
  const ctrlU = loadCheckpoint(nodeFileSystem, ws, '.agent/tmp/x\u0015touch PWNED #-context.md');
  assert.deepEqual(ctrlU, { ok: false, message: 'CONTEXT_PATH contains the control character U+0015 (Ctrl-U); rename the file' });
});
