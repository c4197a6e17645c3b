import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkTypedCommand, describeControlChar, findTerminalControlChar, quotePosix, quotePowerShell, scriptCommandLine, interpreterFor, showControlChars } from '../../../../src/core/base/shell';

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

test('findTerminalControlChar: C0, DEL, C1 and U+2028/U+2029 are refused; printable text of any script is not', () => {
  const refused = [...Array.from({ length: 0x20 }, (_, c) => c), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), 0x2028, 0x2029];
  for (const c of refused) assert.deepEqual(findTerminalControlChar(`ok ${String.fromCharCode(c)} x`), { index: 3, code: c }, c.toString(16));
  for (const text of ['plain', "it's $(x) `y`", 'café ü 日本 🙂', '\u00a0\u200b\ufeff', '']) assert.equal(findTerminalControlChar(text), undefined, JSON.stringify(text));
  assert.equal(describeControlChar(0x15), 'U+0015 (Ctrl-U)');
  assert.equal(describeControlChar(0x0a), 'U+000A (line feed)');
  assert.equal(showControlChars('a\nb\u0015c\td'), 'a\\nb\\u0015c\\td');
});

test('a command line with a control character is refused, also when it comes from a path (Run Script)', () => {
  assert.deepEqual(checkTypedCommand(scriptCommandLine('/ws/skill', 'scripts/run.py', 'posix')), { ok: true });
  const line = scriptCommandLine('/ws/x\u0015touch PWNED #', 'scripts/run.py', 'posix');
  assert.deepEqual(checkTypedCommand(line, 'Run Script'), { ok: false, message: 'Run Script contains the control character U+0015 (Ctrl-U); it is not typed into a terminal' });
  assert.equal(checkTypedCommand(scriptCommandLine('/ws/skill', 'scripts/a\nb.sh', 'powershell')).ok, false);
});
