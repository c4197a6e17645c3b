// The names mentions are looked up among (claudeWiring.ts MentionPool), as the CLI's report memo keeps and edits them
// (validatePartial.ts): a rename of a skill whose `name` is only a label, applied to a pool with renamedInPool, gives
// the names (and the label counts) the pool of the run after the rename has; and closestName's `tie` says whether
// another name is as close as the one it gives (then the pool's order decides, which an edited pool no longer keeps).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { ClaudeModel } from '../../../../src/core/claude/load';
import { closestName, mentionPool, nameDistance, renamedInPool } from '../../../../src/core/discovery/claudeWiring';
import type { LoadedSkillEntry } from '../../../../src/core/discovery/load';

/** An entry as mentionPool reads it: its `name`, its folder, its plugin. */
function entry(name: string, folderName: string, plugin?: string): LoadedSkillEntry {
  return { name, folderName, root: { plugin } } as unknown as LoadedSkillEntry;
}

/** A model whose loaded entries are the given commands (as a project's skills give them: the folder's name). */
function model(commands: string[]): ClaudeModel {
  return { entries: commands.map((c) => ({ loaded: true, name: c, invocation: `/${c}` })) } as unknown as ClaudeModel;
}

const name = fc.constantFrom('ab', 'abc', 'help', 'skill-a', 'skill-b', 'x:y', 'p:skill-a', 'review');

test('renamedInPool gives the names and label counts of the pool made after the rename', () => {
  const entries = fc.array(fc.record({ name, folder: name, plugin: fc.option(fc.constantFrom('p', 'q'), { nil: undefined }) }), { minLength: 1, maxLength: 8 });
  fc.assert(fc.property(entries, fc.nat(), name, fc.array(name, { maxLength: 3 }), (list, pick, to, commands) => {
    const projects = list.map((e, i) => [e, i] as const).filter(([e]) => e.plugin === undefined);
    fc.pre(projects.length > 0);
    const k = projects[pick % projects.length][1];
    const before = list.map((e) => entry(e.name, e.folder, e.plugin));
    const after = list.map((e, i) => entry(i === k ? to : e.name, e.folder, e.plugin));
    const models = [model(commands)];
    const edited = renamedInPool(mentionPool(before, models, true), list[k].name, to)!;
    const made = mentionPool(after, models, true);
    assert.deepEqual(new Set(edited.names), made.names);
    assert.deepEqual(new Map([...edited.labels!].sort()), new Map([...made.labels!].sort()));
    assert.equal(edited.edited === true, list[k].name !== to);
  }), { numRuns: 2000 });
});

test('renamedInPool: a pool kept without label counts cannot be edited', () => {
  assert.equal(renamedInPool(mentionPool([entry('a', 'a')], []), 'a', 'b'), undefined);
});

test('closestName with `tie` gives the same name, and says whether another is as close', () => {
  const word = fc.stringMatching(/^[ab-]{3,9}$/);
  fc.assert(fc.property(word, fc.uniqueArray(word, { maxLength: 12 }), (n, pool) => {
    // (A pool holds each name once: a MentionPool's are sets.)
    const tie = { found: true };
    const best = closestName(n, pool, tie);
    assert.equal(best, closestName(n, pool));
    const others = best === undefined ? [] : pool.filter((c) => c !== best && !c.includes(':') && nameDistance(n, c) === nameDistance(n, best));
    assert.equal(tie.found, others.length > 0, `${n} in ${pool.join(' ')}`);
  }), { numRuns: 3000 });
});
