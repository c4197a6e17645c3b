/** zod schemas of `.workflow/registry.json` and `<workDir>/status.json` (SPEC §5); the JSON schemas in schemas/ are generated from these. */
import { z } from 'zod';
import { MODES, PHASES } from './fsm';

const timestamp = z.string().describe('ISO 8601 date-time, e.g. 2026-11-21T14:30:00Z');

export const RegistryEntrySchema = z.union([
  z.string().min(1).describe('The workDir: relative to the folder holding .workflow/ (e.g. .workflow/20261121-143000/login/implement) or absolute'),
  z.looseObject({
    workDir: z.string().min(1).describe('The workDir: relative to the folder holding .workflow/ or absolute'),
  }).describe('An entry with its workDir and any other fields (kept and ignored)'),
]);

export const RegistrySchema = z
  .record(z.string().describe('registryKey, YYYYMMDD-HHMMSS'), RegistryEntrySchema)
  .describe('Skillflow: the workflows an orchestrator has registered, registryKey → workDir');

export const TransitionSchema = z.looseObject({
  from: z.union([z.enum(PHASES), z.null()]).optional().describe('The phase before (null or absent for the first INIT record)'),
  to: z.enum(PHASES).describe('The phase after'),
  at: timestamp.describe('When the transition happened (ISO 8601)'),
});

export const StatusSchema = z
  .looseObject({
    phase: z.enum(PHASES).describe('The current phase'),
    mode: z.enum(MODES).optional().describe('full (default when absent): INIT→PLAN→WORK→REPORT→COMPLETED; noplan: INIT→WORK→REPORT→COMPLETED; strategy: INIT→STRATEGY→COMPLETED'),
    command: z.string().optional().describe('implement | review | research | strategy'),
    title: z.string().optional(),
    workName: z.string().optional(),
    created_at: timestamp.optional(),
    updated_at: timestamp.optional().describe('Last update (ISO 8601); a non-terminal workflow not updated for a while is stale'),
    transitions: z.array(TransitionSchema).optional().describe('Phase transitions, oldest first'),
    linked_sessions: z.array(z.string()).optional().describe('Session ids that took part in the workflow'),
  })
  .describe('Skillflow: the state of one workflow run (unknown fields are kept and ignored)');

export const ContextSchema = z.looseObject({ agent: z.string().optional() });

export type RegistryFile = z.infer<typeof RegistrySchema>;
export type StatusFile = z.infer<typeof StatusSchema>;

/** The JSON schemas contributed through `jsonValidation` (draft-07, which VS Code's JSON support reads). */
export function jsonSchemas(): Record<'registry' | 'status', Record<string, unknown>> {
  const withTitle = (title: string, schema: Record<string, unknown>) => ({ $schema: schema.$schema, title, ...schema });
  return {
    registry: withTitle('Skillflow workflow registry (.workflow/registry.json)', z.toJSONSchema(RegistrySchema, { target: 'draft-7' })),
    status: withTitle('Skillflow workflow status (<workDir>/status.json)', z.toJSONSchema(StatusSchema, { target: 'draft-7' })),
  };
}
