/**
 * zod shapes of frontmatter values; the validators turn failures into human messages.
 * `zod/mini` (the same zod, its functional API): a tenth of the classic API's code, which every CLI start compiles.
 */
import * as z from 'zod/mini';
import { EFFORT_VALUES, MODEL_ALIASES, FULL_MODEL_ID, SHELL_VALUES } from './keys';

export const nonEmptyString = z.string().check(z.refine((s) => s.trim() !== ''));
export const compatibilitySchema = z.string().check(z.refine((s) => {
  const n = [...s.trim()].length;
  return n >= 1 && n <= 500;
}));
export const metadataSchema = z.record(z.string(), z.string());
export const stringListSchema = z.array(nonEmptyString);
export const stringOrListSchema = z.union([nonEmptyString, stringListSchema]);
export const booleanSchema = z.boolean();
export const modelSchema = z.union([z.enum(MODEL_ALIASES), z.string().check(z.regex(FULL_MODEL_ID))]);
export const effortSchema = z.enum(EFFORT_VALUES);
export const shellSchema = z.enum(SHELL_VALUES);
export const contextSchema = z.literal('fork');
export const mapSchema = z.record(z.string(), z.unknown());
export const versionSchema = z.union([nonEmptyString, z.number()]);

/** Claude Code keys checked by `field-invalid`, with the shape and a short "must be …" phrase. */
export const CLAUDE_CODE_FIELDS: Readonly<Record<string, { schema: z.ZodMiniType; expected: string }>> = {
  license: { schema: nonEmptyString, expected: 'a non-empty string' },
  when_to_use: { schema: nonEmptyString, expected: 'a non-empty string' },
  'argument-hint': { schema: stringOrListSchema, expected: 'a string such as "[issue-number]"' },
  arguments: { schema: stringOrListSchema, expected: 'a space-separated string or a list of argument names' },
  'disable-model-invocation': { schema: booleanSchema, expected: 'true or false' },
  'user-invocable': { schema: booleanSchema, expected: 'true or false' },
  background: { schema: booleanSchema, expected: 'true or false' },
  'disallowed-tools': { schema: stringOrListSchema, expected: 'a string or a list of tool names' },
  model: { schema: modelSchema, expected: `one of ${MODEL_ALIASES.join(', ')} or a full model id such as claude-sonnet-4-5-20250929` },
  effort: { schema: effortSchema, expected: `one of ${EFFORT_VALUES.join(', ')}` },
  context: { schema: contextSchema, expected: 'fork (the only supported value)' },
  agent: { schema: nonEmptyString, expected: 'the name of an agent type (a string)' },
  hooks: { schema: mapSchema, expected: 'a map of hook events' },
  paths: { schema: stringOrListSchema, expected: 'a glob string or a list of globs' },
  shell: { schema: shellSchema, expected: `one of ${SHELL_VALUES.join(', ')}` },
  version: { schema: versionSchema, expected: 'a version string' },
};
