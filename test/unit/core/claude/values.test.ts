import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  activeBuiltin, BUILTINS_CLAUDE_CODE_VERSION, BUILTINS_SOURCE, builtinCommand, builtinNames, isBundledSkill,
} from '../../../../src/core/claude/builtins';
import {
  classifyModelValue, EFFORT_LEVELS, ignoredForkFields, isClaudeModelValue, isEffortLevel, isSkillOverride, parseClaudeBoolean,
} from '../../../../src/core/claude/values';

test('booleans: true/false and yes/no/on/off/1/0 in any case; anything else is not a boolean', () => {
  for (const v of [true, 'true', 'TRUE', 'yes', 'Yes', 'on', 'ON', '1', 1]) assert.equal(parseClaudeBoolean(v), true, String(v));
  for (const v of [false, 'false', 'No', 'no', 'off', 'Off', '0', 0]) assert.equal(parseClaudeBoolean(v), false, String(v));
  for (const v of ['y', 'n', 'enabled', '', 2, null, undefined, [], {}]) assert.equal(parseClaudeBoolean(v), undefined, String(v));
});

test('model: every /model alias, [1m] suffixes, full names, provider ids and inherit', () => {
  for (const v of ['default', 'best', 'fable', 'sonnet', 'opus', 'haiku', 'opusplan', 'sonnet[1m]', 'opus[1m]', 'opusplan[1m]']) {
    assert.equal(classifyModelValue(v), 'alias', v);
  }
  assert.equal(classifyModelValue('inherit'), 'inherit');
  for (const v of ['claude-opus-4-8', 'claude-opus-4-8[1m]', 'claude-sonnet-4-5-20250929', 'claude-opus-5']) assert.equal(classifyModelValue(v), 'full-name', v);
  for (const v of ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'anthropic/claude-opus-5', 'claude-opus-4-1@20250805']) {
    assert.ok(isClaudeModelValue(v), v);
  }
  for (const v of ['', '  ', 'two words', 42, null, '[1m]']) assert.equal(isClaudeModelValue(v), false, String(v));
});

test('effort levels: low … max including xhigh; fork-only fields', () => {
  assert.deepEqual(EFFORT_LEVELS, ['low', 'medium', 'high', 'xhigh', 'max']);
  assert.ok(isEffortLevel('xhigh'));
  assert.ok(isEffortLevel('max'));
  assert.equal(isEffortLevel('ultracode'), false, 'ultracode is a setting, not an effort level');
  assert.equal(isEffortLevel('auto'), false);
  assert.deepEqual(ignoredForkFields({ background: false, agent: 'Explore' }), ['agent', 'background']);
  assert.deepEqual(ignoredForkFields({ context: 'fork', background: false }), []);
  assert.ok(isSkillOverride('user-invocable-only'));
  assert.equal(isSkillOverride('hidden'), false);
});

test('built-in names come from Claude Code 2.1.240 commands reference: commands, bundled skills, workflows, aliases', () => {
  assert.equal(BUILTINS_CLAUDE_CODE_VERSION, '2.1.240');
  assert.match(BUILTINS_SOURCE, /docs\/commands\.md at [0-9a-f]{40}/);
  assert.equal(builtinCommand('help')?.kind, 'command');
  assert.equal(builtinCommand('code-review')?.kind, 'bundled-skill');
  assert.deepEqual(builtinCommand('review'), { name: 'review', kind: 'alias', aliasOf: 'code-review' });
  assert.deepEqual(builtinCommand('new'), { name: 'new', kind: 'alias', aliasOf: 'clear' });
  assert.deepEqual(builtinCommand('checkup'), { name: 'checkup', kind: 'alias', aliasOf: 'doctor' });
  // Not in the commands reference, but in the changelog: "closing panel dialogs like /mcp and /plugins" (2.1.163).
  assert.deepEqual(builtinCommand('plugins'), { name: 'plugins', kind: 'alias', aliasOf: 'plugin' });
  assert.equal(builtinCommand('deep-research')?.kind, 'workflow');
  assert.equal(builtinCommand('vim'), undefined, 'removed commands are no longer reserved');
  assert.equal(builtinCommand('deploy'), undefined);
  for (const s of ['doctor', 'batch', 'debug', 'loop', 'claude-api', 'run', 'verify', 'simplify']) assert.ok(isBundledSkill(s), s);
  assert.ok(builtinNames().length > 100);
  // Bundled skills off: bundled skills, workflows and their aliases go, /doctor and built-in commands stay.
  assert.equal(activeBuiltin('code-review', true), undefined);
  assert.equal(activeBuiltin('review', true), undefined);
  assert.equal(activeBuiltin('deep-research', true), undefined);
  assert.equal(activeBuiltin('doctor', true)?.kind, 'bundled-skill');
  assert.equal(activeBuiltin('checkup', true)?.kind, 'alias');
  assert.equal(activeBuiltin('help', true)?.kind, 'command');
});
