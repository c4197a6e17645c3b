/**
 * Which skills, commands and agents a set of changed files concerns (`skillflow validate --changed FILE...`, the
 * pre-commit hooks): an entry whose own file changed, a skill with a changed file in its folder (scripts/, references/),
 * an entry that references a changed file wherever it lies (a shared doc linked from several skills), and every entry of
 * a plugin or marketplace whose `.claude-plugin/plugin.json` or `marketplace.json` changed.
 */
import * as path from 'node:path';
import type { AgentEntry, SkillEntry } from '../skillmd/model';

function inside(file: string, dir: string): boolean {
  return file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

export function concernedBy<T extends { skills: SkillEntry[]; agents: AgentEntry[] }>(found: T, changedFiles: readonly string[]): T {
  const changed = new Set(changedFiles.map((f) => path.resolve(f)));
  // A changed manifest concerns everything in the folder above its `.claude-plugin`.
  const manifestRoots = [...changed]
    .filter((f) => path.basename(path.dirname(f)) === '.claude-plugin' && /^(plugin|marketplace)\.json$/.test(path.basename(f)))
    .map((f) => path.dirname(path.dirname(f)));
  const underManifest = (file: string) => manifestRoots.some((root) => inside(file, root));
  const skills = found.skills.filter((s) => {
    if (changed.has(s.skillMdPath) || underManifest(s.skillMdPath)) return true;
    // A command file is one file; a skill is its folder.
    if (path.basename(s.skillMdPath) === 'SKILL.md') {
      const dir = path.dirname(s.skillMdPath);
      for (const f of changed) if (inside(f, dir)) return true;
    }
    return s.references.some((r) => changed.has(r.resolvedPath));
  });
  const agents = found.agents.filter((a) => changed.has(a.path) || underManifest(a.path));
  return { ...found, skills, agents };
}
