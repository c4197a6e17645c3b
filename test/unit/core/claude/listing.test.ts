import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { computeListing, entriesAtRisk, listingBudget, listingJson } from '../../../../src/core/claude/listing';
import { buildClaudeModel } from '../../../../src/core/claude/load';
import { readClaudeSettings } from '../../../../src/core/claude/settings';
import { md, treeFs, type Node } from './treeFs';

function setup(files: Record<string, Node>, env: Record<string, string> = {}) {
  const fs = treeFs({ 'repo/.git/HEAD': '', ...files });
  const model = buildClaudeModel(fs, { startDir: '/repo', home: '/home/u', managedDir: null, env });
  return model;
}

const settingsOf = (files: Record<string, Node>) => readClaudeSettings(treeFs(files), { projectDir: '/p' });

test('budget: 1% of the context window at 4 characters per token; 8,000 without a window; the env variable wins', () => {
  const defaults = settingsOf({});
  assert.deepEqual(listingBudget(defaults), { budget: 8000, source: 'skillListingBudgetFraction', contextWindowTokens: 200000 });
  assert.equal(listingBudget(defaults, { contextWindowTokens: 1_000_000 }).budget, 40000);
  const two = settingsOf({ 'p/.claude/settings.json': '{"skillListingBudgetFraction": 0.02}' });
  assert.equal(listingBudget(two, { contextWindowTokens: 1_000_000 }).budget, 80000);
  assert.deepEqual(listingBudget(two, { env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '12345' } }).budget, 12345);
  assert.equal(listingBudget(two, { env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: 'lots' } }).budget, 16000, 'an invalid value is ignored');
});

test('who is listed: disable-model-invocation, off and user-invocable-only are absent; name-only has no description; shadowed and nested absent', () => {
  const m = setup({
    'repo/.claude/settings.local.json': JSON.stringify({ skillOverrides: { quiet: 'name-only', gone: 'off', mine: 'user-invocable-only' } }),
    'repo/.claude/skills/shown/SKILL.md': md({ description: 'Shown in full.', when_to_use: 'When asked.' }),
    'repo/.claude/skills/manual/SKILL.md': md({ description: 'Manual.', 'disable-model-invocation': 'yes' }),
    'repo/.claude/skills/quiet/SKILL.md': md({ description: 'Quiet.' }),
    'repo/.claude/skills/gone/SKILL.md': md({ description: 'Gone.' }),
    'repo/.claude/skills/mine/SKILL.md': md({ description: 'Mine.' }),
    'repo/.claude/skills/claude-only/SKILL.md': md({ description: 'Claude only.', 'user-invocable': false }),
    'repo/.claude/commands/shown.md': md({ description: 'Loses to the skill.' }),
    'repo/pkg/.claude/skills/later/SKILL.md': md({ description: 'Nested.' }),
    'repo/.claude/skills/group/deep/SKILL.md': md({ description: 'Never loaded.' }),
  });
  const l = computeListing(m.entries, m.settings, { env: m.env });
  const by = new Map(l.entries.map((e) => [`${e.invocation} ${e.source}`, e]));
  const shown = by.get('/shown skill')!;
  assert.equal(shown.shown, 'full');
  assert.equal(shown.line, '- shown: Shown in full. When asked.');
  assert.equal(shown.chars, shown.line.length + 1);
  assert.equal(by.get('/manual skill')!.shown, 'absent');
  assert.match(by.get('/manual skill')!.reason!, /disable-model-invocation/);
  assert.equal(by.get('/quiet skill')!.shown, 'name-only');
  assert.equal(by.get('/quiet skill')!.line, '- quiet');
  assert.equal(by.get('/gone skill')!.shown, 'absent');
  assert.equal(by.get('/mine skill')!.shown, 'absent');
  assert.equal(by.get('/claude-only skill')!.shown, 'full', 'Claude can still invoke it');
  assert.equal(by.get('/shown command')!.shown, 'absent');
  assert.match(by.get('/shown command')!.reason!, /shadowed/);
  assert.equal(by.get('/later skill')!.shown, 'absent');
  assert.equal(l.entries.some((e) => e.path.includes('group')), false);
  assert.equal(l.used, l.entries.reduce((n, e) => n + e.chars, 0));
  assert.equal(l.budget, 8000);
  const json = listingJson(l);
  assert.deepEqual(Object.keys(json), ['budget', 'used', 'entries']);
  assert.deepEqual(Object.keys(json.entries[0]).slice(0, 3), ['invocation', 'chars', 'shown']);
});

test('per-entry cap: description + when_to_use cut at skillListingMaxDescChars (default 1,536)', () => {
  const long = 'a'.repeat(1000);
  const m = setup({
    'repo/.claude/skills/big/SKILL.md': md({ description: long, when_to_use: long }),
    'repo/.claude/skills/edge/SKILL.md': md({ description: 'b'.repeat(1536) }),
  });
  const l = computeListing(m.entries, m.settings);
  const big = l.entries.find((e) => e.invocation === '/big')!;
  assert.equal(big.shown, 'truncated');
  assert.equal(big.descChars, 2001);
  assert.equal(big.line, `- big: ${'a'.repeat(1000)} ${'a'.repeat(535)}`);
  assert.match(big.reason!, /2001 characters; the listing keeps 1536/);
  assert.equal(l.entries.find((e) => e.invocation === '/edge')!.shown, 'full');
  const capped = setup({
    'repo/.claude/settings.json': '{"skillListingMaxDescChars": 10}',
    'repo/.claude/skills/edge/SKILL.md': md({ description: 'b'.repeat(11) }),
  });
  assert.equal(computeListing(capped.entries, capped.settings).entries[0].line, `- edge: ${'b'.repeat(10)}`);
});

test('over budget: every name stays, descriptions are dropped longest first, used never exceeds the budget', () => {
  const files: Record<string, Node> = {};
  for (let i = 0; i < 10; i++) files[`repo/.claude/skills/s${i}/SKILL.md`] = md({ description: String.fromCharCode(97 + i).repeat(100 + i * 10) });
  const m = setup(files, { SLASH_COMMAND_TOOL_CHAR_BUDGET: '900' });
  const l = computeListing(m.entries, m.settings, { env: m.env });
  assert.equal(l.budget, 900);
  assert.equal(l.budgetSource, 'SLASH_COMMAND_TOOL_CHAR_BUDGET');
  assert.ok(l.used <= l.budget, `${l.used} > ${l.budget}`);
  assert.equal(l.entries.length, 10);
  const dropped = l.entries.filter((e) => e.shown === 'dropped').map((e) => e.invocation);
  // s9 has the longest description, then s8, …: dropped in that order until the rest fits (1,520 → 806 characters).
  assert.deepEqual(dropped, ['/s6', '/s7', '/s8', '/s9']);
  for (const e of l.entries) assert.ok(e.line.startsWith(`- ${e.invocation.slice(1)}`));
  assert.equal(l.used, l.entries.reduce((n, e) => n + e.chars, 0));
  // At risk: the dropped ones first (s9 dropped first), then the next to go (s5, s4).
  assert.deepEqual(entriesAtRisk(l, 2).map((e) => e.invocation), ['/s9', '/s8', '/s7', '/s6', '/s5', '/s4']);
  assert.equal(l.namesOverBudget, false);
});

test('names alone over the budget: Claude Code keeps every name, so the listing reports it', () => {
  const files: Record<string, Node> = {};
  for (let i = 0; i < 5; i++) files[`repo/.claude/skills/skill-number-${i}/SKILL.md`] = md({ description: 'x' });
  const m = setup(files, { SLASH_COMMAND_TOOL_CHAR_BUDGET: '40' });
  const l = computeListing(m.entries, m.settings, { env: m.env });
  assert.equal(l.namesOverBudget, true);
  assert.ok(l.entries.every((e) => e.shown === 'dropped'));
  assert.ok(l.used > l.budget);
});

test('a skill without any description is listed by name only', () => {
  const m = setup({ 'repo/.claude/skills/bare/SKILL.md': '---\nname: bare\n---\n' });
  const e = computeListing(m.entries, m.settings).entries[0];
  assert.deepEqual([e.shown, e.reason, e.line], ['name-only', 'no description', '- bare']);
});
