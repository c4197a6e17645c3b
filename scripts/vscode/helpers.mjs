// Pure helpers of the harness (no repo paths, no browser), unit-tested in test/unit/harness/.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TERMINAL_PHASES = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'STALE']);

/**
 * The example's workflow timestamps are fixed, so its active run would always look stale: in a copy, set
 * `updated_at` of every non-terminal status.json to five minutes ago (the rest of the file is unchanged).
 */
export function freshenActiveWorkflows(workspace, now = Date.now()) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'status.json') files.push(p);
    }
  };
  if (existsSync(join(workspace, '.workflow'))) walk(join(workspace, '.workflow'));
  const updatedAt = new Date(now - 5 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let status;
    try { status = JSON.parse(text); } catch { continue; }
    if (!status || typeof status.phase !== 'string' || TERMINAL_PHASES.has(status.phase)) continue;
    writeFileSync(file, text.replace(/("updated_at"\s*:\s*)"[^"]*"/, `$1"${updatedAt}"`));
  }
}

/** The workbench URL for a folder; extDev/extTests (absolute paths on the server) become the dev `payload`. */
export function workbenchUrl(serverUrl, folder, { extDev, extTests } = {}) {
  const host = new URL(serverUrl).host; // code-server's remote authority is the browser's host
  const remote = (p) => `vscode-remote://${host}${p}`;
  let query = `folder=${encodeURIComponent(folder)}`;
  const payload = [];
  if (extDev) payload.push(['extensionDevelopmentPath', remote(extDev)]);
  if (extTests) payload.push(['extensionTestsPath', remote(extTests)]);
  if (payload.length) query += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return `${serverUrl}/?${query}`;
}
