// `npm run demo [-- --port N] [-- --in-place]`: build, package the .vsix, install it into an isolated code-server
// (installed first when missing) and open examples/demo-workspace; prints the URL and runs until Ctrl-C.
// By default the demo opens a fresh copy in .cache/demo/demo-workspace (reset on every start, so answering the
// checkpoint or cancelling a workflow never dirties the repository); --in-place opens the example folder itself.
// The integrated terminal uses your `claude` when it is on PATH, else the stand-in test/e2e/bin/claude.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_WORKSPACE, ROOT, buildAll, copyDemoWorkspace, log, packageVsix } from './vscode/build.mjs';
import { startCodeServer } from './vscode/codeServer.mjs';

const args = process.argv.slice(2);
const portArg = args.find((a) => a.startsWith('--port'));
const port = portArg ? Number(portArg.includes('=') ? portArg.split('=')[1] : args[args.indexOf(portArg) + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: npm run demo [-- --port <number>] [-- --in-place]');
  process.exit(2);
}
const inPlace = args.includes('--in-place');

const t0 = Date.now();
const demoDir = join(ROOT, '.cache', 'demo');
log('demo', 'building and packaging the extension');
buildAll();
const vsix = packageVsix(join(demoDir, 'skillflow.vsix'));
const runDir = join(demoDir, 'run');
rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir, { recursive: true });
const workspace = inPlace ? DEMO_WORKSPACE : copyDemoWorkspace(demoDir);
const hasClaude = spawnSync('sh', ['-c', 'command -v claude'], { stdio: 'ignore' }).status === 0;

let server;
try {
  // SKILLFLOW_DEMO=1: the extension opens the Skillflow views and the demo README when the window starts.
  server = await startCodeServer({ runDir, vsix, port, folder: workspace, fakeClaude: !hasClaude, isolateHome: false, env: { SKILLFLOW_DEMO: '1' } });
} catch (err) {
  console.error(`demo: ${err?.code === 'EADDRINUSE' ? `port ${port} is in use; pick another with --port` : err?.message ?? err}`);
  process.exit(1);
}
const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
console.log(`
Skillflow demo is running (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s):

    ${url}

Workspace: ${workspace}${inPlace ? ' (the example itself: edits change the repository)' : ' (a fresh copy)'}
Terminal \`claude\`: ${hasClaude ? 'yours' : `the stand-in test/e2e/bin/claude (calls are logged to ${server.fakeClaudeLog})`}
code-server log: ${server.logFile}
Press Ctrl-C to stop.
`);

let stopping = false;
const shutdown = async (code) => {
  if (stopping) return;
  stopping = true;
  log('demo', 'stopping code-server');
  await server.stop();
  process.exit(code);
};
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
server.exited.then((code) => {
  if (stopping) return;
  console.error(`demo: code-server exited unexpectedly (${code}); see ${server.logFile}`);
  shutdown(1);
});
