/**
 * Where a rule's documentation is, for links in machine-readable output: the section of docs/rules.md in the
 * project's repository when package.json names one (`repository`), else the docs/rules.md installed with the CLI
 * (a `file:` URI). Read once from the package the running code belongs to.
 */
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface PackageInfo { root: string; version?: string; repository?: string }

let cached: PackageInfo | undefined;

function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = __dirname;
  for (;;) {
    try {
      const pkg = JSON.parse(nodeFs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown; repository?: unknown };
      if (pkg.name === 'skillflow') {
        const repo = typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository as { url?: unknown } | undefined)?.url;
        cached = { root: dir, version: typeof pkg.version === 'string' ? pkg.version : undefined, repository: typeof repo === 'string' ? repo : undefined };
        return cached;
      }
    } catch { /* no package.json here */ }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cached = { root: path.dirname(__dirname) };
  return cached;
}

/** `git+https://host/owner/repo.git` → `https://host/owner/repo`; undefined for anything that is not an http(s) URL. */
export function repositoryWebUrl(repository: string): string | undefined {
  const url = repository.replace(/^git\+/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  return /^https?:\/\/[^/]+\/.+/.test(url) ? url : undefined;
}

/** The absolute URI of the section of docs/rules.md that documents `code`. */
export function ruleHelpUri(code: string): string {
  const info = packageInfo();
  const web = info.repository ? repositoryWebUrl(info.repository) : undefined;
  const base = web ? `${web}/blob/HEAD/docs/rules.md` : pathToFileURL(path.join(info.root, 'docs', 'rules.md')).href;
  return `${base}#${encodeURIComponent(code)}`;
}

/** The CLI's version from its package.json. */
export function toolVersion(): string | undefined {
  return packageInfo().version;
}
