// The editor features shared by the VS Code extension and the language server (src/core/editor/features.ts).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyEdits } from 'jsonc-parser';
import { agentSkillAt, commandMentionAt, completionsAt, hoverAt, ruleOffEdits } from '../../../../src/core/editor/features';
import { applyTextEdits, disableForFileEdit } from '../../../../src/core/fixes/skillFixes';

const SKILL = '---\nname: demo\ndescription: Deploys\nagent: Explore\n---\n\nBody.\n';

test('hover: on a key and on its value; the fork note; unknown keys; agent keys; nothing in the body', () => {
  assert.match(hoverAt('skill', SKILL, { line: 2, column: 2 })!.markdown, /^\*\*`name`\*\*/);
  assert.deepEqual(hoverAt('skill', SKILL, { line: 2, column: 8 })!.range, { line: 2, column: 1, endLine: 2, endColumn: 5 });
  assert.match(hoverAt('skill', SKILL, { line: 4, column: 2 })!.markdown, /no `context: fork`/);
  assert.match(hoverAt('skill', '---\nfoo: 1\n---\n', { line: 2, column: 1 })!.markdown, /not a known SKILL\.md key/);
  assert.match(hoverAt('agent', '---\nskills: [a]\n---\n', { line: 2, column: 1 })!.markdown, /\(agent\)/);
  assert.equal(hoverAt('skill', SKILL, { line: 7, column: 1 }), undefined);
  assert.equal(hoverAt(undefined, SKILL, { line: 2, column: 1 }), undefined);
});

test('one parse per text for the editor features: answers follow the text, and a caller changing a range changes nothing', () => {
  const other = '---\nname: other\ndescription: Else\n---\n';
  const first = hoverAt('skill', SKILL, { line: 2, column: 2 })!;
  first.range.endColumn = 99; // a caller that converts ranges in place
  assert.deepEqual(hoverAt('skill', SKILL, { line: 2, column: 2 })!.range, { line: 2, column: 1, endLine: 2, endColumn: 5 });
  assert.deepEqual(hoverAt('skill', other, { line: 3, column: 2 })!.range, { line: 3, column: 1, endLine: 3, endColumn: 12 });
  assert.equal(hoverAt('skill', other, { line: 4, column: 2 }), undefined, 'the other text has no fourth key line');
  assert.match(hoverAt('skill', SKILL, { line: 4, column: 2 })!.markdown, /^\*\*`agent`\*\*/);
  // The same text as a new string (a document read again) gives the same answer.
  assert.deepEqual(hoverAt('skill', (' ' + SKILL).slice(1), { line: 2, column: 2 })!.range, { line: 2, column: 1, endLine: 2, endColumn: 5 });
});

test('completion: keys not yet present at a line start, values after `key: `, nothing outside the frontmatter or in agents', () => {
  const keys = completionsAt('skill', '---\nname: a\n\n---\n', { line: 3, column: 1 }, 'claude-code')!;
  assert.ok(keys.some((k) => k.label === 'model' && k.insertText === 'model: ' && k.retrigger));
  assert.ok(!keys.some((k) => k.label === 'name'));
  const values = completionsAt('command', '---\neffort: h\n---\n', { line: 2, column: 10 }, 'claude-code')!;
  assert.ok(values.some((v) => v.label === 'high'));
  assert.deepEqual(values[0].range, { line: 2, column: 9, endLine: 2, endColumn: 10 });
  assert.equal(completionsAt('skill', SKILL, { line: 7, column: 1 }, 'claude-code'), undefined);
  // Tool names: after the key, after a separator, on a list item under it.
  const tools = (text: string, line: number, column: number) => completionsAt('skill', text, { line, column }, 'claude-code')?.map((c) => `${c.label}@${c.range.column}`);
  assert.ok(tools('---\nallowed-tools: Re\n---\n', 2, 18)!.includes('Read@16'));
  assert.ok(tools('---\nallowed-tools: Read, Bash(git:*) We\n---\n', 2, 36)!.includes('WebFetch@34'));
  assert.ok(tools('---\ndisallowed-tools:\n  - Gr\n---\n', 3, 7)!.includes('Grep@5'));
  assert.ok(!tools('---\nname: Re\n---\n', 2, 9)?.includes('Read@7'), 'not after other keys');
  assert.equal(completionsAt('agent', SKILL, { line: 3, column: 1 }, 'claude-code'), undefined);
  // A position past the end of its line (found by the skillmd fuzz: column 2 of an empty line) is taken as the end.
  const past = completionsAt('skill', '---\nname: a\n\ndescription: b\n---\n', { line: 3, column: 2 }, 'claude-code')!;
  assert.deepEqual(past.find((k) => k.label === 'license')?.range, { line: 3, column: 1, endLine: 3, endColumn: 1 });
  assert.deepEqual(completionsAt('command', '---\neffort: h\n---\n', { line: 2, column: 30 }, 'claude-code')![0].range, { line: 2, column: 9, endLine: 2, endColumn: 10 });
});

test('disable for this file: a new comment after the frontmatter (CRLF kept), a code added to an existing one, none when named or unclosed', () => {
  assert.equal(applyTextEdits(SKILL, [disableForFileEdit(SKILL, 'body-lines')!]), '---\nname: demo\ndescription: Deploys\nagent: Explore\n---\n<!-- skillflow-disable body-lines -->\n\nBody.\n');
  const crlf = '---\r\nname: a\r\n---\r\nx\r\n';
  assert.equal(applyTextEdits(crlf, [disableForFileEdit(crlf, 'bom')!]), '---\r\nname: a\r\n---\r\n<!-- skillflow-disable bom -->\r\nx\r\n');
  const has = '---\nname: a\n---\n<!-- skillflow-disable bom -->\n';
  assert.equal(applyTextEdits(has, [disableForFileEdit(has, 'body-lines')!]), '---\nname: a\n---\n<!-- skillflow-disable bom body-lines -->\n');
  assert.equal(disableForFileEdit(has, 'bom'), undefined);
  assert.equal(disableForFileEdit('---\nname: a\n', 'bom'), undefined);
  assert.equal(applyTextEdits('---\nname: a\n---', [disableForFileEdit('---\nname: a\n---', 'bom')!]), '---\nname: a\n---\n<!-- skillflow-disable bom -->');
});

test('disable in this workspace: rules.<code> = off, layout kept; a new file from nothing; never a rewrite of broken JSON', () => {
  const text = '{\n    "profile": "spec"\n}\n';
  const r = ruleOffEdits(text, 'bom');
  assert.ok(r.ok);
  assert.deepEqual(JSON.parse(applyEdits(text, r.edits)), { rules: { bom: 'off' }, profile: 'spec' });
  assert.match(applyEdits(text, r.edits), /^ {4}"rules"/m);
  const empty = ruleOffEdits('', 'bom');
  assert.ok(empty.ok && JSON.parse(applyEdits('', empty.edits)).rules.bom === 'off');
  const broken = ruleOffEdits('{ "rules": ', 'bom');
  assert.ok(!broken.ok && /not valid JSON/.test(broken.reason));
  const notObject = ruleOffEdits('{ "rules": [] }', 'bom');
  assert.ok(!notObject.ok && /"rules" object/.test(notObject.reason));
});

test('definition targets: an agent skills: entry (list or flow), a /command mention (not a path or URL)', () => {
  const agent = '---\nname: a\nskills:\n  - deploy\n  - tools:lint\nmodel: sonnet\n---\nRun /deploy now, not src/deploy or https://x.io/deploy.\n';
  assert.deepEqual(agentSkillAt(agent, { line: 4, column: 6 }), { name: 'deploy', range: { line: 4, column: 5, endLine: 4, endColumn: 11 } });
  assert.equal(agentSkillAt(agent, { line: 5, column: 8 })!.name, 'tools:lint');
  assert.equal(agentSkillAt(agent, { line: 6, column: 9 }), undefined, 'the model: line is not a skills entry');
  assert.equal(agentSkillAt('---\nskills: [x, y]\n---\n', { line: 2, column: 13 })!.name, 'y');
  assert.deepEqual(commandMentionAt(agent, { line: 8, column: 7 }), { command: '/deploy', range: { line: 8, column: 5, endLine: 8, endColumn: 12 } });
  assert.equal(commandMentionAt(agent, { line: 8, column: 27 }), undefined);
  assert.equal(commandMentionAt(agent, { line: 8, column: 48 }), undefined);
});
