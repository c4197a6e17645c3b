import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  claudeConfigDir, DEFAULT_BUDGET_FRACTION, DEFAULT_MAX_DESC_CHARS, defaultManagedDir, effectiveEnv, readClaudeSettings, settingsFiles,
} from '../../../../src/core/claude/settings';
import { treeFs } from './treeFs';

const LOC = { projectDir: '/p', configDir: '/h/.claude', managedDir: '/m' };

test('managed folder per OS and the user folder (CLAUDE_CONFIG_DIR)', () => {
  assert.equal(defaultManagedDir('linux'), '/etc/claude-code');
  assert.equal(defaultManagedDir('darwin'), '/Library/Application Support/ClaudeCode');
  assert.equal(defaultManagedDir('win32'), 'C:\\Program Files\\ClaudeCode');
  assert.equal(claudeConfigDir('/h'), '/h/.claude');
  assert.equal(claudeConfigDir('/h', { CLAUDE_CONFIG_DIR: '/elsewhere' }), '/elsewhere');
});

test('file order: managed drop-ins (last alphabetical first), managed-settings.json, local, project, user', () => {
  const fs = treeFs({ 'm/managed-settings.d/10-a.json': '{}', 'm/managed-settings.d/20-b.json': '{}', 'm/managed-settings.d/.hidden.json': '{}', 'm/managed-settings.d/notes.txt': '' });
  assert.deepEqual(settingsFiles(fs, LOC).map((f) => `${f.scope}:${f.path}`), [
    'managed:/m/managed-settings.d/20-b.json',
    'managed:/m/managed-settings.d/10-a.json',
    'managed:/m/managed-settings.json',
    'local:/p/.claude/settings.local.json',
    'project:/p/.claude/settings.json',
    'user:/h/.claude/settings.json',
  ]);
});

test('defaults when no file exists', () => {
  const s = readClaudeSettings(treeFs({}), LOC);
  assert.equal(s.skillListingBudgetFraction, DEFAULT_BUDGET_FRACTION);
  assert.equal(s.skillListingMaxDescChars, DEFAULT_MAX_DESC_CHARS);
  assert.deepEqual(s.skillOverrides, {});
  assert.deepEqual(s.problems, []);
  assert.equal(s.files.every((f) => !f.found), true);
});

test('precedence: managed > local > project > user per key; skillOverrides merge by skill name', () => {
  const fs = treeFs({
    'h/.claude/settings.json': JSON.stringify({ skillListingBudgetFraction: 0.05, skillListingMaxDescChars: 100, skillOverrides: { a: 'off', b: 'off', c: 'off' } }),
    'p/.claude/settings.json': JSON.stringify({ skillListingBudgetFraction: 0.03, skillOverrides: { a: 'name-only', b: 'name-only' } }),
    'p/.claude/settings.local.json': JSON.stringify({ skillOverrides: { a: 'on' } }),
    'm/managed-settings.json': JSON.stringify({ skillListingMaxDescChars: 2048 }),
    'm/managed-settings.d/50-x.json': JSON.stringify({ skillListingMaxDescChars: 999 }),
  });
  const s = readClaudeSettings(fs, LOC);
  assert.equal(s.skillListingBudgetFraction, 0.03);
  assert.equal(s.skillListingMaxDescChars, 999, 'a drop-in merges after managed-settings.json');
  assert.deepEqual(s.skillOverrides, { a: 'on', b: 'name-only', c: 'off' });
  assert.equal(s.skillOverrideSources.a, '/p/.claude/settings.local.json');
  assert.equal(s.skillOverrideSources.c, '/h/.claude/settings.json');
});

test('half-written or invalid JSON: a problem with a position, defaults used, lower files still read', () => {
  const fs = treeFs({
    'p/.claude/settings.local.json': '{\n  "skillOverrides": {"a": "off"',
    'p/.claude/settings.json': '[1, 2]',
    'h/.claude/settings.json': JSON.stringify({ skillOverrides: { b: 'off' } }),
    'm/managed-settings.json': '',
  });
  const s = readClaudeSettings(fs, LOC);
  assert.deepEqual(s.skillOverrides, { b: 'off' });
  assert.deepEqual(s.problems.map((p) => [p.code, p.path]), [
    ['settings-invalid', '/m/managed-settings.json'],
    ['settings-invalid', '/p/.claude/settings.local.json'],
    ['settings-invalid', '/p/.claude/settings.json'],
  ]);
  const half = s.problems[1];
  assert.match(half.message, /not valid JSON/);
  assert.equal(typeof half.line, 'number');
  assert.deepEqual(s.files.map((f) => [f.scope, f.found, f.valid]), [['managed', true, false], ['local', true, false], ['project', true, false], ['user', true, true]]);
});

test('bad values are problems and ignored: the next file or the default applies', () => {
  const fs = treeFs({
    'p/.claude/settings.json': JSON.stringify({ skillListingBudgetFraction: 2, skillListingMaxDescChars: -1, skillOverrides: { a: 'hidden', b: 'off' }, disableBundledSkills: 'yes' }),
    'h/.claude/settings.json': JSON.stringify({ skillListingBudgetFraction: 0.02, skillOverrides: 'nope' }),
  });
  const s = readClaudeSettings(fs, LOC);
  assert.equal(s.skillListingBudgetFraction, 0.02);
  assert.equal(s.skillListingMaxDescChars, DEFAULT_MAX_DESC_CHARS);
  assert.deepEqual(s.skillOverrides, { b: 'off' });
  assert.equal(s.disableBundledSkills, false);
  assert.equal(s.problems.length, 5);
  assert.ok(s.problems.every((p) => p.code === 'settings-value'));
  assert.match(s.problems.find((p) => p.message.includes('skillOverrides.a'))!.message, /"hidden" is not one of/);
});

test('env blocks merge (higher file wins) and override the shell; syncClaudeAiSkills false is not honoured from project settings', () => {
  const fs = treeFs({
    'p/.claude/settings.json': JSON.stringify({ env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '20000' }, syncClaudeAiSkills: false }),
    'h/.claude/settings.json': JSON.stringify({ env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '1', OTHER: 3 } }),
  });
  const s = readClaudeSettings(fs, LOC);
  assert.deepEqual(s.env, { SLASH_COMMAND_TOOL_CHAR_BUDGET: '20000', OTHER: '3' });
  assert.equal(s.syncClaudeAiSkills, true);
  assert.equal(effectiveEnv({ SLASH_COMMAND_TOOL_CHAR_BUDGET: '5', PATH: '/bin' }, s).SLASH_COMMAND_TOOL_CHAR_BUDGET, '20000');
  const local = readClaudeSettings(treeFs({ 'p/.claude/settings.local.json': '{"syncClaudeAiSkills": false}' }), LOC);
  assert.equal(local.syncClaudeAiSkills, false);
});
