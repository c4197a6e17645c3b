/**
 * Reads `.workflow/` (registry.json and each workDir's status.json) into plain data: every registry entry with its phase, mode, staleness,
 * agent, artifacts, transition history and problems. Never throws; broken files become problems.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../base/fs';
import { MAX_EDIT_BYTES } from '../base/guardedWrite';
import type { Range, Severity } from '../base/types';
import { DEFAULT_MODE, type Mode, type Phase, isLegalTransition, isMode, isPhase, isTerminal, nextPhases, phasesOfMode } from './fsm';
import { parseJson } from './json';
import { StatusSchema } from './schema';

/** Default of `skillflow.workflow.staleAfterMinutes` and of the CLI's `--stale-after`. */
export const DEFAULT_STALE_AFTER_MINUTES = 120;

/** Files bigger than this are reported, not parsed. */
/** The one size limit of files Skillflow reads and edits (guardedWrite.ts). */
const MAX_JSON_BYTES = MAX_EDIT_BYTES;

export interface WorkflowProblem {
  code: string;
  severity: Severity;
  message: string;
  /** The file the problem is in (registry.json or status.json), when it is about a file. */
  file?: string;
  /** Where in `file` (1-based, endColumn exclusive). */
  range?: Range;
}

export interface WorkflowTransition {
  index: number;
  /** As written; null when absent (the creation record). */
  from: string | null;
  to: string;
  at?: string;
  /** False when the transition is illegal for the workflow's mode, names an unknown phase, or does not continue from the previous one. */
  legal: boolean;
  /** Why it is flagged (absent when legal). */
  problem?: string;
}

export interface WorkflowInfo {
  /** The registryKey (YYYYMMDD-HHMMSS). */
  key: string;
  /** The workDir as written in registry.json ('' when the entry is invalid). */
  workDir: string;
  /** The resolved absolute workDir, when it is safe to use (inside the root). */
  workDirPath?: string;
  /** `<workDirPath>/status.json`, when the workDir is usable. */
  statusPath?: string;
  /** Where the entry's value is in registry.json. */
  registryRange?: Range;
  /** The raw status.json text that was read (compared before any write). */
  statusText?: string;
  /** `mode` from status.json; `full` when absent; the raw string when unknown. */
  mode: string;
  /** `phase` from status.json as written; undefined when status.json is unusable or has no string phase. */
  phase?: string;
  /** True when the phase is non-terminal and the last update is older than the threshold. */
  stale: boolean;
  /** What to show: STALE for a stale workflow, else the phase. */
  displayPhase?: string;
  updatedAt?: string;
  /** The last update as epoch ms (updated_at, else the last transition, else created_at, else the file's mtime). */
  lastUpdateMs?: number;
  title?: string;
  command?: string;
  workName?: string;
  /** `agent` from `<workDir>/.context.json`. */
  agent?: string;
  /** Artifacts present, relative to the workDir (forward slashes), in the order of the workflow. */
  artifacts: string[];
  transitions: WorkflowTransition[];
  problems: WorkflowProblem[];
}

export interface WorkflowScan {
  /** The folder holding `.workflow/`. */
  root: string;
  registryPath: string;
  /** The raw registry.json text, when it could be read. */
  registryText?: string;
  workflows: WorkflowInfo[];
  /** Problems with registry.json itself (missing, invalid JSON, not an object). */
  problems: WorkflowProblem[];
}

export interface ScanOptions {
  staleAfterMinutes?: number;
  /** Epoch ms used as "now" for staleness (tests pin it). */
  now?: number;
}

/** `.workflow/registry.json` under a root. */
export function registryPathOf(root: string): string {
  return nodePath.join(root, '.workflow', 'registry.json');
}

type ReadResult = { ok: true; text: string } | { ok: false; missing: boolean; message: string };

function readText(fs: FileSystem, path: string): ReadResult {
  const stat = fs.stat(path);
  if (!stat) return { ok: false, missing: true, message: 'not found' };
  if (!stat.isFile) return { ok: false, missing: false, message: 'is not a file' };
  if (stat.size > MAX_JSON_BYTES) return { ok: false, missing: false, message: `is larger than ${MAX_JSON_BYTES} bytes` };
  try {
    return { ok: true, text: fs.readFile(path).toString('utf8') };
  } catch (e) {
    return { ok: false, missing: false, message: `could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** True when `child` is `parent` or below it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = nodePath.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/**
 * Resolves a registry workDir against the root. Relative paths resolve from the root; absolute ones are
 * taken as they are. Either way the result (after following symlinks) must stay inside the root.
 */
export function resolveWorkDir(fs: FileSystem, root: string, workDir: string): { ok: true; path: string } | { ok: false; code: 'workdir-outside' | 'workdir-missing'; message: string } {
  const absRoot = nodePath.resolve(root);
  const path = nodePath.resolve(absRoot, workDir);
  if (!isInside(absRoot, path)) {
    return { ok: false, code: 'workdir-outside', message: `workDir '${workDir}' is outside ${absRoot}; Skillflow only reads workflows inside the folder holding .workflow/` };
  }
  const stat = fs.stat(path);
  if (!stat || !stat.isDirectory) return { ok: false, code: 'workdir-missing', message: `workDir '${workDir}' does not exist` };
  const realRoot = fs.realPath(absRoot) ?? absRoot;
  const realPath = fs.realPath(path) ?? path;
  if (!isInside(realRoot, realPath)) {
    return { ok: false, code: 'workdir-outside', message: `workDir '${workDir}' leads outside ${absRoot} through a symbolic link` };
  }
  return { ok: true, path };
}

/** The artifacts of a workDir that exist, in workflow order. */
export function listArtifacts(fs: FileSystem, workDirPath: string): string[] {
  const isFile = (rel: string) => fs.stat(nodePath.join(workDirPath, rel))?.isFile === true;
  const found: string[] = [];
  for (const rel of ['.prompt/user_prompt.txt', 'plan.md', 'roadmap.md', 'skill-map.md', 'work/skill-map.md']) if (isFile(rel)) found.push(rel);
  const work = fs.readDir(nodePath.join(workDirPath, 'work')) ?? [];
  const logs = work.filter((e) => e.isFile && /^W.*\.md$/.test(e.name)).map((e) => e.name).sort();
  for (const name of logs) found.push(`work/${name}`);
  for (const rel of ['report.md', 'summary.txt']) if (isFile(rel)) found.push(rel);
  return found;
}

function problem(code: string, severity: Severity, message: string, file?: string, range?: Range): WorkflowProblem {
  const p: WorkflowProblem = { code, severity, message };
  if (file) p.file = file;
  if (range) p.range = range;
  return p;
}

function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Reads `<root>/.workflow/registry.json` and every workflow it registers. */
export function scanWorkflows(fs: FileSystem, root: string, options: ScanOptions = {}): WorkflowScan {
  const staleAfter = options.staleAfterMinutes ?? DEFAULT_STALE_AFTER_MINUTES;
  const now = options.now ?? Date.now();
  const registryPath = registryPathOf(root);
  const scan: WorkflowScan = { root, registryPath, workflows: [], problems: [] };

  const read = readText(fs, registryPath);
  if (!read.ok) {
    scan.problems.push(read.missing
      ? problem('registry-missing', 'warning', `No workflow registry: ${registryPath} not found`, registryPath)
      : problem('registry-invalid', 'error', `registry.json ${read.message}`, registryPath));
    return scan;
  }
  scan.registryText = read.text;
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    scan.problems.push(problem('registry-invalid', 'error', `registry.json: ${parsed.message}`, registryPath, parsed.range));
    return scan;
  }
  const registry = parsed.value;
  if (typeof registry !== 'object' || registry === null || Array.isArray(registry)) {
    scan.problems.push(problem('registry-not-object', 'error', 'registry.json must be an object mapping registryKey to workDir', registryPath, parsed.locate([])?.value));
    return scan;
  }

  for (const [key, entry] of Object.entries(registry)) {
    const where = parsed.locate([key]);
    const info: WorkflowInfo = { key, workDir: '', mode: DEFAULT_MODE, stale: false, artifacts: [], transitions: [], problems: [] };
    if (where) info.registryRange = where.value;
    scan.workflows.push(info);
    let workDir: unknown = entry;
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) workDir = (entry as Record<string, unknown>).workDir;
    if (typeof workDir !== 'string' || workDir.trim() === '') {
      info.problems.push(problem('registry-entry-invalid', 'error', `Registry entry '${key}' must be a workDir string or an object with a "workDir" string`, registryPath, where?.value));
      continue;
    }
    info.workDir = workDir;
    const resolved = resolveWorkDir(fs, root, workDir);
    if (!resolved.ok) {
      info.problems.push(problem(resolved.code, 'error', resolved.message, registryPath, where?.value));
      continue;
    }
    info.workDirPath = resolved.path;
    info.statusPath = nodePath.join(resolved.path, 'status.json');
    info.artifacts = listArtifacts(fs, resolved.path);
    readContext(fs, info);
    readStatus(fs, info, staleAfter, now, registryPath);
  }
  return scan;
}

function readContext(fs: FileSystem, info: WorkflowInfo): void {
  const path = nodePath.join(info.workDirPath!, '.context.json');
  const read = readText(fs, path);
  if (!read.ok) {
    if (!read.missing) info.problems.push(problem('context-invalid', 'warning', `.context.json ${read.message}`, path));
    return;
  }
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    info.problems.push(problem('context-invalid', 'warning', `.context.json: ${parsed.message}`, path, parsed.range));
    return;
  }
  const agent = (parsed.value as Record<string, unknown> | null)?.agent;
  if (typeof agent === 'string' && agent) info.agent = agent;
}

function readStatus(fs: FileSystem, info: WorkflowInfo, staleAfterMinutes: number, now: number, registryPath: string): void {
  const path = info.statusPath!;
  const read = readText(fs, path);
  if (!read.ok) {
    info.problems.push(read.missing
      // Reported on the registry entry: there is no status.json to point into.
      ? problem('status-missing', 'error', `No status.json in workDir '${info.workDir}'`, registryPath, info.registryRange)
      : problem('status-invalid', 'error', `status.json ${read.message}`, path));
    return;
  }
  info.statusText = read.text;
  const parsed = parseJson(read.text);
  if (!parsed.ok) {
    info.problems.push(problem('status-invalid', 'error', `status.json: ${parsed.message}`, path, parsed.range));
    return;
  }
  const status = parsed.value;
  if (typeof status !== 'object' || status === null || Array.isArray(status)) {
    info.problems.push(problem('status-invalid', 'error', 'status.json must be a JSON object', path, parsed.locate([])?.value));
    return;
  }
  const data = status as Record<string, unknown>;
  const at = (p: Array<string | number>) => {
    for (let n = p.length; n >= 0; n--) {
      const loc = parsed.locate(p.slice(0, n));
      if (loc) return n === p.length ? loc.value : (loc.key ?? loc.value);
    }
    return undefined;
  };

  // Field types (the zod schema). Phase, mode and transition phases get their own codes below.
  const check = StatusSchema.safeParse(data);
  if (!check.success) {
    for (const issue of check.error.issues) {
      const [field, , sub] = issue.path;
      if (field === 'phase' || field === 'mode') continue;
      if (field === 'transitions' && (sub === 'from' || sub === 'to') && typeof transitionField(data, issue.path) === 'string') continue;
      const name = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
      info.problems.push(problem('status-schema', 'error', `status.json: ${name || 'value'}: ${issue.message}`, path, at(issue.path as Array<string | number>)));
    }
  }

  if (typeof data.title === 'string') info.title = data.title;
  if (typeof data.command === 'string') info.command = data.command;
  if (typeof data.workName === 'string') info.workName = data.workName;
  if (typeof data.updated_at === 'string') info.updatedAt = data.updated_at;

  let mode: Mode | undefined = DEFAULT_MODE;
  if (data.mode !== undefined) {
    if (isMode(data.mode)) mode = data.mode;
    else {
      mode = undefined;
      info.mode = typeof data.mode === 'string' ? data.mode : String(JSON.stringify(data.mode));
      info.problems.push(problem('mode-unknown', 'error', `Unknown mode ${JSON.stringify(data.mode)}: expected full, noplan or strategy`, path, at(['mode'])));
    }
  }
  if (mode) info.mode = mode;

  let phase: Phase | undefined;
  if (data.phase === undefined) {
    info.problems.push(problem('phase-missing', 'error', 'status.json has no "phase"', path, at([])));
  } else if (typeof data.phase !== 'string') {
    info.problems.push(problem('status-schema', 'error', 'status.json: phase: must be a string', path, at(['phase'])));
  } else {
    info.phase = data.phase;
    if (isPhase(data.phase)) phase = data.phase;
    else info.problems.push(problem('phase-unknown', 'error', `Unknown phase "${data.phase}"`, path, at(['phase'])));
  }
  if (phase && mode && !phasesOfMode(mode).includes(phase)) {
    info.problems.push(problem('phase-not-in-mode', 'error', `Phase ${phase} does not occur in ${mode} mode (${phasesOfMode(mode).join(', ')})`, path, at(['phase'])));
  }

  checkTransitions(info, data.transitions, mode, path, at);

  const lastTransition = info.transitions[info.transitions.length - 1];
  if (lastTransition && info.phase !== undefined && lastTransition.to !== info.phase) {
    info.problems.push(problem('phase-mismatch', 'warning', `phase is ${info.phase} but the last transition went to ${lastTransition.to}`, path, at(['phase'])));
  }

  const updated = parseTime(data.updated_at);
  if (typeof data.updated_at === 'string' && updated === undefined) {
    info.problems.push(problem('timestamp-invalid', 'warning', `updated_at "${data.updated_at}" is not an ISO 8601 date-time`, path, at(['updated_at'])));
  }
  const lastUpdate = updated ?? parseTime(lastTransition?.at) ?? parseTime(data.created_at) ?? fs.stat(path)?.mtimeMs;
  info.lastUpdateMs = lastUpdate;
  info.stale = phase !== undefined && !isTerminal(phase) && lastUpdate !== undefined && now - lastUpdate > staleAfterMinutes * 60_000;
  info.displayPhase = info.stale ? 'STALE' : info.phase;
}

/** The raw `transitions[i].from|to` an issue path points at (unknown phase names are checked with their own code). */
function transitionField(data: Record<string, unknown>, path: PropertyKey[]): unknown {
  const list = data.transitions;
  if (!Array.isArray(list) || typeof path[1] !== 'number') return undefined;
  const t = list[path[1]] as Record<string, unknown> | undefined;
  return t && typeof t === 'object' ? t[String(path[2])] : undefined;
}

function checkTransitions(info: WorkflowInfo, raw: unknown, mode: Mode | undefined, path: string, at: (p: Array<string | number>) => Range | undefined): void {
  if (!Array.isArray(raw)) return;
  let previousTo: string | undefined;
  raw.forEach((t: unknown, index) => {
    if (typeof t !== 'object' || t === null || Array.isArray(t)) return;
    const rec = t as Record<string, unknown>;
    const from = typeof rec.from === 'string' && rec.from !== '' ? rec.from : null;
    if (typeof rec.to !== 'string') return;
    const to = rec.to;
    const entry: WorkflowTransition = { index, from, to, legal: true };
    if (typeof rec.at === 'string') entry.at = rec.at;
    let why: string | undefined;
    let code = 'transition-illegal';
    if (from === null) {
      if (!(index === 0 && to === 'INIT')) why = `transition ${index + 1} has no "from" (only the first record, to INIT, may omit it)`;
    } else if (!isPhase(from) || !isPhase(to)) {
      why = `transition ${index + 1} (${from} → ${to}) names an unknown phase`;
    } else if (mode && !isLegalTransition(mode, from, to)) {
      const allowed = nextPhases(mode, from);
      why = `illegal transition ${from} → ${to} in ${mode} mode (${allowed.length ? `from ${from} only ${allowed.join(', ')}` : `${from} is ${isTerminal(from) ? 'terminal' : 'not a phase of this mode'}`})`;
    } else if (previousTo !== undefined && from !== previousTo) {
      why = `transition ${index + 1} starts from ${from} but the previous one ended in ${previousTo}`;
      code = 'transition-gap';
    }
    if (why) {
      entry.legal = false;
      entry.problem = why;
      info.problems.push(problem(code, 'warning', why.charAt(0).toUpperCase() + why.slice(1), path, at(['transitions', index])));
    }
    previousTo = to;
    info.transitions.push(entry);
  });
}
