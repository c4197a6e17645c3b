import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyRangeEdits, descriptionRange, setFrontmatterScalar } from '../../../../src/core/claude/frontmatterEdit';
import { parseClaudeBoolean } from '../../../../src/core/claude/values';

const isTrue = (v: unknown) => parseClaudeBoolean(v) === true;
const dmi = (text: string) => setFrontmatterScalar(text, 'disable-model-invocation', 'true', isTrue);

function edited(text: string): string {
  const r = dmi(text);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return applyRangeEdits(text, r.ok ? r.edits : []);
}

test('a missing key is inserted as the last frontmatter line; everything else is byte-identical', () => {
  const text = '---\nname: deploy\ndescription: "Ship it: now"\nmetadata:\n  owner: ops\n---\n# Deploy\n\nBody.\n';
  assert.equal(edited(text), '---\nname: deploy\ndescription: "Ship it: now"\nmetadata:\n  owner: ops\ndisable-model-invocation: true\n---\n# Deploy\n\nBody.\n');
  const crlf = '---\r\nname: a\r\n---\r\nBody\r\n';
  assert.equal(edited(crlf), '---\r\nname: a\r\ndisable-model-invocation: true\r\n---\r\nBody\r\n');
});

test('an existing false (or any non-true) value is replaced where it stands; true-like values need no edit', () => {
  assert.equal(edited('---\nname: a\ndisable-model-invocation: false # for now\ndescription: d\n---\n'), '---\nname: a\ndisable-model-invocation: true # for now\ndescription: d\n---\n');
  assert.equal(edited('---\ndisable-model-invocation: "no"\n---\n'), '---\ndisable-model-invocation: true\n---\n');
  assert.equal(edited('---\ndisable-model-invocation:\nname: a\n---\n'), '---\ndisable-model-invocation: true\nname: a\n---\n');
  for (const v of ['true', 'yes', 'On', '1']) {
    const r = dmi(`---\ndisable-model-invocation: ${v}\n---\n`);
    assert.ok(r.ok && r.edits.length === 0, v);
  }
});

test('a file without frontmatter gets one at the top; a BOM stays outside the edit', () => {
  assert.equal(edited('Deploy the branch.\n'), '---\ndisable-model-invocation: true\n---\nDeploy the branch.\n');
  const bom = '\ufeff---\nname: a\n---\n';
  const r = dmi(bom);
  assert.ok(r.ok);
  // Positions are in the text without the BOM, as an editor shows it.
  assert.equal(applyRangeEdits(bom.slice(1), r.ok ? r.edits : []), '---\nname: a\ndisable-model-invocation: true\n---\n');
});

test('unreadable frontmatter is refused, never edited', () => {
  const unclosed = dmi('---\nname: a\ndescription: b\n');
  assert.equal(unclosed.ok, false);
  if (!unclosed.ok) assert.match(unclosed.message, /no closing '---'/);
  const broken = dmi('---\nname: a\ndescription: [when asked\n---\n');
  assert.equal(broken.ok, false);
  if (!broken.ok) assert.match(broken.message, /cannot be read \(line 3/);
  // An unquoted `: ` is read the way Claude Code reads it: the edit goes in.
  assert.equal(dmi('---\nname: a\ndescription: Use: when asked\n---\n').ok, true);
});

test('descriptionRange points at the description value (a block value whole)', () => {
  const text = '---\nname: a\ndescription: Short text.\n---\n';
  assert.deepEqual(descriptionRange(text), { line: 3, column: 14, endLine: 3, endColumn: 25 });
  const block = '---\ndescription: |\n  Line one.\n  Line two.\n---\n';
  const r = descriptionRange(block);
  assert.equal(r?.line, 2);
  assert.equal(r?.endLine, 4);
  assert.equal(descriptionRange('---\nname: a\n---\n'), undefined);
});
