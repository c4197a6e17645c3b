/**
 * Ending a workflow from the editor: cancel (→ CANCELLED) or mark failed (→ FAILED), only where the
 * mode's FSM allows it, then unregister it (a cancelled or aborted workflow must not stay in
 * the registry). Decision logic is pure; `endWorkflow` does the compare-and-write with atomic writes.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import { editThrough, MAX_EDIT_BYTES } from '../base/guardedWrite';
import { mergeJsonChanges } from '../base/jsonMerge';
import { DEFAULT_MODE, isLegalTransition, isMode, isPhase, isTerminal, nextPhases } from './fsm';
import { editTopLevel, removeProperty } from './edit';
import { parseJson } from './json';
import { isInside, registryPathOf, resolveWorkDir, type WorkflowInfo } from './scan';

export type EndTarget = 'CANCELLED' | 'FAILED';

/**
 * Why `target` is not possible for this workflow, or undefined when it is. A registered workflow whose status.json
 * already says `target` can be ended again: that finishes an earlier end stopped before registry.json was written.
 */
export function whyCannotEnd(wf: Pick<WorkflowInfo, 'phase' | 'mode' | 'statusPath' | 'problems'>, target: EndTarget, registered = true): string | undefined {
  const verb = target === 'CANCELLED' ? 'cancelled' : 'marked failed';
  if (!wf.statusPath) return `It cannot be ${verb}: its workDir is not usable.`;
  const broken = wf.problems.find((p) => p.code === 'status-missing' || p.code === 'status-invalid' || p.code === 'phase-missing' || p.code === 'phase-unknown' || p.code === 'mode-unknown');
  if (broken) return `It cannot be ${verb} while status.json is broken: ${broken.message}`;
  const { phase, mode } = wf;
  if (!isPhase(phase) || !isMode(mode)) return `It cannot be ${verb}: unknown phase or mode.`;
  if (phase === target && registered) return undefined;
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

type Edited = { ok: true; from: string; text: string } | { ok: false; message: string };

function jsonObject(text: string, name: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return { ok: false, message: `${name} is not a valid JSON object${parsed.ok ? '' : `: ${parsed.message}`}` };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}

/** The new status.json: phase, an appended `{from,to,at}` transition and updated_at, every other byte kept. */
export function planStatusEnd(statusText: string, target: EndTarget, now: Date): Edited {
  const status = jsonObject(statusText, 'status.json');
  if (!status.ok) return status;
  const data = status.value;
  const mode = data.mode === undefined ? DEFAULT_MODE : data.mode;
  const reason = whyCannotEnd({ phase: typeof data.phase === 'string' ? data.phase : undefined, mode: typeof mode === 'string' ? mode : '', statusPath: 'status.json', problems: [] }, target, false);
  if (reason) return { ok: false, message: reason };
  const at = now.toISOString();
  const from = data.phase as string;
  const statusOut = editTopLevel(statusText, [{ set: 'phase', value: target }, { set: 'updated_at', value: at }, { append: 'transitions', value: { from, to: target, at } }], 'status.json');
  if (!statusOut.ok) return statusOut;
  // The edit must read back as meant (a repeated key, for one, would not): refuse rather than write a surprise.
  const check = parseJson(statusOut.text);
  const after = check.ok ? (check.value as Record<string, unknown>) : undefined;
  const lastTransition = Array.isArray(after?.transitions) ? (after.transitions as unknown[])[after.transitions.length - 1] : undefined;
  if (!after || after.phase !== target || after.updated_at !== at || JSON.stringify(lastTransition) !== JSON.stringify({ from, to: target, at })) {
    return { ok: false, message: 'status.json could not be edited safely; nothing was changed.' };
  }
  return { ok: true, from, text: statusOut.text };
}

/** The new registry.json: `key` removed, every other byte kept. */
export function planRegistryEnd(registryText: string, key: string): { ok: true; text: string } | { ok: false; message: string } {
  const registry = jsonObject(registryText, 'registry.json');
  if (!registry.ok) return registry;
  if (!Object.prototype.hasOwnProperty.call(registry.value, key)) return { ok: false, message: `'${key}' is no longer registered in registry.json` };
  const registryOut = removeProperty(registryText, key, 'registry.json');
  if (!registryOut.ok) return registryOut;
  const registryCheck = parseJson(registryOut.text);
  if (!registryCheck.ok || Object.prototype.hasOwnProperty.call(registryCheck.value, key)) {
    return { ok: false, message: 'registry.json could not be edited safely; nothing was changed.' };
  }
  return { ok: true, text: registryOut.text };
}

/**
 * Computes the new status.json and the new registry.json (the key removed) as minimal edits: every byte outside
 * those fields is kept.
 */
export function planEnd(statusText: string, registryText: string, key: string, target: EndTarget, now: Date): EndPlan {
  const status = planStatusEnd(statusText, target, now);
  if (!status.ok) return status;
  const registry = planRegistryEnd(registryText, key);
  if (!registry.ok) return registry;
  return { ok: true, from: status.from, status: status.text, registry: registry.text };
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

/** The file as text, refused when it is not UTF-8 (an edit would turn the other bytes into U+FFFD). */
function utf8(bytes: Buffer, name: string): { ok: true; text: string } | { ok: false; message: string } {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return { ok: false, message: `${name} is not UTF-8 text; Skillflow does not edit it, nothing was changed.` };
  return { ok: true, text };
}

function readText(fs: FileSystem, path: string, name: string): { ok: true; text: string } | { ok: false; message: string } {
  let bytes: Buffer;
  try { bytes = fs.readFile(path); } catch { return { ok: false, message: `${path} could not be read` }; }
  if (bytes.length > MAX_EDIT_BYTES) return { ok: false, message: `${name} is larger than ${MAX_EDIT_BYTES} bytes; Skillflow does not edit it, nothing was changed.` };
  return utf8(bytes, name);
}

/**
 * Ends workflow `key` under `root`: status.json first (phase, transition, updated_at), then registry.json (the key
 * removed), each a guarded edit (guardedWrite.ts: another writer's bytes are never lost, the edit is read back).
 * A run stopped between the two (a crash, a full disk) is finished by running the same action again: a status.json
 * that already says `target` while the key is still registered only needs the registry step.
 * `expectPhase` refuses when the workflow moved on since the user confirmed.
 */
export function endWorkflow(fs: FileSystem, root: string, key: string, target: EndTarget, options: { now?: Date; expectPhase?: string } = {}): EndResult {
  const registryPath = registryPathOf(root);
  const registryRead = readText(fs, registryPath, 'registry.json');
  if (!registryRead.ok) return registryRead;
  const registry = parseJson(registryRead.text);
  const entry = registry.ok && typeof registry.value === 'object' && registry.value !== null ? (registry.value as Record<string, unknown>)[key] : undefined;
  const workDir = typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).workDir : undefined;
  if (typeof workDir !== 'string') return { ok: false, message: `'${key}' is not registered in registry.json` };
  const resolved = resolveWorkDir(fs, root, workDir);
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const statusPath = nodePath.join(resolved.path, 'status.json');
  const statusRead = readText(fs, statusPath, 'status.json');
  if (!statusRead.ok) return statusRead;
  for (const path of [statusPath, registryPath]) {
    const why = whyWriteLeavesRoot(fs, root, path);
    if (why) return { ok: false, message: `Refusing to write: ${why}` };
  }
  const now = options.now ?? new Date();
  const current = jsonObject(statusRead.text, 'status.json');
  const finishing = current.ok && current.value.phase === target;
  let from: string;
  if (finishing) {
    // A previous run wrote status.json and stopped before registry.json: only the registry step is left.
    const transitions = current.value.transitions;
    const last = Array.isArray(transitions) ? transitions[transitions.length - 1] as Record<string, unknown> | undefined : undefined;
    from = typeof last?.from === 'string' ? last.from : target;
  } else {
    const planned = planStatusEnd(statusRead.text, target, now);
    if (!planned.ok) return planned;
    if (options.expectPhase !== undefined && planned.from !== options.expectPhase) {
      return { ok: false, message: `The workflow moved from ${options.expectPhase} to ${planned.from} in the meantime; nothing was changed.` };
    }
    // The registry must be editable before status.json changes (refuse both rather than write one).
    const registryPlan = planRegistryEnd(registryRead.text, key);
    if (!registryPlan.ok) return registryPlan;
    from = planned.from;
    const expectFrom = planned.from;
    const status = editThrough(fs, statusPath, (bytes) => {
      const text = bytes && utf8(bytes, 'status.json');
      if (!text) return { ok: false, message: `${statusPath} could not be read` };
      if (!text.ok) return text;
      const plan = planStatusEnd(text.text, target, now);
      if (!plan.ok) return plan;
      if (plan.from !== expectFrom) return { ok: false, message: `The workflow moved from ${expectFrom} to ${plan.from} in the meantime; nothing was changed.` };
      return { ok: true, data: Buffer.from(plan.text, 'utf8') };
    }, { root, merge: mergeJsonChanges, landed: (back) => { const v = parseJson(back.toString('utf8')); return v.ok && (v.value as Record<string, unknown> | null)?.phase === target; } });
    if (!status.ok) return { ok: false, message: status.written ? `status.json: ${status.message}. registry.json was not changed; run the same action again to finish.` : status.message };
  }
  const reg = editThrough(fs, registryPath, (bytes) => {
    const text = bytes && utf8(bytes, 'registry.json');
    if (!text) return { ok: false, message: `${registryPath} could not be read` };
    if (!text.ok) return text;
    const plan = planRegistryEnd(text.text, key);
    return plan.ok ? { ok: true, data: Buffer.from(plan.text, 'utf8') } : plan;
  }, { root, merge: mergeJsonChanges, landed: (back) => { const v = parseJson(back.toString('utf8')); return v.ok && typeof v.value === 'object' && v.value !== null && !Object.prototype.hasOwnProperty.call(v.value, key); } });
  if (!reg.ok) {
    return { ok: false, message: `status.json now says ${target}${finishing ? ' (it did already)' : ''}, but '${key}' could not be removed from registry.json: ${reg.message}. Run the same action again to finish.` };
  }
  return { ok: true, from, to: target, statusPath, registryPath };
}
