// The warm path of `skillflow validate --cache` (src/cli/validateMemo.ts, core/cache/runMemo.ts): the real launcher and
// CLI bundle, built into a temp folder and run as a user runs them. A run where nothing changed is printed from the run
// memo without starting the bundle (SKILLFLOW_CODE_CACHE=report says which); anything that could change the output
// (a file's bytes, a new folder, an environment variable the run read, the arguments, a broken memo) runs in full,
// and every output is the same as --no-cache's.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { removeTree, skillMd, tempTree } from '../helpers/tempTree';

function buildCli(dir: string): string {
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } } as const;
  esbuild.buildSync({ ...common, entryPoints: ['src/cli/runtime/launcher.ts'], outfile: path.join(dir, 'cli.js') });
  esbuild.buildSync({ ...common, entryPoints: ['src/cli/bin.ts'], outfile: path.join(dir, 'skillflow.js') });
  return path.join(dir, 'cli.js');
}

function run(cli: string, cwd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, 'validate', ...args], {
    cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: path.join(cwd, 'home'), SKILLFLOW_CODE_CACHE: 'report', ...env },
  });
  const memo = /skillflow: run memo used\n/.test(r.stderr);
  const patched = /skillflow: run memo held after (\d+) loads made again(?:; the problems of (\d+) printed again)?\n/.exec(r.stderr);
  const taken = /skillflow: full run; (\d+) loads taken as the replay found them\n/.exec(r.stderr);
  return {
    code: r.status, out: r.stdout, err: r.stderr.replace(/^skillflow: (run memo used|run memo held after \d+ loads made again(; the problems of \d+ printed again)?|code cache \w+|full run; \d+ loads taken as the replay found them)\n/gm, ''), memo,
    patched: patched === null ? undefined : Number(patched[1]), reprinted: patched?.[2] === undefined ? undefined : Number(patched[2]),
    taken: taken === null ? undefined : Number(taken[1]),
  };
}

/** Runs validate with ARGS and --cache, then with --no-cache; asserts the same exit code, stdout and stderr; gives the cached run. */
function sameAsUncached(cli: string, ws: string) {
  return (args: string[]) => {
    const cached = run(cli, ws, [...args, '--cache']);
    const none = run(cli, ws, [...args, '--no-cache']);
    assert.deepEqual([cached.code, cached.out, cached.err], [none.code, none.out, none.err]);
    return cached;
  };
}

test('validate --cache: an unchanged run is printed from the run memo; every change runs in full; outputs equal --no-cache', () => {
  const work = tempTree({
    'ws/.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, 'See [the guide](references/guide.md).\n'),
    'ws/.claude/skills/beta/SKILL.md': skillMd('beta'),
    'ws/.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Bad: an unquoted colon'),
    'ws/home/.keep': '',
  });
  const ws = path.join(work, 'ws');
  try {
    const cli = buildCli(path.join(work, 'dist'));
    const same = (args: string[], env: Record<string, string> = {}) => {
      const cached = run(cli, ws, [...args, '--cache'], env);
      const none = run(cli, ws, [...args, '--no-cache'], env);
      assert.equal(none.memo, false);
      assert.deepEqual([cached.code, cached.out, cached.err], [none.code, none.out, none.err]);
      return cached;
    };
    // The first run makes .skillflow_cache/ in ws, which the run stats (its mtime): made here, the second run can use the memo.
    fs.mkdirSync(path.join(ws, '.skillflow_cache'));
    assert.equal(same(['--format', 'json']).memo, false, 'no memo yet');
    assert.ok(fs.existsSync(path.join(ws, '.skillflow_cache', 'validate-run-v1.json')));
    // Nothing changed (the files are younger than the racy window: their bytes are hashed, not trusted).
    const warm = same(['--format', 'json']);
    assert.equal(warm.memo, true);
    assert.match(warm.out, /"gamma"/);
    // A same-size edit in the same second.
    fs.writeFileSync(path.join(ws, '.claude/skills/beta/SKILL.md'), skillMd('betA'));
    assert.equal(same(['--format', 'json']).memo, false);
    assert.equal(same(['--format', 'json']).memo, true);
    // A reference target that appears; a new skill folder; a config file.
    fs.mkdirSync(path.join(ws, '.claude/skills/alpha/references'));
    fs.writeFileSync(path.join(ws, '.claude/skills/alpha/references/guide.md'), '# guide\n');
    assert.equal(same(['--format', 'json']).memo, false);
    fs.mkdirSync(path.join(ws, '.claude/skills/delta'));
    fs.writeFileSync(path.join(ws, '.claude/skills/delta/SKILL.md'), skillMd('delta'));
    const grown = same(['--format', 'json']);
    assert.equal(grown.memo, false);
    assert.match(grown.out, /"delta"/);
    fs.writeFileSync(path.join(ws, '.skillflow.json'), JSON.stringify({ rules: { 'yaml-syntax': 'off' } }));
    assert.equal(same(['--format', 'json']).memo, false);
    assert.equal(same(['--format', 'json']).memo, true);
    // An environment variable the run reads (Claude Code's config folder), other arguments, a broken memo.
    assert.equal(same(['--format', 'json'], { CLAUDE_CONFIG_DIR: path.join(work, 'elsewhere') }).memo, false);
    assert.equal(same(['--format', 'text']).memo, false);
    assert.equal(same(['--format', 'text']).memo, true);
    const memo = path.join(ws, '.skillflow_cache', 'validate-run-v1.json');
    const good = fs.readFileSync(memo);
    for (const bad of [good.subarray(0, good.length - 5), Buffer.from(good.toString('latin1').replace('gamma', 'gammb'), 'latin1'), Buffer.from('')]) {
      fs.writeFileSync(memo, bad);
      assert.equal(same(['--format', 'text']).memo, false);
    }
    // --cache-location: its own memo there; a variable the run does not read changes nothing. (The run looks into
    // `other`, where the first run writes its files: the second run sees them and records again.)
    assert.equal(same(['--cache-location', 'other']).memo, false);
    assert.equal(same(['--cache-location', 'other']).memo, false);
    assert.equal(same(['--cache-location', 'other'], { UNRELATED: 'x' }).memo, true);
    assert.ok(fs.existsSync(path.join(ws, 'other', 'validate-run-v1.json')));
  } finally {
    removeTree(work);
  }
});

test('validate --cache: an edit that leaves every load\'s entry the same makes only those loads again and prints the memo; any other edit runs in full', () => {
  const work = tempTree({
    'ws/.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, '# Alpha\n\nSee [the guide](references/guide.md).\n'),
    'ws/.claude/skills/beta/SKILL.md': skillMd('beta'),
    'ws/.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Bad: an unquoted colon'),
    'ws/.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills: [beta, nowhere]\n---\nHelp.\n',
    'ws/home/.keep': '',
  });
  const ws = path.join(work, 'ws');
  const beta = path.join(ws, '.claude/skills/beta/SKILL.md');
  try {
    const cli = buildCli(path.join(work, 'dist'));
    const same = sameAsUncached(cli, ws);
    fs.mkdirSync(path.join(ws, '.skillflow_cache'));
    for (const format of ['json', 'text']) {
      assert.equal(same(['--format', format]).memo, false);
      assert.equal(same(['--format', format]).memo, true);
      // A body edit (another size and mtime; what the rest of the run sees of the skill is the same).
      fs.appendFileSync(beta, '\nMore words.\n');
      const edited = same(['--format', format]);
      assert.deepEqual([edited.memo, edited.patched], [false, 1]);
      // The patched memo holds as it is.
      assert.equal(same(['--format', format]).memo, true);
      fs.appendFileSync(beta, '\nEven more.\n');
      assert.equal(same(['--format', format]).patched, 1);
    }
    // Edits the rest of the run sees: another name (name-dir-mismatch), the agent (not a load); each runs in full, then
    // the memo holds again.
    const full = (edit: () => void) => {
      edit();
      const r = same(['--format', 'json']);
      assert.deepEqual([r.memo, r.patched], [false, undefined]);
      assert.equal(same(['--format', 'json']).memo, true);
      return r;
    };
    assert.match(full(() => fs.writeFileSync(beta, skillMd('alpha'))).out, /name-dir-mismatch/);
    full(() => fs.appendFileSync(path.join(ws, '.claude/agents/helper.md'), 'More help.\n'));
    // The reference target appears: alpha's load asked for it (a load's question): its entry changes, a full run.
    fs.mkdirSync(path.join(ws, '.claude/skills/alpha/references'));
    full(() => fs.writeFileSync(path.join(ws, '.claude/skills/alpha/references/guide.md'), '# guide\n'));
    // Two skills' bodies at once.
    fs.appendFileSync(beta, '\nWords.\n');
    fs.appendFileSync(path.join(ws, '.claude/skills/gamma/SKILL.md'), '\nWords.\n');
    assert.equal(same(['--format', 'json']).patched, 2);
    assert.equal(same(['--format', 'json']).memo, true);
    // The cache stores entries without their references (validate reports none); a skill that has one, its load made
    // again, is compared as stored: the memo is patched, not its report printed again.
    assert.doesNotMatch(fs.readFileSync(path.join(ws, '.skillflow_cache/validate-v1.json'), 'utf8'), /"references":\[[^\]]/);
    fs.appendFileSync(path.join(ws, '.claude/skills/alpha/SKILL.md'), '\nWords.\n');
    const alpha = same(['--format', 'json']);
    assert.deepEqual([alpha.memo, alpha.patched, alpha.reprinted], [false, 1, undefined]);
  } finally {
    removeTree(work);
  }
});

test('validate --cache: the full run after a replay takes every load whose questions held without asking; its memo holds each question for the load that asked it', () => {
  const work = tempTree({
    'ws/.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, '# Alpha\n\nSee [the guide](references/guide.md).\n'),
    'ws/.claude/skills/alpha/references/guide.md': '# guide\n',
    'ws/.claude/skills/beta/SKILL.md': skillMd('beta'),
    'ws/.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Bad: an unquoted colon'),
    // delta mentions `bet0`, close to each name beta gets below: mention-unknown reads them, so each rename runs in full.
    'ws/.claude/skills/delta/SKILL.md': skillMd('delta', undefined, 'Run `scripts/go.sh`. Use the `bet0` skill.\n'),
    'ws/home/.keep': '',
  });
  const ws = path.join(work, 'ws');
  const beta = path.join(ws, '.claude/skills/beta/SKILL.md');
  const memoFile = path.join(ws, '.skillflow_cache', 'validate-run-v1.json');
  try {
    const cli = buildCli(path.join(work, 'dist'));
    const same = sameAsUncached(cli, ws);
    fs.mkdirSync(path.join(ws, '.skillflow_cache'));
    assert.equal(same(['--format', 'json']).memo, false);
    assert.equal(same(['--format', 'json']).memo, true);
    // beta's name changes to one close to delta's mention (the rest of the run reads it): a full run, which takes the
    // other three loads as the replay found them, and writes a memo that holds.
    fs.writeFileSync(beta, skillMd('bet1'));
    const renamed = same(['--format', 'json']);
    assert.deepEqual([renamed.memo, renamed.patched, renamed.taken], [false, undefined, 3]);
    assert.match(renamed.out, /name-dir-mismatch/);
    assert.equal(same(['--format', 'json']).memo, true);
    // (Its lines: a file's mtime is written with as many digits as it takes, so its size may move by a byte or two.)
    const lines = () => fs.readFileSync(memoFile, 'latin1').split('\n').length;
    const size = lines();
    // Renamed again and again: each full run keeps the others' questions once (the memo does not grow).
    for (const name of ['bet2', 'bet3', 'bet4']) {
      fs.writeFileSync(beta, skillMd(name));
      assert.equal(same(['--format', 'json']).taken, 3);
      assert.equal(same(['--format', 'json']).memo, true);
    }
    assert.equal(lines(), size);
    // A question of a load taken unasked is still that load's: the guide removed, alpha is made again and reports it.
    fs.rmSync(path.join(ws, '.claude/skills/alpha/references/guide.md'));
    const gone = same(['--format', 'json']);
    assert.equal(gone.memo, false);
    assert.match(gone.out, /reference-missing/);
    // gamma's body edited: only its load is made again (its SKILL.md's questions kept under its own index).
    fs.appendFileSync(path.join(ws, '.claude/skills/gamma/SKILL.md'), '\nMore words.\n');
    assert.equal(same(['--format', 'json']).patched, 1);
    // delta's script appears: delta's load asked for it (kept from two full runs ago); its entry changes.
    fs.mkdirSync(path.join(ws, '.claude/skills/delta/scripts'));
    fs.writeFileSync(path.join(ws, '.claude/skills/delta/scripts/go.sh'), 'echo go\n');
    assert.equal(same(['--format', 'json']).memo, false);
    assert.equal(same(['--format', 'json']).memo, true);
  } finally {
    removeTree(work);
  }
});

test('validate --cache: an edit that changes only a skill\'s own problems prints the memo\'s report again with them; every other case runs in full', () => {
  // beta mentions a skill no level loads, close to alpha: a problem the rest of the run adds (mention-unknown), beside
  // one of its own (a missing file). (A skill without problems of its own has its file read again by the rule
  // configuration for disable comments: an edit to it runs in full.)
  const betaText = skillMd('beta', undefined, '# Beta\n\nUse the `alphaa` skill first. Read [old](old.md).\n');
  const work = tempTree({
    'ws/.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, '# Alpha\n\nSee [the guide](references/guide.md).\n'),
    'ws/.claude/skills/alpha/references/guide.md': '# Guide\n',
    'ws/.claude/skills/beta/SKILL.md': betaText,
    'ws/.claude/skills/gamma/SKILL.md': skillMd('gamma', 'Bad: an unquoted colon'),
    'ws/.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills: [beta, nowhere]\n---\nHelp.\n',
    'ws/home/.keep': '',
  });
  const ws = path.join(work, 'ws');
  const beta = path.join(ws, '.claude/skills/beta/SKILL.md');
  const memoDir = path.join(ws, '.skillflow_cache');
  try {
    const cli = buildCli(path.join(work, 'dist'));
    const same = sameAsUncached(cli, ws);
    fs.mkdirSync(memoDir);
    for (const format of ['json', 'text', 'sarif', 'github', 'markdown']) {
      same(['--format', format]);
      assert.equal(same(['--format', format]).memo, true);
      // A link to a missing file: beta gets a reference-missing problem of its own, nothing else changes.
      fs.appendFileSync(beta, `\nRead [the notes](notes-${format}.md).\n`);
      const edited = same(['--format', format]);
      assert.deepEqual([edited.memo, edited.patched, edited.reprinted], [false, 1, 1], format);
      assert.match(edited.out, new RegExp(`notes-${format}`));
      assert.match(edited.out, /alphaa/, 'the problem the rest of the run added is still there');
      // The patched memo and its report hold as they are, and the next such edit is printed again too.
      assert.equal(same(['--format', format]).memo, true);
      fs.writeFileSync(beta, betaText);
      assert.deepEqual(same(['--format', format]).reprinted, 1, `${format}: the problem fixed`);
    }
    // Text added above a mention: the mention moves, and the problem the rest of the run gave it moves with it.
    same(['--format', 'text']);
    fs.writeFileSync(beta, betaText.replace('# Beta\n', '# Beta\n\nA new first paragraph.\n'));
    const moved = same(['--format', 'text']);
    assert.equal(moved.reprinted, 1);
    assert.match(moved.out, /beta\/SKILL\.md:10:\d+: \w+ mention-unknown Did you mean 'alpha'/);
    fs.writeFileSync(beta, betaText);
    assert.match(same(['--format', 'text']).out, /beta\/SKILL\.md:8:\d+: \w+ mention-unknown/);
    // The rule configuration applies to the problems made again; the exit code follows an error made again.
    fs.writeFileSync(path.join(ws, '.skillflow.json'), JSON.stringify({ rules: { 'reference-missing': 'info', 'agent-skill-missing': 'warning', 'yaml-syntax': 'off' } }));
    assert.equal(same(['--format', 'text']).code, 0);
    assert.equal(same(['--format', 'text']).memo, true);
    fs.appendFileSync(beta, '\nRead [the notes](notes.md) and [that](../../../../outside.md).\n');
    const error = same(['--format', 'text']);
    assert.deepEqual([error.reprinted, error.code], [1, 1]);
    assert.match(error.out, /info reference-missing 'notes\.md'/);
    assert.match(error.out, /error reference-outside/);
    assert.doesNotMatch(error.out, /yaml-syntax/);
    fs.writeFileSync(beta, betaText);
    const back = same(['--format', 'text']);
    assert.deepEqual([back.reprinted, back.code], [1, 0]);
    // A problem turned off in the file itself (a disable comment): the run reads the file for it, so it runs in full.
    fs.appendFileSync(beta, '\n<!-- skillflow-disable reference-missing -->\nRead [the notes](notes.md).\n');
    assert.deepEqual([same(['--format', 'text']).patched], [undefined]);
    fs.writeFileSync(beta, betaText);
    same(['--format', 'text']);
    assert.equal(same(['--format', 'text']).memo, true);
    // Without its report memo, or with a broken or foreign one, such an edit runs in full (and the output is the same).
    const report = path.join(memoDir, 'validate-report-v1.json');
    const damages: Array<[string, () => void]> = [
      ['missing', () => fs.rmSync(report)],
      ['truncated', () => fs.writeFileSync(report, fs.readFileSync(report).subarray(0, 200))],
      ['altered', () => fs.writeFileSync(report, fs.readFileSync(report, 'latin1').replace('beta', 'betb'), 'latin1')],
      ['another run\'s', () => fs.writeFileSync(report, fs.readFileSync(report, 'latin1').replace(/"memo":"[^"]*"/, '"memo":"other"'), 'latin1')],
    ];
    for (const [how, damage] of damages) {
      damage();
      fs.appendFileSync(beta, `\nRead [more](more-${how.length}.md).\n`);
      const r = same(['--format', 'json']);
      assert.deepEqual([r.memo, r.patched], [false, undefined], `report memo ${how}`);
      assert.equal(same(['--format', 'json']).memo, true);
    }
    // A description: only beta's own problems can change, it is printed again; not when a settings file changes the
    // listing's description limit (the run checks each description against it), nor with description-overlap on.
    fs.writeFileSync(beta, betaText.replace('The beta skill.', 'The beta skill, changed.'));
    assert.deepEqual(same(['--format', 'json']).reprinted, 1);
    fs.writeFileSync(beta, betaText.replace('The beta skill.', 'The beta skill, changed again.'));
    assert.deepEqual(same(['--format', 'json']).reprinted, 1);
    for (const [file, text] of [['.claude/settings.json', '{"skillListingMaxDescChars": 20}'], ['.skillflow.json', '{"rules": {"description-overlap": "info"}}']]) {
      const at = path.join(ws, file);
      const old = fs.existsSync(at) ? fs.readFileSync(at) : undefined;
      fs.writeFileSync(at, text);
      same(['--format', 'json']);
      assert.equal(same(['--format', 'json']).memo, true);
      fs.writeFileSync(beta, betaText.replace('The beta skill.', `The beta skill (${file}).`));
      const r = same(['--format', 'json']);
      assert.deepEqual([r.memo, r.patched], [false, undefined], file);
      if (old) fs.writeFileSync(at, old); else fs.rmSync(at);
    }
    same(['--format', 'json']);
    // Mentions of other names (one added, one changed, one that nothing is close to): the rest of the run reads a
    // mention's name only to look it up among the names the run looked every mention up among, which the report memo
    // keeps: printed again, in every format.
    for (const format of ['json', 'text']) {
      same(['--format', format]);
      assert.equal(same(['--format', format]).memo, true);
      fs.writeFileSync(beta, betaText.replace('Use the `alphaa` skill first.', 'Use the `alpha` skill first. Use the `gamme` skill then. Then run `/zzzz-nothing-close`.'));
      const named = same(['--format', format]);
      assert.deepEqual([named.memo, named.reprinted], [false, 1]);
      assert.match(named.out, /Did you mean '?gamma'?/);
      assert.doesNotMatch(named.out, /Did you mean '?alpha'?/);
      // The memo now knows the new mention: a skill renamed to it is printed again with beta, whose lookups are made
      // again (the mention's problem goes), and back.
      const gammaFile = path.join(ws, '.claude/skills/gamma/SKILL.md');
      const gammaText = fs.readFileSync(gammaFile, 'utf8');
      fs.writeFileSync(gammaFile, gammaText.replace('name: gamma', 'name: gamme'));
      const renamed = same(['--format', format]);
      assert.deepEqual([renamed.memo, renamed.reprinted], [false, 1]);
      assert.doesNotMatch(renamed.out, /Did you mean '?gamma'?/);
      fs.writeFileSync(gammaFile, gammaText);
      const unnamed = same(['--format', format]);
      assert.deepEqual([unnamed.memo, unnamed.reprinted], [false, 1]);
      assert.match(unnamed.out, /Did you mean '?gamma'?/);
      fs.writeFileSync(beta, betaText);
      const back = same(['--format', format]);
      assert.deepEqual([back.memo, back.reprinted], [false, 1]);
      assert.match(back.out, /Did you mean '?alpha'?/);
    }
    // A description on two lines and the mention gone: printed again too.
    same(['--format', 'json']);
    assert.equal(same(['--format', 'json']).memo, true);
    fs.writeFileSync(beta, '---\nname: beta\ndescription: >\n  The beta skill. Use it in tests.\n---\n\nRead [x](x.md).\n');
    assert.deepEqual([same(['--format', 'json']).reprinted], [1]);
    // What the rest of the run reads changed too (beta named as the agent's `skills:` entry that no skill answers, and
    // mentioning itself): runs in full.
    fs.writeFileSync(beta, '---\nname: nowhere\ndescription: The beta skill. Use it in tests.\n---\n\nUse the `nowhere` skill. Read [x](x.md).\n');
    assert.deepEqual([same(['--format', 'json']).patched], [undefined]);
    // Nothing was left behind in the cache folder.
    assert.deepEqual(fs.readdirSync(memoDir).sort(), ['.gitignore', 'validate-report-v1.json', 'validate-run-v1.json', 'validate-v1.json']);
  } finally {
    removeTree(work);
  }
});

test('validate --cache: a skill renamed prints the memo\'s report again, with the lookups of mentions that read either name made again; a name an agent, the model or a plugin reads runs in full', () => {
  // alpha mentions `zeta-skill`, which no level loads and no loaded name is close to (quiet); the agent lists
  // `agent-named`, which does not exist (agent-skill-missing); `help` is a built-in command (builtin-clash at its name).
  const work = tempTree({
    'ws/.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, '# Alpha\n\nUse the `zeta-skill` skill first.\n'),
    'ws/.claude/skills/beta/SKILL.md': skillMd('beta', undefined, '# Beta\n\nRead [old](old.md).\n'),
    'ws/.claude/skills/help/SKILL.md': skillMd('help'),
    'ws/.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills: [alpha, agent-named]\n---\nHelp.\n',
    'ws/plug/.claude-plugin/plugin.json': '{"name": "plug"}',
    'ws/plug/skills/pk/SKILL.md': skillMd('pk', undefined, '# Pk\n\nRead [old](old.md).\n'),
    'ws/plug/skills/pk2/SKILL.md': skillMd('pk2'),
    'ws/home/.keep': '',
  });
  const ws = path.join(work, 'ws');
  const beta = path.join(ws, '.claude/skills/beta/SKILL.md');
  const rename = (file: string, name: string) => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^name: .*$/m, `name: ${name}`));
  try {
    const cli = buildCli(path.join(work, 'dist'));
    const same = sameAsUncached(cli, ws);
    fs.mkdirSync(path.join(ws, '.skillflow_cache'));
    const first = same(['--format', 'json']);
    assert.match(first.out, /builtin-clash/);
    assert.match(first.out, /skill 'agent-named' does not exist/);
    assert.equal(same(['--format', 'json']).memo, true);
    // A name nothing else reads: beta's load is made again, its name and own problems (name-dir-mismatch) printed again.
    for (const name of ['beta-renamed', 'beta-renamed-again', 'beta']) {
      rename(beta, name);
      const r = same(['--format', 'json']);
      assert.deepEqual([r.memo, r.patched, r.reprinted], [false, 1, 1], name);
      const row = (JSON.parse(r.out) as { skills: Array<{ path: string; name: string; problems: Array<{ code: string }> }> }).skills.find((s) => s.path.endsWith('beta/SKILL.md'));
      assert.equal(row?.name, name);
      assert.equal(row?.problems.some((p) => p.code === 'name-dir-mismatch'), name !== 'beta', name);
      assert.equal(same(['--format', 'json']).memo, true, `${name}: the patched memo holds`);
    }
    // Renamed and mentioning names at once: its own mentions are looked up among the names with the new one in them
    // (a name close to the new one: suggested; its own new name: known; a name as close to two names: their order
    // would decide, in full). Each from beta as it was.
    const mentionAndRename = (name: string, body: string) => fs.writeFileSync(beta, skillMd(name, undefined, `# Beta\n\nRead [old](old.md).\n\n${body}\n`));
    // beta as it was, and a full run (an agent edited: the names mentions are looked up among are kept again).
    const restore = () => {
      fs.writeFileSync(beta, skillMd('beta', undefined, '# Beta\n\nRead [old](old.md).\n'));
      fs.appendFileSync(path.join(ws, '.claude/agents/helper.md'), 'More help.\n');
      assert.deepEqual([same(['--format', 'json']).patched], [undefined]);
      assert.equal(same(['--format', 'json']).memo, true);
    };
    restore();
    mentionAndRename('beta-nomad', 'Use the `beta-named` skill.');
    const close = same(['--format', 'json']);
    assert.deepEqual([close.memo, close.reprinted], [false, 1]);
    assert.match(close.out, /Did you mean 'beta-nomad'\?/);
    restore();
    mentionAndRename('beta-named', 'Use the `beta-named` skill.');
    const both = same(['--format', 'json']);
    assert.deepEqual([both.memo, both.reprinted], [false, 1]);
    assert.doesNotMatch(both.out, /mention-unknown/);
    restore();
    mentionAndRename('alphb', 'Use the `alphc` skill.');
    assert.deepEqual([same(['--format', 'json']).patched], [undefined]);
    restore();
    // One skill renamed and another's mentions changed in one run: the mentions would need the names after the rename.
    const alphaFile = path.join(ws, '.claude/skills/alpha/SKILL.md');
    const alphaText = fs.readFileSync(alphaFile, 'utf8');
    rename(beta, 'zed-two');
    fs.appendFileSync(alphaFile, '\nUse the `zed-twq` skill.\n');
    const pair = same(['--format', 'json']);
    assert.deepEqual([pair.memo, pair.patched], [false, undefined]);
    assert.match(pair.out, /Did you mean 'zed-two'\?/);
    fs.writeFileSync(alphaFile, alphaText);
    restore();
    // A rename printed again edits the names mentions are looked up among (its old name out when only its `name` gave
    // it, the new one in): a later edit of mentions is printed again from them. A mention of its old name, which only
    // its name gave (the folder is beta): now unknown, close to the new name.
    rename(beta, 'zed-one');
    assert.equal(same(['--format', 'json']).reprinted, 1);
    fs.appendFileSync(beta, '\nUse the `zed-onee` skill.\n');
    const later = same(['--format', 'json']);
    assert.deepEqual([later.memo, later.reprinted], [false, 1]);
    assert.match(later.out, /Did you mean 'zed-one'\?/);
    mentionAndRename('zed-onf', 'Use the `zed-one` skill.');
    const old = same(['--format', 'json']);
    assert.deepEqual([old.memo, old.reprinted], [false, 1]);
    assert.match(old.out, /Did you mean 'zed-onf'\?/);
    // Its folder's name stays among the names whatever its `name` says: a mention of `beta` stays known.
    mentionAndRename('beta', 'Use the `beta` skill.');
    assert.equal(same(['--format', 'json']).reprinted, 1);
    rename(beta, 'zed-three');
    const folder = same(['--format', 'json']);
    assert.deepEqual([folder.memo, folder.reprinted], [false, 1]);
    assert.doesNotMatch(folder.out, /mention-unknown/);
    restore();
    // A name close to alpha's mention (mention-unknown then suggests it), and back from it: alpha's lookups are made
    // again, and both skills printed again.
    rename(beta, 'zeta-skil');
    const near = same(['--format', 'json']);
    assert.deepEqual([near.memo, near.patched, near.reprinted], [false, 1, 1]);
    assert.match(near.out, /alpha\/SKILL\.md[^]*Did you mean 'zeta-skil'\?/);
    rename(beta, 'zeta-skill');
    const exact = same(['--format', 'json']);
    assert.deepEqual([exact.memo, exact.reprinted], [false, 1]);
    assert.doesNotMatch(exact.out, /mention-unknown/);
    rename(beta, 'beta');
    const back = same(['--format', 'json']);
    assert.deepEqual([back.memo, back.reprinted], [false, 1]);
    assert.doesNotMatch(back.out, /mention-unknown/);
    // alpha's folder under another profile (its `.skillflow.json`): the full run checks it again under that one, where
    // mention-unknown is not a rule; its problems are not its load's, in full.
    const alphaConfig = path.join(ws, '.claude/skills/alpha/.skillflow.json');
    fs.writeFileSync(alphaConfig, '{"profile": "spec"}');
    same(['--format', 'json']);
    rename(beta, 'zeta-skil');
    const profiled = same(['--format', 'json']);
    assert.deepEqual([profiled.memo, profiled.patched], [false, undefined]);
    assert.doesNotMatch(profiled.out, /mention-unknown/);
    fs.rmSync(alphaConfig);
    rename(beta, 'beta');
    same(['--format', 'json']);
    // Two names as close to alpha's mention, one of them this rename's: which is suggested depends on their order (in
    // a run, the order the run meets them in): in full.
    const gamma = path.join(ws, '.claude/skills/zeta-skilm/SKILL.md');
    fs.mkdirSync(path.dirname(gamma));
    fs.writeFileSync(gamma, skillMd('zeta-skilm'));
    assert.deepEqual([same(['--format', 'json']).patched], [undefined]);
    rename(beta, 'zeta-skiln');
    const tie = same(['--format', 'json']);
    assert.deepEqual([tie.memo, tie.patched], [false, undefined]);
    assert.match(tie.out, /Did you mean 'zeta-skil[mn]'\?/);
    fs.rmSync(path.dirname(gamma), { recursive: true });
    restore();
    // The name the agent lists (its agent-skill-missing goes), and back: in full.
    rename(beta, 'agent-named');
    const listed = same(['--format', 'json']);
    assert.deepEqual([listed.memo, listed.patched], [false, undefined]);
    assert.doesNotMatch(listed.out, /skill 'agent-named' does not exist/);
    rename(beta, 'beta');
    assert.deepEqual([same(['--format', 'json']).patched], [undefined]);
    // A skill with a problem the model placed at its name (builtin-clash, which moves with it), and a plugin's skill
    // (its name is its command: pk named pk2 answers what pk2 answers).
    for (const [file, name, shows] of [['.claude/skills/help/SKILL.md', 'help-renamed', /builtin-clash[^}]*"line": 2,\s*"column": 7,\s*"endLine": 2,\s*"endColumn": 19/], ['plug/skills/pk/SKILL.md', 'pk2', /duplicate-name/]] as const) {
      rename(path.join(ws, file), name);
      const r = same(['--format', 'json']);
      assert.deepEqual([r.memo, r.patched], [false, undefined], file);
      assert.match(r.out, shows);
      assert.equal(same(['--format', 'json']).memo, true);
    }
  } finally {
    removeTree(work);
  }
});
