import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RULES, severityFor } from '../../../../src/core/base/rules';

// The rule table of the product specification (severity by Claude Code's behaviour), transcribed row by row: [claude-code, spec, upload]; '—' = off.
// Where Claude Code's documents differ (the name format rules: `name` is a label or a plugin command, docs/claude-code-model.md), the documents win.
const SPEC_TABLE: Record<string, [string, string, string]> = {
  'frontmatter-missing': ['warning', 'error', 'error'],
  'frontmatter-unclosed': ['error', 'error', 'error'],
  'yaml-syntax': ['error', 'error', 'error'],
  'frontmatter-not-mapping': ['error', 'error', 'error'],
  bom: ['warning', 'warning', 'error'],
  'name-missing': ['warning', 'error', 'error'],
  'description-missing': ['warning', 'error', 'error'],
  'name-type': ['error', 'error', 'error'],
  'description-type': ['error', 'error', 'error'],
  'name-length': ['warning', 'error', 'error'],
  'name-case': ['warning', 'error', 'error'],
  'name-charset': ['warning', 'error', 'error'],
  'name-hyphen': ['warning', 'error', 'error'],
  'name-dir-mismatch': ['warning', 'error', 'warning'],
  'name-reserved': ['—', '—', 'error'],
  'description-length': ['warning', 'error', 'error'],
  'description-angle-brackets': ['warning', 'warning', 'error'],
  'listing-length': ['warning', '—', '—'],
  'compatibility-invalid': ['error', 'error', 'error'],
  'metadata-invalid': ['warning', 'error', 'error'],
  'allowed-tools-invalid': ['error', 'error', 'error'],
  'field-invalid': ['error', '—', '—'],
  'unknown-key': ['warning', 'error', 'error'],
  'body-lines': ['warning', 'warning', 'warning'],
  'body-tokens': ['warning', 'warning', 'warning'],
  'reference-missing': ['warning', 'warning', 'warning'],
  'reference-outside': ['error', 'error', 'error'],
  'reference-backslash': ['warning', 'warning', 'error'],
  'duplicate-name': ['error', 'error', 'error'],
  shadowed: ['info', 'info', 'info'],
  'skill-md-case': ['error', 'error', 'error'],
  'skill-not-loaded': ['error', '—', '—'],
  unreachable: ['warning', '—', '—'],
  'builtin-clash': ['warning', '—', '—'],
};

test('every documented code is in RULES with exactly the table\'s severity per profile', () => {
  for (const [code, [cc, spec, upload]] of Object.entries(SPEC_TABLE)) {
    const rule = RULES[code];
    assert.ok(rule, `missing rule ${code}`);
    assert.deepEqual(
      [rule.severity['claude-code'] ?? '—', rule.severity.spec ?? '—', rule.severity.upload ?? '—'],
      [cc, spec, upload],
      code,
    );
  }
});

test('the extra codes (file, limit and agent rules) are present', () => {
  for (const code of ['file-too-large', 'frontmatter-limits', 'agent-skill-missing', 'agent-model-invalid', 'agent-name-invalid', 'agent-tools-invalid', 'agent-skills-invalid']) {
    assert.ok(RULES[code], code);
    assert.equal(RULES[code].severity['claude-code'], 'error', code);
  }
  const extra = Object.keys(RULES).filter((c) => !(c in SPEC_TABLE)).sort();
  assert.deepEqual(extra, ['agent-duplicate-name', 'agent-model-invalid', 'agent-name-invalid', 'agent-plugin-ignored', 'agent-skill-missing', 'agent-skills-invalid', 'agent-tools-invalid', 'agent-tools-key', 'config-invalid', 'description-overlap', 'description-placeholder', 'file-not-text', 'file-too-large', 'frontmatter-limits', 'hook-invalid', 'hook-matcher', 'hook-script-missing', 'mention-unknown', 'model-unknown', 'paths-pattern', 'script-source-path', 'subskill-not-loaded', 'tool-pattern', 'tool-rule-invalid', 'tool-unknown']);
  assert.equal(RULES['config-invalid'].severity['claude-code'], 'warning');
});

test('every rule has a one-line summary that ends with a full stop', () => {
  for (const [code, rule] of Object.entries(RULES)) {
    assert.ok(rule.summary.length > 10, code);
    assert.doesNotMatch(rule.summary, /\n/, code);
    assert.match(rule.summary, /\.$/, code);
  }
});

test('severityFor follows the table and is undefined for an off rule or an unknown code', () => {
  assert.equal(severityFor('bom', 'upload'), 'error');
  assert.equal(severityFor('bom', 'spec'), 'warning');
  assert.equal(severityFor('name-reserved', 'claude-code'), undefined);
  assert.equal(severityFor('name-reserved', 'upload'), 'error');
  assert.equal(severityFor('listing-length', 'spec'), undefined);
  assert.equal(severityFor('shadowed', 'claude-code'), 'info');
  assert.equal(severityFor('no-such-rule', 'claude-code'), undefined);
  assert.equal(severityFor('toString', 'claude-code'), undefined);
});

// Cases of a rule with their own severities: [code, variant, [claude-code, spec, upload]].
const VARIANTS: Array<[string, string, [string | undefined, string | undefined, string | undefined]]> = [
  ['name-charset', 'non-ascii-lowercase', ['warning', 'warning', 'error']],
  ['metadata-invalid', 'unquoted-scalar', ['warning', 'warning', 'warning']],
  ['frontmatter-missing', 'agent', ['error', 'error', 'error']],
  ['name-missing', 'agent', ['error', 'error', 'error']],
  ['description-missing', 'agent', ['error', 'error', 'error']],
  // A plugin agent without a description still loads, under its file name (docs/sub-agents.md).
  ['description-missing', 'plugin-agent', ['warning', 'warning', 'warning']],
  ['reference-outside', 'in-repository', ['warning', 'warning', 'error']],
  ['yaml-syntax', 'colon-in-value', ['warning', 'error', 'error']],
  // A project or personal skill's file of its own repository (skills.md: "Commit `.claude/skills/` to version control").
  ['reference-outside', 'own-repository', [undefined, 'info', 'error']],
  ['tool-unknown', 'former', ['info', undefined, undefined]],
  ['hook-invalid', 'unknown-event', ['warning', undefined, undefined]],
];

test('rule variants carry their own severities; an unknown variant falls back to the rule', () => {
  for (const [code, variant, [cc, spec, upload]] of VARIANTS) {
    assert.deepEqual([severityFor(code, 'claude-code', variant), severityFor(code, 'spec', variant), severityFor(code, 'upload', variant)], [cc, spec, upload], `${code}/${variant}`);
  }
  assert.equal(severityFor('name-charset', 'spec', 'no-such-variant'), 'error');
  assert.equal(severityFor('bom', 'claude-code', 'agent'), 'warning');
  const all = Object.entries(RULES).flatMap(([code, r]) => Object.keys(r.variants ?? {}).map((v) => `${code}/${v}`)).sort();
  assert.deepEqual(all, VARIANTS.map(([c, v]) => `${c}/${v}`).sort());
});
