/** Reading the frontmatter fields the Claude Code model needs from a SKILL.md or command file. */
import type { FileSystem } from '../base/fs';
import { parseSkillMd } from '../skillmd/frontmatter';
import type { ParsedSkillMd } from '../skillmd/model';
import type { ClaudeMeta, ClaudeMetaReader } from './types';
import { parseClaudeBoolean } from './values';

/** Files over this size are not parsed (their entry keeps empty metadata). */
export const MAX_META_BYTES = 1024 * 1024;

/** The first paragraph of a markdown body (headings skipped): Claude Code's stand-in for a missing description. */
export function firstParagraph(body: string): string | undefined {
  const lines: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) {
      if (lines.length) break;
      continue;
    }
    if (!lines.length && line.startsWith('#')) continue;
    lines.push(line);
  }
  return lines.length ? lines.join(' ') : undefined;
}

/** A text field as Claude Code reads it: a string, or a bare number as its text (changelog 2.1.47). */
function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  return t || undefined;
}

/**
 * The fields from a file's text. Malformed frontmatter gives empty metadata (Claude Code then still loads the body).
 */
export function metaFromText(source: string): ClaudeMeta {
  return metaFromParsed(parseSkillMd(source));
}

/**
 * `data[key]`: one property read for every key a bulk run reads from frontmatter data. The data objects come in as
 * many shapes as there are key orders, so this read is generic from the first files on; a read per key, compiled for
 * the few shapes its first files had, made the optimized code of its function bail out when a new one came late.
 */
export function frontmatterField(data: Readonly<Record<string, unknown>>, key: string): unknown {
  return data[key];
}

/** The fields from a parsed file (the body is read only when `description` is absent). */
export function metaFromParsed(parsed: Pick<ParsedSkillMd, 'data' | 'hasFrontmatter' | 'body'>): ClaudeMeta {
  const data = parsed.data ?? {};
  const meta: ClaudeMeta = {};
  const name = text(frontmatterField(data, 'name'));
  if (name !== undefined) meta.name = name;
  const description = text(frontmatterField(data, 'description')) ?? (parsed.data === undefined && parsed.hasFrontmatter ? undefined : firstParagraph(parsed.body));
  if (description !== undefined) meta.description = description;
  const whenToUse = text(frontmatterField(data, 'when_to_use'));
  if (whenToUse !== undefined) meta.whenToUse = whenToUse;
  const dmi = parseClaudeBoolean(frontmatterField(data, 'disable-model-invocation'));
  if (dmi !== undefined) meta.disableModelInvocation = dmi;
  const ui = parseClaudeBoolean(frontmatterField(data, 'user-invocable'));
  if (ui !== undefined) meta.userInvocable = ui;
  return meta;
}

/** A ClaudeMetaReader over `fs`: undefined for an unreadable file, empty metadata for one over 1 MiB. */
export function defaultMetaReader(fs: FileSystem): ClaudeMetaReader {
  return (file) => {
    const st = fs.stat(file);
    if (!st?.isFile) return undefined;
    if (st.size > MAX_META_BYTES) return {};
    try {
      return metaFromText(fs.readFile(file).toString('utf8'));
    } catch {
      return undefined;
    }
  };
}
