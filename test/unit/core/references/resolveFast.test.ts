// resolveReferences takes a fast path for plain targets (`folder/file.md`) where names are case-sensitive: string
// concatenation and one cached lstat per path component. It must give exactly what the general path gives, for
// every target, kind, folder shape and file system.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';
import { nodeFileSystem, type FileSystem } from '../../../../src/core/base/fs';
import type { ReferenceCandidate } from '../../../../src/core/references/extract';
import { withReadCache } from '../../../../src/core/discovery/readCache';
import { resolveReferences } from '../../../../src/core/references/resolve';

/**
 * A skills root with skill `alpha` (folders, files, case twins, links inside and out, a file where a folder is
 * expected, a folder named like a sibling skill) and skills `beta` and `gamma` beside it.
 */
function makeRoot(): { tmp: string; root: string; alpha: string } {
  const tmp = nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), 'skillflow-refs-fast-'));
  const root = nodePath.join(tmp, 'skills');
  const alpha = nodePath.join(root, 'alpha');
  const files = [
    'alpha/SKILL.md', 'alpha/notes.md', 'alpha/README.md', 'alpha/data', 'alpha/references/guide.md', 'alpha/references/Upper.md',
    'alpha/references/deep/er/x.md', 'alpha/scripts/run.py', 'alpha/docs/usage.md', 'alpha/Docs2/a.md', 'alpha/gamma/own.md',
    'alpha/my notes/n.md', 'alpha/caf\u00e9/c.md', 'beta/SKILL.md', 'beta/references/shared.md', 'beta/References2/s.md',
    'gamma/SKILL.md', 'gamma/g.md', 'outside/secret.md',
  ];
  for (const f of files) {
    const p = nodePath.join(f.startsWith('outside/') ? tmp : root, f);
    nodeFs.mkdirSync(nodePath.dirname(p), { recursive: true });
    nodeFs.writeFileSync(p, 'x');
  }
  nodeFs.symlinkSync(nodePath.join(tmp, 'outside'), nodePath.join(alpha, 'linked-out'));
  nodeFs.symlinkSync(nodePath.join(alpha, 'references'), nodePath.join(alpha, 'linked-in'));
  nodeFs.symlinkSync(nodePath.join(tmp, 'outside', 'secret.md'), nodePath.join(alpha, 'references', 'leak.md'));
  nodeFs.symlinkSync(nodePath.join(alpha, 'references', 'guide.md'), nodePath.join(alpha, 'references', 'alias.md'));
  nodeFs.symlinkSync(nodePath.join(alpha, 'nowhere'), nodePath.join(alpha, 'references', 'dangling.md'));
  nodeFs.symlinkSync(nodePath.join(root, 'beta', 'references'), nodePath.join(alpha, 'scripts', 'beta-refs'));
  return { tmp, root, alpha };
}

const TARGETS = [
  // plain: existing, missing, case twins, deep, odd names
  'notes.md', 'README.md', 'readme.md', 'references/guide.md', 'references/Guide.md', 'references/upper.md', 'references/nope.md',
  'references/deep/er/x.md', 'references/deep/ER/x.md', 'references/deep/er', 'references/deep/er/missing/more.md',
  'scripts/run.py', 'scripts/Run.py', 'scripts/gone.sh', 'scripts', 'assets/logo.png', 'Assets/logo.png', 'docs/usage.md',
  'docs/nope.md', 'DOCS/usage.md', 'docs2/a.md', 'Docs2/a.md', 'data/x.md', 'data', 'notes.md/x', 'input/output.txt',
  'TypeScript/Node.js', 'my notes/n.md', 'my%20notes/n.md', 'caf\u00e9/c.md', 'caf%C3%A9/c.md', 'CAF\u00c9/c.md', 'SKILL.md',
  // links on the way
  'linked-out/secret.md', 'linked-out', 'linked-in/guide.md', 'linked-in/nope.md', 'references/leak.md', 'references/alias.md',
  'references/dangling.md', 'scripts/beta-refs/shared.md', 'scripts/beta-refs/nope.md',
  // cross-skill and own-name
  'beta/references/shared.md', 'beta/references/nope.md', 'beta/references2/s.md', 'beta/References2/s.md', 'beta/SKILL.md',
  'beta', 'gamma/own.md', 'gamma/g.md', 'alpha/references/guide.md', 'alpha/notes.md', 'alpha', 'delta/x.md',
  // not plain: dots, slashes, backslashes, escapes
  './notes.md', './references/guide.md', '././references/Guide.md', './', '.', '..', '../beta/references/shared.md',
  '../alpha/notes.md', '../../outside/secret.md', 'references/../scripts/run.py', 'references/./guide.md', 'references//guide.md',
  '/references/guide.md', 'references/guide.md/', 'references\\guide.md', '.\\notes.md', 'references/%2e%2e/notes.md',
  'references/my%2Gbad.md', '.hidden/x.md', '..hidden/x.md', 'references/.', 'beta/../../outside/secret.md',
];

function candidates(targets: string[]): ReferenceCandidate[] {
  const out: ReferenceCandidate[] = [];
  targets.forEach((target, i) => {
    for (const kind of ['link', 'path'] as const) out.push({ target, kind, range: { line: i + 1, column: kind === 'link' ? 1 : 2, endLine: i + 1, endColumn: 3 } });
  });
  return out.concat(out); // every target twice: the memo answers the second
}

/** Runs resolveReferences one way; returns its references, its problems and how often each fs method was called. */
function run(fs: FileSystem, cands: ReferenceCandidate[], skillDir: string, rootDir: string | undefined, fast: boolean) {
  const calls: Record<string, number> = {};
  const counted = { ...fs } as FileSystem;
  for (const k of ['stat', 'lstat', 'readDir', 'realPath'] as const) {
    const f = fs[k].bind(fs) as (p: string) => never;
    (counted as unknown as Record<string, (p: string) => unknown>)[k] = (p: string) => { calls[k] = (calls[k] ?? 0) + 1; return f(p); };
  }
  const problems: string[] = [];
  const refs = resolveReferences(cands, { skillDir, rootDir }, counted, (code, range, message) => problems.push(`${code}@${range.line}:${range.column} ${message}`), fast);
  return { refs, problems, calls };
}

function same(fs: () => FileSystem, cands: ReferenceCandidate[], skillDir: string, rootDir: string | undefined): void {
  const general = run(fs(), cands, skillDir, rootDir, false);
  const fast = run(fs(), cands, skillDir, rootDir, true);
  const what = `skillDir ${skillDir}, rootDir ${rootDir}`;
  assert.deepStrictEqual(fast.problems, general.problems, what);
  assert.deepStrictEqual(fast.refs, general.refs, what);
  // Both ways take the skill folder as path.resolve gives it (a normalised path is taken as it is).
  const notes = fast.refs.find((x) => x.target === 'notes.md');
  if (notes) assert.equal(notes.resolvedPath, nodePath.join(nodePath.resolve(skillDir), 'notes.md'), what);
}

test('fast path: every target, kind and folder shape resolves as on the general path', () => {
  const { tmp, root, alpha } = makeRoot();
  try {
    const cands = candidates(TARGETS);
    for (const fs of [() => nodeFileSystem, () => withReadCache(nodeFileSystem)]) {
      same(fs, cands, alpha, root);
      same(fs, cands, alpha, undefined);
      // Paths that are not normalised (the general path resolves them; the fast path must not take them as they are).
      same(fs, cands, alpha + '/', root + '/');
      same(fs, cands, nodePath.join(root, '.', 'alpha') + '/.', nodePath.join(root, 'beta', '..'));
      same(fs, cands, `${root}//alpha`, `${root}/./`);
      same(fs, cands, `${root}/beta/../alpha`, `${root}/beta/..`);
      same(fs, cands, `${root}/./alpha`, `${root}/alpha/..`);
      same(fs, cands, `${alpha}/references/..`, root);
      const cwd = process.cwd();
      try {
        process.chdir(tmp);
        same(fs, cands, 'skills/alpha', 'skills');
      } finally {
        process.chdir(cwd);
      }
      same(fs, cands, nodePath.relative(process.cwd(), alpha), nodePath.relative(process.cwd(), root));
      // A skill reached through a linked root, and a skill folder that is a file system root's child.
      nodeFs.symlinkSync(root, nodePath.join(tmp, 'linked-root'));
      same(fs, cands, nodePath.join(tmp, 'linked-root', 'alpha'), nodePath.join(tmp, 'linked-root'));
      nodeFs.unlinkSync(nodePath.join(tmp, 'linked-root'));
      same(fs, cands, '/', undefined);
    }
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('fast path: an empty file system and one that lists what lstat does not see agree with the general path', () => {
  const cands = candidates(TARGETS);
  const none: FileSystem = { ...nodeFileSystem, stat: () => undefined, lstat: () => undefined, readDir: () => undefined, realPath: () => undefined };
  same(() => none, cands, '/skills/alpha', '/skills');
  // A listing that has a name lstat misses (a race, a broken adapter): the general path decides.
  const dir = (name: string) => ({ name, isFile: false, isDirectory: true, isSymbolicLink: false });
  const odd: FileSystem = { ...none, readDir: () => [dir('references'), dir('Scripts'), dir('docs')] };
  same(() => odd, cands, '/skills/alpha', '/skills');
});

test('fast path: it is taken where names are case-sensitive (fewer lstat calls), and the references are the same', { skip: process.platform !== 'linux' }, () => {
  const { tmp, root, alpha } = makeRoot();
  try {
    const cands = candidates(['references/guide.md', 'references/Upper.md', 'references/deep/er/x.md', 'scripts/run.py', 'docs/usage.md']);
    const general = run(nodeFileSystem, cands, alpha, root, false);
    const fast = run(nodeFileSystem, cands, alpha, root, true);
    assert.deepStrictEqual(fast.refs, general.refs);
    assert.deepStrictEqual(fast.problems, []);
    assert.equal(fast.calls.lstat, 10, 'one lstat per path component');
    assert.ok(general.calls.lstat > fast.calls.lstat, `general ${general.calls.lstat}, fast ${fast.calls.lstat}`);
    assert.deepStrictEqual(Object.keys(fast.calls), ['lstat']);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});
