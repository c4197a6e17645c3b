/**
 * zod shapes of the spec's structured frontmatter values; the validators turn failures into human messages.
 * (Claude Code's own keys are checked by the key table, keys.ts.)
 * `zod/mini` (the same zod, its functional API): a tenth of the classic API's code, which every CLI start compiles.
 */
import * as z from 'zod/mini';
import { codePointLength } from '../base/text';

export const COMPATIBILITY_MAX = 500;

export const compatibilitySchema = z.string().check(z.refine((s) => {
  const n = codePointLength(s.trim());
  return n >= 1 && n <= COMPATIBILITY_MAX;
}));
export const metadataSchema = z.record(z.string(), z.string());
