// The validate cache's promise: after any sequence of edits, creations, deletions, renames, links, config and settings
// changes on a small tree, `skillflow validate` with its cache prints byte for byte what it prints without one (and
// exits the same); and whenever the run memo of the cached run before a step still holds after it (src/cli/validateMemo.ts:
// what dist/cli.js prints without running), it holds what the run prints. Each input is STEPS steps; `npm run fuzz -- --target cache --runs N` checks N × STEPS steps.
import * as fc from 'fast-check';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { validateCommand } from '../../src/cli/commands/validate';
import { cleanOutput } from '../../src/cli/output/clean';
import { replayRun } from '../../src/cli/validateMemo';
import { finishPartial, fullRunAfterReplay } from '../../src/cli/validatePartial';
import { nodeFileSystem } from '../../src/core/base/fs';
import { prop, type Target, tempSandbox } from './targets';

/** Steps per input. */
export const STEPS = 20;

const ROOTS = ['ws/.claude/skills', 'ws/pkg/.claude/skills', 'home/.claude/skills', 'ws/plug/skills'] as const;
const NAMES = ['s0', 's1', 's2'] as const;

/** SKILL.md texts: names that match, clash or differ (some the same size as others), references, broken frontmatter. */
const TEXTS = [
  (n: string) => `---\nname: ${n}\ndescription: The ${n} skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  () => `---\nname: s0\ndescription: The s0 skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  () => `---\nname: s1\ndescription: The s1 skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  (n: string) => `---\nname: ${n}\ndescription: [unclosed\n---\nbody\n`,
  (n: string) => `---\nname: ${n}\ndescription: d\nallowed-tools: Bash(git:*) mcp__srv__tool\nmodel: opus\n---\nRead ../s1/SKILL.md and [o](../s2/references/r.md).\n`,
  () => 'no frontmatter at all\n',
  (n: string) => `---\nname: ${n.toUpperCase()}\ndescription: ${'x'.repeat(1100)}\ndisable-model-invocation: true\n---\n<!-- skillflow-disable name-invalid -->\n`,
  (n: string) => `---\nname: ${n}\ndescription: d\n---\nSee [gone](references/gone.md), [r](references/r.md).\n`,
  // The first text with other problems of its own only (a link to a missing file; one turned off in the file).
  (n: string) => `---\nname: ${n}\ndescription: The ${n} skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\nAnd [m](references/missing.md).\n`,
  (n: string) => `---\nname: ${n}\ndescription: The ${n} skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n<!-- skillflow-disable reference-missing -->\n`,
  // The first text with another description (one long enough for a lowered listing limit, one close to s0's).
  (n: string) => `---\nname: ${n}\ndescription: The ${n} skill, for tests of the listing limit. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  (n: string) => `---\nname: ${n}\ndescription: The s0 skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  // The first text renamed: to a long name of its own (close to the others' long names and to a mention in LINES), to
  // one name every folder may give (a mention and an agent name it), to one nothing reads.
  (n: string) => `---\nname: long-skill-${n}\ndescription: The ${n} skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  () => `---\nname: long-skill-s9\ndescription: The s9 skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
  (n: string) => `---\nname: quite-another-name-for-${n}\ndescription: The ${n} skill. Use it in tests.\n---\n\nSee [r](references/r.md) and \`scripts/x.sh\`.\n`,
];

/** Agent files (`ws/.claude/agents/a0.md`): their `skills:` name skills by name (agent-skill-missing when none has it). */
const AGENTS = [
  '---\nname: a0\ndescription: An agent.\nskills: [s0, long-skill-s9]\n---\nHelp.\n',
  '---\nname: a0\ndescription: An agent.\nskills: [long-skill-s1]\n---\nHelp.\n',
];

const CONFIGS = [
  '{"rules": {"name-dir-mismatch": "off"}}',
  '{"profile": "spec"}',
  '{"rules": {"reference-missing": "error"}}',
  '{"ignore": ["pkg/**"]}',
  '{ not json',
  '{"rules": {"description-length": "info"}, "profile": "upload"}',
  '{"rules": {"description-overlap": "info"}}',
];

const SETTINGS = [
  '{"permissions": {"deny": ["Skill(s1)"]}}',
  '{"disableAllHooks": true}',
  '{"skillOverrides": {"s0": "off"}}',
  '{ broken',
  '{"permissions": {"allow": ["Skill(s0)"]}, "enabledPlugins": {"x@y": true}}',
  '{"skillListingMaxDescChars": 40}',
];

const MCP = ['{"mcpServers": {"srv": {"command": "x"}}}', '{"mcpServers": {}}', 'nope'];

type Step =
  | { op: 'write'; root: number; skill: number; text: number }
  | { op: 'delete-md'; root: number; skill: number }
  | { op: 'ref'; root: number; skill: number; file: number; make: boolean }
  | { op: 'rename'; root: number; skill: number; to: number; toRoot: number }
  | { op: 'rm-skill'; root: number; skill: number }
  | { op: 'link'; root: number; skill: number; to: number; toRoot: number }
  | { op: 'config'; where: number; text: number }
  | { op: 'settings'; where: number; text: number }
  | { op: 'mcp'; text: number }
  | { op: 'plugin'; text: number }
  | { op: 'command'; text: number; make: boolean; where: number }
  | { op: 'agent'; text: number }
  | { op: 'touch'; root: number; skill: number }
  | { op: 'append'; root: number; skill: number; line: number }
  | { op: 'insert'; root: number; skill: number; line: number };

/** Command files: the project's, the skill plugin's, and one of a plugin with commands only (manifest written at the start). */
const COMMAND_FILES = ['ws/.claude/commands/c0.md', 'ws/plug/commands/p0.md', 'ws/tools/commands/git/t0.md'];

/** Lines appended to a SKILL.md: prose, links to missing or present files, a mention, a disable comment. */
const LINES = ['More prose.', 'See [m](references/m.md).', 'See [r](references/r.md).', 'Use the `s1` skill first.', '<!-- skillflow-disable reference-missing -->', 'Run `scripts/x.sh` and [n](n.md).', 'Use the `advisr` skill first (close to a built-in command: mention-unknown).', 'Use the `long-skill-s7` skill (close to the long names).', 'Use the `quite-another-name-for-s0` skill (a name a rename gives).', 'Use the `quite-another-name-for-s9` skill (as close to each of those names).', 'Use the `quite-another-name-for-s0x` skill (closest to one of them).', 'Use the `quite-another-name-for-s1` skill.', 'Use the `quite-another-name-for-s2x` skill.'];

const idx = (n: number) => fc.nat({ max: n - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('write' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), text: idx(TEXTS.length) }), weight: 6 },
  fc.record({ op: fc.constant('delete-md' as const), root: idx(ROOTS.length), skill: idx(NAMES.length) }),
  { arbitrary: fc.record({ op: fc.constant('ref' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), file: idx(3), make: fc.boolean() }), weight: 3 },
  fc.record({ op: fc.constant('rename' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), to: idx(NAMES.length), toRoot: idx(ROOTS.length) }),
  fc.record({ op: fc.constant('rm-skill' as const), root: idx(ROOTS.length), skill: idx(NAMES.length) }),
  fc.record({ op: fc.constant('link' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), to: idx(NAMES.length), toRoot: idx(ROOTS.length) }),
  { arbitrary: fc.record({ op: fc.constant('config' as const), where: idx(3), text: idx(CONFIGS.length + 1) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('settings' as const), where: idx(3), text: idx(SETTINGS.length + 1) }), weight: 2 },
  fc.record({ op: fc.constant('mcp' as const), text: idx(MCP.length + 1) }),
  fc.record({ op: fc.constant('plugin' as const), text: idx(3) }),
  fc.record({ op: fc.constant('command' as const), text: idx(TEXTS.length), make: fc.boolean(), where: idx(COMMAND_FILES.length) }),
  fc.record({ op: fc.constant('agent' as const), text: idx(AGENTS.length + 1) }),
  { arbitrary: fc.record({ op: fc.constant('touch' as const), root: idx(ROOTS.length), skill: idx(NAMES.length) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('append' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), line: idx(LINES.length) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('insert' as const), root: idx(ROOTS.length), skill: idx(NAMES.length), line: idx(LINES.length) }), weight: 3 },
);

/** What a run of the properties depends on besides its steps. */
type RunInput = Pick<Input, 'racyZero' | 'format' | 'target'>;

interface Input {
  /** Files just written are judged by their fingerprints (else by their bytes: the default window). */
  racyZero: boolean;
  format: 'text' | 'json' | 'sarif' | 'github' | 'markdown';
  /** What is validated: the workspace, a nested project, or one skill folder. */
  target: number;
  steps: Step[];
}

const TARGETS = ['.', 'pkg', '.claude/skills/s0'];

/**
 * Validates the tree at `base` with the cache, then after each of `steps` (applied by `apply`): the memo's replay (and
 * a patched memo replayed again at once), the cached run and the run without cache must print the same.
 */
function stepsEqual<S>(base: string, input: RunInput, steps: readonly S[], apply: (s: S) => void): void {
  validate(base, input, true);
  steps.forEach((s, n) => {
    apply(s);
    totals.steps++;
    // A long run (`npm run fuzz`) says how far it got every 10,000 steps.
    if (totals.steps % 10_000 === 0) process.stderr.write(`${summary()}\n`);
    const memo = replayed(base, input, true);
    // A patched memo is replayed again at once (it must hold as it is, or not at all); every other step it is
    // kept past the cached run below (which writes its own), so that the next step replays the patched one.
    const memoFile = nodePath.join(base, 'ws', '.skillflow_cache', 'validate-run-v1.json');
    const patchedMemo = memo?.patched ? nodeFs.readFileSync(memoFile) : undefined;
    const again = memo?.patched ? replayed(base, input) : undefined;
    if (again?.patched) throw new Error(`after step ${n + 1} (${JSON.stringify(s)}) a patched run memo did not hold as it was`);
    const cached = validate(base, input, true);
    if (patchedMemo && n % 2 === 0) nodeFs.writeFileSync(memoFile, patchedMemo);
    const fresh = validate(base, input, false);
    for (const k of ['code', 'out', 'err'] as const) {
      if (cached[k] !== fresh[k]) {
        totals.failed++;
        throw new Error(`after step ${n + 1} (${JSON.stringify(s)}) the cached ${k} differs:\n--- cached\n${String(cached[k]).slice(0, 1500)}\n--- without cache\n${String(fresh[k]).slice(0, 1500)}`);
      }
      const expected = k === 'code' ? fresh.code : cleanOutput(fresh[k]);
      if (again && again[k] !== expected) {
        totals.failed++;
        throw new Error(`after step ${n + 1} (${JSON.stringify(s)}) the patched run memo's ${k} differs:\n--- memo\n${String(again[k]).slice(0, 1500)}\n--- without cache\n${String(expected).slice(0, 1500)}`);
      }
      if (memo && memo[k] !== expected) {
        totals.failed++;
        throw new Error(`after step ${n + 1} (${JSON.stringify(s)}) the run memo's ${k} differs:\n--- memo\n${String(memo[k]).slice(0, 1500)}\n--- without cache\n${String(expected).slice(0, 1500)}`);
      }
    }
  });
}

/** The renames property's skill folders, and the labels and mentions it writes: folder names and names one or two edits apart. */
const LABEL_FOLDERS = ['k0', 'k1', 'k2', 'k3'];
const LABELS = ['k0', 'k1', 'deploy-app', 'deploy-apps', 'deploy-api', 'deploy-ap', 'deploy-appx', 'review-pr', 'review-prs', 'rev-pr'];

type LabelStep = { op: 'label' | 'mention'; skill: number; pick: number } | { op: 'problem' | 'clear'; skill: number };
interface LabelInput extends Omit<Input, 'steps'> { steps: LabelStep[] }

const labelStep: fc.Arbitrary<LabelStep> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('label' as const), skill: idx(LABEL_FOLDERS.length), pick: idx(LABELS.length) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('mention' as const), skill: idx(LABEL_FOLDERS.length), pick: idx(LABELS.length) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('problem' as const), skill: idx(LABEL_FOLDERS.length) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('clear' as const), skill: idx(LABEL_FOLDERS.length) }), weight: 1 },
);

function write(file: string, text: string): void {
  nodeFs.mkdirSync(nodePath.dirname(file), { recursive: true });
  nodeFs.writeFileSync(file, text);
}

function remove(file: string): void {
  nodeFs.rmSync(file, { recursive: true, force: true });
}

/** Applies one step; a step the tree does not allow (writing through a dangling or looping link) does nothing. */
function apply(base: string, s: Step): void {
  try { applyStep(base, s); } catch { /* not applicable to this tree */ }
}

function applyStep(base: string, s: Step): void {
  const skillDir = (root: number, skill: number) => nodePath.join(base, ROOTS[root], NAMES[skill]);
  switch (s.op) {
    case 'write': write(nodePath.join(skillDir(s.root, s.skill), 'SKILL.md'), TEXTS[s.text](NAMES[s.skill])); break;
    case 'delete-md': remove(nodePath.join(skillDir(s.root, s.skill), 'SKILL.md')); break;
    case 'ref': {
      const file = nodePath.join(skillDir(s.root, s.skill), ['references/r.md', 'scripts/x.sh', 'references/gone.md'][s.file]);
      if (s.make) write(file, '# r\n'); else remove(file);
      break;
    }
    case 'rename': {
      const from = skillDir(s.root, s.skill);
      const to = skillDir(s.toRoot, s.to);
      if (nodeFs.existsSync(from) && !nodeFs.existsSync(to) && from !== to) {
        nodeFs.mkdirSync(nodePath.dirname(to), { recursive: true });
        nodeFs.renameSync(from, to);
      }
      break;
    }
    case 'rm-skill': remove(skillDir(s.root, s.skill)); break;
    case 'link': {
      // A SKILL.md that is a link to another skill's (which may not exist).
      const file = nodePath.join(skillDir(s.root, s.skill), 'SKILL.md');
      remove(file);
      nodeFs.mkdirSync(nodePath.dirname(file), { recursive: true });
      nodeFs.symlinkSync(nodePath.join(skillDir(s.toRoot, s.to), 'SKILL.md'), file);
      break;
    }
    case 'config': {
      const file = nodePath.join(base, ['ws', 'ws/pkg', 'ws/.claude/skills'][s.where], '.skillflow.json');
      if (s.text === CONFIGS.length) remove(file); else write(file, CONFIGS[s.text]);
      break;
    }
    case 'settings': {
      const file = nodePath.join(base, ['ws/.claude/settings.json', 'ws/.claude/settings.local.json', 'home/.claude/settings.json'][s.where]);
      if (s.text === SETTINGS.length) remove(file); else write(file, SETTINGS[s.text]);
      break;
    }
    case 'mcp': {
      const file = nodePath.join(base, 'ws/.mcp.json');
      if (s.text === MCP.length) remove(file); else write(file, MCP[s.text]);
      break;
    }
    case 'plugin': {
      const file = nodePath.join(base, 'ws/plug/.claude-plugin/plugin.json');
      if (s.text === 2) remove(file); else write(file, s.text === 0 ? '{"name": "plug"}' : '{"name": "other"}');
      break;
    }
    case 'command': {
      const file = nodePath.join(base, COMMAND_FILES[s.where]);
      if (s.make) write(file, TEXTS[s.text](nodePath.basename(file, '.md'))); else remove(file);
      break;
    }
    case 'agent': {
      const file = nodePath.join(base, 'ws/.claude/agents/a0.md');
      if (s.text === AGENTS.length) remove(file); else write(file, AGENTS[s.text]);
      break;
    }
    case 'append': {
      const file = nodePath.join(skillDir(s.root, s.skill), 'SKILL.md');
      if (nodeFs.existsSync(file)) nodeFs.appendFileSync(file, `${LINES[s.line]}\n`);
      break;
    }
    case 'insert': {
      // Right after the frontmatter (or first): everything below it moves down a line.
      const file = nodePath.join(skillDir(s.root, s.skill), 'SKILL.md');
      if (!nodeFs.existsSync(file)) break;
      const text = nodeFs.readFileSync(file, 'utf8');
      const end = text.startsWith('---\n') ? text.indexOf('\n---\n', 4) : -1;
      const at = end < 0 ? 0 : end + 5;
      nodeFs.writeFileSync(file, `${text.slice(0, at)}${LINES[s.line]}\n${text.slice(at)}`);
      break;
    }
    case 'touch': {
      const file = nodePath.join(skillDir(s.root, s.skill), 'SKILL.md');
      try { const t = new Date(Date.now() - 60_000); nodeFs.utimesSync(file, t, t); } catch { /* not there */ }
      break;
    }
  }
}

function context(base: string, input: RunInput, cache: boolean) {
  const target = TARGETS[input.target];
  const argv = [target, '--format', input.format, ...(cache ? ['--cache'] : ['--no-cache'])];
  const env: Record<string, string | undefined> = { SKILLFLOW_CACHE_STATS: '1', ...(cache ? { SKILLFLOW_CODE_CACHE: 'report' } : {}), ...(input.racyZero ? { SKILLFLOW_CACHE_RACY_MS: '0' } : {}) };
  return { argv, cwd: nodePath.join(base, 'ws'), env, home: nodePath.join(base, 'home'), managedDir: null };
}

/**
 * What the run memo of the last cached run prints now, when it still holds (as main() prints: cleanOutput applied);
 * when it holds but for some loads' questions, what it prints once those loads gave the same entries again
 * (validatePartial.ts: the memo is patched then; `patched` says so).
 */
function replayed(base: string, input: RunInput, handOver = false): { code: number; out: string; err: string; patched: boolean } | undefined {
  const ctx = context(base, input, true);
  const startedAt = Date.now();
  let r = replayRun(ctx, ctx.argv);
  if (!r) return undefined;
  const patched = r.dirty !== undefined;
  if (r.dirty) {
    const done = finishPartial(ctx, ctx.argv, r);
    if (!done) {
      // As dist/cli.js hands it on: the cached run that follows takes the loads whose questions all held as they are.
      if (handOver) fullRunAfterReplay({ argv: ['validate', ...ctx.argv], cwd: ctx.cwd, found: r, startedAt });
      return undefined;
    }
    r = done;
    totals.patched++;
    if (done.reprinted) totals.reprinted++;
    totals.renamed += done.renamed;
    totals.mentioning += done.mentioning;
    totals.relooked += done.relooked;
  } else {
    totals.replayed++;
  }
  const text = (tag: string) => r.out.filter(([t]) => t === tag).map(([, b]) => b.toString('utf8')).join('');
  return { code: r.exit, out: text('o'), err: text('e'), patched };
}

function validate(base: string, input: RunInput, cache: boolean): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const ctx = context(base, input, cache);
  let code: number;
  try {
    code = validateCommand({ ...ctx, fs: nodeFileSystem, out: (t) => { out += t; }, err: (t) => { err += t; } }, ctx.argv);
  } catch (e) {
    throw new Error(`validate ${cache ? 'with' : 'without'} the cache threw: ${e instanceof Error ? e.stack : String(e)}`);
  }
  const taken = /^skillflow: full run; (\d+) loads taken as the replay found them\n/m.exec(err);
  if (taken) {
    totals.vouched += Number(taken[1]);
    err = err.replace(taken[0], '');
  }
  const stats = /^skillflow validate: cache: (\d+) reused, (\d+) loaded\n/m.exec(err);
  if (stats) {
    totals.reused += Number(stats[1]);
    totals.loaded += Number(stats[2]);
    err = err.replace(stats[0], '');
  } else if (cache && code !== 2) {
    throw new Error('a run with the cache did not say how it used it');
  }
  return { code, out, err };
}

/** Loads reused and made over the whole fuzz run (printed at exit: a property whose runs reuse nothing proves nothing). */
const totals = { steps: 0, reused: 0, loaded: 0, failed: 0, replayed: 0, patched: 0, reprinted: 0, renamed: 0, mentioning: 0, relooked: 0, vouched: 0 };
let reported = false;
function reportAtExit(): void {
  if (reported) return;
  reported = true;
  process.on('exit', () => console.log(summary()));
}

function summary(): string {
  return `cache fuzz: ${totals.steps} steps checked, ${totals.failed} differed; the cached runs reused ${totals.reused} loads and made ${totals.loaded}; the run memo was replayed ${totals.replayed} times and held after loads made again ${totals.patched} times (${totals.reprinted} of them with some skills' problems printed again, ${totals.renamed} skills renamed, ${totals.mentioning} mentioning other names, ${totals.relooked} other skills' mentions looked up again after a rename); ${totals.vouched} loads were taken unasked by a full run after a replay`;
}

let sandbox: string | undefined;

export const cacheTarget: Target = {
  name: 'cache',
  properties: [
    prop<Input>({
      name: 'cached-equals-uncached',
      untimed: true,
      arb: fc.record({
        racyZero: fc.boolean(),
        format: fc.constantFrom('text' as const, 'json' as const, 'sarif' as const, 'github' as const, 'markdown' as const),
        target: fc.nat({ max: TARGETS.length - 1 }),
        steps: fc.array(step, { minLength: STEPS, maxLength: STEPS }),
      }),
      size: (i) => i.steps.length,
      describe: (i) => `${i.steps.length} steps, ${i.format}, target ${TARGETS[i.target]}`,
      check: (input) => {
        sandbox ??= tempSandbox('skillflow-fuzz-cache-');
        reportAtExit();
        const base = nodeFs.mkdtempSync(nodePath.join(sandbox, 't-'));
        try {
          // A small tree to start from (with a plugin of one skill: its skills' names are their commands).
          for (const [root, skill] of [[0, 0], [0, 1], [1, 2], [2, 0], [3, 1]]) apply(base, { op: 'write', root, skill, text: 0 });
          apply(base, { op: 'plugin', text: 0 });
          write(nodePath.join(base, 'ws/tools/.claude-plugin/plugin.json'), '{"name": "tools"}');
          nodeFs.mkdirSync(nodePath.join(base, 'ws/pkg/.claude/skills'), { recursive: true });
          stepsEqual(base, input, input.steps, (s) => apply(base, s));
        } finally {
          nodeFs.rmSync(base, { recursive: true, force: true });
        }
      },
    }),
    prop<LabelInput>({
      name: 'renames-read-by-mentions',
      untimed: true,
      arb: fc.record({
        racyZero: fc.constant(false),
        format: fc.constantFrom('text' as const, 'json' as const),
        target: fc.constant(0),
        steps: fc.array(labelStep, { minLength: STEPS, maxLength: STEPS }),
      }),
      size: (i) => i.steps.length,
      describe: (i) => `${i.steps.length} steps, ${i.format}`,
      check: (input) => {
        sandbox ??= tempSandbox('skillflow-fuzz-cache-');
        reportAtExit();
        const base = nodeFs.mkdtempSync(nodePath.join(sandbox, 't-'));
        try {
          // Project skills only (a name there is a label: the rename path), each with a label and no mention yet.
          const state = LABEL_FOLDERS.map((f) => ({ name: f, lines: [] as string[] }));
          const writeSkill = (k: number) => write(nodePath.join(base, 'ws/.claude/skills', LABEL_FOLDERS[k], 'SKILL.md'),
            `---\nname: ${state[k].name}\ndescription: The ${LABEL_FOLDERS[k]} skill. Use it in tests.\n---\n\n# ${LABEL_FOLDERS[k]}\n\n${state[k].lines.join('\n')}\n`);
          state.forEach((_, k) => writeSkill(k));
          stepsEqual(base, input, input.steps, (s) => {
            const k = s.skill;
            if (s.op === 'label') state[k].name = LABELS[s.pick];
            else if (s.op === 'mention') state[k].lines.push(`Use the \`${LABELS[s.pick]}\` skill.`);
            else if (s.op === 'problem') state[k].lines.push('See [m](references/missing.md).');
            else state[k].lines = [];
            writeSkill(k);
          });
        } finally {
          nodeFs.rmSync(base, { recursive: true, force: true });
        }
      },
    }),
  ],
};
