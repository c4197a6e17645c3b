// The editor's start-up cache (src/extension/skills/startupCache.ts, core/cache/loadCache.ts) in the real extension
// host: a cold start publishes Problems from the cache before anything is loaded (the index is still unloaded when
// they are there), never for a file that changed since, and the background load then replaces them with what is true
// now (a cached problem between files that is out of date is corrected).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsApi } from '../../src/extension/skills';
import { getApi, waitFor, workspaceDir } from './util';

function codes(file: string): string[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((d) => d.source === 'skillflow').map((d) => String((d.code as { value: string }).value)).sort();
}

describe('start-up cache', () => {
  const made: string[] = [];
  const write = (rel: string, text: string) => {
    const file = path.join(workspaceDir(), rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    made.push(file);
    return file;
  };

  after(async () => {
    for (const f of made) fs.rmSync(path.basename(path.dirname(f)) === 'agents' ? f : path.dirname(f), { recursive: true, force: true });
    const api = (await getApi<{ skills: SkillsApi }>()).skills;
    api.service.reload();
    await api.whenIdle();
  });

  it('a cold start shows Problems from the cache before the load, none for a changed file, then the load corrects them', async function () {
    this.timeout(60_000);
    const api = (await getApi<{ skills: SkillsApi }>()).skills;
    const broken = write('.claude/skills/cache-edit/SKILL.md', '---\nname: cache-edit\ndescription: [unclosed\n---\n# x\n');
    const mismatched = write('.claude/skills/cache-one/SKILL.md', '---\nname: cache-same\ndescription: One skill. Use in tests.\n---\n# x\n');
    const agent = write('.claude/agents/cache-agent.md', '---\nname: cache-agent\ndescription: Agent for the cache test.\nskills:\n  - cache-ghost\n---\nBody\n');
    await api.whenIdle();
    // A first start writes the cache once loaded (whenIdle waits for that too).
    api.coldStart();
    await api.whenIdle();
    await waitFor(() => codes(agent).includes('agent-skill-missing') && codes(broken).includes('yaml-syntax'), 10_000, 'the problems after the first start');
    assert.deepEqual(codes(mismatched), ['name-dir-mismatch']);

    // Since: the broken skill fixed (its file changed), and the agent's missing skill created (the agent's file did not change).
    fs.writeFileSync(broken, '---\nname: cache-edit\ndescription: Fixed now. Use in tests.\n---\n# x\n');
    write('.claude/skills/cache-ghost/SKILL.md', '---\nname: cache-ghost\ndescription: Here now. Use in tests.\n---\n# x\n');

    const shown = api.coldStart();
    // Before the load (it is a task that has not run yet): from the cache.
    assert.equal(api.service.index.loaded, false, 'nothing loaded yet');
    assert.ok(shown >= 2, `problems of ${shown} files from the cache`);
    assert.ok(api.timings.startupToCachedProblemsMs !== undefined && api.timings.startupToCachedProblemsMs < 1000, `cached Problems after ${api.timings.startupToCachedProblemsMs} ms`);
    assert.deepEqual(codes(mismatched), ['name-dir-mismatch'], 'an unchanged skill: its cached problem');
    assert.deepEqual(codes(agent), ['agent-skill-missing'], 'an unchanged agent: its cached problem (out of date: the skill exists now)');
    assert.deepEqual(codes(broken), [], 'a changed file is never shown from the cache');

    // The load replaces them with what is true now.
    await api.whenIdle();
    assert.equal(api.service.index.loaded, true);
    await waitFor(() => !codes(agent).includes('agent-skill-missing'), 10_000, 'the out-of-date agent problem to go');
    assert.deepEqual(codes(broken), []);
    assert.deepEqual(codes(mismatched), ['name-dir-mismatch']);
  });
});
