/**
 * Ending a workflow from the editor: cancel (→ CANCELLED) or mark failed (→ FAILED), only where the
 * mode's FSM allows it, then unregister it (a cancelled or aborted workflow must not stay in
 * the registry). Decision logic is pure; `endWorkflow` does the compare-and-write with atomic writes.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import { DEFAULT_MODE, isLegalTransition, isMode, isPhase, isTerminal, nextPhases } from './fsm';
import { parseJson, stringifyLike } from './json';
import { registryPathOf, resolveWorkDir, type WorkflowInfo } from './scan';

export type EndTarget = 'CANCELLED' | 'FAILED';

/** Why `target` is not possible for this workflow, or undefined when it is. */
export function whyCannotEnd(wf: Pick<WorkflowInfo, 'phase' | 'mode' | 'statusPath' | 'problems'>, target: EndTarget): string | undefined {
  const verb = target === 'CANCELLED' ? 'cancelled' : 'marked failed';
  if (!wf.statusPath) return `It cannot be ${verb}: its workDir is not usable.`;
  const broken = wf.problems.find((p) => p.code === 'status-missing' || p.code === 'status-invalid' || p.code === 'phase-missing' || p.code === 'phase-unknown' || p.code === 'mode-unknown');
  if (broken) return `It cannot be ${verb} while status.json is broken: ${broken.message}`;
  const { phase, mode } = wf;
  if (!isPhase(phase) || !isMode(mode)) return `It cannot be ${verb}: unknown phase or mode.`;
  if (isTerminal(phase)) return `It is already ${phase}.`;
  if (isLegalTransition(mode, phase, target)) return undefined;
  const whereLegal = (['INIT', 'PLAN', 'WORK', 'STRATEGY', 'REPORT'] as const).filter((p) => isLegalTransition(mode, p, target));
  const allowed = nextPhases(mode, phase).filter((p) => p !== 'STALE');
  return `In ${mode} mode a workflow can be ${verb} only from ${whereLegal.length ? whereLegal.join(' or ') : 'no phase'}; from ${phase} the FSM allows ${allowed.join(', ') || 'nothing'}.`;
}

/** The end actions legal for a workflow right now. */
export function endActions(wf: Pick<WorkflowInfo, 'phase' | 'mode' | 'statusPath' | 'problems'>): { cancel: boolean; markFailed: boolean } {
  return { cancel: whyCannotEnd(wf, 'CANCELLED') === undefined, markFailed: whyCannotEnd(wf, 'FAILED') === undefined };
}

export type EndPlan = { ok: true; from: string; status: string; registry: string } | { ok: false; message: string };

/**
 * Computes the new status.json (phase, an appended `{from,to,at}` transition, updated_at; every other
 * field kept) and the new registry.json (the key removed, others kept), in the files' own formatting.
 */
export function planEnd(statusText: string, registryText: string, key: string, target: EndTarget, now: Date): EndPlan {
  const status = parseJson(statusText);
  if (!status.ok || typeof status.value !== 'object' || status.value === null || Array.isArray(status.value)) {
    return { ok: false, message: `status.json is not a valid JSON object${status.ok ? '' : `: ${status.message}`}` };
  }
  const data = status.value as Record<string, unknown>;
  const mode = data.mode === undefined ? DEFAULT_MODE : data.mode;
  const reason = whyCannotEnd({ phase: typeof data.phase === 'string' ? data.phase : undefined, mode: typeof mode === 'string' ? mode : '', statusPath: 'status.json', problems: [] }, target);
  if (reason) return { ok: false, message: reason };
  const registry = parseJson(registryText);
  if (!registry.ok || typeof registry.value !== 'object' || registry.value === null || Array.isArray(registry.value)) {
    return { ok: false, message: `registry.json is not a valid JSON object${registry.ok ? '' : `: ${registry.message}`}` };
  }
  const entries = registry.value as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(entries, key)) return { ok: false, message: `'${key}' is no longer registered in registry.json` };

  const at = now.toISOString();
  const from = data.phase as string;
  const transitions = Array.isArray(data.transitions) ? [...data.transitions] : [];
  transitions.push({ from, to: target, at });
  const next: Record<string, unknown> = { ...data, phase: target, updated_at: at, transitions };
  const remaining: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entries)) if (k !== key) Object.defineProperty(remaining, k, { value: v, enumerable: true, writable: true, configurable: true });
  return { ok: true, from, status: stringifyLike(statusText, next), registry: stringifyLike(registryText, remaining) };
}

export type EndResult =
  | { ok: true; from: string; to: EndTarget; statusPath: string; registryPath: string }
  | { ok: false; message: string };

function readOrUndefined(fs: FileSystem, path: string): string | undefined {
  try { return fs.readFile(path).toString('utf8'); } catch { return undefined; }
}

/**
 * Ends workflow `key` under `root`: reads both files, plans, re-reads and compares just before
 * writing (one retry when they changed meanwhile), then writes status.json and registry.json atomically.
 * `expectPhase` refuses when the workflow moved on since the user confirmed.
 */
export function endWorkflow(fs: FileSystem, root: string, key: string, target: EndTarget, options: { now?: Date; expectPhase?: string } = {}): EndResult {
  const registryPath = registryPathOf(root);
  for (let attempt = 0; attempt < 2; attempt++) {
    const registryText = readOrUndefined(fs, registryPath);
    if (registryText === undefined) return { ok: false, message: `${registryPath} could not be read` };
    const registry = parseJson(registryText);
    const entry = registry.ok && typeof registry.value === 'object' && registry.value !== null ? (registry.value as Record<string, unknown>)[key] : undefined;
    const workDir = typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).workDir : undefined;
    if (typeof workDir !== 'string') return { ok: false, message: `'${key}' is not registered in registry.json` };
    const resolved = resolveWorkDir(fs, root, workDir);
    if (!resolved.ok) return { ok: false, message: resolved.message };
    const statusPath = nodePath.join(resolved.path, 'status.json');
    const statusText = readOrUndefined(fs, statusPath);
    if (statusText === undefined) return { ok: false, message: `${statusPath} could not be read` };

    const plan = planEnd(statusText, registryText, key, target, options.now ?? new Date());
    if (!plan.ok) return plan;
    if (options.expectPhase !== undefined && plan.from !== options.expectPhase) {
      return { ok: false, message: `The workflow moved from ${options.expectPhase} to ${plan.from} in the meantime; nothing was changed.` };
    }
    // Compare-and-write: if an orchestrator wrote either file since we read it, plan again on the new content.
    if (readOrUndefined(fs, statusPath) !== statusText || readOrUndefined(fs, registryPath) !== registryText) continue;
    try {
      fs.writeFileAtomic(statusPath, plan.status);
      fs.writeFileAtomic(registryPath, plan.registry);
    } catch (e) {
      return { ok: false, message: `Writing failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    return { ok: true, from: plan.from, to: target, statusPath, registryPath };
  }
  return { ok: false, message: 'status.json or registry.json kept changing while ending the workflow; nothing was changed. Try again.' };
}
