import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { defaultMetaReader, firstParagraph, MAX_META_BYTES, metaFromText } from '../../../../src/core/claude/meta';
import { invocability } from '../../../../src/core/claude/resolve';
import type { ClaudeEntry } from '../../../../src/core/claude/types';
import { treeFs } from './treeFs';

test('meta: the fields the model needs; booleans as Claude Code reads them; first paragraph when description is absent', () => {
  assert.deepEqual(metaFromText('---\nname: hi\ndescription: " Greets. "\nwhen_to_use: On hello.\ndisable-model-invocation: yes\nuser-invocable: Off\n---\nBody\n'), {
    name: 'hi', description: 'Greets.', whenToUse: 'On hello.', disableModelInvocation: true, userInvocable: false,
  });
  assert.deepEqual(metaFromText('---\nname: x\n---\n# Title\n\nFirst line\nsecond line.\n\nMore.\n'), { name: 'x', description: 'First line second line.' });
  assert.deepEqual(metaFromText('Just a body paragraph.\n'), { description: 'Just a body paragraph.' });
  assert.deepEqual(metaFromText('---\ndisable-model-invocation: maybe\n---\n'), {}, 'an unreadable boolean is left unset');
  assert.deepEqual(metaFromText('---\nname: [oops\n---\nBody.\n'), {}, 'malformed YAML: empty metadata, no description');
  assert.equal(firstParagraph('\n\n# Only a heading\n'), undefined);
});

test('meta reader: unreadable → undefined; over 1 MiB → empty metadata', () => {
  const fs = treeFs({ 'big/SKILL.md': `---\ndescription: big\n---\n${'x'.repeat(MAX_META_BYTES)}`, 'ok/SKILL.md': '---\ndescription: ok\n---\n' });
  const read = defaultMetaReader(fs);
  assert.deepEqual(read('/ok/SKILL.md'), { description: 'ok' });
  assert.deepEqual(read('/big/SKILL.md'), {});
  assert.equal(read('/missing/SKILL.md'), undefined);
});

test('invocability: user-invocable, disable-model-invocation and skillOverrides; both false is unreachable', () => {
  const e = (meta: ClaudeEntry['meta'], override?: ClaudeEntry['override']): ClaudeEntry => ({
    kind: 'skill', level: 'project', path: '/s/SKILL.md', dir: '/s', root: '/', folderName: 's', displayName: 's', name: 's',
    invocation: '/s', loaded: true, meta, ...(override ? { override } : {}),
  });
  assert.deepEqual(invocability(e({})), { user: true, model: true });
  assert.deepEqual(invocability(e({ userInvocable: false, disableModelInvocation: true })), { user: false, model: false });
  assert.deepEqual(invocability(e({}, 'user-invocable-only')), { user: true, model: false });
  assert.deepEqual(invocability(e({}, 'name-only')), { user: true, model: true });
  assert.deepEqual(invocability(e({}, 'off')), { user: false, model: false });
  assert.deepEqual(invocability({ ...e({}), loaded: false }), { user: false, model: false });
});
