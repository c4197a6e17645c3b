// `npm run test:integration [-- <grep>]`: runs the mocha suites out/test/integration/**/*.test.js inside the
// Node extension host of an isolated code-server (real VS Code 1.100), with Skillflow loaded from this
// repository as the development extension, on a fresh temp copy of examples/demo-workspace.
// Mechanism: the workbench URL's dev `payload` (extensionDevelopmentPath + extensionTestsPath); the result comes
// back through window.codeAutomationExit. <grep> filters tests by title (mocha --grep).
// `--untrusted` (npm run test:untrusted): workspace trust ON and the folder left untrusted (restricted mode), running
// only the suites under test/integration/untrusted/ (SKILLFLOW_TEST_UNTRUSTED=1); the normal run skips them.
// Env: SKILLFLOW_E2E_SKIP_BUILD=1 reuses dist/ and out/; SKILLFLOW_KEEP_RUN=1 keeps the temp run dir;
// SKILLFLOW_TEST_TIMEOUT_MS (default 600000).
import { format } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildAll, copyDemoWorkspace, log } from './vscode/build.mjs';
import { VIEWPORT, enableDevPayload, launchBrowser, workbenchUrl } from './vscode/browser.mjs';
import { startCodeServer } from './vscode/codeServer.mjs';

// Workbench start-up lines (and the failing gallery lookup: there is no network) that say nothing about the tests.
const WORKBENCH_CHATTER = /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin extensions|\[Service Worker\]|ChatSessionStore:)|open-vsx\.org/;
const grep = process.argv.slice(2).find((a) => !a.startsWith('-'));
const untrusted = process.argv.includes('--untrusted');
const tag = untrusted ? 'untrusted' : 'integration';
const timeoutMs = Number(process.env.SKILLFLOW_TEST_TIMEOUT_MS || 600_000);
const t0 = Date.now();

if (process.env.SKILLFLOW_E2E_SKIP_BUILD !== '1') {
  log(tag, 'building');
  buildAll();
}
const runDir = mkdtempSync(join(tmpdir(), `skillflow-${tag}-`));
const workspace = copyDemoWorkspace(join(runDir, 'ws'));
const server = await startCodeServer({
  runDir,
  trust: !untrusted,
  env: { ...(grep ? { SKILLFLOW_TEST_GREP: grep } : {}), ...(untrusted ? { SKILLFLOW_TEST_UNTRUSTED: '1' } : {}) },
});
let browser;
const stopAll = async () => {
  await browser?.close().catch(() => {});
  await server.stop();
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { stopAll().finally(() => process.exit(130)); });

let code = 2;
try {
  browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
  const exited = new Promise((resolve) => {
    // Extension-host console output is forwarded printf-style in extension development mode.
    page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(args || []));
      if (!WORKBENCH_CHATTER.test(line)) console.log(line);
    });
    page.exposeFunction('codeAutomationExit', (exitCode) => resolve(exitCode));
  });
  await enableDevPayload(page);
  const started = Date.now();
  await page.goto(workbenchUrl(server.url, workspace, {
    extDev: ROOT,
    extTests: join(ROOT, 'out', 'test', 'integration', 'index.js'),
  }));
  let timer;
  code = await Promise.race([exited, new Promise((resolve) => {
    timer = setTimeout(() => { console.log(`TIMEOUT: no result from the extension host within ${timeoutMs} ms`); resolve(3); }, timeoutMs);
  })]);
  clearTimeout(timer);
  log(tag, `extension tests exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s (total ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
} finally {
  await stopAll();
}
if (code !== 0 || process.env.SKILLFLOW_KEEP_RUN === '1') console.log(`run dir (code-server log, user data, workspace copy): ${runDir}`);
else rmSync(runDir, { recursive: true, force: true });
process.exit(code === 0 ? 0 : 1);
