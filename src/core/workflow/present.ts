/**
 * What the status bar and the tree say about workflows, as plain strings (codicons as `$(name)`,
 * tooltips as markdown), so the wording is unit-tested without VS Code.
 */
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

/** "just now", "5 min", "3 h 10 min", "2 d 4 h". */
export function formatAge(ms: number): string {
  if (ms < 60_000) return 'just now';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** "just now" or "5 min ago". */
export function formatAgo(ms: number): string {
  const age = formatAge(ms);
  return age === 'just now' ? age : `${age} ago`;
}

/** Escapes text for a markdown tooltip. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$]/g, (c) => `\\${c}`);
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

/** One workflow's block in a tooltip. */
export function workflowTooltipMarkdown(wf: WorkflowInfo, now: number): string {
  const lines: string[] = [];
  const icon = PHASE_ICONS[wf.displayPhase ?? ''] ?? 'question';
  lines.push(`$(${icon}) **${escapeMarkdown(wf.title || wf.workName || wf.key)}**`);
  lines.push('');
  lines.push(`Registry key \`${wf.key}\` · mode \`${wf.mode}\`${wf.command ? ` · command \`${wf.command}\`` : ''}`);
  lines.push('');
  lines.push(phasePathMarkdown(wf));
  lines.push('');
  const last = wf.transitions[wf.transitions.length - 1];
  if (last) {
    const at = last.at && !Number.isNaN(Date.parse(last.at)) ? `${last.at} (${formatAgo(now - Date.parse(last.at))})` : (last.at ?? 'unknown time');
    lines.push(`Last transition: ${last.from ?? '∅'} → ${last.to} at ${escapeMarkdown(at)}`);
  } else {
    lines.push('Last transition: none recorded');
  }
  lines.push('');
  if (wf.stale && wf.lastUpdateMs !== undefined) {
    lines.push(`$(warning) Stale: no update for ${formatAge(now - wf.lastUpdateMs)}`);
    lines.push('');
  }
  lines.push(`Agent: ${wf.agent ? `\`${wf.agent}\`` : '—'}`);
  if (wf.problems.length) {
    lines.push('');
    for (const p of wf.problems) lines.push(`$(${p.severity === 'error' ? 'error' : 'warning'}) ${escapeMarkdown(p.message)}`);
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
}

/**
 * The status bar for the workflows worth showing (see isStatusBarWorthy) and, when there are none,
 * a workflow that just finished (shown briefly by the caller). Hidden when both are absent.
 */
export function statusBarView(workflows: readonly WorkflowInfo[], now: number, justFinished?: WorkflowInfo): StatusBarView {
  const shown = workflows.filter(isStatusBarWorthy);
  if (shown.length === 0 && justFinished) shown.push(justFinished);
  if (shown.length === 0) return { visible: false, text: '', tooltip: '', warning: false };
  const warning = shown.some((w) => needsAttention(w.displayPhase));
  if (shown.length === 1) {
    const wf = shown[0];
    const phase = wf.displayPhase ?? '?';
    return {
      visible: true,
      text: `$(${PHASE_ICONS[phase] ?? 'question'}) ${phase} · ${shortName(wf)}`,
      tooltip: `${workflowTooltipMarkdown(wf, now)}\n\n---\n\nClick for actions`,
      warning,
    };
  }
  return {
    visible: true,
    text: `$(layers) ${shown.length} workflows`,
    tooltip: `${shown.map((w) => workflowTooltipMarkdown(w, now)).join('\n\n---\n\n')}\n\n---\n\nClick for actions`,
    warning,
  };
}

/** The tree's one-line description of a workflow: phase · mode · age · agent. */
export function treeDescription(wf: WorkflowInfo, now: number): string {
  const parts = [wf.displayPhase ?? 'unknown phase', wf.mode];
  if (wf.lastUpdateMs !== undefined) parts.push(formatAgo(now - wf.lastUpdateMs));
  if (wf.agent) parts.push(wf.agent);
  return parts.join(' · ');
}
