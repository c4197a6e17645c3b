import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { quotePosix, quotePowerShell, scriptCommandLine, interpreterFor } from '../../../../src/core/base/shell';

test('quotePosix leaves plain words alone and single-quotes the rest', () => {
  assert.equal(quotePosix('scripts/run.py'), 'scripts/run.py');
  assert.equal(quotePosix('my dir'), `'my dir'`);
  assert.equal(quotePosix(`it's`), `'it'\\''s'`);
  assert.equal(quotePosix(''), `''`);
  assert.equal(quotePosix('$(rm -rf ~)'), `'$(rm -rf ~)'`);
});

test('quotePosix output survives a real shell unchanged (no injection)', () => {
  for (const word of [`a b`, `it's`, '$(echo pwned)', '`id`', 'x; rm -rf /', '"double"', 'new\nline', '*', '~']) {
    const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${quotePosix(word)}`], { encoding: 'utf8' });
    assert.equal(echoed, word);
  }
});

test('quotePowerShell doubles single quotes, including typographic ones', () => {
  assert.equal(quotePowerShell(`C:\\My Skills\\it's`), `'C:\\My Skills\\it''s'`);
  assert.equal(quotePowerShell('a\u2019b'), "'a\u2019\u2019b'");
});

test('interpreterFor picks the interpreter by extension', () => {
  assert.deepEqual(interpreterFor('scripts/x.py'), ['python3']);
  assert.deepEqual(interpreterFor('scripts/x.SH'), ['bash']);
  assert.deepEqual(interpreterFor('scripts/x.mjs'), ['node']);
  assert.equal(interpreterFor('scripts/run'), undefined);
});

test('scriptCommandLine changes into the skill folder and quotes both paths', () => {
  assert.equal(scriptCommandLine('/w/.claude/skills/pdf', 'scripts/fill form.py', 'posix'), `cd /w/.claude/skills/pdf && python3 'scripts/fill form.py'`);
  assert.equal(scriptCommandLine(`/w/it's here/s`, 'scripts/run', 'posix'), `cd '/w/it'\\''s here/s' && ./scripts/run`);
  assert.equal(scriptCommandLine('C:\\w\\s', 'scripts/x.py', 'powershell'), `Set-Location -LiteralPath 'C:\\w\\s'; & python3 'scripts/x.py'`);
});

test('scriptCommandLine really runs the script from the skill folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sf shell 'q' `));
  try {
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.writeFileSync(path.join(dir, 'scripts', 'where $x.sh'), 'pwd\n');
    const out = execFileSync('/bin/sh', ['-c', scriptCommandLine(dir, 'scripts/where $x.sh', 'posix')], { encoding: 'utf8' });
    assert.equal(out.trim(), fs.realpathSync(dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('quotePosix quotes a leading = (zsh would expand =cmd to a path)', () => {
  assert.equal(quotePosix('=ls'), `'=ls'`);
  assert.equal(quotePosix('KEY=value'), 'KEY=value');
});
