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
import { compareProblems, sortProblems } from '../core/base/problems';
import { configureProblems, mayHoldDisableComment, type RuleConfig, RuleConfigFinder } from '../core/config/ruleConfig';
import type { ClaudeModel } from '../core/claude/load';
import { computeListing } from '../core/claude/listing';
import { listingOverlaps } from '../core/claude/overlap';

/** True when a configuration sets no rule (its problems pass through configureProblems unchanged but for order). */
function noRules(config: RuleConfig): boolean {
  for (const code in config.rules) if (Object.prototype.hasOwnProperty.call(config.rules, code)) return false;
  return true;
}

/** True when `problems` are in sortProblems' order already. */
function isSorted(problems: readonly Problem[]): boolean {
  for (let k = 1; k < problems.length; k++) if (compareProblems(problems[k - 1], problems[k]) > 0) return false;
  return true;
}

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
  const readText = (file: string, mentionsDisable: boolean | undefined) => () => {
    if (mentionsDisable === false) return '';
    try {
      const bytes = fs.readFileTransient ? fs.readFileTransient(file) : fs.readFile(file);
      return mayHoldDisableComment(bytes) ? bytes.toString('utf8') : '';
    } catch { return undefined; }
  };
  /** The entry's problems grouped by file, configured; undefined when the entry's own file is ignored. */
  const configure = (own: string, problems: Problem[], ownMentionsDisable?: boolean): Problem[] | undefined => {
    if (finder.isIgnored(own)) return undefined;
    if (!problems.length) return problems;
    // Nothing to change (the common case): no rules configured, no disable comment, every problem in the entry's own
    // file, already in order. The problems are kept as they are and the entry is not copied.
    if (ownMentionsDisable === false && noRules(finder.forFile(own)) && problems.every((p) => p.file === undefined || p.file === own) && isSorted(problems)) return problems;
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

/** The code of the rule that is off unless a `.skillflow.json` turns it on. */
const OVERLAP_CODE = 'description-overlap';

/** Whether the nearest `.skillflow.json` of a skill turns `description-overlap` on. */
export function overlapOn(finder: RuleConfigFinder): (s: Pick<SkillEntry, 'skillMdPath'>) => boolean {
  return (s) => {
    const rules = finder.forFile(s.skillMdPath).rules;
    const setting = Object.prototype.hasOwnProperty.call(rules, OVERLAP_CODE) ? rules[OVERLAP_CODE] : undefined;
    return setting !== undefined && setting !== 'off';
  };
}

/**
 * `description-overlap`, off by default: when the nearest `.skillflow.json` of a skill sets it (`"description-overlap":
 * "info"`), each skill of a competing pair (listingOverlaps over each model's listing) gets a problem naming the other
 * and the phrases they share, at its `name` (or line 1), with the configured severity. Returns new entries for the
 * skills that got one.
 */
export function addOverlapProblems(finder: RuleConfigFinder, skills: SkillEntry[], models: readonly ClaudeModel[]): SkillEntry[] {
  const on = overlapOn(finder);
  if (!skills.some(on)) return skills;
  const byPath = new Map(skills.map((s, i) => [s.skillMdPath, i]));
  const out = [...skills];
  const seen = new Set<string>();
  for (const model of models) {
    const listing = computeListing(model.entries, model.settings, { env: model.env });
    for (const pair of listingOverlaps(model, listing)) {
      const key = `${pair.a.id}\0${pair.b.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const [self, other] of [[pair.a, pair.b], [pair.b, pair.a]] as const) {
        const i = byPath.get(self.id);
        if (i === undefined || !on(out[i])) continue;
        const s = out[i];
        const phrases = pair.shared.length ? `; both say ${pair.shared.slice(0, 4).map((p) => `"${p}"`).join(', ')}` : '';
        const range = (s as LoadedSkillEntry).nameRange ?? { line: 1, column: 1, endLine: 1, endColumn: 1 };
        const problem: Problem = { code: OVERLAP_CODE, severity: 'info', message: `Say when to use this rather than ${other.invocation}: their descriptions are ${Math.round(pair.score * 100)} % alike, so Claude may pick either for the same request${phrases}`, ...range };
        out[i] = { ...s, problems: sortProblems([...s.problems, ...(configureProblems(finder, s.skillMdPath, [problem]) ?? [])]) };
      }
    }
  }
  return out;
}
