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
}

/** First path segments that always mean "a file of this skill". */
export const KNOWN_SEGMENTS: ReadonlySet<string> = new Set(['scripts', 'references', 'assets']);

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
