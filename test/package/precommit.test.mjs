// .pre-commit-hooks.yaml under the real `pre-commit` (Debian package; scripts/install-code-server.sh installs it) in
// temp git repositories. The hook repository is the packed npm package (what a release holds: dist/ built) with
// .pre-commit-hooks.yaml, committed to a local git repository; its package.json loses devDependencies and scripts
// there, because pre-commit's node install runs `npm install --dev` and `npm pack` in it, which from this repository's
// source would fetch the build tools from the npm registry and build (a user's first run does that, once). Here
// everything installs offline.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NPM_OFFLINE, pack, ROOT, SKILL, sh, tempDir, writeFiles } from './lib.mjs';

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_CONFIG_NOSYSTEM: '1' };

function hookRepo(dir) {
  const { tarball } = pack(dir);
  sh('tar', ['xzf', tarball, '-C', dir], { check: 0 });
  const repo = path.join(dir, 'package');
  const pkgFile = path.join(repo, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  delete pkg.devDependencies;
  delete pkg.scripts;
  fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  fs.copyFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), path.join(repo, '.pre-commit-hooks.yaml'));
  sh('git', ['init', '-q'], { cwd: repo, check: 0 });
  sh('git', ['add', '-A'], { cwd: repo, check: 0 });
  sh('git', ['commit', '-qm', 'release'], { cwd: repo, env: GIT_ENV, check: 0 });
  return { repo, rev: sh('git', ['rev-parse', 'HEAD'], { cwd: repo, check: 0 }).stdout.trim() };
}

test('pre-commit: a commit with a broken skill is refused with the problem shown; a good one passes; a changed link target re-checks the skill linking it', () => {
  const dir = tempDir();
  try {
    assert.equal(sh('pre-commit', ['--version']).status, 0, 'pre-commit is installed (Debian package pre-commit)');
    const hooks = hookRepo(dir);
    const project = path.join(dir, 'project');
    const env = { ...NPM_OFFLINE, ...GIT_ENV, PRE_COMMIT_HOME: path.join(dir, 'pre-commit-home'), PRE_COMMIT_COLOR: 'never' };
    writeFiles(project, {
      '.pre-commit-config.yaml': `repos:\n  - repo: ${hooks.repo}\n    rev: ${hooks.rev}\n    hooks:\n      - id: skillflow\n      - id: skillflow-skills\n`,
      'README.md': '# Project\n',
    });
    const git = (...args) => sh('git', args, { cwd: project, env });
    git('init', '-q');
    sh('pre-commit', ['install'], { cwd: project, env, check: 0 });
    git('add', '-A');
    assert.equal(git('commit', '-qm', 'config').status, 0);

    // A good skill passes both hooks.
    writeFiles(project, { '.claude/skills/tidy/SKILL.md': SKILL('tidy') });
    git('add', '-A');
    const good = git('commit', '-m', 'tidy');
    assert.equal(good.status, 0, good.out);
    assert.match(good.out, /skillflow \(skills, commands, agents, plugins\)\.+Passed/);

    // A broken one is refused, with the problem in the output; nothing is committed.
    writeFiles(project, { '.claude/skills/log-summary/SKILL.md': SKILL('log-summary', 'Summarise a log file. Use it for logs.\nargument-hint: [file] [mode]') });
    git('add', '-A');
    const bad = git('commit', '-m', 'log-summary');
    assert.notEqual(bad.status, 0, bad.out);
    assert.match(bad.out, /skillflow \(skills\)\.+Failed/);
    assert.match(bad.out, /^\.claude\/skills\/log-summary\/SKILL\.md:4:23: error yaml-syntax /m);
    assert.equal(git('log', '--oneline').stdout.trim().split('\n').length, 2, 'the bad commit was not made');
    assert.match(git('status', '--porcelain').stdout, /^A {2}\.claude\/skills\/log-summary\/SKILL\.md$/m, 'still staged');

    // Its fix passes.
    writeFiles(project, { '.claude/skills/log-summary/SKILL.md': SKILL('log-summary', "Summarise a log file. Use it for logs.\nargument-hint: '[file] [mode]'") });
    git('add', '-A');
    const fixed = git('commit', '-m', 'log-summary fixed');
    assert.equal(fixed.status, 0, fixed.out);

    // A skill with an error that links docs/guide.md (committed past the hook): changing only the guide re-checks it;
    // changing an unrelated file does not.
    writeFiles(project, {
      '.claude/skills/deploy/SKILL.md': SKILL('deploy', 'Deploys to production.\nargument-hint: [env] [tag]', '# Deploy\n\nFollow [the guide](../../../docs/guide.md).\n'),
      'docs/guide.md': '# Guide\n',
    });
    git('add', '-A');
    assert.equal(git('commit', '-qm', 'deploy', '--no-verify').status, 0);
    fs.appendFileSync(path.join(project, 'docs/guide.md'), 'One more step.\n');
    git('add', '-A');
    const target = git('commit', '-m', 'guide');
    assert.notEqual(target.status, 0, target.out);
    assert.match(target.out, /skillflow \(skills, commands, agents, plugins\)\.+Failed/);
    assert.match(target.out, /skillflow \(skills\)\.+\(no files to check\)Skipped/);
    assert.match(target.out, /^\.claude\/skills\/deploy\/SKILL\.md:4:22: error yaml-syntax /m);
    git('reset', '-q', 'HEAD', 'docs/guide.md');
    git('checkout', '-q', 'docs/guide.md');
    fs.appendFileSync(path.join(project, 'README.md'), 'More.\n');
    git('add', 'README.md');
    const unrelated = git('commit', '-m', 'readme');
    assert.equal(unrelated.status, 0, unrelated.out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
