/**
 * Ending a workflow from the editor: cancel (→ CANCELLED) or mark failed (→ FAILED), only where the
 * mode's FSM allows it, then unregister it (a cancelled or aborted workflow must not stay in
 * the registry). Decision logic is pure; `endWorkflow` does the compare-and-write with atomic writes.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import { DEFAULT_MODE, isLegalTransition, isMode, isPhase, isTerminal, nextPhases } from './fsm';
import { editTopLevel, removeProperty } from './edit';
import { parseJson } from './json';
import { isInside, registryPathOf, resolveWorkDir, type WorkflowInfo } from './scan';

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
 * Computes the new status.json (phase, an appended `{from,to,at}` transition, updated_at) and the new
 * registry.json (the key removed) as minimal edits: every byte outside those fields is kept.
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
  // Only phase, updated_at and the new transition are written; every other byte of both files is kept.
  const statusOut = editTopLevel(statusText, [{ set: 'phase', value: target }, { set: 'updated_at', value: at }, { append: 'transitions', value: { from, to: target, at } }], 'status.json');
  if (!statusOut.ok) return statusOut;
  const registryOut = removeProperty(registryText, key, 'registry.json');
  if (!registryOut.ok) return registryOut;
  // The edits must read back as meant (a repeated key, for one, would not): refuse rather than write a surprise.
  const check = parseJson(statusOut.text);
  const after = check.ok ? (check.value as Record<string, unknown>) : undefined;
  const lastTransition = Array.isArray(after?.transitions) ? (after.transitions as unknown[])[after.transitions.length - 1] : undefined;
  const registryCheck = parseJson(registryOut.text);
  if (!after || after.phase !== target || after.updated_at !== at || JSON.stringify(lastTransition) !== JSON.stringify({ from, to: target, at })
    || !registryCheck.ok || Object.prototype.hasOwnProperty.call(registryCheck.value, key)) {
    return { ok: false, message: 'status.json or registry.json could not be edited safely; nothing was changed.' };
  }
  return { ok: true, from, status: statusOut.text, registry: registryOut.text };
}

export type EndResult =
  | { ok: true; from: string; to: EndTarget; statusPath: string; registryPath: string }
  | { ok: false; message: string };

/**
 * Why writing `path` would change a file outside `root` (a `.workflow` folder, workDir or file that is a
 * symbolic link leading out of the workspace), or undefined when its real path is inside.
 */
export function whyWriteLeavesRoot(fs: FileSystem, root: string, path: string): string | undefined {
  const absRoot = nodePath.resolve(root);
  const realRoot = fs.realPath(absRoot) ?? absRoot;
  // The file when it exists, else its folder (where the temp file and the rename happen).
  const real = fs.realPath(path) ?? fs.realPath(nodePath.dirname(path));
  if (real === undefined) return `${path} could not be resolved`;
  if (isInside(realRoot, real)) return undefined;
  return `${path} leads outside ${absRoot} through a symbolic link (to ${real}); Skillflow only writes inside the workspace folder, so nothing was changed.`;
}

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

    for (const path of [statusPath, registryPath]) {
      const why = whyWriteLeavesRoot(fs, root, path);
      if (why) return { ok: false, message: `Refusing to write: ${why}` };
    }

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
