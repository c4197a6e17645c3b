// `npm run test:electron [-- <grep>]`: the same integration suites as `npm run test:integration`, run in VS Code
// desktop through @vscode/test-electron (runTests with extensionDevelopmentPath/extensionTestsPath).
// Needs internet access to download VS Code (cached in .vscode-test/); without it, it stops with a clear message —
// use `npm run test:integration` (code-server, no download) there. Headless Linux: re-runs itself under xvfb-run
// (installing the Debian package xvfb when missing).
// Env: SKILLFLOW_VSCODE_VERSION (default 1.100.3, the version code-server 4.100.3 embeds; or `stable`),
// SKILLFLOW_E2E_SKIP_BUILD=1 reuses dist/ and out/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { FAKE_BIN, ROOT, aptInstall, buildAll, copyDemoWorkspace, log } from './vscode/build.mjs';
import { userSettings } from './vscode/codeServer.mjs';

const args = process.argv.slice(2);
const grep = args.find((a) => !a.startsWith('-'));
const version = process.env.SKILLFLOW_VSCODE_VERSION || '1.100.3';

if (process.env.SKILLFLOW_E2E_SKIP_BUILD !== '1') {
  log('electron', 'building');
  buildAll();
}

let vscodeExecutablePath;
try {
  vscodeExecutablePath = await downloadAndUnzipVSCode({ version, cachePath: join(ROOT, '.vscode-test') });
} catch (err) {
  console.error(`\ntest:electron: could not download VS Code ${version} (${err?.message ?? err}).\n` +
    'This runner needs internet access to update.code.visualstudio.com. On machines without it, run the same\n' +
    'suites in code-server instead: npm run test:integration');
  process.exit(1);
}

// Electron needs a display: on a headless Linux machine, run the rest under a virtual X server.
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.SKILLFLOW_UNDER_XVFB) {
  if (!existsSync('/usr/bin/xvfb-run')) aptInstall(['xvfb']);
  if (!existsSync('/usr/bin/xvfb-run')) {
    console.error('test:electron needs a display: set DISPLAY or install xvfb (apt-get install xvfb).');
    process.exit(1);
  }
  const r = spawnSync('xvfb-run', ['-a', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit', env: { ...process.env, SKILLFLOW_UNDER_XVFB: '1', SKILLFLOW_E2E_SKIP_BUILD: '1' },
  });
  process.exit(r.status ?? 1);
}

const runDir = mkdtempSync(join(tmpdir(), 'skillflow-electron-'));
const workspace = copyDemoWorkspace(join(runDir, 'ws'));
const userData = join(runDir, 'user-data');
mkdirSync(join(userData, 'User'), { recursive: true });
const fakeClaudeLog = join(runDir, 'fake-claude.log');
writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(userSettings({ fakeClaudeLog }), null, 2));

let code = 0;
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(ROOT, 'out', 'test', 'integration', 'index.js'),
    extensionTestsEnv: {
      PATH: `${FAKE_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      SKILLFLOW_FAKE_CLAUDE_LOG: fakeClaudeLog,
      ...(grep ? { SKILLFLOW_TEST_GREP: grep } : {}),
    },
    launchArgs: [workspace, '--user-data-dir', userData, '--extensions-dir', join(runDir, 'extensions'),
      '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', '--disable-gpu', '--no-sandbox'],
  });
} catch (err) {
  console.error(`test:electron: ${err?.message ?? err}`);
  code = 1;
}
if (code === 0) rmSync(runDir, { recursive: true, force: true });
else console.log(`run dir (user data, workspace copy): ${runDir}`);
process.exit(code);
