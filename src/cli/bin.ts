import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../core/base/fs';
import { main } from './main';
import { finishHandedOver } from './validatePartial';

if (process.argv[2] === 'lsp' && process.argv.slice(3).join(' ') === '--stdio') {
  // The language server is its own bundle next to this one (src/lsp); it runs until the editor ends it.
  const server = path.join(__dirname, 'lsp.js');
  if (nodeFileSystem.stat(server)?.isFile) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(server);
  } else {
    process.stderr.write(`skillflow lsp: ${server} is missing from this install (the VS Code extension's copy of the CLI has no language server); install the CLI package\n`);
    process.exitCode = 2;
  }
} else if (!finishHandedOver()) main({ argv: process.argv.slice(2), cwd: process.cwd(), fs: nodeFileSystem, env: process.env, home: os.homedir(), columns: process.stdout.isTTY ? process.stdout.columns : undefined, out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) })
  .then((code) => { process.exitCode = code; }, (e) => { process.stderr.write(`skillflow: internal error: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 2; });
