/** The rules that need more than one skill: `duplicate-name` (same name in one scope) and `shadowed` (a personal skill hidden by a project one). */
import * as path from 'node:path';
import type { Profile, Range } from '../base/types';
import { severityFor } from '../base/rules';
import { sortProblems } from '../base/problems';
import { nfkc } from '../base/text';
import type { SkillEntry, SkillsRoot } from '../skillmd/model';
import type { LoadedSkillEntry } from './load';
import { ROOT_PARENTS } from './paths';

const CROSS_CODES = new Set(['duplicate-name', 'shadowed']);

/** Where two same-named skills clash: one project (the folder holding .claude/.agents/.github), personal, or one plugin. */
function clashGroup(s: SkillEntry): string {
  if (s.scope === 'personal') return 'personal';
  if (s.scope === 'plugin') return `plugin\0${s.root.plugin ?? ''}`;
  const parent = path.dirname(s.root.path);
  const project = path.basename(s.root.path) === 'skills' && ROOT_PARENTS.has(path.basename(parent)) ? path.dirname(parent) : s.root.path;
  return `project\0${project}`;
}


function crossRange(s: SkillEntry): Range {
  return (s as LoadedSkillEntry).nameRange ?? { line: 1, column: 1, endLine: 1, endColumn: 1 };
}

/** Applies duplicate-name and shadowed to the entries (mutates problems and shadowedBy; idempotent). */
export function applyCrossSkillRules(skills: SkillEntry[], profile: Profile = 'claude-code'): void {
  for (const s of skills) {
    if (s.problems.some((p) => CROSS_CODES.has(p.code))) s.problems = s.problems.filter((p) => !CROSS_CODES.has(p.code));
    s.shadowedBy = undefined;
  }
  const groups = new Map<string, SkillEntry[]>();
  const projectByName = new Map<string, SkillEntry>();
  // The clash group depends only on the root: computed once per root object.
  const groupOfRoot = new Map<SkillsRoot, string>();
  for (const s of skills) {
    const n = nfkc(s.name);
    let group = groupOfRoot.get(s.root);
    if (group === undefined || s.scope !== s.root.scope) {
      group = clashGroup(s);
      if (s.scope === s.root.scope) groupOfRoot.set(s.root, group);
    }
    const key = `${group}\0${n}`;
    const list = groups.get(key);
    if (list) list.push(s); else groups.set(key, [s]);
    if (s.scope === 'project') {
      const known = projectByName.get(n);
      if (!known || s.skillMdPath < known.skillMdPath) projectByName.set(n, s);
    }
  }
  const touched = new Set<SkillEntry>();
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    for (const s of list) {
      const others = list.filter((o) => o !== s).map((o) => o.skillMdPath).sort();
      s.problems.push({
        code: 'duplicate-name',
        severity: severityFor('duplicate-name', profile) ?? 'error',
        message: `another skill in the same scope is also named '${s.name}': ${others.join(', ')}`,
        ...crossRange(s),
      });
      touched.add(s);
    }
  }
  for (const s of skills) {
    if (s.scope !== 'personal') continue;
    const winner = projectByName.get(nfkc(s.name));
    if (!winner) continue;
    s.shadowedBy = winner.skillMdPath;
    s.problems.push({
      code: 'shadowed',
      severity: severityFor('shadowed', profile) ?? 'info',
      message: `hidden by the project skill '${winner.name}' (${winner.skillMdPath}); project skills override personal ones`,
      ...crossRange(s),
    });
    touched.add(s);
  }
  for (const s of touched) sortProblems(s.problems);
}
