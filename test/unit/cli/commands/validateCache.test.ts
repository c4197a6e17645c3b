import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(cwd: string, argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main({ argv: ['validate', ...(argv.includes('--no-cache') ? [] : ['--cache']), ...argv], cwd, fs: nodeFileSystem, env: { SKILLFLOW_CACHE_STATS: '1', ...env }, home: path.join(cwd, 'home'), managedDir: null, out: (t) => { out += t; }, err: (t) => { err += t; } });
  const stats = /cache: (\d+) reused, (\d+) loaded/.exec(err);
  return { code, out, err: err.replace(/^.*cache: .*\n/m, ''), reused: stats ? Number(stats[1]) : -1, loaded: stats ? Number(stats[2]) : -1 };
}

const tree = () => tempTree({
  '.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, 'See [the guide](references/guide.md).\n'),
  '.claude/skills/beta/SKILL.md': skillMd('beta'),
  '.claude/skills/gamma/SKILL.md': skillMd('gamma'),
});

/** The same run without the cache, for comparison. */
async function fresh(cwd: string, argv: string[]) {
  const r = await run(cwd, [...argv, '--no-cache']);
  assert.equal(r.reused, -1, 'no cache with --no-cache');
  return r;
}

test('validate cache: a second run reuses every load and prints the same; --no-cache writes nothing', async () => {
  const dir = tree();
  try {
    const none = await fresh(dir, ['--format', 'json']);
    assert.equal(fs.existsSync(path.join(dir, '.skillflow_cache')), false);
    const first = await run(dir, ['--format', 'json'], { SKILLFLOW_CACHE_RACY_MS: '0' });
    assert.deepEqual([first.reused, first.loaded], [0, 3]);
    const second = await run(dir, ['--format', 'json'], { SKILLFLOW_CACHE_RACY_MS: '0' });
    assert.deepEqual([second.reused, second.loaded], [3, 0]);
    assert.equal(second.out, none.out);
    assert.equal(second.code, none.code);
    assert.match(none.out, /reference-missing/);
    // Its own .gitignore keeps it out of commits.
    assert.equal(fs.readFileSync(path.join(dir, '.skillflow_cache', '.gitignore'), 'utf8').split('\n')[1], '*');
  } finally { removeTree(dir); }
});

test('validate cache: a same-size edit, a created reference target, a renamed skill and a new config are all seen', async () => {
  const dir = tree();
  const env = { SKILLFLOW_CACHE_RACY_MS: '0' };
  try {
    await run(dir, [], env);
    // Same size, same second: the ctime and the hash tell.
    fs.writeFileSync(path.join(dir, '.claude/skills/beta/SKILL.md'), skillMd('betA'));
    let r = await run(dir, [], env);
    assert.deepEqual([r.reused, r.loaded], [2, 1]);
    assert.equal(r.out, (await fresh(dir, [])).out);
    assert.match(r.out, /betA/);
    // The reference now resolves: alpha is loaded again (its trace asked whether guide.md exists).
    fs.mkdirSync(path.join(dir, '.claude/skills/alpha/references'));
    fs.writeFileSync(path.join(dir, '.claude/skills/alpha/references/guide.md'), '# guide\n');
    r = await run(dir, [], env);
    assert.equal(r.loaded, 1);
    assert.doesNotMatch(r.out, /reference-missing/);
    assert.equal(r.out, (await fresh(dir, [])).out);
    fs.renameSync(path.join(dir, '.claude/skills/gamma'), path.join(dir, '.claude/skills/delta'));
    r = await run(dir, [], env);
    assert.equal(r.out, (await fresh(dir, [])).out);
    assert.match(r.out, /name-dir-mismatch/);
    // A new .skillflow.json: nothing cached is trusted in that run.
    fs.writeFileSync(path.join(dir, '.skillflow.json'), JSON.stringify({ rules: { 'name-dir-mismatch': 'off' } }));
    r = await run(dir, [], env);
    assert.equal(r.reused, 0);
    assert.equal(r.out, (await fresh(dir, [])).out);
    assert.doesNotMatch(r.out, /name-dir-mismatch/);
    // Another profile is another key.
    r = await run(dir, ['--profile', 'spec'], env);
    assert.deepEqual([r.reused, r.loaded], [0, 3]);
    assert.equal(r.out, (await fresh(dir, ['--profile', 'spec'])).out);
  } finally { removeTree(dir); }
});

test('validate cache: the path a "did you mean" names is a dependency: created later, the hint appears; removed, it goes', async () => {
  const dir = tempTree({ '.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, 'See [the guide](reference/guide.md).\n') });
  const env = { SKILLFLOW_CACHE_RACY_MS: '0' };
  try {
    let r = await run(dir, [], env);
    assert.doesNotMatch(r.out, /did you mean/);
    fs.mkdirSync(path.join(dir, '.claude/skills/alpha/references'));
    fs.writeFileSync(path.join(dir, '.claude/skills/alpha/references/guide.md'), '# guide\n');
    r = await run(dir, [], env);
    assert.equal(r.loaded, 1, 'loaded again: its trace asked whether references/guide.md exists');
    assert.match(r.out, /did you mean 'references\/guide\.md'\?/);
    assert.equal(r.out, (await fresh(dir, [])).out);
    fs.rmSync(path.join(dir, '.claude/skills/alpha/references'), { recursive: true });
    r = await run(dir, [], env);
    assert.doesNotMatch(r.out, /did you mean/);
    assert.equal(r.out, (await fresh(dir, [])).out);
  } finally { removeTree(dir); }
});

test('validate cache: a file changed within the racy window is hashed, not trusted by its fingerprint', async () => {
  const dir = tree();
  try {
    await run(dir, []);
    const r = await run(dir, []);
    // Written just now (default window): every SKILL.md is hashed; unchanged bytes are still reused.
    assert.deepEqual([r.reused, r.loaded], [3, 0]);
    fs.writeFileSync(path.join(dir, '.claude/skills/beta/SKILL.md'), skillMd('betA'));
    const after = await run(dir, []);
    assert.deepEqual([after.reused, after.loaded], [2, 1]);
  } finally { removeTree(dir); }
});

test('validate cache: a corrupt, truncated, foreign or unwritable cache is ignored and rewritten, never fatal, no temp file left', async () => {
  const dir = tree();
  const env = { SKILLFLOW_CACHE_RACY_MS: '0' };
  try {
    const expected = (await fresh(dir, [])).out;
    await run(dir, [], env);
    const file = path.join(dir, '.skillflow_cache', 'validate-v1.json');
    const good = fs.readFileSync(file, 'utf8');
    const bad = [
      'not json at all',
      good.slice(0, good.length - 10),
      good.replace(/beta/g, 'betx'), // the body changed, still JSON: the checksum fails
      good.replace('skillflow-validate-cache', 'eslint-cache'),
      '',
      '\u0000\u0001',
    ];
    assert.notEqual(bad[2], good);
    for (const text of bad) {
      fs.writeFileSync(file, text);
      const r = await run(dir, [], env);
      assert.equal(r.out, expected);
      assert.equal(r.err, '');
      assert.equal(r.reused, 0, `ignored: ${text.slice(0, 40)}`);
      const header = (text: string) => { const h = JSON.parse(text.split('\n')[0]) as Record<string, unknown>; return [h.magic, h.format, h.key]; };
      assert.deepEqual(header(fs.readFileSync(file, 'utf8')), header(good));
    }
    assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['.gitignore', 'validate-report-v1.json', 'validate-run-v1.json', 'validate-v1.json']);
    // A cache location that cannot be a folder: the run goes on without one.
    fs.writeFileSync(path.join(dir, 'blocker'), 'x');
    const r = await run(dir, ['--cache-location', 'blocker/sub'], env);
    assert.equal(r.out, expected);
    assert.equal(r.err, '');
    // --cache-location elsewhere.
    await run(dir, ['--cache-location', 'other'], env);
    assert.equal((await run(dir, ['--cache-location', 'other'], env)).reused, 3);
    assert.ok(fs.existsSync(path.join(dir, 'other', 'validate-v1.json')));
  } finally { removeTree(dir); }
});
