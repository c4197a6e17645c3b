// Helpers of the packaging tests (test/package/*.test.mjs, run by scripts/test-package.mjs after the build): run a
// command and fail with its output, pack the CLI package once per file, temp folders.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Runs a command; returns {status, stdout, stderr, out (both)}. `check` throws with the output when the exit code differs. */
export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: opts.cwd, env: { ...process.env, ...opts.env }, input: opts.input, timeout: opts.timeout ?? 120_000 });
  const res = { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
  if (r.error) throw r.error;
  if (opts.check !== undefined && r.status !== opts.check) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status} (expected ${opts.check})\n${res.out}`);
  }
  return res;
}

/** A fresh temp folder (real path). */
export function tempDir(prefix = 'skillflow-pkg-') {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes `files` (relative path → content) under `dir`. */
export function writeFiles(dir, files) {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}

/** npm without the network: these tests install only the packed tarball, which has no dependencies. */
export const NPM_OFFLINE = { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/**
 * `npm pack` of the repository as it is built (dist/ from the build step; --ignore-scripts: the prepack build is the
 * publisher's, not the test's) into `dest`; returns the tarball's path and npm's file list.
 */
export function pack(dest) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const r = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: ROOT, env: NPM_OFFLINE, check: 0 });
  const info = JSON.parse(r.stdout)[0];
  return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size };
}

export const SKILL = (name, description = `Does ${name} things. Use it when ${name} comes up.`, body = `# ${name}\n`) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
