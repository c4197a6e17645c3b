import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/context';

const spec = {
  flags: {
    profile: { type: 'string', choices: ['claude-code', 'spec', 'upload'] },
    out: { type: 'string', short: 'o' },
    json: { type: 'boolean' },
    'stale-after': { type: 'number' },
    tag: { type: 'string', repeatable: true },
  },
} as const;

test('flags with separate and inline values, booleans and positionals', () => {
  const r = parseArgs(['a', '--profile', 'spec', '--out=dist', 'b', '--json', '--stale-after', '30'], spec);
  assert.deepEqual(r.positionals, ['a', 'b']);
  assert.equal(r.flags.profile, 'spec');
  assert.equal(r.flags.out, 'dist');
  assert.equal(r.flags.json, true);
  assert.equal(r.flags['stale-after'], 30);
  assert.equal(r.flags.tag, undefined);
  assert.equal(r.help, false);
});

test('short alias, repeatable flags and -- ending the options', () => {
  const r = parseArgs(['-o', 'x', '--tag', 'a', '--tag=b', '--', '--json', '-o'], spec);
  assert.equal(r.flags.out, 'x');
  assert.deepEqual(r.flags.tag, ['a', 'b']);
  assert.deepEqual(r.positionals, ['--json', '-o']);
  assert.equal(r.flags.json, undefined);
});

test('positionals that look like CHECKPOINT arguments stay positionals', () => {
  const r = parseArgs(['answer', 'CONTEXT_PATH=.agent/tmp/x.md', 'Q1=main', 'Q2=a=b'], { flags: {} });
  assert.deepEqual(r.positionals, ['answer', 'CONTEXT_PATH=.agent/tmp/x.md', 'Q1=main', 'Q2=a=b']);
});

test('--help and -h are reported, not rejected, and skip the positional count', () => {
  assert.equal(parseArgs(['--help'], { flags: {}, minPositionals: 1 }).help, true);
  assert.equal(parseArgs(['-h'], { flags: {} }).help, true);
});

function usage(fn: () => unknown, message: RegExp) {
  assert.throws(fn, (e: unknown) => e instanceof UsageError && message.test(e.message));
}

test('strict: unknown, missing values, bad choices, bad numbers, duplicates, positional counts', () => {
  usage(() => parseArgs(['--nope'], spec), /^unknown option '--nope'$/);
  usage(() => parseArgs(['-x'], spec), /^unknown option '-x'$/);
  usage(() => parseArgs(['--out'], spec), /^option '--out' needs a value$/);
  usage(() => parseArgs(['--out', '--json'], spec), /^option '--out' needs a value$/);
  usage(() => parseArgs(['--out='], spec), /^option '--out' needs a value$/);
  usage(() => parseArgs(['--profile', 'strict'], spec), /^option '--profile' must be one of claude-code, spec, upload \(got 'strict'\)$/);
  usage(() => parseArgs(['--stale-after', 'soon'], spec), /^option '--stale-after' needs a number \(got 'soon'\)$/);
  usage(() => parseArgs(['--json=yes'], spec), /^option '--json' takes no value \(got 'yes'\)$/);
  usage(() => parseArgs(['--out', 'a', '--out', 'b'], spec), /^option '--out' given more than once$/);
  usage(() => parseArgs([], { flags: {}, minPositionals: 1, positionalName: '<name>' }), /^missing <name>$/);
  usage(() => parseArgs(['a', 'b'], { flags: {}, maxPositionals: 1 }), /^unexpected argument 'b'$/);
  usage(() => parseArgs(['--constructor'], { flags: {} }), /^unknown option '--constructor'$/);
});

test('a negative number is a value, not a flag', () => {
  assert.equal(parseArgs(['--stale-after', '-5'], spec).flags['stale-after'], -5);
  assert.deepEqual(parseArgs(['-1'], { flags: {} }).positionals, ['-1']);
});

test('--json=false sets false', () => {
  assert.equal(parseArgs(['--json=false'], spec).flags.json, false);
});
