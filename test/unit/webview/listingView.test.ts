import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildClaudeModel } from '../../../src/core/claude/load';
import { computeListing } from '../../../src/core/claude/listing';
import { budgetSourceSentences, buildListingViewModel, escapeHtml, listingHeader, parseContextWindow, renderListingHtml, type ListingViewModel } from '../../../src/webview/listingView';
import { isListingWebviewMessage } from '../../../src/webview/listingProtocol';
import { md, treeFs, type Node } from '../core/claude/treeFs';

function view(files: Record<string, Node>, opts: { window?: unknown; env?: Record<string, string> } = {}): ListingViewModel {
  const fs = treeFs({ 'repo/.git/HEAD': '', ...files });
  const model = buildClaudeModel(fs, { startDir: '/repo', home: '/home/u', managedDir: null, env: opts.env ?? {} });
  const contextWindow = parseContextWindow(opts.window);
  const listing = computeListing(model.entries, model.settings, { contextWindowTokens: contextWindow.tokens, env: model.env });
  const ids = new Map<string, string>();
  return buildListingViewModel({
    model, listing, contextWindow, folders: [{ id: '0', name: 'repo' }], folderId: '0',
    idOf: (f) => { if (!ids.has(f)) ids.set(f, `e${ids.size + 1}`); return ids.get(f) as string; },
  });
}

const long = (n: number) => 'x'.repeat(n);

test('parseContextWindow: 200k, 1m, token counts; anything else falls back to 200k with a message', () => {
  assert.deepEqual(parseContextWindow(undefined), { tokens: 200_000, label: '200k' });
  assert.deepEqual(parseContextWindow('1m'), { tokens: 1_000_000, label: '1m' });
  assert.deepEqual(parseContextWindow(' 1M '), { tokens: 1_000_000, label: '1m' });
  assert.deepEqual(parseContextWindow(500000), { tokens: 500_000, label: '500,000' });
  assert.deepEqual(parseContextWindow('500000'), { tokens: 500_000, label: '500,000' });
  assert.equal(parseContextWindow('1.5m').tokens, 1_500_000);
  for (const bad of ['huge', '12', -5, {}]) {
    const w = parseContextWindow(bad);
    assert.equal(w.tokens, 200_000);
    assert.match(w.invalid ?? '', /is not a context window/);
  }
});

test('each entry gets its state and reason; truncated and dropped entries come first as at risk, absent ones last', () => {
  const vm = view({
    'repo/.claude/settings.local.json': JSON.stringify({ skillOverrides: { quiet: 'name-only', gone: 'off' } }),
    'repo/.claude/skills/long/SKILL.md': md({ description: long(2000) }),
    'repo/.claude/skills/shown/SKILL.md': md({ description: 'Shown in full.' }),
    'repo/.claude/skills/quiet/SKILL.md': md({ description: 'Quiet.' }),
    'repo/.claude/skills/gone/SKILL.md': md({ description: 'Gone.' }),
    'repo/.claude/skills/manual/SKILL.md': md({ description: 'Manual.', 'disable-model-invocation': true }),
    'repo/.claude/commands/shown.md': md({ description: 'Loses to the skill.' }),
    'repo/.claude/skills/group/deep/SKILL.md': md({ description: 'Never loaded.' }),
  });
  const rows = vm.rows.map((r) => [r.group, r.invocation, r.kind, r.shown]);
  assert.deepEqual(rows, [
    ['at-risk', '/long', 'skill', 'truncated'],
    ['listed', '/quiet', 'skill', 'name-only'],
    ['listed', '/shown', 'skill', 'full'],
    ['absent', '/gone', 'skill', 'absent'],
    ['absent', '/manual', 'skill', 'absent'],
    ['absent', '/shown', 'command', 'absent'],
    ['absent', 'deep', 'skill', 'absent'],
  ]);
  const by = (inv: string, kind = 'skill') => vm.rows.find((r) => r.invocation === inv && r.kind === kind);
  assert.match(by('/long')?.reason ?? '', /2000 characters; the listing keeps 1536/);
  assert.equal(by('/quiet')?.override, 'name-only');
  assert.equal(by('/quiet')?.overrideFrom, '.claude/settings.local.json');
  assert.match(by('/gone')?.reason ?? '', /skillOverrides.*"off"/);
  assert.match(by('/manual')?.reason ?? '', /disable-model-invocation/);
  assert.match(by('/shown', 'command')?.reason ?? '', /shadowed: .*a skill wins over a command/);
  assert.match(by('deep')?.reason ?? '', /^never loaded: /);
  assert.equal(by('/shown')?.where, '.claude/skills/shown/SKILL.md');
  assert.deepEqual(vm.counts, { full: 1, truncated: 1, 'name-only': 1, dropped: 0, absent: 4 });
  // Actions: overrides only where they can apply; reset where one is set; open everywhere.
  assert.deepEqual(by('/shown')?.actions, ['name-only', 'off', 'disable-model-invocation', 'trim', 'open']);
  assert.deepEqual(by('/quiet')?.actions, ['on', 'off', 'disable-model-invocation', 'trim', 'open']);
  // No trim where the listing shows no description (absent: off, disable-model-invocation, shadowed).
  assert.deepEqual(by('/gone')?.actions, ['on', 'disable-model-invocation', 'open']);
  assert.deepEqual(by('/manual')?.actions, ['off', 'open']);
  assert.deepEqual(by('/shown', 'command')?.actions, ['open'], 'a shadowed entry offers no override, no trim');
  assert.deepEqual(by('deep')?.actions, ['open']);
});

test('over budget: dropped entries first in drop order, then the next ones a tenth of growth would drop', () => {
  const files: Record<string, Node> = {};
  for (let i = 0; i < 8; i++) files[`repo/.claude/skills/s${i}/SKILL.md`] = md({ description: long(200 + i * 10) });
  const vm = view(files, { env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '1500' } });
  assert.equal(vm.budget, 1500);
  assert.ok(vm.used <= vm.budget);
  const atRisk = vm.rows.filter((r) => r.group === 'at-risk');
  const dropped = atRisk.filter((r) => r.shown === 'dropped').map((r) => r.invocation);
  assert.deepEqual(dropped, ['/s7', '/s6'], 'longest descriptions are dropped first');
  const next = atRisk.filter((r) => r.shown !== 'dropped');
  assert.ok(next.length >= 1, 'the next to drop is at risk too');
  assert.equal(next[0].invocation, '/s5');
  assert.match(next[0].risk ?? '', /dropped first if the listing grows by 150 characters/);
  assert.match(vm.budgetSources[0], /^Budget: SLASH_COMMAND_TOOL_CHAR_BUDGET=1500 in the environment/);
});

test('the budget says where it comes from: the settings file, the env block, the context window', () => {
  const fromFile = view({ 'repo/.claude/settings.json': '{"skillListingBudgetFraction": 0.02, "skillListingMaxDescChars": 500}' }, { window: '1m' });
  assert.equal(fromFile.budget, 80_000);
  assert.equal(fromFile.budgetSources[0], 'Budget: skillListingBudgetFraction 0.02 (from .claude/settings.json) of a 1m-token context window × 4 characters per token = 80,000 characters.');
  assert.match(fromFile.budgetSources[1], /cut at 500 characters \(skillListingMaxDescChars, from \.claude\/settings\.json\)/);
  const defaults = view({});
  assert.match(defaults.budgetSources[0], /skillListingBudgetFraction 0\.01 \(default\) of a 200k-token context window .* = 8,000 characters/);
  const envBlock = view({ 'repo/.claude/settings.local.json': '{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "3000"}}' });
  assert.equal(envBlock.budget, 3000);
  assert.match(envBlock.budgetSources[0], /SLASH_COMMAND_TOOL_CHAR_BUDGET=3000 from the env block of \.claude\/settings\.local\.json/);
  const bad = view({ 'repo/.claude/settings.local.json': '{"skillOverrides": {' }, { window: 'lots' });
  assert.equal(bad.problems.length, 2);
  assert.match(bad.problems[0], /skillflow\.listing\.contextWindow: "lots" is not a context window/);
  assert.match(bad.problems[1], /^\.claude\/settings\.local\.json:\d+: not valid JSON/);
});

test('the HTML escapes every text, names rows by id only, and labels the meter and the action groups', () => {
  const vm = view({
    'repo/.claude/skills/x/SKILL.md': md({ name: 'X <b>', description: 'Use <script>alert(1)</script> & "quotes"' }),
  });
  const html = renderListingHtml(vm);
  assert.ok(!html.includes('<script'), 'no markup from the data');
  assert.ok(html.includes('Use &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;'));
  assert.ok(html.includes('“X &lt;b&gt;”'), 'the display name, escaped');
  assert.ok(!/\/repo\//.test(html.replace(/<p class="where">[^<]*<\/p>/g, '')), 'no absolute paths outside the where line');
  assert.ok(!/data-path/.test(html));
  assert.match(html, /<meter id="budget-meter" min="0" max="8000"[^>]*aria-label="Listing budget used"/);
  assert.match(html, /<li class="entry group-listed shown-full" data-id="e1" aria-label="\/x, full">/);
  assert.match(html, /<div class="actions" role="group" aria-label="Actions for \/x"><button type="button" class="action-name-only" data-id="e1" data-action="name-only"/);
  assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
  assert.ok(!/style=/.test(html), 'no inline styles (the CSP forbids them)');
  assert.equal(escapeHtml(`<&>"'`), '&lt;&amp;&gt;&quot;&#39;');
});

test('webview messages: only known shapes pass', () => {
  assert.ok(isListingWebviewMessage({ type: 'ready' }));
  assert.ok(isListingWebviewMessage({ type: 'action', id: 'e1', action: 'name-only' }));
  assert.ok(isListingWebviewMessage({ type: 'folder', id: '0' }));
  assert.ok(!isListingWebviewMessage({ type: 'action', id: 'e1', action: 'rm -rf' }));
  assert.ok(!isListingWebviewMessage({ type: 'action', path: '/etc/passwd', action: 'open' }));
  assert.ok(!isListingWebviewMessage(null));
  assert.ok(!isListingWebviewMessage('ready'));
});

function header(files: Record<string, Node>, opts: { window?: unknown; env?: Record<string, string> } = {}) {
  const fs = treeFs({ 'repo/.git/HEAD': '', ...files });
  const model = buildClaudeModel(fs, { startDir: '/repo', home: '/home/u', managedDir: null, env: opts.env ?? {} });
  const contextWindow = parseContextWindow(opts.window);
  const listing = computeListing(model.entries, model.settings, { contextWindowTokens: contextWindow.tokens, env: model.env });
  return { header: listingHeader(listing), sources: budgetSourceSentences(model, listing, contextWindow).join(' '), listing };
}

test('listingHeader: the listing figures in a few words, a marker and a warning when descriptions are dropped or cut; the budget sources', () => {
  const fits = header({ 'repo/.claude/skills/a/SKILL.md': md({ description: 'Short.' }) });
  assert.equal(fits.header.figures, `${fits.listing.used} / 8,000 chars`);
  assert.equal(fits.header.warning, undefined);
  assert.ok(fits.header.figures.split(' ').length <= 4, 'a few words for a narrow header');
  assert.match(fits.sources, /skillListingBudgetFraction 0\.01 \(default\) of a 200k-token context window × 4 characters per token = 8,000 characters\./);

  const cut = header({ 'repo/.claude/skills/long/SKILL.md': md({ description: long(2000) }), 'repo/.claude/skills/b/SKILL.md': md({ description: 'Short.' }) });
  assert.match(cut.header.figures, /^[\d,]+ \/ 8,000 chars ⚠ 1 truncated$/);
  assert.equal(cut.header.warning, undefined, 'a cut description only gets the marker');

  const env = { SLASH_COMMAND_TOOL_CHAR_BUDGET: '20' };
  const dropped = header({ 'repo/.claude/skills/long/SKILL.md': md({ description: long(2000) }), 'repo/.claude/skills/b/SKILL.md': md({ description: 'Short enough.' }) }, { env });
  assert.equal(dropped.listing.budget, 20);
  assert.match(dropped.header.figures, /^\d+ \/ 20 chars ⚠ 2 dropped$/);
  assert.match(dropped.header.warning ?? '', /over its budget of 20 characters: 2 skill descriptions are dropped/);
  assert.match(dropped.sources, /SLASH_COMMAND_TOOL_CHAR_BUDGET=20 in the environment/);
});
