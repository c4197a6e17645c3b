import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd = process.cwd(), home?: string) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: {}, home, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

interface JsonProblem { code: string; severity: string; message: string; line: number; column: number; endLine: number; endColumn: number }
interface JsonReport { skills: Array<{ path: string; name: string; problems: JsonProblem[] }>; summary: { skills: number; errors: number; warnings: number } }

test('validate the corpus as JSON: 27 skills, no error (Claude Code loads each as written; claude-api description-length is a warning), template name-dir-mismatch warning', async () => {
  const r = await run(['validate', 'test/fixtures/corpus', '--format', 'json']);
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
  const report = JSON.parse(r.out) as JsonReport;
  assert.equal(report.summary.skills, 27);
  assert.equal(report.skills.length, 27);
  assert.equal(report.summary.errors, 0);
  const api = report.skills.find((s) => s.name === 'claude-api')!;
  assert.equal(api.path, 'test/fixtures/corpus/anthropics-skills/claude-api/SKILL.md');
  const length = api.problems.find((p) => p.code === 'description-length')!;
  assert.deepEqual([length.severity, length.line], ['warning', 3]);
  assert.deepEqual(Object.keys(length), ['code', 'severity', 'message', 'line', 'column', 'endLine', 'endColumn']);
  const template = report.skills.find((s) => s.path === 'test/fixtures/corpus/anthropics-skills/template/SKILL.md')!;
  assert.equal(template.name, 'template-skill');
  assert.deepEqual(template.problems.map((p) => [p.code, p.severity, p.line, p.column]), [['name-dir-mismatch', 'warning', 2, 7]]);
  const warnings = report.skills.reduce((n, s) => n + s.problems.filter((p) => p.severity === 'warning').length, 0);
  assert.equal(report.summary.warnings, warnings);
  // Sorted by path.
  const paths = report.skills.map((s) => s.path);
  assert.deepEqual(paths, [...paths].sort());
});

test('validate the corpus under --profile spec: the template mismatch becomes an error', async () => {
  const r = await run(['validate', 'test/fixtures/corpus', '--format', 'json', '--profile', 'spec']);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.out) as JsonReport;
  const errors = report.skills.flatMap((s) => s.problems.filter((p) => p.severity === 'error').map((p) => `${s.name}:${p.code}`)).sort();
  assert.deepEqual(errors, ['claude-api:description-length', 'template-skill:name-dir-mismatch']);
  assert.equal(report.summary.errors, 2);
});

test('validate text: sorted path:line:col lines relative to cwd, then the summary line', async () => {
  const dir = tempTree({
    '.claude/skills/good/SKILL.md': skillMd('good'),
    '.claude/skills/zeta/SKILL.md': '---\nname: Zeta\ndescription: Has <b>.\n---\n',
    '.claude/skills/alpha/SKILL.md': '---\nname: alpha\n---\n',
  });
  try {
    const r = await run(['validate'], dir);
    assert.equal(r.code, 0);
    assert.equal(r.out, [
      ".claude/skills/alpha/SKILL.md:1:1: warning description-missing Add a 'description' that says what the skill does and when to use it (Claude Code falls back to the first paragraph; the spec and uploads require it)",
      ".claude/skills/zeta/SKILL.md:2:7: warning name-case Rename to 'zeta': 'name' has upper-case letters (found 'Z'); Claude Code shows it as a label only in a personal or project skill (the command is /zeta); the Agent Skills spec, claude.ai uploads and packaging refuse it",
      ".claude/skills/zeta/SKILL.md:2:7: warning name-dir-mismatch Rename to 'zeta' to match the folder (name is 'Zeta')",
      ".claude/skills/zeta/SKILL.md:3:14: warning description-angle-brackets Remove '<' and '>' from the description: claude.ai uploads refuse angle brackets",
      '3 skills checked: 0 errors, 4 warnings',
      '',
    ].join('\n'));
    // Every line still matches the problem matcher the extension contributes (path:line:col: severity code message).
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { contributes: { problemMatchers: Array<{ pattern: { regexp: string } }> } };
    const matcher = new RegExp(pkg.contributes.problemMatchers[0].pattern.regexp);
    for (const line of r.out.split('\n').slice(0, 4)) {
      const m = matcher.exec(line);
      assert.ok(m, line);
      assert.match(m[6], /^[A-Z]/, 'the message group starts with its capital letter');
    }
    const one = await run(['validate', '.claude/skills/good/SKILL.md'], dir);
    assert.deepEqual([one.code, one.out], [0, '1 skill checked: 0 errors, 0 warnings\n']);
    const folder = await run(['validate', path.join(dir, '.claude', 'skills', 'good')], path.join(dir, '.claude'));
    assert.deepEqual([folder.code, folder.out], [0, '1 skill checked: 0 errors, 0 warnings\n']);
  } finally { removeTree(dir); }
});

test('validate: a plugin skill whose only problem is its display name (`name: Agent Development`) exits 0 in claude-code, 1 under spec', async () => {
  const plugin = 'test/fixtures/validation/display-name-plugin';
  const cc = await run(['validate', plugin, '--format', 'json']);
  assert.equal(cc.code, 0);
  const report = JSON.parse(cc.out) as JsonReport;
  assert.deepEqual([report.summary.skills, report.summary.errors, report.summary.warnings], [1, 0, 3]);
  const problems = report.skills[0].problems;
  assert.deepEqual(problems.map((p) => [p.code, p.severity]), [['name-case', 'warning'], ['name-charset', 'warning'], ['name-dir-mismatch', 'warning']]);
  assert.match(problems[0].message, /^Rename to 'agent-development': .*Claude Code also makes it the command \(\/display-name-plugin:Agent Development\)/);
  const spec = await run(['validate', plugin, '--format', 'json', '--profile', 'spec']);
  assert.equal(spec.code, 1);
  const specReport = JSON.parse(spec.out) as JsonReport;
  assert.deepEqual(specReport.skills[0].problems.map((p) => [p.code, p.severity]), [['name-case', 'error'], ['name-charset', 'error'], ['name-dir-mismatch', 'error']]);
});

test('validate: a project skill with a display name exits 0 in claude-code (the command is the folder), 1 under spec and upload', async () => {
  const dir = tempTree({ '.claude/skills/agent-development/SKILL.md': '---\nname: Agent Development\ndescription: Helps write agents.\n---\n' });
  try {
    const cc = await run(['validate'], dir);
    assert.equal(cc.code, 0);
    assert.match(cc.out, /warning name-case Rename to 'agent-development': .*Claude Code shows it as a label only in a personal or project skill \(the command is \/agent-development\)/);
    assert.match(cc.out, /0 errors, 3 warnings\n$/);
    for (const profile of ['spec', 'upload']) {
      const r = await run(['validate', '--profile', profile], dir);
      assert.equal(r.code, 1, profile);
      assert.match(r.out, /error name-case Rename to 'agent-development': 'name' must be lower-case \(found 'A', 'D'\)\n/, profile);
    }
  } finally { removeTree(dir); }
});

test('validate: several paths, agents included, duplicates across paths counted once', async () => {
  const dir = tempTree({
    'a/.claude/skills/one/SKILL.md': skillMd('one'),
    'a/.claude/agents/helper.md': '---\nname: helper\ndescription: Helps.\nskills: [one, missing-one]\n---\nBody\n',
    'b/.claude/skills/two/SKILL.md': skillMd('two'),
  });
  try {
    const r = await run(['validate', 'a', 'b', 'a/.claude/skills/one', '--format=json'], dir);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.out) as JsonReport & { agents: Array<{ path: string; name: string; problems: JsonProblem[] }> };
    assert.deepEqual(report.skills.map((s) => s.path), ['a/.claude/skills/one/SKILL.md', 'b/.claude/skills/two/SKILL.md']);
    assert.deepEqual(report.agents.map((a) => [a.path, a.name, a.problems.map((p) => p.code)]), [['a/.claude/agents/helper.md', 'helper', ['agent-skill-missing']]]);
    assert.deepEqual(report.summary, { skills: 2, errors: 1, warnings: 0, infos: 0, agents: 1 });
    const text = await run(['validate', 'a'], dir);
    assert.match(text.out, /^a\/\.claude\/agents\/helper\.md:4:\d+: error agent-skill-missing .*missing-one/m);
    assert.match(text.out, /\n1 skill checked: 1 error, 0 warnings; 1 agent checked\n$/);
  } finally { removeTree(dir); }
});

test('validate exit codes: 0 clean, 2 on an unreadable path or bad usage (stderr, nothing on stdout)', async () => {
  const dir = tempTree({ 's/.claude/skills/ok/SKILL.md': skillMd('ok'), 'file.txt': 'x' });
  try {
    const ok = await run(['validate', 's'], dir);
    assert.deepEqual([ok.code, ok.out, ok.err], [0, '1 skill checked: 0 errors, 0 warnings\n', '']);
    const missing = await run(['validate', 's', 'nope'], dir);
    assert.deepEqual([missing.code, missing.out, missing.err], [2, '', "skillflow validate: 'nope' does not exist\n"]);
    const notSkill = await run(['validate', 'file.txt'], dir);
    assert.equal(notSkill.code, 2);
    assert.match(notSkill.err, /'file\.txt' is not a SKILL\.md/);
    const badProfile = await run(['validate', '--profile', 'strict'], dir);
    assert.deepEqual([badProfile.code, badProfile.out], [2, '']);
    assert.match(badProfile.err, /^skillflow validate: option '--profile' must be one of claude-code, spec, upload \(got 'strict'\)\n$/);
    const badFormat = await run(['validate', '--format', 'xml'], dir);
    assert.equal(badFormat.code, 2);
    const unknown = await run(['validate', '--fixes'], dir);
    assert.deepEqual([unknown.code, unknown.err], [2, "skillflow validate: unknown option '--fixes'\n"]);
    const empty = await run(['validate', '.'], path.join(dir, 's', '.claude'));
    assert.equal(empty.code, 0);
  } finally { removeTree(dir); }
});

test('list: text table and JSON with name, scope, kind, path, description, tokens, Claude Code fields; agents too', async () => {
  const r = await run(['list', 'test/fixtures/discovery/workspace', '--format', 'json']);
  assert.equal(r.code, 0);
  const report = JSON.parse(r.out) as { skills: Array<Record<string, unknown>>; agents: Array<Record<string, unknown>> };
  const fmt = report.skills.find((s) => s.name === 'fmt')!;
  assert.deepEqual(
    { name: fmt.name, scope: fmt.scope, kind: fmt.kind, path: fmt.path, description: fmt.description, invocation: fmt.invocation, level: fmt.level, source: fmt.source, loaded: fmt.loaded, shadowedBy: fmt.shadowedBy },
    { name: 'fmt', scope: 'plugin', kind: 'command', path: 'test/fixtures/discovery/workspace/my-plugin/skills/fmt', description: 'Formats code for the toolkit plugin.', invocation: '/toolkit:fmt', level: 'plugin', source: 'skill', loaded: true, shadowedBy: null },
  );
  // docs/example is in no folder Claude Code reads: listed, not loaded, no command.
  const example = report.skills.find((s) => s.name === 'example')!;
  assert.deepEqual([example.invocation, example.loaded, example.level], [null, false, 'project']);
  assert.match(String(example.notLoadedReason), /Claude Code does not read skills from/);
  const text = fs.readFileSync('test/fixtures/discovery/workspace/my-plugin/skills/fmt/SKILL.md', 'utf8');
  assert.equal(fmt.tokens, Math.ceil(text.length / 4));
  assert.equal(report.skills.find((s) => s.name === 'workflow-release')!.kind, 'workflow');
  assert.deepEqual(report.skills.map((s) => s.name).sort(), ['alpha', 'beta', 'delta', 'example', 'fmt', 'gamma', 'lint', 'workflow-release']);
  assert.deepEqual(report.agents.map((a) => [a.name, a.kind, a.scope, a.path]), [['reviewer', 'agent', 'project', 'test/fixtures/discovery/workspace/.claude/agents/reviewer.md']]);

  const t = await run(['list', 'test/fixtures/discovery/workspace']);
  assert.equal(t.code, 0);
  const lines = t.out.trimEnd().split('\n');
  assert.match(lines[0], /^INVOCATION +NAME +LEVEL +TYPE +TOKENS +PATH +STATUS +DESCRIPTION$/);
  assert.equal(lines.length, 1 + 8 + 1);
  assert.match(t.out, /^\/toolkit:fmt +fmt +plugin:toolkit +skill +\d+ +test\/fixtures\/discovery\/workspace\/my-plugin\/skills\/fmt +loaded +Formats code for the toolkit plugin\.$/m);
  assert.match(t.out, /^\/workflow-release +workflow-release +project +workflow skill +\d+ /m);
  assert.match(t.out, /^- +example +project +skill +\d+ +test\/fixtures\/discovery\/workspace\/docs\/example +not loaded: Claude Code does not read skills from workspace\/docs /m);
  assert.match(t.out, /^- +reviewer +project +agent +\d+ +test\/fixtures\/discovery\/workspace\/\.claude\/agents\/reviewer\.md +- +Reviews changes before a release\.$/m);

  const bad = await run(['list', 'a', 'b']);
  assert.deepEqual([bad.code, bad.err], [2, "skillflow list: unexpected argument 'b'\n"]);
});

test('list includes ~/.claude/skills by default (--personal is accepted and changes nothing); the project skill is the shadowed one', async () => {
  const home = tempTree({ '.claude/skills/deploy/SKILL.md': skillMd('deploy') });
  const ws = tempTree({ '.claude/skills/deploy/SKILL.md': skillMd('deploy') });
  try {
    const plain = await run(['list', '--format', 'json'], ws, home);
    const withFlag = await run(['list', '--format', 'json', '--personal'], ws, home);
    assert.equal(withFlag.out, plain.out);
    const report = JSON.parse(plain.out) as { skills: Array<Record<string, unknown>> };
    const personalMd = '~/.claude/skills/deploy/SKILL.md';
    assert.deepEqual(report.skills.map((s) => [s.level, s.invocation, s.shadowedBy]).sort(), [['personal', '/deploy', null], ['project', '/deploy', personalMd]]);
  } finally { removeTree(home); removeTree(ws); }
});

test('package: writes <name>.skill (exit 0); errors exit 1 with problems printed and no file; bad usage exit 2', async () => {
  const dir = tempTree({
    'good/SKILL.md': skillMd('good'),
    'good/scripts/x.py': 'print(1)\n',
    'bad/SKILL.md': skillMd('bad', 'Has <angle> brackets.'),
  });
  try {
    const ok = await run(['package', 'good', '--out', 'dist'], dir);
    assert.deepEqual([ok.code, ok.out, ok.err], [0, 'Packaged dist/good.skill (2 files)\n', '']);
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(fs.readFileSync(path.join(dir, 'dist', 'good.skill'))))), ['good/SKILL.md', 'good/scripts/x.py']);
    const here = await run(['package', 'good/SKILL.md'], dir);
    assert.equal(here.code, 0);
    assert.ok(fs.existsSync(path.join(dir, 'good.skill')));

    const bad = await run(['package', 'bad', '--out', 'out2'], dir);
    assert.equal(bad.code, 1);
    assert.equal(bad.out, "bad/SKILL.md:3:14: error description-angle-brackets Remove '<' and '>' from the description: claude.ai uploads refuse angle brackets\n");
    assert.equal(bad.err, "skillflow package: Not packaged: 'bad' has 1 error under the upload profile. Nothing was written.\n");
    assert.equal(fs.existsSync(path.join(dir, 'out2')), false);

    const missing = await run(['package', 'nope'], dir);
    assert.deepEqual([missing.code, missing.err], [2, "skillflow package: 'nope' does not exist\n"]);
    const noArg = await run(['package'], dir);
    assert.deepEqual([noArg.code, noArg.err], [2, 'skillflow package: missing <skill-folder>\n']);
  } finally { removeTree(dir); }
});

test('new: scaffolds under ./.claude/skills by default, --path elsewhere; refuses invalid or existing with exit 1', async () => {
  const dir = tempTree();
  try {
    const r = await run(['new', 'pdf-report'], dir);
    assert.equal(r.code, 0);
    assert.equal(r.out, [
      'Created .claude/skills/pdf-report/',
      '  .claude/skills/pdf-report/SKILL.md',
      '  .claude/skills/pdf-report/scripts/.gitkeep',
      '  .claude/skills/pdf-report/references/.gitkeep',
      '  .claude/skills/pdf-report/assets/.gitkeep',
      'Next: replace the TODO description in SKILL.md (what the skill does and when to use it): until then validate warns (description-placeholder) and package refuses it.',
      '',
    ].join('\n'));
    // The template's TODO description is reported until replaced: a warning in claude-code, an error for upload.
    const v = await run(['validate', '--profile', 'upload'], dir);
    assert.equal(v.code, 1);
    assert.match(v.out, /SKILL\.md:3:14: error description-placeholder [\s\S]*1 skill checked: 1 error, 0 warnings\n$/);
    assert.equal((await run(['package', '.claude/skills/pdf-report', '--out', 'out'], dir)).code, 1, 'package refuses the TODO');
    // Once the description is written, the scaffold packages as it is (the template has no other upload error).
    const md = path.join(dir, '.claude/skills/pdf-report/SKILL.md');
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace(/^description: .*$/m, 'description: Builds a PDF report from a CSV file. Use when the user asks for a report.'));
    const packaged = await run(['package', '.claude/skills/pdf-report', '--out', 'out'], dir);
    assert.equal(packaged.code, 0, packaged.out + packaged.err);
    assert.match(packaged.out, /^Packaged out\/pdf-report\.skill \(4 files\)$/m);

    const other = await run(['new', 'notes', '--path', 'skills', '--description', 'Takes notes. Use for notes.'], dir);
    assert.equal(other.code, 0);
    assert.match(fs.readFileSync(path.join(dir, 'skills', 'notes', 'SKILL.md'), 'utf8'), /\ndescription: Takes notes\. Use for notes\.\n/);

    const again = await run(['new', 'pdf-report'], dir);
    assert.deepEqual([again.code, again.err], [1, `skillflow new: Already exists: ${path.join(dir, '.claude', 'skills', 'pdf-report')}\n`]);
    const invalid = await run(['new', 'PDF'], dir);
    assert.deepEqual([invalid.code, invalid.err], [1, "skillflow new: Invalid skill name 'PDF': Use lower-case letters only. Try 'pdf'.\n"]);
    assert.equal(fs.existsSync(path.join(dir, '.claude', 'skills', 'PDF')), false);
    const usage = await run(['new'], dir);
    assert.deepEqual([usage.code, usage.err], [2, 'skillflow new: missing <name>\n']);
  } finally { removeTree(dir); }
});

test('a SKILL.md that is not text (random bytes, UTF-16, Latin-1) is a file-not-text error, not loaded in list, absent from listing', async () => {
  const latin1 = Buffer.from('---\nname: latin\ndescription: R\xe9sum\xe9 the document.\n---\n', 'latin1');
  const dir = tempTree({
    '.claude/skills/binary/SKILL.md': Buffer.from([0x8f, 0x00, 0xff, 0x13, 0x2d, 0x2d, 0x2d, 0x0a, 0xc3, 0x28, 0x00, 0x01]),
    '.claude/skills/utf16/SKILL.md': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(skillMd('utf16'), 'utf16le')]),
    '.claude/skills/latin/SKILL.md': latin1,
    '.claude/skills/good/SKILL.md': skillMd('good', 'Résumé the document. Use it in tests.'),
  });
  try {
    const v = await run(['validate', '--format', 'json'], dir, dir);
    assert.equal(v.code, 1);
    const report = JSON.parse(v.out) as JsonReport;
    const codes = Object.fromEntries(report.skills.map((s) => [s.path.split('/')[2], s.problems.map((p) => `${p.severity} ${p.code}`)]));
    assert.deepEqual(codes, { binary: ['error file-not-text'], good: [], latin: ['error file-not-text'], utf16: ['error file-not-text'] });
    const messages = report.skills.flatMap((s) => s.problems.map((p) => p.message)).join('\n');
    assert.match(messages, /SKILL\.md is not text \(a NUL byte at offset 1: a binary file\?\); Claude Code reads it as UTF-8 and misreads it: save it as UTF-8 text/);
    assert.match(messages, /\(saved as UTF-16\)/);
    assert.match(messages, /\(not valid UTF-8: another encoding, or a binary file\?\)/);

    const list = JSON.parse((await run(['list', '--format', 'json'], dir, dir)).out) as { skills: Array<{ name: string; loaded: boolean; tokens?: number; tokenEstimate?: number }> };
    assert.equal(list.skills.length, 4);
    for (const s of list.skills) assert.equal(s.loaded, s.name === 'good', `${s.name} loaded`);
    // Why it is not loaded, in the JSON and in the table's STATUS.
    const reasons = JSON.parse((await run(['list', '--format', 'json'], dir, dir)).out) as { skills: Array<{ name: string; notLoadedReason?: string }> };
    assert.equal(reasons.skills.find((s) => s.name === 'binary')?.notLoadedReason, 'SKILL.md is not text (a NUL byte at offset 1: a binary file?)');
    assert.equal(reasons.skills.find((s) => s.name === 'utf16')?.notLoadedReason, 'SKILL.md is not text (saved as UTF-16)');
    const table = (await run(['list'], dir, dir)).out;
    assert.match(table, /^- +binary +personal +skill +0 +\.claude\/skills\/binary +not loaded: SKILL\.md is not text \(a NUL byte at offset 1: a binary file\?\)$/m);
    const listing = await run(['listing'], dir, dir);
    assert.ok(![...listing.out].some((c) => c.charCodeAt(0) < 9 || c === '\ufffd'), 'no raw bytes printed');
    assert.match(listing.out, /^- good: /m);
    assert.doesNotMatch(listing.out, /binary|utf16|latin/);
  } finally {
    removeTree(dir);
  }
});

test('new --path: a folder whose parent does not exist is refused (nothing created); the summary counts command files apart', async () => {
  const dir = tempTree({ '.claude/commands/deploy.md': 'Deploy.\n' });
  try {
    const r = await run(['new', 'notes', '--path', 'no/such/dir'], dir);
    assert.deepEqual([r.code, r.err], [1, "skillflow new: 'no/such/dir' does not exist, nor does the folder above it; give an existing folder (or create it first)\n"]);
    assert.equal(fs.existsSync(path.join(dir, 'no')), false);
    const ok = await run(['new', 'notes', '--path', 'skills'], dir);
    assert.equal(ok.code, 0, ok.err);
    const v = await run(['validate'], dir);
    assert.match(v.out, /^1 skill, 1 command file checked: /m);
  } finally {
    removeTree(dir);
  }
});

test('package: a skill with Claude Code-only keys is refused with those keys named and the plugin route', async () => {
  const dir = tempTree({ 'review/SKILL.md': '---\nname: review\ndescription: Reviews a diff. Use for reviews.\nargument-hint: "[pr]"\nmodel: sonnet\n---\n\nBody.\n' });
  try {
    const r = await run(['package', 'review', '--out', dir], dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /has 2 errors under the upload profile\. The upload format takes only its own keys, not Claude Code's \(argument-hint, model\): package a copy without them \(your SKILL\.md keeps them\), or share the skill with Claude Code users as a plugin \(docs\/sharing-skills\.md\)\. Nothing was written\. To package a copy without the Claude Code keys: add --without-claude-code-keys\.\n$/);
    assert.equal(fs.existsSync(path.join(dir, 'review.skill')), false);
  } finally {
    removeTree(dir);
  }
});

test('package --without-claude-code-keys: the archive holds a copy of SKILL.md without them, they are named, the skill is unchanged', async () => {
  const original = '---\nname: review\ndescription: Reviews a diff. Use for reviews.\nargument-hint: "[pr]"\nallowed-tools: Read Grep\nhooks:\n  PreToolUse:\n    - matcher: Bash\nlicense: MIT\n---\n\nBody. See [the notes](references/notes.md).\n';
  const dir = tempTree({ 'review/SKILL.md': original, 'review/references/a.md': '# A\n' });
  try {
    const r = await run(['package', 'review', '--out', dir, '--without-claude-code-keys'], dir);
    assert.equal(r.code, 0, r.err);
    // A warning of the copy is reported at its line in the skill's own SKILL.md (12), not the copy's (8).
    assert.equal(r.out, "review/SKILL.md:12:23: warning reference-missing 'references/notes.md' does not exist in this skill\nleft out of the packaged SKILL.md (Claude Code keys): argument-hint, hooks\nPackaged review.skill (2 files)\n");
    const zip = unzipSync(fs.readFileSync(path.join(dir, 'review.skill')));
    assert.equal(Buffer.from(zip['review/SKILL.md']).toString('utf8'), '---\nname: review\ndescription: Reviews a diff. Use for reviews.\nallowed-tools: Read Grep\nlicense: MIT\n---\n\nBody. See [the notes](references/notes.md).\n');
    assert.equal(fs.readFileSync(path.join(dir, 'review/SKILL.md'), 'utf8'), original);
    // Other upload errors still refuse it: the way forward is offered only when it leads somewhere.
    fs.writeFileSync(path.join(dir, 'review/SKILL.md'), '---\nname: review\ndescription: Reviews a <diff>.\nmodel: sonnet\n---\nBody.\n');
    const still = await run(['package', 'review', '--out', path.join(dir, 'o2')], dir);
    assert.equal(still.code, 1);
    assert.match(still.err, /\(model\): remove them to upload, or share/);
    assert.doesNotMatch(still.err, /--without-claude-code-keys/);
    const without = await run(['package', 'review', '--out', path.join(dir, 'o2'), '--without-claude-code-keys'], dir);
    assert.equal(without.code, 1);
    assert.match(without.err, /Not packaged: without its Claude Code keys \(model\), 'review' has 1 error under the upload profile\. Nothing was written\./);
    assert.match(without.out, /error description-angle-brackets/);
    assert.equal(fs.existsSync(path.join(dir, 'o2')), false);
  } finally {
    removeTree(dir);
  }
});

test('package the six demo skills with Claude Code keys: refused as they are, each packaged with --without-claude-code-keys', async () => {
  const dir = tempTree({ 'out/.keep': '' });
  try {
    fs.cpSync('examples/demo-workspace', path.join(dir, 'ws'), { recursive: true });
    const ws = path.join(dir, 'ws');
    for (const skill of ['code-review', 'commit-message', 'release-notes', 'workflow-implement', 'workflow-review']) {
      const refused = await run(['package', `.claude/skills/${skill}`, '--out', '../out'], ws);
      assert.equal(refused.code, 1, skill);
      assert.match(refused.err, /add --without-claude-code-keys/, skill);
      const ok = await run(['package', `.claude/skills/${skill}`, '--out', '../out', '--without-claude-code-keys'], ws);
      assert.equal(ok.code, 0, `${skill}: ${ok.err}`);
      assert.match(ok.out, /^left out of the packaged SKILL\.md \(Claude Code keys\): [a-z_-]+(, [a-z_-]+)*$/m, skill);
    }
    assert.deepEqual(fs.readdirSync(path.join(dir, 'out')).sort(), ['.keep', 'code-review.skill', 'commit-message.skill', 'release-notes.skill', 'workflow-implement.skill', 'workflow-review.skill']);
  } finally {
    removeTree(dir);
  }
});

test("new Bad_Name2: refused with the name validate would suggest ('bad-name2')", async () => {
  const dir = tempTree();
  try {
    const r = await run(['new', 'Bad_Name2'], dir);
    assert.deepEqual([r.code, r.err], [1, "skillflow new: Invalid skill name 'Bad_Name2': Use lower-case letters only. Try 'bad-name2'.\n"]);
  } finally {
    removeTree(dir);
  }
});
