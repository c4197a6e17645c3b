import * as os from 'node:os';
import { nodeFileSystem } from '../core/base/fs';
import { main } from './main';

main({ argv: process.argv.slice(2), cwd: process.cwd(), fs: nodeFileSystem, env: process.env, home: os.homedir(), out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) })
  .then((code) => { process.exitCode = code; }, (e) => { process.stderr.write(`skillflow: internal error: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 2; });
