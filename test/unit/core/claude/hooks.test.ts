// Hooks (docs/hooks.md, generated into hooks.json): a skill's `hooks:` frontmatter and a plugin's hooks/hooks.json.
// Look-alikes: the hooks.json of eight real plugins (test/fixtures/tools, licences and commits in each SOURCE.md) give
// no problem; true positives: the same files with one defect each, and frontmatter hooks with exact ranges.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkHooksConfig, hookEvents, hookHandlerTypes, HOOKS_CLAUDE_CODE_VERSION, suggestHookEvent } from '../../../../src/core/claude/hooks';
import { validatePluginHooksJson } from '../../../../src/core/validation/hookRules';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { skill, summary } from '../../helpers/validation';
import { removeTree, tempTree } from '../../helpers/tempTree';

const FIXTURES = 'test/fixtures/tools';

test('hooks.json: events, matcher kinds and handler types of the recorded Claude Code version', () => {
  assert.match(HOOKS_CLAUDE_CODE_VERSION, /^2\.\d+\.\d+$/);
  const names = hookEvents().map((e) => e.name);
  for (const e of ['PreToolUse', 'PostToolUse', 'Stop', 'SessionStart', 'UserPromptSubmit', 'SubagentStop', 'Notification']) assert.ok(names.includes(e), e);
  assert.equal(hookEvents().find((e) => e.name === 'PreToolUse')?.matcher, 'tool');
  assert.equal(hookEvents().find((e) => e.name === 'Stop')?.matcher, 'none');
  assert.deepEqual(hookHandlerTypes().sort(), ['agent', 'command', 'http', 'mcp_tool', 'prompt']);
  assert.equal(suggestHookEvent('PreToolUsee'), 'PreToolUse');
  assert.equal(suggestHookEvent('pretooluse'), 'PreToolUse');
  assert.equal(suggestHookEvent('OnSave'), undefined);
});

const cmd = (command = 'echo ok') => ({ type: 'command', command });

test('checkHooksConfig: true positives, each at its path', () => {
  const found = (hooks: unknown) => checkHooksConfig(hooks, {}).map((f) => `${f.code}${f.variant ? `/${f.variant}` : ''}@${f.path.join('.')}:${f.at}`);
  assert.deepEqual(found({ PreToolUsee: [{ hooks: [cmd()] }] }), ['hook-invalid@PreToolUsee:key']);
  assert.deepEqual(found({ OnSave: [{ hooks: [cmd()] }] }), ['hook-invalid/unknown-event@OnSave:key']);
  assert.deepEqual(found({ PreToolUse: { hooks: [cmd()] } }), ['hook-invalid@PreToolUse:value']);
  assert.deepEqual(found({ PreToolUse: [{ matcher: 'Bash' }] }), ['hook-invalid@PreToolUse.0:value']);
  assert.deepEqual(found({ PreToolUse: [{ hooks: [{ type: 'shell', command: 'x' }] }] }), ['hook-invalid@PreToolUse.0.hooks.0.type:value']);
  assert.deepEqual(found({ PreToolUse: [{ hooks: [{ type: 'command' }] }] }), ['hook-invalid@PreToolUse.0.hooks.0:value']);
  assert.deepEqual(found({ Stop: [{ hooks: [{ type: 'command', command: 'x', if: 'Bash(git *)' }] }] }), ['hook-invalid@Stop.0.hooks.0.if:key']);
  assert.deepEqual(found({ Stop: [{ matcher: 'Bash', hooks: [cmd()] }] }), ['hook-matcher@Stop.0.matcher:key']);
  assert.deepEqual(found({ PostToolUse: [{ matcher: 'Edit|Wrte', hooks: [cmd()] }] }), ['hook-matcher@PostToolUse.0.matcher:value']);
  assert.deepEqual(found({ PreToolUse: [{ matcher: 'mcp__memory', hooks: [cmd()] }] }), ['hook-matcher@PreToolUse.0.matcher:value']);
  assert.deepEqual(found({ PreToolUse: [{ matcher: 'Bash(', hooks: [cmd()] }] }), ['hook-invalid@PreToolUse.0.matcher:value']);
  assert.deepEqual(found({ PreToolUse: [{ hooks: [{ type: 'command', command: 'x', if: 'bash(git *)' }] }] }), ['hook-matcher@PreToolUse.0.hooks.0.if:value']);
  const plugin = checkHooksConfig({ PreToolUse: [{ matcher: 'mcp__db__.*', hooks: [cmd()] }] }, { mcp: { configured: new Set(), plugin: { name: 'p', servers: new Set(['db']) } } });
  assert.match(plugin[0].message, /mcp__plugin_p_db__\.\*/);
});

test('checkHooksConfig: look-alikes that stay quiet', () => {
  const quiet = [
    { PreToolUse: [{ matcher: 'Bash', hooks: [cmd()] }, { matcher: 'Edit|Write|MultiEdit', hooks: [cmd()] }, { matcher: 'Edit, Write', hooks: [cmd()] }] },
    { PreToolUse: [{ matcher: 'mcp__memory__.*', hooks: [cmd()] }, { matcher: '^Notebook', hooks: [cmd()] }, { matcher: '*', hooks: [cmd()] }, { matcher: '', hooks: [cmd()] }] },
    { PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'x', if: 'Edit(*.ts)' }] }] },
    { SessionStart: [{ matcher: 'startup', hooks: [cmd()] }], Stop: [{ hooks: [{ type: 'prompt', prompt: 'Done?' }] }], SubagentStop: [{ matcher: '^my-plugin:reviewer$', hooks: [{ type: 'agent', prompt: 'Check' }] }] },
    { Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'http', url: 'http://localhost:8080/hook' }] }], PreCompact: [{ hooks: [{ type: 'mcp_tool', server: 'x', tool: 'y' }] }] },
    { Stop: [{ matcher: '*', hooks: [cmd()] }] },
  ];
  for (const hooks of quiet) assert.deepEqual(checkHooksConfig(hooks, {}), [], JSON.stringify(hooks));
});

test('SKILL.md hooks: exact ranges; ${CLAUDE_PLUGIN_ROOT} outside a plugin; claude-code only', () => {
  const text = skill('name: a\ndescription: d\nhooks:\n  PreToolUsee:\n    - matcher: "Bash"\n      hooks:\n        - type: command\n          command: "./scripts/check.sh"\n  PostToolUse:\n    - matcher: mcp__memory\n      hooks:\n        - type: comand\n          command: "${CLAUDE_PLUGIN_ROOT}/x.sh"');
  const r = validateSkillMd(text, { profile: 'claude-code', folderName: 'a' }, nodeFileSystem);
  assert.deepEqual(summary(r.problems), ['hook-invalid@5:3-5:14', 'hook-matcher@11:16-11:27', 'hook-invalid@13:17-13:23']);
  assert.match(r.problems[0].message, /^Rename 'PreToolUsee' to 'PreToolUse'/);
  assert.equal(r.problems[0].severity, 'error');
  const plugin = validateSkillMd(skill('name: a\ndescription: d\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: "${CLAUDE_PLUGIN_ROOT}/x.sh"'), { profile: 'claude-code', folderName: 'a' }, nodeFileSystem);
  assert.deepEqual(summary(plugin.problems), ['hook-script-missing@8:20-8:48']);
  assert.deepEqual(validateSkillMd(text, { profile: 'spec', folderName: 'a' }, nodeFileSystem).problems.filter((p) => p.code.startsWith('hook-')), []);
  // The documented example (docs/hooks.md, "Hooks in skills and agents"): quiet.
  const example = skill('name: secure-operations\ndescription: Perform operations with security checks\nhooks:\n  PreToolUse:\n    - matcher: "Bash"\n      hooks:\n        - type: command\n          command: "./scripts/security-check.sh"');
  assert.deepEqual(validateSkillMd(example, { profile: 'claude-code', folderName: 'secure-operations' }, nodeFileSystem).problems, []);
});

async function hookProblems(dir: string): Promise<string[]> {
  let out = '';
  await main({ argv: ['validate', dir, '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  const json = JSON.parse(out) as { configs?: { path: string; problems: { code: string; line: number; column: number; severity: string }[] }[] };
  return (json.configs ?? []).flatMap((c) => c.problems.map((p) => `${c.path.slice(c.path.indexOf(path.basename(dir)) + path.basename(dir).length + 1)} ${p.code}@${p.line}:${p.column}:${p.severity}`)).sort();
}

test('real plugins\' hooks.json (eight, with their scripts): no problem', async () => {
  assert.deepEqual(await hookProblems(`${FIXTURES}/claude-plugins-official`), []);
  assert.deepEqual(await hookProblems(`${FIXTURES}/wshobson-agents`), []);
});

test('a real plugin\'s hooks.json with one defect each: reported at the defect, through the CLI', async () => {
  const source = path.join(FIXTURES, 'claude-plugins-official/plugins/hookify');
  const original = fs.readFileSync(path.join(source, 'hooks/hooks.json'), 'utf8');
  const files: Record<string, string> = { '.claude-plugin/plugin.json': fs.readFileSync(path.join(source, '.claude-plugin/plugin.json'), 'utf8') };
  for (const f of fs.readdirSync(path.join(source, 'hooks'))) files[`hooks/${f}`] = fs.readFileSync(path.join(source, 'hooks', f), 'utf8');
  const cases: Array<[string, string, string[]]> = [
    ['a misspelt event', original.replace('"PostToolUse"', '"PostToolUsed"'), ['hooks/hooks.json hook-invalid@15:5:error']],
    ['a script that is not in the plugin', original.replace('hooks/posttooluse.py', 'hooks/post_tool_use.py'), ['hooks/hooks.json hook-script-missing@20:24:warning']],
    ['a wrong handler type', original.replace('"type": "command"', '"type": "script"'), ['hooks/hooks.json hook-invalid@8:21:error']],
    ['a trailing comma', original.replace(/}\s*$/, ',}'), ['hooks/hooks.json hook-invalid@' + (original.trimEnd().split('\n').length) + ':2:error']],
  ];
  for (const [what, text, expected] of cases) {
    const dir = tempTree({ ...files, 'hooks/hooks.json': text });
    try {
      assert.deepEqual(await hookProblems(dir), expected, what);
    } finally {
      removeTree(dir);
    }
  }
});

test('validatePluginHooksJson: the top-level hooks object is required', () => {
  const problems = validatePluginHooksJson('{"PreToolUse": []}', '/p', 'p', nodeFileSystem);
  assert.deepEqual(summary(problems), ['hook-invalid@1:1-1:2']);
});
