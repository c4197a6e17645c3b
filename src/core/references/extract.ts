/**
 * Path references in a SKILL.md body: the candidate type, the folders that always mean "a file of this skill" and
 * link target normalisation. The Markdown extractor (markdown.ts) finds them; resolve.ts resolves them.
 */
import type { Range } from '../base/types';

export type ReferenceKind = 'link' | 'path';

export interface ReferenceCandidate {
  /** As written, without `#fragment` / `?query` (percent-escapes kept). */
  target: string;
  range: Range;
  /** `link`: a markdown link/image/definition target; `path`: a bare path in text or inline code. */
  kind: ReferenceKind;
  /**
   * A mention that is a reference only if the file exists (an example, a prohibition, a hypothetical file, a
   * target without extension): never reported missing.
   */
  tentative?: boolean;
  /**
   * Where the target is read from when not the skill folder's usual way: `skill` (written after
   * `${CLAUDE_SKILL_DIR}/`: the skill folder, nothing else), `plugin` (after `${CLAUDE_PLUGIN_ROOT}/`: the plugin root)
   * or `absolute` (`/etc/hosts`, `file:///etc/hosts`: the path itself).
   */
  anchor?: 'skill' | 'plugin' | 'absolute';
}

/** First path segments that always mean "a file of this skill". */
export const KNOWN_SEGMENTS: ReadonlySet<string> = new Set(['scripts', 'references', 'assets']);

/**
 * An absolute link target as a path (`/etc/hosts`; `file:///etc/hosts` as `/etc/hosts`), without `#fragment` and
 * `?query`; undefined for anything else (relative, other schemes, `file://host/…`, `//host/…`, templates, globs).
 */
export function absoluteLinkTarget(raw: string): string | undefined {
  let t = raw.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1).trim();
  const cut = t.search(/[#?]/);
  if (cut >= 0) t = t.slice(0, cut);
  if (/^file:\/\/\//i.test(t)) t = t.slice(7);
  if (!t.startsWith('/') || t.startsWith('//') || t === '/' || /[{}$*<>|`]/.test(t)) return undefined;
  return t;
}

/** Strips `#fragment` and `?query`; returns undefined for URLs, anchors, absolute, home and templated paths. */
export function normaliseLinkTarget(raw: string): string | undefined {
  let t = raw.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1).trim();
  const cut = t.search(/[#?]/);
  if (cut >= 0) t = t.slice(0, cut);
  if (t === '' || t === '.' || t === './') return undefined;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t)) return undefined; // http:, mailto:, file:, C:
  if (t.startsWith('/') || t.startsWith('\\') || t.startsWith('~')) return undefined;
  if (/[{}$*<>|`]/.test(t)) return undefined; // templates and globs are not files
  return t;
}
