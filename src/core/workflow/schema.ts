/** zod schemas of `.workflow/registry.json` and `<workDir>/status.json`; the JSON schemas in schemas/ are generated from these. */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { MODES, PHASES } from './fsm';

// zod/mini loads no locale (its messages would all read "Invalid input"): status-schema problems quote these.
z.config(en());

/** `schema` with a description (what `.describe()` does in zod's classic API). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.describe(description)) as T;

const timestamp = described(z.string(), 'ISO 8601 date-time, e.g. 2026-11-21T14:30:00Z');

export const RegistryEntrySchema = z.union([
  described(z.string().check(z.minLength(1)), 'The workDir: relative to the folder holding .workflow/ (e.g. .workflow/20261121-143000/login/implement) or absolute'),
  described(z.looseObject({
    workDir: described(z.string().check(z.minLength(1)), 'The workDir: relative to the folder holding .workflow/ or absolute'),
  }), 'An entry with its workDir and any other fields (kept and ignored)'),
]);

export const RegistrySchema = described(
  z.record(described(z.string(), 'registryKey, YYYYMMDD-HHMMSS'), RegistryEntrySchema),
  'Skillflow: the workflows an orchestrator has registered, registryKey → workDir',
);

export const TransitionSchema = z.looseObject({
  from: described(z.optional(z.union([z.enum(PHASES), z.null()])), 'The phase before (null or absent for the first INIT record)'),
  to: described(z.enum(PHASES), 'The phase after'),
  at: described(timestamp, 'When the transition happened (ISO 8601)'),
});

export const StatusSchema = described(
  z.looseObject({
    phase: described(z.enum(PHASES), 'The current phase'),
    mode: described(z.optional(z.enum(MODES)), 'full (default when absent): INIT→PLAN→WORK→REPORT→COMPLETED; noplan: INIT→WORK→REPORT→COMPLETED; strategy: INIT→STRATEGY→COMPLETED'),
    command: described(z.optional(z.string()), 'implement | review | research | strategy'),
    title: z.optional(z.string()),
    workName: z.optional(z.string()),
    created_at: z.optional(timestamp),
    updated_at: described(z.optional(timestamp), 'Last update (ISO 8601); a non-terminal workflow not updated for a while is stale'),
    transitions: described(z.optional(z.array(TransitionSchema)), 'Phase transitions, oldest first'),
    linked_sessions: described(z.optional(z.array(z.string())), 'Session ids that took part in the workflow'),
  }),
  'Skillflow: the state of one workflow run (unknown fields are kept and ignored)',
);

/** The JSON schemas contributed through `jsonValidation` (draft-07, which VS Code's JSON support reads). */
export function jsonSchemas(): Record<'registry' | 'status', Record<string, unknown>> {
  const withTitle = (title: string, schema: Record<string, unknown>) => ({ $schema: schema.$schema, title, ...schema });
  return {
    registry: withTitle('Skillflow workflow registry (.workflow/registry.json)', z.toJSONSchema(RegistrySchema, { target: 'draft-7' })),
    status: withTitle('Skillflow workflow status (<workDir>/status.json)', z.toJSONSchema(StatusSchema, { target: 'draft-7' })),
  };
}
