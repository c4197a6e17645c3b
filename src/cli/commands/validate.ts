/**
 * `skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format text|json]` (SPEC §7).
 * Exit 0 without errors, 1 with any error, 2 on bad usage or an unreadable path (nothing on stdout then).
 */
import * as path from 'node:path';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../context';
import { parseArgs } from '../args';
import type { Problem, Profile } from '../../core/types';
import { PROFILES } from '../../core/types';
import type { AgentEntry, SkillEntry } from '../../core/skills/model';
import { applyCrossSkillRules, discoverPath, type SkillLoader } from '../../core/skills/discovery';
import { nodeFileSystem } from '../../core/fs';
import { createParallelLoader, PARALLEL_MIN_SKILLS } from '../parallel';
import { RuleConfigFinder } from '../../core/config/ruleConfig';
import { applyConfig, configuredProfile } from '../validateConfig';
import { problemJson, type ValidateResult } from '../output/validateResult';
import { formatSarif } from '../output/sarif';
import { formatGithub } from '../output/github';
import { ruleHelpUri, toolVersion } from '../output/ruleDocs';
import { pathToFileURL } from 'node:url';

const USAGE = 'Usage: skillflow validate [PATH...] [--profile claude-code|spec|upload] [--format text|json|sarif|github]\n'
  + 'Reads .skillflow.json (the nearest one above each file: profile, rules, ignore).\n';

/** A path as the CLI prints it: relative to the current directory, with forward slashes. */
export function displayPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file) || '.';
  return rel.split(path.sep).join('/');
}

/** A path segment that path.resolve keeps as it is: not empty, not '.' or '..'. */
function isPlainSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..';
}

/**
 * displayPath(cwd, file) for many files, most of them two levels below the same folder (`<root>/<skill>/SKILL.md`):
 * path.relative resolves and compares both whole paths on every call; here that folder's relative path is worked out
 * once and the last two segments appended. That is the same string on POSIX unless the current directory is that
 * file's `<root>/<skill>` folder or inside it (then, and for anything else, displayPath itself answers).
 */
export function displayPaths(cwd: string): (file: string) => string {
  const from = path.resolve(cwd);
  let base: string | undefined;
  /** displayPath of `base`; undefined when it cannot be used. */
  let baseRel: string | undefined;
  /** When the current directory is inside `base`: the first segment of it below `base` ('' when it is `base`). */
  let cwdBelow: string | undefined;
  return (file) => {
    const last = path.sep === '/' ? file.lastIndexOf('/') : -1;
    const mid = last > 0 ? file.lastIndexOf('/', last - 1) : -1;
    if (mid <= 0) return displayPath(cwd, file);
    const folder = file.slice(mid + 1, last);
    if (!isPlainSegment(folder) || !isPlainSegment(file.slice(last + 1))) return displayPath(cwd, file);
    const b = file.slice(0, mid);
    if (b !== base) {
      base = b;
      const to = path.resolve(b);
      baseRel = to === '/' ? undefined : path.relative(from, to);
      cwdBelow = from === to ? '' : from.startsWith(`${to}/`) ? from.slice(to.length + 1).split('/')[0] : undefined;
    }
    if (baseRel === undefined || (cwdBelow !== undefined && cwdBelow === folder)) return displayPath(cwd, file);
    return baseRel === '' ? file.slice(mid + 1) : `${baseRel}/${file.slice(mid + 1)}`;
  };
}

/** One problem as a `path:line:col: severity code message` line (the problem matcher's format). */
export function problemLine(cwd: string, file: string, p: Problem): string {
  return problemText(displayPath(cwd, p.file ?? file), p);
}

/** problemLine with the file's display path worked out already. */
function problemText(shownPath: string, p: Problem): string {
  return `${shownPath}:${p.line}:${p.column}: ${p.severity} ${p.code} ${p.message.replace(/\s*[\r\n]+\s*/g, ' ')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Everything found under the given paths, deduplicated, with the cross-skill rules applied over all of it. */
export function collect(ctx: CliContext, targets: string[], profile: Profile, opts?: { listFiles?: boolean; loader?: SkillLoader; onEmpty?: (target: string) => void }): { skills: SkillEntry[]; agents: AgentEntry[] } | { error: string } {
  const skills = new Map<string, SkillEntry>();
  const agents = new Map<string, AgentEntry>();
  for (const target of targets) {
    const result = discoverPath(ctx.fs, path.resolve(ctx.cwd, target), { profile, listFiles: opts?.listFiles, loader: opts?.loader });
    if (!result.ok) return { error: result.message.replace(path.resolve(ctx.cwd, target), target) };
    if (!result.discovery.skills.length && !result.discovery.agents.length) opts?.onEmpty?.(target);
    for (const s of result.discovery.skills) if (!skills.has(s.skillMdPath)) skills.set(s.skillMdPath, s);
    for (const a of result.discovery.agents) if (!agents.has(a.path)) agents.set(a.path, a);
  }
  const skillList = [...skills.values()];
  // One target's discovery has applied them to exactly this set already.
  if (targets.length > 1) applyCrossSkillRules(skillList, profile);
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  skillList.sort((a, b) => byPath(a.skillMdPath, b.skillMdPath));
  return { skills: skillList, agents: [...agents.values()].sort((a, b) => byPath(a.path, b.path)) };
}

export function validateCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      profile: { type: 'string', choices: PROFILES },
      format: { type: 'string', choices: ['text', 'json', 'sarif', 'github'] },
    },
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const targets = parsed.positionals.length ? parsed.positionals : ['.'];
  const finder = new RuleConfigFinder(ctx.fs);
  const profile = (parsed.flags.profile as Profile | undefined) ?? configuredProfile(finder, ctx.fs, ctx.cwd, targets);
  const empty: string[] = [];
  // Thousands of skills are spread over worker threads (they read the real disk: not with a test's fake file system).
  // A target folder with that many entries is likely such a run: the workers start loading right away, while the skills are searched.
  const parallel = ctx.fs === nodeFileSystem
    ? createParallelLoader({ omitReferences: true, prewarm: () => targets.some((t) => (ctx.fs.readDir(path.resolve(ctx.cwd, t))?.length ?? 0) >= PARALLEL_MIN_SKILLS) })
    : undefined;
  let found: ReturnType<typeof collect>;
  try {
    found = collect(ctx, targets, profile, { listFiles: false, loader: parallel?.loader, onEmpty: (t) => empty.push(t) });
  } finally {
    parallel?.dispose();
  }
  if ('error' in found) {
    ctx.err(`skillflow validate: ${found.error}\n`);
    return EXIT_USAGE;
  }
  for (const t of empty) ctx.err(`skillflow validate: no skill, command or agent found in '${t}'\n`);
  const configured = applyConfig(ctx.fs, finder, found, profile, parsed.flags.profile !== undefined);
  found = configured;

  let errors = 0;
  let warnings = 0;
  let infos = 0;
  const count = (problems: Problem[]) => {
    for (const p of problems) {
      if (p.severity === 'error') errors++;
      else if (p.severity === 'warning') warnings++;
      else infos++;
    }
  };
  found.skills.forEach((s) => count(s.problems));
  found.agents.forEach((a) => count(a.problems));
  configured.configs.forEach((c) => count(c.problems));

  const shown = displayPaths(ctx.cwd);
  const format = parsed.flags.format ?? 'text';
  if (format !== 'text') {
    const json = (p: Problem, own: string) => problemJson(p, p.file !== undefined && p.file !== own ? shown(p.file) : undefined);
    const result: ValidateResult = {
      skills: found.skills.map((s) => ({ path: shown(s.skillMdPath), name: s.name, scope: s.scope, problems: s.problems.map((p) => json(p, s.skillMdPath)) })),
      agents: found.agents.map((a) => ({ path: shown(a.path), name: a.name, problems: a.problems.map((p) => json(p, a.path)) })),
      summary: { skills: found.skills.length, errors, warnings, infos, agents: found.agents.length },
    };
    if (configured.configs.length) result.configs = configured.configs.map((c) => ({ path: shown(c.file!), problems: c.problems.map((p) => json(p, c.file!)) }));
    if (format === 'json') ctx.out(`${JSON.stringify(result, null, 2)}\n`);
    else if (format === 'github') ctx.out(formatGithub(result));
    else ctx.out(formatSarif(result, { profile, ruleHelpUri, version: toolVersion(), srcRoot: `${pathToFileURL(path.resolve(ctx.cwd)).href.replace(/\/?$/, '/')}` }));
  } else {
    const lines: Array<{ file: string; p: Problem; text: string }> = [];
    const line = (file: string, p: Problem) => {
      const shownPath = shown(file);
      lines.push({ file: shownPath, p, text: problemText(shownPath, p) });
    };
    for (const s of found.skills) for (const p of s.problems) line(p.file ?? s.skillMdPath, p);
    for (const a of found.agents) for (const p of a.problems) line(p.file ?? a.path, p);
    for (const c of configured.configs) for (const p of c.problems) line(p.file ?? c.file!, p);
    lines.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) || x.p.line - y.p.line || x.p.column - y.p.column || (x.p.code < y.p.code ? -1 : x.p.code > y.p.code ? 1 : 0));
    let text = lines.map((l) => `${l.text}\n`).join('');
    text += `${plural(found.skills.length, 'skill')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    if (found.agents.length) text += `; ${plural(found.agents.length, 'agent')} checked`;
    ctx.out(`${text}\n`);
  }
  return errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
