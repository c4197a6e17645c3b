/**
 * What the status bar and the tree say about workflows, as plain strings (codicons as `$(name)`,
 * tooltips as markdown), so the wording is unit-tested without VS Code.
 */
import { mdCode, mdText } from '../base/markdown';
import { DEFAULT_MODE, PHASE_PATHS, isMode, isPhase, isTerminal } from './fsm';
import type { WorkflowInfo } from './scan';

/** Codicon per phase (what the status bar and the tree show). */
export const PHASE_ICONS: Readonly<Record<string, string>> = {
  INIT: 'circle-outline',
  PLAN: 'list-ordered',
  WORK: 'sync~spin',
  STRATEGY: 'lightbulb',
  REPORT: 'output',
  COMPLETED: 'check',
  FAILED: 'error',
  CANCELLED: 'circle-slash',
  STALE: 'warning',
};

/** Phases shown with the warning background. */
export function needsAttention(displayPhase: string | undefined): boolean {
  return displayPhase === 'FAILED' || displayPhase === 'STALE';
}

/** Workflows the status bar shows: registered and running (including stale ones), or FAILED. */
export function isStatusBarWorthy(wf: WorkflowInfo): boolean {
  if (!isPhase(wf.phase)) return false;
  return !isTerminal(wf.phase) || wf.phase === 'FAILED';
}

/** Theme colour id per phase (the tree's codicon colour), so each phase reads at a glance. */
export const PHASE_COLORS: Readonly<Record<string, string>> = {
  INIT: 'descriptionForeground',
  PLAN: 'charts.blue',
  WORK: 'charts.yellow',
  STRATEGY: 'charts.purple',
  REPORT: 'charts.orange',
  COMPLETED: 'testing.iconPassed',
  FAILED: 'testing.iconFailed',
  CANCELLED: 'disabledForeground',
  STALE: 'problemsWarningIcon.foreground',
};

/** How times are shown: the display language (VS Code's `env.language`) and, for tests, a fixed time zone. */
export interface TimeFormat {
  locale?: string;
  timeZone?: string;
}

const formatters = new Map<string, Intl.RelativeTimeFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.RelativeTimeFormat | Intl.DateTimeFormat>(key: string, make: (locale: string | undefined) => T, locale: string | undefined): T {
  let f = formatters.get(key) as T | undefined;
  if (!f) {
    // An unknown locale tag throws: fall back to the runtime's default.
    try { f = make(locale); } catch { f = make(undefined); }
    formatters.set(key, f);
  }
  return f;
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number, number]> = [
  // unit, its length in ms, and how many of it before the next unit takes over
  ['second', 1_000, 60],
  ['minute', 60_000, 60],
  ['hour', 3_600_000, 24],
  ['day', 86_400_000, 30],
  ['month', 2_629_800_000, 12],
];

/**
 * "now", "11 minutes ago", "2 days ago", "in 3 hours" in the display language (Intl.RelativeTimeFormat),
 * counting whole units (1 h 50 min is "1 hour ago"): the one wording of a time everywhere (tree row,
 * tooltips, status bar). `short` for narrow places.
 */
export function relativeTime(thenMs: number, nowMs: number, format: TimeFormat = {}, style: 'long' | 'short' = 'long'): string {
  const rtf = cached(`rel|${format.locale ?? ''}|${style}`, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto', style }), format.locale);
  const diff = thenMs - nowMs;
  for (const [unit, ms, upTo] of UNITS) {
    const n = Math.trunc(diff / ms);
    if (Math.abs(n) < upTo) return unit === 'second' ? rtf.format(0, 'second') : rtf.format(n, unit);
  }
  return rtf.format(Math.trunc(diff / 31_557_600_000), 'year');
}

/** A date and time in the display language, e.g. "Nov 21, 2026, 3:10 PM". */
export function absoluteTime(ms: number, format: TimeFormat = {}): string {
  const dtf = cached(`abs|${format.locale ?? ''}|${format.timeZone ?? ''}`, (l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short', timeZone: format.timeZone }), format.locale);
  return dtf.format(ms);
}

/** Removes `$(icon)` codicons (and one following space) from a status bar text, for screen readers. Linear. */
export function withoutIcons(text: string): string {
  return text.replace(/\$\([a-z0-9~-]*\) ?/gi, '');
}

/** What to call a workflow in one line: its command, else its work name, else its key. */
export function shortName(wf: WorkflowInfo): string {
  return wf.command || wf.workName || wf.key;
}

/** The mode's phase path with the current phase in bold and marked; a branch phase (FAILED, …) is appended. */
export function phasePathMarkdown(wf: WorkflowInfo): string {
  const mode = isMode(wf.mode) ? wf.mode : DEFAULT_MODE;
  const current = wf.phase;
  const path: string[] = [...PHASE_PATHS[mode]];
  if (current && !path.includes(current)) path.push(current);
  const parts = path.map((p) => (p === current ? `**▶ ${p}**` : p));
  return parts.join(' → ') + (wf.stale ? ' *(stale)*' : '');
}

/** What a workflow is called in the tree and tooltips: its title, else its work name, else its key. */
export function displayName(wf: WorkflowInfo): string {
  return wf.title || wf.workName || wf.key;
}

/** One workflow's block in a tooltip. Paths and keys are code spans (shown verbatim); other text is escaped. */
export function workflowTooltipMarkdown(wf: WorkflowInfo, now: number, format: TimeFormat = {}): string {
  const lines: string[] = [];
  const phase = wf.displayPhase ?? 'unknown phase';
  const icon = PHASE_ICONS[wf.displayPhase ?? ''] ?? 'question';
  lines.push(`$(${icon}) **${mdText(phase)} · ${mdText(displayName(wf))}**`);
  lines.push('');
  if (wf.lastUpdateMs !== undefined) {
    lines.push(`${wf.stale ? '$(warning) Stale: last' : 'Last'} update ${relativeTime(wf.lastUpdateMs, now, format)} (${mdText(absoluteTime(wf.lastUpdateMs, format))})`);
    lines.push('');
  }
  lines.push(`Registry key ${mdCode(wf.key)} · mode ${mdCode(wf.mode)}${wf.command ? ` · command ${mdCode(wf.command)}` : ''}`);
  lines.push('');
  lines.push(phasePathMarkdown(wf));
  lines.push('');
  const last = wf.transitions[wf.transitions.length - 1];
  if (last) {
    const at = last.at && !Number.isNaN(Date.parse(last.at)) ? ` on ${mdText(absoluteTime(Date.parse(last.at), format))}` : last.at ? ` at ${mdCode(last.at)}` : '';
    lines.push(`Last transition: ${mdText(last.from ?? '∅')} → ${mdText(last.to)}${at}`);
  } else {
    lines.push('Last transition: none recorded');
  }
  lines.push('');
  lines.push(`Agent: ${wf.agent ? mdCode(wf.agent) : '—'}`);
  lines.push('');
  lines.push(`workDir: ${wf.workDir ? mdCode(wf.workDir) : '—'}`);
  if (wf.problems.length) {
    lines.push('');
    for (const p of wf.problems) lines.push(`$(${p.severity === 'error' ? 'error' : 'warning'}) ${mdText(p.message)}`);
  }
  return lines.join('\n');
}

export interface StatusBarView {
  visible: boolean;
  text: string;
  /** Markdown (with theme icons). */
  tooltip: string;
  /** True for FAILED / STALE: the item gets the warning background. */
  warning: boolean;
  /** The workflows shown (exactly one: a click goes straight to its actions). */
  shown: WorkflowInfo[];
}

/**
 * The status bar for the workflows worth showing (see isStatusBarWorthy) plus a workflow that just
 * finished (shown for a few seconds by the caller, even after it left the registry). Hidden when none.
 */
export function statusBarView(workflows: readonly WorkflowInfo[], now: number, justFinished?: WorkflowInfo, format: TimeFormat = {}): StatusBarView {
  const shown = workflows.filter(isStatusBarWorthy);
  if (justFinished && !shown.some((w) => w.key === justFinished.key)) shown.push(justFinished);
  if (shown.length === 0) return { visible: false, text: '', tooltip: '', warning: false, shown };
  const warning = shown.some((w) => needsAttention(w.displayPhase));
  if (shown.length === 1) {
    const wf = shown[0];
    const phase = wf.displayPhase ?? '?';
    return {
      visible: true,
      text: `$(${PHASE_ICONS[phase] ?? 'question'}) ${phase} · ${shortName(wf)}`,
      tooltip: `${workflowTooltipMarkdown(wf, now, format)}\n\n---\n\nClick for this workflow's actions`,
      warning,
      shown,
    };
  }
  return {
    visible: true,
    text: `$(layers) ${shown.length} workflows`,
    tooltip: `${shown.map((w) => workflowTooltipMarkdown(w, now, format)).join('\n\n---\n\n')}\n\n---\n\nClick to pick a workflow and an action`,
    warning,
    shown,
  };
}

/**
 * The longest tree label: at the default side bar width (300 px) a row leaves about 240 px after its indent, twistie
 * and icon, some 34 characters; the title is cut there with `…` (the tooltip has it whole).
 */
export const TREE_LABEL_MAX = 34;

/** The tree row's label, phase first so it survives a narrow sidebar, at most TREE_LABEL_MAX characters: `PLAN · Refactor the auth middlewa…`. */
export function treeLabel(wf: WorkflowInfo): string {
  const full = treeLabelFull(wf);
  return full.length > TREE_LABEL_MAX ? `${full.slice(0, TREE_LABEL_MAX - 1).trimEnd()}…` : full;
}

/** The label with the whole title (the row's accessible name and tooltip heading). */
export function treeLabelFull(wf: WorkflowInfo): string {
  return `${wf.displayPhase ?? '?'} · ${displayName(wf)}`;
}

/** The tree row's description after the label: mode · age · agent (the age in the tooltip's wording, short). */
export function treeDescription(wf: WorkflowInfo, now: number, format: TimeFormat = {}): string {
  const parts = [wf.mode];
  if (wf.lastUpdateMs !== undefined) parts.push(relativeTime(wf.lastUpdateMs, now, format, 'short'));
  if (wf.agent) parts.push(wf.agent);
  return parts.join(' · ');
}
