// Bad input never kills the language server: a fuzzed file sent as didChange (full and incremental changes, ranges
// past the end), requests for unknown, non-file and malformed URIs, bad command arguments, a change to a document
// that was never opened. After all of it the server still answers and shuts down cleanly.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LspClient, uriOf, workspace } from './client';

const SKILL = '---\nname: demo\ndescription: Deploys the app: use it when asked to ship\nmodel: sonnet\nallowed-tools: [Read, Bash(git:*)]\n---\n\nSee [ref](missing.md) and run /demo.\n';
const PIECES = ['---\n', '\r\n', '\n', ': ', '- ', '  ', '"', "'", '[', ']', '{', '}', '#', '&a', '*a', '!!js/function', '\u0000', '\uFEFF', '\uD800', '😀', '<!-- skillflow-disable yaml-syntax -->', 'name: ', 'description: ', '](../../x.md)', '/cmd', '\t'];

/** A small seeded generator (the same inputs on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

function mutate(text: string, r: () => number): string {
  const out = [...text];
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (out.length + 1));
    const what = r();
    if (what < 0.4) out.splice(at, 0, PIECES[Math.floor(r() * PIECES.length)]);
    else if (what < 0.7) out.splice(at, Math.floor(r() * 20));
    else out.splice(at, 0, String.fromCharCode(Math.floor(r() * 0xffff)));
  }
  return out.join('');
}

test('fuzzed didChange, unknown URIs and bad arguments never end the server', async () => {
  const ws = workspace({ '.claude/skills/demo/SKILL.md': SKILL });
  const client = new LspClient({ HOME: ws.home });
  try {
    await client.initialize(ws.root);
    const skill = ws.file('.claude/skills/demo/SKILL.md');
    const uri = uriOf(skill);
    await client.open(skill, SKILL);
    const r = rng(20261126);
    let text = SKILL;
    let version = 1;
    const pending: Array<Promise<unknown>> = [];
    const swallow = (p: Promise<unknown>) => pending.push(p.then(() => undefined, () => undefined));
    for (let i = 0; i < 300; i++) {
      version++;
      if (r() < 0.7) {
        text = r() < 0.1 ? SKILL : mutate(text, r);
        await client.change(skill, text, version);
      } else {
        // An incremental change whose range may lie past the end of the document.
        const line = Math.floor(r() * 30);
        await client.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: { line, character: Math.floor(r() * 200) }, end: { line: line + Math.floor(r() * 3), character: Math.floor(r() * 200) } }, text: PIECES[Math.floor(r() * PIECES.length)] }] });
      }
      const position = { line: Math.floor(r() * 12), character: Math.floor(r() * 80) };
      swallow(client.request('textDocument/hover', { textDocument: { uri }, position }));
      swallow(client.request('textDocument/completion', { textDocument: { uri }, position }));
      swallow(client.request('textDocument/definition', { textDocument: { uri }, position }));
      if (i % 10 === 0) {
        swallow(client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [{ range: { start: position, end: { line: 0, character: 0 } }, source: 'skillflow', code: 'yaml-syntax', message: 'x' }], only: ['quickfix', 'source.fixAll.skillflow'] } }));
        swallow(client.request('textDocument/documentLink', { textDocument: { uri } }));
      }
    }
    // Unknown, non-file and malformed URIs; a change to a document never opened; bad command arguments.
    for (const bad of [uriOf(ws.file('nope/SKILL.md')), 'untitled:Untitled-1', 'file://%E0%A4%A', 'not a uri', '']) {
      swallow(client.request('textDocument/hover', { textDocument: { uri: bad }, position: { line: 0, character: 0 } }));
      swallow(client.request('textDocument/completion', { textDocument: { uri: bad }, position: { line: 0, character: 0 } }));
      swallow(client.request('textDocument/codeAction', { textDocument: { uri: bad }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } }));
      swallow(client.request('textDocument/definition', { textDocument: { uri: bad }, position: { line: 0, character: 0 } }));
      swallow(client.request('textDocument/documentLink', { textDocument: { uri: bad } }));
      await client.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: bad, version: 9 }, contentChanges: [{ text: 'x' }] });
      await client.rpc.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: bad, type: 2 }] });
    }
    swallow(client.request('textDocument/hover', {}));
    swallow(client.request('workspace/executeCommand', { command: 'skillflow.disableRuleInWorkspace', arguments: [42, null] }));
    swallow(client.request('workspace/executeCommand', { command: 'skillflow.disableRuleInWorkspace' }));
    swallow(client.request('workspace/executeCommand', { command: 'no.such.command', arguments: [] }));
    await client.rpc.sendNotification('workspace/didChangeWatchedFiles', {});
    await Promise.all(pending);

    // Still alive and still right: a known text gets its diagnostics back.
    await client.change(skill, SKILL, ++version);
    const d = await client.waitFor(skill, (x) => x.some((p) => p.code === 'yaml-syntax') && x.some((p) => p.code === 'reference-missing'));
    assert.ok(d.length >= 2);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 1 } });
    assert.match(hover.contents.value, /`name`/);
    assert.equal(client.exited, undefined, client.stderr);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.child.kill();
    ws.cleanup();
  }
});
