import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { exchangeIfSame } from '../../../../src/core/base/renameExchange';
import { removeTree, tempTree } from '../../helpers/tempTree';

const HAS_EXCHANGE = process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch) && nodeFs.existsSync('/usr/bin/perl');

test('exchange: swaps the two names when the path still names the file read, with its size; else does nothing', () => {
  // Hostile names: a newline, a quote, spaces (the helper takes NUL-separated fields).
  const root = tempTree({ 'a\n\'b c.json': 'theirs', '.t': 'ours!' });
  try {
    const file = nodePath.join(root, 'a\n\'b c.json');
    const tmp = nodePath.join(root, '.t');
    const st = nodeFs.statSync(file);
    if (!HAS_EXCHANGE) { assert.equal(exchangeIfSame(tmp, file, st.ino, st.size), 'unsupported'); return; }
    assert.equal(exchangeIfSame(tmp, file, st.ino, st.size + 1), 'changed', 'the size differs: in-place change');
    assert.equal(exchangeIfSame(tmp, file, st.ino + 1, st.size), 'changed', 'another file at the path');
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'theirs');
    assert.equal(exchangeIfSame(tmp, file, st.ino, st.size), 'exchanged');
    assert.equal(nodeFs.readFileSync(file, 'utf8'), 'ours!');
    assert.equal(nodeFs.readFileSync(tmp, 'utf8'), 'theirs');
    assert.equal(nodeFs.statSync(tmp).ino, st.ino);
    assert.equal(exchangeIfSame(tmp, nodePath.join(root, 'missing'), st.ino, st.size), 'changed');
  } finally { removeTree(root); }
});
