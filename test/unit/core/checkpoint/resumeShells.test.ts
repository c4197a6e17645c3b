import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { pasteShellKind, quoteCmd, quoteFish, shellKindFor, type ShellKind } from '../../../../src/core/base/shell';
import { buildResumeCommand, resumeInvocation } from '../../../../src/core/checkpoint/resume';
import { removeTree, tempTree } from '../../helpers/tempTree';

// Names that match the default context glob and try to break out of each shell's quoting.
const NAMES = [
  `a\\'; touch PWNED; echo \\'-context.md`,
  `a'; touch PWNED; echo '-context.md`,
  'a $(touch PWNED) `touch PWNED` (touch PWNED) {a,b} *-context.md',
  'a"; touch PWNED; echo "-context.md',
  `a\\\\'; touch PWNED #-context.md`,
  'a %PATH% !x! ^& touch PWNED-context.md',
  '=ls ~root $HOME ${x} ; & | < > ? [a]-context.md',
  'plain-context.md',
];

/** The shells found on this machine (CI installs them: .ci/run and scripts/install-code-server.sh). */
const SHELLS: Array<{ bin: string; kind: ShellKind; args: (cmd: string) => string[] }> = [
  { bin: 'bash', kind: 'posix', args: (c) => ['-c', c] },
  { bin: 'dash', kind: 'posix', args: (c) => ['-c', c] },
  { bin: 'zsh', kind: 'posix', args: (c) => ['-f', '-c', c] },
  { bin: 'fish', kind: 'fish', args: (c) => ['--no-config', '-c', c] },
  { bin: 'pwsh', kind: 'powershell', args: (c) => ['-NoProfile', '-NonInteractive', '-Command', c] },
];

function found(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

for (const shell of SHELLS) {
  const present = found(shell.bin);
  // bash, dash, zsh and fish are required (CI installs them); PowerShell is tested where it is installed.
  if (!present && shell.bin === 'pwsh') continue;
  test(`resume command through the real ${shell.bin}: every hostile context path arrives as one argument, nothing runs`, () => {
    assert.ok(present, `${shell.bin} is not installed (apt-get install ${shell.bin})`);
    for (const name of NAMES) {
      const dir = tempTree();
      try {
        const inv = resumeInvocation('review', `.agent/tmp/${name}`);
        // printf prints each argument on its own line: the prompt must arrive whole.
        const built = buildResumeCommand(shell.kind === 'powershell' ? 'Write-Output ${prompt} ${contextPath}' : 'printf "%s\\n" ${prompt} ${contextPath}', inv, shell.kind);
        assert.ok(built.ok, built.ok ? '' : built.message);
        const out = execFileSync(shell.bin, shell.args(built.command), { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir } });
        assert.equal(out, `${inv.prompt}\n${inv.contextPath}\n`, `${shell.bin}: ${name}`);
        assert.equal(nodeFs.existsSync(nodePath.join(dir, 'PWNED')), false, `${shell.bin} ran a command from ${name}`);
      } finally { removeTree(dir); }
    }
  });
}

test('each shell gets its own quoting; cmd.exe refuses what it would expand', () => {
  assert.equal(quoteFish(`a\\'b`), `'a\\\\\\'b'`);
  assert.equal(quoteFish('plain-name.md'), 'plain-name.md');
  assert.equal(quoteCmd('a b\\'), '"a b\\\\"');
  assert.equal(quoteCmd('a%PATH%b'), undefined);
  assert.equal(quoteCmd('a"b'), undefined);
  assert.equal(shellKindFor('/usr/bin/fish'), 'fish');
  assert.equal(shellKindFor('C:\\Windows\\System32\\cmd.exe'), undefined);
  assert.equal(pasteShellKind('/usr/bin/fish', 'linux'), 'fish');
  assert.equal(pasteShellKind('C:\\Windows\\System32\\cmd.exe', 'win32'), 'cmd');
  assert.equal(pasteShellKind(undefined, 'win32'), 'powershell');
  const refused = buildResumeCommand(undefined, resumeInvocation('review', '.agent/tmp/a%x%-context.md'), 'cmd');
  assert.equal(refused.ok, false);
  const ok = buildResumeCommand(undefined, resumeInvocation('review', '.agent/tmp/a b-context.md'), 'cmd');
  assert.deepEqual(ok, { ok: true, command: 'claude "/review resume CONTEXT_PATH=.agent/tmp/a b-context.md"' });
});
