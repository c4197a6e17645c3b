// Build steps shared by the real-VS-Code runners: bundles, bundled tests, the .vsix, workspace copies.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshenActiveWorkflows } from './helpers.mjs';

/** Absolute path of the repository (scripts/vscode/../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEMO_WORKSPACE = join(ROOT, 'examples', 'demo-workspace');
export const FAKE_BIN = join(ROOT, 'test', 'e2e', 'bin');

/** Prints a timestamped line (the runners' progress log). */
export function log(tag, message) {
  console.log(`[${tag} ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** Runs a command in the repo (stdio inherited); throws with the command line when it fails. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return r;
}

/** apt-get install (through sudo when not root) — for fresh Debian CI machines. */
export function aptInstall(packages) {
  const prefix = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args) => spawnSync(prefix[0] ?? 'apt-get', [...(prefix.length ? ['apt-get'] : []), ...args], { stdio: 'inherit', env });
  apt('update', '-qq');
  apt('install', '-y', '-qq', '--no-install-recommends', ...packages);
}

/** dist/extension.js + dist/cli.js (esbuild.mjs), then every test bundle under out/ (scripts/build-tests.mjs). */
export function buildAll({ production = false } = {}) {
  run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])]);
  run(process.execPath, ['scripts/build-tests.mjs']);
}

/** Packages the extension with vsce (dependencies are bundled by esbuild) and returns the .vsix path. */
export function packageVsix(outFile) {
  mkdirSync(dirname(outFile), { recursive: true });
  rmSync(outFile, { force: true });
  run(process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies',
    '--out', outFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(outFile)) throw new Error(`vsce did not write ${outFile}`);
  return outFile;
}

/** Copies examples/demo-workspace to <parent>/demo-workspace (fresh, active workflows freshened); returns its path. */
export function copyDemoWorkspace(parent) {
  const dest = join(parent, 'demo-workspace');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(parent, { recursive: true });
  cpSync(DEMO_WORKSPACE, dest, { recursive: true });
  freshenActiveWorkflows(dest);
  return dest;
}
