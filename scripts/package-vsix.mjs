// `npm run package`: production bundles (minified, no source maps), then skillflow-<version>.vsix in the repo root.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, packageVsix, run } from './vscode/build.mjs';

const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
run(process.execPath, ['esbuild.mjs', '--production']);
const file = packageVsix(join(ROOT, `${name}-${version}.vsix`));
console.log(`${name}-${version}.vsix (${(statSync(file).size / 1024).toFixed(1)} KiB) — install with: code --install-extension ${name}-${version}.vsix`);
