// description-overlap: a plain lexical similarity of `description` + `when_to_use`, calibrated on real skills
// (test/fixtures/tools, licences and commits in each SOURCE.md): the Discord / Telegram / iMessage `access` skills of
// claude-plugins-official compete; real neighbours from wshobson/agents (the same task for another language or
// platform) do not. Off in the CLI unless .skillflow.json turns it on; shown in What Claude Sees.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { contentWords, descriptionOverlaps, descriptionSimilarity, OVERLAP_THRESHOLD } from '../../../../src/core/claude/overlap';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, tempTree } from '../../helpers/tempTree';
import { buildClaudeModel } from '../../../../src/core/claude/load';
import { computeListing } from '../../../../src/core/claude/listing';
import { buildListingViewModel, parseContextWindow, renderListingHtml } from '../../../../src/webview/listingView';

const OFFICIAL = 'test/fixtures/tools/claude-plugins-official/external_plugins';
const WSHOBSON = 'test/fixtures/tools/wshobson-agents/overlap/plugins';

/** `description` + `when_to_use` of a SKILL.md, or a command's first paragraph after its heading. */
function listingText(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---/.exec(text);
  if (m) {
    const d = parse(m[1]) as Record<string, unknown>;
    return [d.description, d.when_to_use].filter((x) => typeof x === 'string').join(' ');
  }
  return text.split('\n\n').find((p) => !p.startsWith('#')) ?? '';
}

test('contentWords: lower case, no stop words, plurals folded', () => {
  assert.deepEqual(contentWords('Use when the user asks to approve Pairings or edit allowlists.'), ['approve', 'pairing', 'edit', 'allowlist']);
});

test('real overlapping pairs score over the threshold, with their shared phrases', () => {
  const access = ['discord', 'telegram', 'imessage'].map((p) => listingText(path.join(OFFICIAL, p, 'skills/access/SKILL.md')));
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
    const s = descriptionSimilarity(access[i], access[j]);
    assert.ok(s.score >= OVERLAP_THRESHOLD, `${i}/${j}: ${s.score}`);
    assert.ok(s.shared.includes('approve pairing'), s.shared.join(', '));
  }
});

test('real neighbours (the same task for another language or platform) stay under it', () => {
  const pairs: Array<[string, string]> = [
    ['python-development/commands/python-scaffold.md', 'javascript-typescript/commands/typescript-scaffold.md'],
    ['python-development/skills/python-testing-patterns/SKILL.md', 'javascript-typescript/skills/javascript-testing-patterns/SKILL.md'],
    ['ui-design/skills/mobile-ios-design/SKILL.md', 'ui-design/skills/mobile-android-design/SKILL.md'],
    ['frontend-mobile-development/skills/tailwind-design-system/SKILL.md', 'ui-design/skills/design-system-patterns/SKILL.md'],
  ];
  for (const [a, b] of pairs) {
    const s = descriptionSimilarity(listingText(path.join(WSHOBSON, a)), listingText(path.join(WSHOBSON, b)));
    assert.ok(s.score < OVERLAP_THRESHOLD && s.score > 0.4, `${a} / ${b}: ${s.score}`);
  }
  // Unrelated texts: far apart; an empty text matches nothing.
  assert.ok(descriptionSimilarity('Fill PDF forms and merge documents', 'Deploy the staging cluster with Helm').score < 0.1);
  assert.deepEqual(descriptionOverlaps([{ id: '1', invocation: '/a', text: '' }, { id: '2', invocation: '/b', text: '' }]), []);
});

function copyTree(files: string[], from: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = fs.readFileSync(path.join(from, f), 'utf8');
  return out;
}

async function overlapLines(dir: string): Promise<string[]> {
  let out = '';
  await main({ argv: ['validate', dir, '--format', 'json'], cwd: process.cwd(), fs: nodeFileSystem, env: {}, out: (t) => { out += t; }, err: () => undefined });
  const json = JSON.parse(out) as { skills: { path: string; problems: { code: string; severity: string; message: string }[] }[] };
  return json.skills.flatMap((s) => s.problems.filter((p) => p.code === 'description-overlap').map((p) => `${s.path.split('/').slice(-4, -2).join('/')} ${p.severity} ${p.message.slice(0, p.message.indexOf(':'))}`)).sort();
}

test('CLI: off by default; a .skillflow.json turns it on (each side names the other)', async () => {
  const files = copyTree(['discord', 'telegram'].flatMap((p) => [`${p}/.claude-plugin/plugin.json`, `${p}/skills/access/SKILL.md`]), OFFICIAL);
  const marketplace = JSON.stringify({ name: 'm', owner: { name: 'o' }, plugins: [{ name: 'discord', source: './discord' }, { name: 'telegram', source: './telegram' }] });
  const dir = tempTree({ ...files, '.claude-plugin/marketplace.json': marketplace });
  try {
    assert.deepEqual(await overlapLines(dir), []);
    fs.writeFileSync(path.join(dir, '.skillflow.json'), JSON.stringify({ rules: { 'description-overlap': 'warning' } }));
    assert.deepEqual(await overlapLines(dir), [
      'discord/skills warning Say when to use this rather than /telegram',
      'telegram/skills warning Say when to use this rather than /discord',
    ]);
  } finally {
    removeTree(dir);
  }
});

test('What Claude Sees: the competing pairs with their shared phrases', () => {
  const files = copyTree(['discord', 'telegram'].flatMap((p) => [`${p}/.claude-plugin/plugin.json`, `${p}/skills/access/SKILL.md`]), OFFICIAL);
  const dir = tempTree({ ...files, '.git/HEAD': '' });
  try {
    const model = buildClaudeModel(nodeFileSystem, { startDir: dir, home: path.join(dir, 'no-home'), managedDir: null, env: {}, pluginDirs: [path.join(dir, 'discord'), path.join(dir, 'telegram')] });
    const contextWindow = parseContextWindow(undefined);
    const listing = computeListing(model.entries, model.settings, { contextWindowTokens: contextWindow.tokens, env: model.env });
    const vm = buildListingViewModel({ model, listing, contextWindow, folders: [{ id: '0', name: 'repo' }], folderId: '0', idOf: (f) => f });
    assert.equal(vm.overlaps.length, 1);
    assert.deepEqual([vm.overlaps[0].a, vm.overlaps[0].b].sort(), ['/discord:access', '/telegram:access']);
    assert.ok(vm.overlaps[0].percent >= 80 && vm.overlaps[0].shared.includes('approve pairing'));
    const html = renderListingHtml(vm);
    assert.match(html, /Skills that compete for the same request/);
    assert.match(html, /“approve pairing”/);
  } finally {
    removeTree(dir);
  }
});
