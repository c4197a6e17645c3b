/**
 * `skillflow validate` and `.skillflow.json`: the profile each skill is checked under (the `--profile` flag, else
 * the nearest config's `profile`, else `claude-code`), then the config's rules, ignore globs and the files'
 * `skillflow-disable` comments applied to what was found. The editor applies the same core functions.
 */
import * as path from 'node:path';
import type { FileSystem } from '../core/base/fs';
import type { Problem, Profile } from '../core/base/types';
import type { AgentEntry, SkillEntry } from '../core/skillmd/model';
import { carryClaudeView } from '../core/discovery/claudeWiring';
import { loadCommand, loadSkill, type LoadedSkillEntry } from '../core/discovery/load';
import { sortProblems } from '../core/base/problems';
import { configureProblems, DISABLE_MARKER, type RuleConfig, RuleConfigFinder } from '../core/config/ruleConfig';

/** The profile for a run over `targets` without `--profile`: that of the config nearest the first target. */
export function configuredProfile(finder: RuleConfigFinder, fs: FileSystem, cwd: string, targets: readonly string[]): Profile {
  const first = path.resolve(cwd, targets[0] ?? '.');
  const dir = fs.stat(first)?.isDirectory ? first : path.dirname(first);
  return finder.forDir(dir).profile ?? 'claude-code';
}

export interface ConfiguredFindings {
  skills: SkillEntry[];
  agents: AgentEntry[];
  /** Config files with problems of their own. */
  configs: RuleConfig[];
}

/**
 * Applies the rule configuration to everything found under `runProfile`. Without a `--profile` flag
 * (`profileFixed` false) a skill whose nearest config names another profile is checked again under that profile.
 * Skills and agents whose file an `ignore` glob matches are left out; the other problems are returned configured
 * (new entry objects: the entries given are not modified).
 */
export function applyConfig(fs: FileSystem, finder: RuleConfigFinder, found: { skills: SkillEntry[]; agents: AgentEntry[] }, runProfile: Profile, profileFixed: boolean): ConfiguredFindings {
  let skills = found.skills;
  if (!profileFixed) {
    skills = skills.map((s) => {
      const wanted = finder.forFile(s.skillMdPath).profile ?? 'claude-code';
      if (wanted === runProfile) return s;
      const again = s.source === 'command' ? loadCommand(fs, s.skillMdPath, wanted) : loadSkill(fs, s.root, s.folderName, wanted, { listFiles: false });
      if (!again) return s;
      // Claude Code's view of the file does not depend on the profile; its problems take the new profile's severities.
      carryClaudeView(s as LoadedSkillEntry, again, [], wanted);
      return again;
    });
  }
  // Most files have no disable comment: a SKILL.md that loading found without one is not read again; other files'
  // bytes are searched and never decoded (a reused buffer when the file system has one).
  const marker = Buffer.from(DISABLE_MARKER);
  const readText = (file: string, mentionsDisable: boolean | undefined) => () => {
    if (mentionsDisable === false) return '';
    try {
      const bytes = fs.readFileTransient ? fs.readFileTransient(file) : fs.readFile(file);
      return bytes.indexOf(marker) < 0 ? '' : bytes.toString('utf8');
    } catch { return undefined; }
  };
  /** The entry's problems grouped by file, configured; undefined when the entry's own file is ignored. */
  const configure = (own: string, problems: Problem[], ownMentionsDisable?: boolean): Problem[] | undefined => {
    if (finder.isIgnored(own)) return undefined;
    if (!problems.length) return problems;
    const byFile = new Map<string, Problem[]>();
    for (const p of problems) {
      const file = p.file ?? own;
      const list = byFile.get(file);
      if (list) list.push(p); else byFile.set(file, [p]);
    }
    const out: Problem[] = [];
    for (const [file, list] of byFile) out.push(...(configureProblems(finder, file, list, { readText: readText(file, file === own ? ownMentionsDisable : undefined) }) ?? []));
    return sortProblems(out);
  };
  const outSkills: SkillEntry[] = [];
  for (const s of skills) {
    const problems = configure(s.skillMdPath, s.problems, s.mentionsDisable);
    if (problems) outSkills.push(problems === s.problems ? s : { ...s, problems });
  }
  const outAgents: AgentEntry[] = [];
  for (const a of found.agents) {
    const problems = configure(a.path, a.problems);
    if (problems) outAgents.push(problems === a.problems ? a : { ...a, problems });
  }
  return { skills: outSkills, agents: outAgents, configs: finder.configs().filter((c) => c.problems.length > 0) };
}
