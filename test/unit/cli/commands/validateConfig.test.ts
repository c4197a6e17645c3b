import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

/** `path severity code` of each problem line (positions and wording belong to the rules' own tests), then the summary. */
function shape(out: string): string[] {
  return out.split('\n').filter(Boolean).map((l) => {
    const m = /^(.+?):\d+:\d+: (\S+) (\S+) /.exec(l);
    return m ? `${m[1]} ${m[2]} ${m[3]}` : l;
  });
}

async function run(argv: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

const MISSING_REF = (name: string) => skillMd(name, `The ${name} skill. Use it in tests.`, `# ${name}\n\nSee [the guide](references/guide.md).\n`);

test('validate reads the nearest .skillflow.json: rules change severities, off drops, ignore skips files; the nearest file wins', async () => {
  const dir = tempTree({
    '.skillflow.json': '{"rules": {"reference-missing": "error", "name-dir-mismatch": "off"}, "ignore": ["legacy"]}',
    '.claude/skills/a/SKILL.md': MISSING_REF('a'),
    '.claude/skills/b/SKILL.md': skillMd('not-b'),
    'legacy/.claude/skills/old/SKILL.md': '---\nname: Old\n---\n',
    'sub/.skillflow.json': '{"rules": {"reference-missing": "info"}}',
    'sub/.claude/skills/c/SKILL.md': MISSING_REF('c'),
  });
  try {
    const r = await run(['validate', '.', 'legacy', 'sub'], dir);
    assert.equal(r.err, '');
    assert.deepEqual(shape(r.out), [
      '.claude/skills/a/SKILL.md error reference-missing',
      'sub/.claude/skills/c/SKILL.md info reference-missing',
      '3 skills checked: 1 error, 0 warnings',
    ]);
    assert.equal(r.code, 1);
  } finally {
    removeTree(dir);
  }
});

test('validate: profile from .skillflow.json unless --profile; per skill when configs differ', async () => {
  const dir = tempTree({
    '.skillflow.json': '{"profile": "spec"}',
    '.claude/skills/a/SKILL.md': skillMd('not-a'),
    'other/.skillflow.json': '{"profile": "upload"}',
    'other/.claude/skills/claude-helper/SKILL.md': skillMd('claude-helper'),
  });
  try {
    const severities = (out: string) => out.split('\n').filter((l) => l.includes(' ')).map((l) => l.split(' ').slice(1, 3).join(' '));
    const spec = await run(['validate', '.'], dir);
    assert.deepEqual(severities(spec.out).slice(0, 2), ['error name-dir-mismatch', 'error name-reserved']);
    assert.equal(spec.code, 1);
    const flag = await run(['validate', '.', '--profile', 'claude-code'], dir);
    assert.deepEqual(severities(flag.out).slice(0, 1), ['warning name-dir-mismatch']);
    assert.ok(!flag.out.includes('name-reserved'), flag.out);
    assert.equal(flag.code, 0);
  } finally {
    removeTree(dir);
  }
});

test('validate: skillflow-disable comments turn rules off for that file only; unknown codes are config-invalid', async () => {
  const dir = tempTree({
    '.claude/skills/a/SKILL.md': `${MISSING_REF('a')}\n<!-- skillflow-disable reference-missing -->\n`,
    '.claude/skills/b/SKILL.md': `${MISSING_REF('b')}\n\`\`\`\n<!-- skillflow-disable reference-missing -->\n\`\`\`\n<!-- skillflow-disable no-such-code -->\n`,
  });
  try {
    const r = await run(['validate', '.'], dir);
    assert.deepEqual(shape(r.out), [
      '.claude/skills/b/SKILL.md warning reference-missing',
      '.claude/skills/b/SKILL.md warning config-invalid',
      '2 skills checked: 0 errors, 2 warnings',
    ]);
    assert.match(r.out, /SKILL\.md:13:1: warning config-invalid unknown rule code 'no-such-code' in a skillflow-disable comment/);
  } finally {
    removeTree(dir);
  }
});

test('validate: a half-written .skillflow.json is a config-invalid warning on that file, defaults used, never a crash', async () => {
  const dir = tempTree({
    '.skillflow.json': '{"rules": {"reference-missing": "of',
    '.claude/skills/a/SKILL.md': MISSING_REF('a'),
  });
  try {
    const r = await run(['validate', '.', '--format', 'json'], dir);
    assert.equal(r.code, 0);
    const json = JSON.parse(r.out);
    assert.deepEqual(json.configs.map((c: { path: string; problems: Array<{ code: string; line: number }> }) => [c.path, c.problems.map((p) => p.code)]), [['.skillflow.json', ['config-invalid']]]);
    assert.equal(json.skills[0].problems[0].severity, 'warning');
    assert.equal(json.summary.warnings, 2);
  } finally {
    removeTree(dir);
  }
});

test('validate: a PATH without any skill, command or agent gets a notice on stderr; the exit code is unchanged', async () => {
  const dir = tempTree({ 'empty/readme.txt': 'x', '.claude/skills/a/SKILL.md': skillMd('a') });
  try {
    const r = await run(['validate', 'empty', '.'], dir);
    assert.equal(r.err, "skillflow validate: no skill, command or agent found in 'empty'\n");
    assert.equal(r.code, 0);
    assert.equal(r.out, '1 skill checked: 0 errors, 0 warnings\n');
    const alone = await run(['validate', 'empty'], dir);
    assert.equal(alone.code, 0);
    assert.match(alone.err, /no skill, command or agent found in 'empty'/);
  } finally {
    removeTree(dir);
  }
});

test('validate reads a SKILL.md again for disable comments only when loading did not rule them out', async () => {
  const dir = tempTree({
    '.claude/skills/quiet/SKILL.md': MISSING_REF('quiet'),
    '.claude/skills/marked/SKILL.md': `${MISSING_REF('marked')}\n<!-- skillflow-disable reference-missing -->\n`,
    '.claude/skills/clean/SKILL.md': skillMd('clean'),
  });
  try {
    const reads: string[] = [];
    const counting = {
      ...nodeFileSystem,
      readFile: (p: string) => { reads.push(p); return nodeFileSystem.readFile(p); },
      readFileTransient: (p: string, size?: number) => { reads.push(p); return nodeFileSystem.readFileTransient!(p, size); },
    };
    let out = '';
    const code = await main({ argv: ['validate', '.'], cwd: dir, fs: counting, env: { SKILLFLOW_WORKERS: '0' }, out: (t) => { out += t; }, err: () => undefined });
    assert.equal(code, 0);
    // The disable comment still works; the file without one was read once (by its load), the marked one twice.
    assert.deepEqual(shape(out).filter((l) => l.includes('SKILL.md')), ['.claude/skills/quiet/SKILL.md warning reference-missing']);
    const count = (name: string) => reads.filter((p) => p.endsWith(`${name}/SKILL.md`)).length;
    assert.deepEqual([count('quiet'), count('marked'), count('clean')], [1, 2, 1]);
  } finally { removeTree(dir); }
});
