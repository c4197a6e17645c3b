// Entry point for extension tests (the `extensionTestsPath` contract shared by @vscode/test-electron and our
// code-server runner): `run()` executes, inside the VS Code extension host, every bundled suite
// out/test/integration/**/*.test.js with mocha (bdd: describe/it). SKILLFLOW_TEST_GREP filters by title.
// The suites under untrusted/ need a restricted-mode window: they run only, and alone, with SKILLFLOW_TEST_UNTRUSTED=1
// (`npm run test:untrusted`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function findSuites(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findSuites(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (process.env.SKILLFLOW_TEST_GREP) mocha.grep(process.env.SKILLFLOW_TEST_GREP);
  const untrusted = process.env.SKILLFLOW_TEST_UNTRUSTED === '1';
  const files = findSuites(__dirname).filter((file) => path.relative(__dirname, file).split(path.sep)[0] === 'untrusted' ? untrusted : !untrusted);
  const only = process.env.SKILLFLOW_TEST_FILES; // comma-separated substrings of suite paths
  for (const file of files) {
    if (!only || only.split(',').some((part) => file.includes(part))) mocha.addFile(file);
  }
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
    } catch (err) {
      reject(err);
    }
  });
}
