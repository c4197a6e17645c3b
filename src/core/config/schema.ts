/**
 * The JSON schema of `.skillflow.json` (shipped as `schemas/skillflow.schema.json`, contributed to the editor
 * through `jsonValidation`). Built from the rule table, so its rule codes are exactly the codes the validator emits;
 * a unit test checks the shipped file equals this (`SKILLFLOW_UPDATE_SCHEMA=1 npm run test:unit -- ruleConfig`
 * rewrites it).
 */
import { PROFILES } from '../base/types';
import { RULES } from '../base/rules';
import { RULE_SETTINGS, ruleCodes } from './ruleConfig';

export function ruleConfigSchema(): Record<string, unknown> {
  const codes = ruleCodes();
  const properties: Record<string, unknown> = {};
  for (const code of codes) {
    properties[code] = { $ref: '#/definitions/ruleSetting', markdownDescription: `${RULES[code].summary} ([docs/rules.md#${code}](docs/rules.md#${code}))` };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Skillflow rule configuration (.skillflow.json)',
    description: 'Rule settings for every SKILL.md and agent file below this folder, read by the skillflow CLI and the Skillflow extension (the nearest .skillflow.json wins).',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      profile: {
        description: 'Validation profile used when none is given on the command line (--profile) or set in the editor (skillflow.validation.profile).',
        type: 'string',
        enum: [...PROFILES],
      },
      rules: {
        description: 'Rule code to off, info, warning or error.',
        type: 'object',
        propertyNames: { enum: codes },
        properties,
        additionalProperties: false,
      },
      ignore: {
        description: 'Glob patterns of files not to check, relative to this folder (a pattern without / matches at any depth; a folder pattern skips everything inside it).',
        type: 'array',
        items: { type: 'string', minLength: 1 },
      },
    },
    definitions: {
      ruleSetting: { type: 'string', enum: [...RULE_SETTINGS] },
    },
  };
}
