// An isolated code-server (the real VS Code 1.100 workbench + a Node extension host) for tests and the demo.
// Every run gets fresh user-data, extensions and XDG dirs, a free 127.0.0.1 port and `--auth none`; the server
// runs in its own session and process group (setsid) so stop() ends it together with its extension hosts and terminals.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FAKE_BIN, ROOT, log } from './build.mjs';

export const CS_VERSION = process.env.CS_VERSION || '4.100.3';
export const CS_PREFIX = process.env.SKILLFLOW_CODE_SERVER_DIR || join(ROOT, '.cache', 'code-server');
const ENTRY = join(CS_PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Quiet, deterministic workbench settings for every run. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'terminal.integrated.enablePersistentSessions': false,
};

/**
 * Workspace trust ON for runs that test restricted mode: no folder is trusted (no trusted-folders list exists in a
 * fresh profile), and nothing asks — no start-up modal, no banner — so the opened folder simply stays untrusted.
 */
export const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'security.workspace.trust.emptyWindow': false,
  'security.workspace.trust.untrustedFiles': 'open',
};

/**
 * settings.json for a test/demo profile; with fakeClaudeLog the terminals find test/e2e/bin/claude first and
 * it logs to that file; trust: false turns workspace trust on (UNTRUSTED_SETTINGS) instead of off.
 */
export function userSettings({ fakeClaudeLog, trust = true } = {}) {
  const settings = { ...QUIET_SETTINGS, ...(trust ? {} : UNTRUSTED_SETTINGS) };
  // VS Code resolves the terminals' environment from a login shell, which resets PATH (/etc/profile);
  // this setting is applied after that.
  if (fakeClaudeLog) {
    settings['terminal.integrated.env.linux'] = { PATH: `${FAKE_BIN}:\${env:PATH}`, SKILLFLOW_FAKE_CLAUDE_LOG: fakeClaudeLog };
  }
  return settings;
}

/** Installs code-server into CS_PREFIX with scripts/install-code-server.sh unless it is already there. */
export function ensureCodeServer() {
  if (existsSync(join(CS_PREFIX, `.installed-${CS_VERSION}`)) && existsSync(ENTRY)) return;
  log('code-server', `installing code-server ${CS_VERSION} into ${CS_PREFIX} (first run only; takes a few minutes)`);
  const t0 = Date.now();
  const r = spawnSync('bash', [join(ROOT, 'scripts', 'install-code-server.sh'), CS_PREFIX], {
    stdio: 'inherit', env: { ...process.env, CS_VERSION },
  });
  if (r.status !== 0) throw new Error(`scripts/install-code-server.sh failed (exit ${r.status ?? r.signal})`);
  log('code-server', `installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** A free TCP port on 127.0.0.1 (or the requested one when given). */
export function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(preferred, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function baseArgs(runDir, trust = true) {
  return [ENTRY, '--config', join(runDir, 'config.yaml'),
    '--user-data-dir', join(runDir, 'user-data'), '--extensions-dir', join(runDir, 'extensions'),
    '--disable-telemetry', '--disable-update-check', ...(trust ? ['--disable-workspace-trust'] : []), '--disable-getting-started-override'];
}

/**
 * Prepares <runDir> and starts code-server. Options: vsix (installed first), port (0 = free), folder (the
 * server's default folder), env (extra variables for the server, its extension hosts and terminals),
 * fakeClaude (default true: test/e2e/bin/claude comes first on the terminals' PATH), isolateHome (default
 * true: HOME = <runDir>/home, so the machine's ~/.claude/skills never leaks into tests), trust (default true:
 * `--disable-workspace-trust`, every folder trusted; false: workspace trust on and the opened folder untrusted,
 * i.e. restricted mode, without any trust prompt).
 * Returns { url, port, pid, runDir, fakeClaudeLog, logFile, env, stop(), exited (resolves when the server exits) }.
 */
export async function startCodeServer({ runDir, vsix, port = 0, folder, env = {}, fakeClaude = true, isolateHome = true, trust = true }) {
  ensureCodeServer();
  for (const d of ['user-data/User', 'extensions', 'xdg-config', 'xdg-data', 'xdg-cache', 'home']) mkdirSync(join(runDir, d), { recursive: true });
  const fakeClaudeLog = join(runDir, 'fake-claude.log');
  writeFileSync(join(runDir, 'user-data', 'User', 'settings.json'), JSON.stringify(userSettings({ ...(fakeClaude ? { fakeClaudeLog } : {}), trust }), null, 2));
  const actualPort = await freePort(port);
  writeFileSync(join(runDir, 'config.yaml'), `bind-addr: 127.0.0.1:${actualPort}\nauth: none\ncert: false\n`);
  const serverEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(runDir, 'xdg-config'),
    XDG_DATA_HOME: join(runDir, 'xdg-data'),
    XDG_CACHE_HOME: join(runDir, 'xdg-cache'),
    ...(isolateHome ? { HOME: join(runDir, 'home') } : {}),
    ...(fakeClaude ? { PATH: `${FAKE_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`, SKILLFLOW_FAKE_CLAUDE_LOG: fakeClaudeLog } : {}),
    ...env,
  };
  delete serverEnv.VSCODE_IPC_HOOK_CLI; // when started from a VS Code terminal, don't talk to that VS Code
  delete serverEnv.NODE_OPTIONS;

  if (vsix) {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [...baseArgs(runDir, trust), '--install-extension', vsix],
      { env: serverEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) throw new Error(`installing ${vsix} failed:\n${r.stdout}\n${r.stderr}`);
    log('code-server', `installed ${vsix} in ${Date.now() - t0} ms`);
  }

  const logFile = join(runDir, 'code-server.log');
  const out = openSync(logFile, 'a');
  const t0 = Date.now();
  // detached = setsid(): the server leads a new session and process group (pgid = pid).
  const child = spawn(process.execPath, [...baseArgs(runDir, trust), '--bind-addr', `127.0.0.1:${actualPort}`, ...(folder ? [folder] : [])],
    { env: serverEnv, stdio: ['ignore', out, out], detached: true });
  closeSync(out);
  const pid = child.pid;
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.once('exit', (code, signal) => { exited = true; resolve(code ?? signal); }));

  const stop = async () => {
    const signal = (sig) => { try { process.kill(-pid, sig); return true; } catch { return false; } };
    if (!signal('SIGTERM')) return;
    for (let i = 0; i < 50; i++) {
      await sleep(100);
      if (!signal(0)) return;
    }
    signal('SIGKILL');
  };

  const url = `http://127.0.0.1:${actualPort}`;
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`code-server exited during start-up; log:\n${readFileSync(logFile, 'utf8')}`);
    try {
      const res = await globalThis.fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (i > 600) { await stop(); throw new Error(`code-server did not answer /healthz within 60 s; log: ${logFile}`); }
    await sleep(100);
  }
  log('code-server', `up on ${url} after ${Date.now() - t0} ms (pid ${pid}, logs ${logFile})`);
  return { url, port: actualPort, pid, runDir, fakeClaudeLog, logFile, env: serverEnv, stop, exited: exitedPromise };
}
