/**
 * The What Claude Sees view, without VS Code: the view model built from the Claude Code model and its listing, and
 * the HTML the webview shows (built in the host, escaped here; the webview only inserts it). Rows carry ids the host
 * hands out, never paths, so what the webview posts back can only name entries the host knows.
 */
import * as path from 'node:path';
import { messagePaths } from '../core/base/messagePaths';
import { CHARS_PER_TOKEN, type Listing, type ListingShown } from '../core/claude/listing';
import type { ClaudeEntry } from '../core/claude/types';
import type { ClaudeModel } from '../core/claude/load';
import { listingOverlaps } from '../core/claude/overlap';
import type { ListingAction } from './listingProtocol';

/** How far the listing may grow before an entry counts as at risk: a tenth of the budget. */
export const AT_RISK_GROWTH = 0.1;

export { parseContextWindow, type ContextWindow } from '../core/claude/listing';
import type { ContextWindow } from '../core/claude/listing';

export type RowGroup = 'at-risk' | 'listed' | 'absent';

export interface ListingRow {
  id: string;
  /** The command typed (`/deploy`), or the folder / file name for an entry Claude Code never loads. */
  invocation: string;
  /** The display name when it differs from the command name. */
  displayName?: string;
  kind: ClaudeEntry['kind'];
  level: ClaudeEntry['level'];
  plugin?: string;
  shown: ListingShown;
  group: RowGroup;
  /** Characters in the listing. */
  chars: number;
  /** Characters of description + when_to_use before the cap. */
  descChars: number;
  reason?: string;
  /** Why it is at risk (group `at-risk` only). */
  risk?: string;
  /** The file, relative to the folder when inside it. */
  where: string;
  /** The line the listing holds, shortened for display. */
  preview: string;
  override?: string;
  overrideFrom?: string;
  actions: ListingAction[];
  /** 0 = the first description dropped over budget. */
  dropRank?: number;
}

export interface ListingViewModel {
  folders: Array<{ id: string; name: string }>;
  folderId: string;
  budget: number;
  used: number;
  namesOverBudget: boolean;
  /** Sentences saying where the budget and the per-entry cap come from. */
  budgetSources: string[];
  contextWindow: ContextWindow;
  counts: Record<ListingShown, number>;
  rows: ListingRow[];
  /** Settings problems (unreadable files, bad values), as sentences. */
  problems: string[];
  /** Listed entries whose descriptions compete for the same requests, most similar first (at most OVERLAPS_SHOWN). */
  overlaps: Array<{ a: string; b: string; percent: number; shared: string[] }>;
  /** How many competing pairs there are in all. */
  overlapCount: number;
}

export interface ViewModelInput {
  model: ClaudeModel;
  listing: Listing;
  contextWindow: ContextWindow;
  /** The id the host gives an entry's file. */
  idOf(file: string): string;
  /** The workspace folders that can be shown, and the one shown. */
  folders: Array<{ id: string; name: string }>;
  folderId: string;
  /** The user's home: paths in it are shown under `~` in reasons. */
  home?: string;
}

const PREVIEW_CHARS = 240;
/** The view lists at most this many competing pairs (a workspace of copies would have thousands). */
export const OVERLAPS_SHOWN = 30;

function rel(base: string, file: string): string {
  const r = path.relative(base, file);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r.split(path.sep).join('/') : file;
}

/** Which quick actions an entry offers. */
function actionsFor(e: ClaudeEntry, shown: ListingShown, managedOverride: boolean): ListingAction[] {
  const actions: ListingAction[] = [];
  const editable = e.level !== 'plugin' && e.loaded && !e.shadowedBy;
  if (editable && !managedOverride) {
    if (e.override !== undefined && e.override !== 'on') actions.push('on');
    if (e.override !== 'name-only' && (shown === 'full' || shown === 'truncated' || shown === 'dropped')) actions.push('name-only');
    if (e.override !== 'off') actions.push('off');
  }
  if (editable && e.meta.disableModelInvocation !== true) actions.push('disable-model-invocation');
  // Trimming helps only a description the listing shows (not a shadowed or absent entry's).
  if (e.loaded && !e.shadowedBy && shown !== 'absent' && (e.meta.description || e.meta.whenToUse)) actions.push('trim');
  actions.push('open');
  return actions;
}

/** Sentences saying where the listing's budget and its per-entry cap come from (What Claude Sees). */
export function budgetSourceSentences(model: ClaudeModel, listing: Listing, contextWindow: ContextWindow): string[] {
  const settings = model.settings;
  const base = model.startDir;
  const sources: string[] = [];
  const rels = (file: string | undefined) => (file ? rel(base, file) : undefined);
  if (listing.budgetSource === 'SLASH_COMMAND_TOOL_CHAR_BUDGET') {
    const from = rels(settings.envSources.SLASH_COMMAND_TOOL_CHAR_BUDGET);
    sources.push(`Budget: SLASH_COMMAND_TOOL_CHAR_BUDGET=${listing.budget} ${from ? `from the env block of ${from}` : 'in the environment'} (it replaces the share of the context window).`);
  } else {
    const from = rels(settings.valueSources.skillListingBudgetFraction);
    sources.push(`Budget: skillListingBudgetFraction ${settings.skillListingBudgetFraction} (${from ? `from ${from}` : 'default'}) of a ${contextWindow.label}-token context window × ${CHARS_PER_TOKEN} characters per token = ${fmt(listing.budget)} characters.`);
  }
  const maxFrom = rels(settings.valueSources.skillListingMaxDescChars);
  sources.push(`Each description + when_to_use is cut at ${fmt(listing.maxDescChars)} characters (skillListingMaxDescChars, ${maxFrom ? `from ${maxFrom}` : 'default'}).`);

  return sources;
}

/** The Skills view's header for a listing: the figures (with a marker when entries lose text) and a warning when descriptions are dropped. */
export interface ListingHeader {
  /** `used / budget chars`, then ` ⚠ n dropped, m truncated` when any: a few words, for a narrow header. */
  figures: string;
  /** A sentence when descriptions are dropped (cut ones only get the marker), else undefined. */
  warning: string | undefined;
}

export function listingHeader(listing: Listing): ListingHeader {
  const dropped = listing.entries.filter((e) => e.shown === 'dropped').length;
  const truncated = listing.entries.filter((e) => e.shown === 'truncated').length;
  const lost = [dropped ? `${dropped} dropped` : '', truncated ? `${truncated} truncated` : ''].filter(Boolean).join(', ');
  const figures = `${fmt(listing.used)} / ${fmt(listing.budget)} chars${lost ? ` ⚠ ${lost}` : ''}`;
  const warning = dropped
    ? `⚠ Claude Code's skill listing is over its budget of ${fmt(listing.budget)} characters: ${dropped} skill description${dropped === 1 ? ' is' : 's are'} dropped (the name stays). See What Claude Sees.`
    : undefined;
  return { figures, warning };
}

/**
 * The view model: every entry of the model with its listing state, the entries at risk first (dropped, then those
 * dropped next if the listing grew by a tenth of its budget, then truncated ones), then the listed ones in listing
 * order, then those not in the listing at all.
 */
export function buildListingViewModel(input: ViewModelInput): ListingViewModel {
  const { model, listing } = input;
  const base = model.startDir;
  // Reasons name other files: relative to the folder, `~` for the home, as the CLI prints them.
  const say = messagePaths([base], input.home);
  const byPath = new Map<string, ClaudeEntry>();
  for (const e of model.entries) if (!byPath.has(e.path)) byPath.set(e.path, e);
  const settings = model.settings;
  const managedFiles = new Set(settings.files.filter((f) => f.scope === 'managed').map((f) => f.path));

  // Next to drop: in drop order, until dropping them would absorb a growth of a tenth of the budget.
  const risk = new Map<string, string>();
  for (const l of listing.entries) if (l.shown === 'dropped') risk.set(l.path, l.reason ? say(l.reason) : 'dropped');
  const need = listing.used + Math.ceil(listing.budget * AT_RISK_GROWTH) - listing.budget;
  if (need > 0 && !listing.namesOverBudget) {
    let saved = 0;
    const next = listing.entries.filter((l) => (l.shown === 'full' || l.shown === 'truncated') && l.dropRank !== undefined).sort((a, b) => (a.dropRank ?? 0) - (b.dropRank ?? 0));
    for (const l of next) {
      if (saved >= need) break;
      const e = byPath.get(l.path);
      saved += l.chars - (e ? `- ${e.name}`.length + 1 : 0);
      risk.set(l.path, `its description is dropped first if the listing grows by ${Math.ceil(listing.budget * AT_RISK_GROWTH)} characters (a tenth of the budget); ${listing.budget - listing.used} characters are left`);
    }
  }
  for (const l of listing.entries) if (l.shown === 'truncated' && !risk.has(l.path)) risk.set(l.path, l.reason ? say(l.reason) : 'truncated');

  const rows: ListingRow[] = [];
  const counts: Record<ListingShown, number> = { full: 0, truncated: 0, 'name-only': 0, dropped: 0, absent: 0 };
  const listed = new Set<string>();
  for (const l of listing.entries) {
    const e = byPath.get(l.path);
    if (!e) continue;
    listed.add(l.path);
    counts[l.shown]++;
    const overrideFrom = e.override !== undefined ? settings.skillOverrideSources[e.name] : undefined;
    const riskText = risk.get(l.path);
    const group: RowGroup = riskText !== undefined ? 'at-risk' : l.shown === 'absent' ? 'absent' : 'listed';
    rows.push({
      id: input.idOf(e.path), invocation: l.invocation,
      ...(e.displayName && e.displayName !== e.name ? { displayName: e.displayName } : {}),
      kind: e.kind, level: e.level, ...(e.plugin ? { plugin: e.plugin } : {}),
      shown: l.shown, group, chars: l.chars, descChars: l.descChars,
      ...(l.reason ? { reason: say(l.reason) } : {}), ...(riskText !== undefined ? { risk: riskText } : {}),
      where: rel(base, e.path),
      preview: l.line.length > PREVIEW_CHARS ? `${l.line.slice(0, PREVIEW_CHARS - 1)}…` : l.line,
      ...(e.override !== undefined ? { override: e.override } : {}),
      ...(overrideFrom ? { overrideFrom: rel(base, overrideFrom) } : {}),
      actions: actionsFor(e, l.shown, overrideFrom !== undefined && managedFiles.has(overrideFrom)),
      ...(l.dropRank !== undefined ? { dropRank: l.dropRank } : {}),
    });
  }
  // Files Claude Code never loads (a SKILL.md too deep, the reserved `synced` name, unreadable): absent, with why.
  for (const e of model.entries) {
    if (listed.has(e.path) || e.loaded) continue;
    counts.absent++;
    rows.push({
      id: input.idOf(e.path), invocation: e.invocation ?? e.folderName, kind: e.kind, level: e.level,
      shown: 'absent', group: 'absent', chars: 0, descChars: 0,
      reason: `never loaded: ${e.notLoadedReason ? say(e.notLoadedReason) : 'Claude Code does not load this file'}`,
      where: rel(base, e.path), preview: '', actions: ['open'],
    });
  }
  const order: Record<RowGroup, number> = { 'at-risk': 0, listed: 1, absent: 2 };
  const shownRank: Record<ListingShown, number> = { dropped: 0, full: 1, truncated: 2, 'name-only': 3, absent: 4 };
  const index = new Map(rows.map((r, i) => [r, i]));
  rows.sort((a, b) => {
    if (a.group !== b.group) return order[a.group] - order[b.group];
    if (a.group === 'at-risk') {
      const d = shownRank[a.shown] - shownRank[b.shown];
      if (d) return d;
      const pa = a.dropRank ?? Infinity;
      const pb = b.dropRank ?? Infinity;
      if (pa !== pb) return pa < pb ? -1 : 1;
    }
    return (index.get(a) ?? 0) - (index.get(b) ?? 0);
  });

  const sources = budgetSourceSentences(model, listing, input.contextWindow);

  const problems = model.problems.map((p) => `${rel(base, p.path)}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  if (input.contextWindow.invalid) problems.unshift(`skillflow.listing.contextWindow: ${input.contextWindow.invalid}`);
  const pairs = listingOverlaps(model, listing);
  const overlaps = pairs.slice(0, OVERLAPS_SHOWN).map((p) => ({ a: p.a.invocation, b: p.b.invocation, percent: Math.round(p.score * 100), shared: p.shared }));
  return {
    folders: input.folders, folderId: input.folderId, budget: listing.budget, used: listing.used,
    namesOverBudget: listing.namesOverBudget, budgetSources: sources, contextWindow: input.contextWindow, counts, rows, problems, overlaps, overlapCount: pairs.length,
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** `12,345` (toLocaleString is slow when called per row). */
export function fmt(n: number): string {
  const s = String(Math.trunc(n));
  return s.length <= 3 ? s : s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const SHOWN_WORDS: Record<ListingShown, string> = {
  full: 'full', truncated: 'truncated', 'name-only': 'name only', dropped: 'dropped', absent: 'absent',
};

const ACTION_LABELS: Record<ListingAction, { label: string; title: string }> = {
  'name-only': { label: 'Name only', title: 'Set skillOverrides to "name-only" in .claude/settings.local.json: Claude sees the name without the description' },
  off: { label: 'Turn off', title: 'Set skillOverrides to "off" in .claude/settings.local.json: Claude does not see it and /name is hidden' },
  on: { label: 'Reset', title: 'Remove the override (or set "on") in .claude/settings.local.json' },
  'disable-model-invocation': { label: 'Disable model invocation', title: 'Set disable-model-invocation: true in the frontmatter: only you can run it, and it leaves the listing' },
  trim: { label: 'Trim description', title: 'Open the file with the description selected' },
  open: { label: 'Open', title: 'Open the file' },
};

/** Reasons come with markdown backticks around keys and values; the view shows plain text. */
function plain(text: string): string {
  return text.replace(/`/g, '');
}

function levelWords(r: ListingRow): string {
  return `${r.level} ${r.kind}${r.plugin ? ` (${r.plugin})` : ''}`;
}

function renderRow(r: ListingRow): string {
  const name = escapeHtml(r.invocation);
  const label = `${r.invocation}, ${SHOWN_WORDS[r.shown]}`;
  const size = r.shown === 'absent' ? '' : r.shown === 'truncated' ? `${fmt(r.chars)} chars (description ${fmt(r.descChars)}, cut)` : `${fmt(r.chars)} chars`;
  const parts = [
    `<li class="entry group-${r.group} shown-${r.shown}" data-id="${escapeHtml(r.id)}" aria-label="${escapeHtml(label)}">`,
    `<div class="head"><span class="badge shown-${r.shown}">${SHOWN_WORDS[r.shown]}</span> <code class="cmd">${name}</code>`,
    r.displayName ? ` <span class="display">“${escapeHtml(r.displayName)}”</span>` : '',
    ` <span class="meta">${escapeHtml(levelWords(r))}${size ? ` · ${size}` : ''}</span></div>`,
  ];
  if (r.risk) parts.push(`<p class="risk"><span class="label">At risk:</span> ${escapeHtml(plain(r.risk))}</p>`);
  // The override line says the same as an override reason, and where it is set.
  if (r.reason && r.reason !== r.risk && !(r.override && /^`?skillOverrides/.test(r.reason))) parts.push(`<p class="reason">${escapeHtml(plain(r.reason))}</p>`);
  if (r.override) parts.push(`<p class="override">skillOverrides: "${escapeHtml(r.override)}"${r.overrideFrom ? ` in ${escapeHtml(r.overrideFrom)}` : ''}</p>`);
  if (r.preview) parts.push(`<p class="preview"><code>${escapeHtml(r.preview)}</code></p>`);
  parts.push(`<p class="where">${escapeHtml(r.where)}</p>`);
  parts.push(`<div class="actions" role="group" aria-label="${escapeHtml(`Actions for ${r.invocation}`)}">`);
  for (const a of r.actions) {
    const l = ACTION_LABELS[a];
    parts.push(`<button type="button" class="action-${a}" data-id="${escapeHtml(r.id)}" data-action="${a}" title="${escapeHtml(l.title)}">${l.label}</button>`);
  }
  parts.push('</div></li>');
  return parts.join('');
}

function renderGroup(id: string, title: string, rows: ListingRow[], empty: string): string {
  const items = rows.length ? `<ul class="entries" aria-labelledby="${id}">${rows.map(renderRow).join('')}</ul>` : `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<section class="group" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(title)} <span class="count">(${rows.length})</span></h2>${items}</section>`;
}

/** The view's HTML (inside `<main>`): budget bar and sources, problems, then the three groups of entries. */
export function renderListingHtml(vm: ListingViewModel): string {
  const pct = vm.budget > 0 ? Math.round((vm.used / vm.budget) * 100) : 100;
  const out: string[] = [];
  if (vm.folders.length > 1) {
    out.push('<div class="folder"><label for="folder">Workspace folder</label> <select id="folder" data-action="folder">');
    for (const f of vm.folders) out.push(`<option value="${escapeHtml(f.id)}"${f.id === vm.folderId ? ' selected' : ''}>${escapeHtml(f.name)}</option>`);
    out.push('</select></div>');
  }
  const c = vm.counts;
  out.push(
    '<section class="budget" aria-labelledby="budget-title">',
    `<h2 id="budget-title">Listing budget</h2>`,
    `<meter id="budget-meter" min="0" max="${vm.budget}" low="${Math.floor(vm.budget * 0.75)}" high="${Math.floor(vm.budget * 0.9)}" optimum="0" value="${Math.min(vm.used, vm.budget)}" aria-label="Listing budget used" aria-valuetext="${fmt(vm.used)} of ${fmt(vm.budget)} characters, ${pct} percent"></meter>`,
    `<p class="figures${vm.used > vm.budget ? ' over' : ''}"><strong>${fmt(vm.used)}</strong> / ${fmt(vm.budget)} characters (${pct}%)</p>`,
    `<p class="counts">${c.full} full · ${c.truncated} truncated · ${c['name-only']} name only · ${c.dropped} dropped · ${c.absent} absent</p>`,
  );
  if (vm.namesOverBudget) out.push('<p class="warning">The names alone exceed the budget: Claude Code keeps every name, so the listing is over budget.</p>');
  for (const s of vm.budgetSources) out.push(`<p class="source">${escapeHtml(s)}</p>`);
  out.push(`<p class="source">Context window: ${escapeHtml(vm.contextWindow.label)} tokens (<a href="#" data-action="settings">skillflow.listing.contextWindow</a>).</p>`);
  out.push('</section>');
  if (vm.problems.length) {
    out.push('<section class="problems" aria-labelledby="problems-title"><h2 id="problems-title">Settings problems</h2><ul>');
    for (const p of vm.problems) out.push(`<li>${escapeHtml(p)}</li>`);
    out.push('</ul></section>');
  }
  if (vm.overlaps.length) {
    out.push('<section class="overlaps" aria-labelledby="overlaps-title"><h2 id="overlaps-title">Skills that compete for the same request <span class="count">(' + vm.overlapCount + ')</span></h2>');
    out.push('<p class="source">Their descriptions say nearly the same thing, so Claude may pick either one: say in each when to use it rather than the other.</p><ul class="overlap-list">');
    for (const o of vm.overlaps) {
      const shared = o.shared.length ? ` · both say ${o.shared.slice(0, 6).map((p) => `“${escapeHtml(p)}”`).join(', ')}` : '';
      out.push(`<li class="overlap"><code class="cmd">${escapeHtml(o.a)}</code> and <code class="cmd">${escapeHtml(o.b)}</code> <span class="meta">${o.percent} % alike${shared}</span></li>`);
    }
    out.push('</ul>');
    if (vm.overlapCount > vm.overlaps.length) out.push(`<p class="source">… and ${vm.overlapCount - vm.overlaps.length} more pairs.</p>`);
    out.push('</section>');
  }
  out.push(renderGroup('group-at-risk', 'At risk', vm.rows.filter((r) => r.group === 'at-risk'), 'Nothing is at risk: every description fits, with room to grow.'));
  out.push(renderGroup('group-listed', 'In the listing', vm.rows.filter((r) => r.group === 'listed'), 'No other entry is listed.'));
  out.push(renderGroup('group-absent', 'Not in the listing', vm.rows.filter((r) => r.group === 'absent'), 'Every loaded entry is in the listing.'));
  return out.join('');
}
