/**
 * Messages name other files (the skill that wins, the folder a misplaced SKILL.md is in). Built with absolute paths,
 * they leak a machine's layout into Problems, CLI output, SARIF and CI annotations, and break baselines: every surface
 * shows them relative to its working folder (the CLI's current folder, the workspace folder) or under `~` for the home.
 */
import * as path from 'node:path';

function isRoot(dir: string): boolean {
  return path.dirname(dir) === dir;
}

/** A function that rewrites the absolute paths in a message: inside a base → relative, inside the home → `~/…`. */
export function messagePaths(bases: readonly string[], home?: string): (text: string) => string {
  const prefixes: Array<{ prefix: string; by: string }> = [];
  for (const b of bases) {
    const dir = path.resolve(b);
    if (!isRoot(dir)) prefixes.push({ prefix: dir + path.sep, by: '' });
  }
  if (home && !isRoot(path.resolve(home))) prefixes.push({ prefix: path.resolve(home) + path.sep, by: `~${path.sep}` });
  // The deepest folder first: a workspace inside the home is shown relative, not as `~/…`.
  prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  if (!prefixes.length) return (text) => text;
  // Only where a path starts: at the beginning, or after a space, a quote, a bracket, a comma or a colon.
  const pattern = new RegExp(`(^|[\\s'"\`(\\[,:])(${prefixes.map((p) => escapeRegExp(p.prefix)).join('|')})`, 'g');
  const by = new Map(prefixes.map((p) => [p.prefix, p.by]));
  return (text) => (text.includes(path.sep) ? text.replace(pattern, (_m, before: string, prefix: string) => before + by.get(prefix)!) : text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
