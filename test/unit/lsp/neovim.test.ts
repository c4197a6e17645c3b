// A real editor as the client: Neovim (Debian's, headless, its built-in LSP client) runs test/lsp/neovim.lua, which
// opens a skill with a known problem, waits for the diagnostic, asks for a hover and the code actions, applies the
// preferred quick fix and writes the buffer. This test checks the file on disk. Neovim is in the CI's apt list
// (scripts/install-code-server.sh); without it the test fails and says how to install it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildServer, workspace } from './client';

const SKILL = '---\nname: demo\ndescription: Deploys the app: use it when asked to ship\n---\n\nRun the steps.\n';

test('Neovim: diagnostic, hover, code action applied and written to disk', () => {
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  assert.equal(version.status, 0, 'Neovim is needed for this test: apt-get install -y neovim');
  const ws = workspace({ '.claude/skills/demo/SKILL.md': SKILL });
  const out = path.join(ws.home, 'result.json');
  try {
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${path.resolve('test/lsp/neovim.lua')}`], {
      encoding: 'utf8', timeout: 60000, cwd: ws.root,
      env: { ...process.env, HOME: ws.home, XDG_STATE_HOME: ws.home, XDG_CACHE_HOME: ws.home, SKILLFLOW_NODE: process.execPath, SKILLFLOW_CLI: path.join(buildServer(), 'skillflow.js'), SKILLFLOW_ROOT: ws.root, SKILLFLOW_FILE: ws.file('.claude/skills/demo/SKILL.md'), SKILLFLOW_OUT: out },
    });
    const result = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) as { codes: string[]; hover?: string; actions: string[]; cleared: boolean; error?: string } : undefined;
    assert.equal(r.status, 0, `nvim exited ${r.status}: ${JSON.stringify(result)}\n${r.stderr}`);
    assert.ok(result);
    assert.deepEqual(result.codes, ['yaml-syntax']);
    assert.match(result.hover ?? '', /\*\*`description`\*\*/);
    assert.ok(result.actions.includes('Disable yaml-syntax for this file') && result.actions.includes('Disable yaml-syntax in this workspace'), result.actions.join(', '));
    assert.equal(fs.readFileSync(ws.file('.claude/skills/demo/SKILL.md'), 'utf8'), SKILL.replace('description: Deploys the app: use it when asked to ship', "description: 'Deploys the app: use it when asked to ship'"));
    assert.equal(result.cleared, true, 'the diagnostic went after the fix');
  } finally {
    ws.cleanup();
  }
});
