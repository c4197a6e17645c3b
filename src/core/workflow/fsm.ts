/** The workflow state machine: phases, modes and the legal transitions of each mode. */

export const PHASES = ['INIT', 'PLAN', 'WORK', 'STRATEGY', 'REPORT', 'COMPLETED', 'FAILED', 'CANCELLED', 'STALE'] as const;
export type Phase = (typeof PHASES)[number];

export const MODES = ['full', 'noplan', 'strategy'] as const;
export type Mode = (typeof MODES)[number];

/** The mode of a status.json without a `mode` field. */
export const DEFAULT_MODE: Mode = 'full';

export const TERMINAL_PHASES: ReadonlySet<Phase> = new Set<Phase>(['COMPLETED', 'FAILED', 'CANCELLED', 'STALE']);

/** The happy path of each mode, in order (what the status bar tooltip shows). */
export const PHASE_PATHS: Readonly<Record<Mode, readonly Phase[]>> = {
  full: ['INIT', 'PLAN', 'WORK', 'REPORT', 'COMPLETED'],
  noplan: ['INIT', 'WORK', 'REPORT', 'COMPLETED'],
  strategy: ['INIT', 'STRATEGY', 'COMPLETED'],
};

/** Branches off the happy path, per mode. STALE is added for every non-terminal phase below. */
const BRANCHES: Readonly<Record<Mode, ReadonlyArray<readonly [Phase, Phase]>>> = {
  full: [['PLAN', 'CANCELLED'], ['WORK', 'FAILED'], ['REPORT', 'FAILED']],
  noplan: [['WORK', 'FAILED'], ['REPORT', 'FAILED']],
  strategy: [['STRATEGY', 'FAILED']],
};

function buildTransitions(mode: Mode): ReadonlyMap<Phase, ReadonlySet<Phase>> {
  const map = new Map<Phase, Set<Phase>>();
  const add = (from: Phase, to: Phase) => {
    let set = map.get(from);
    if (!set) map.set(from, (set = new Set()));
    set.add(to);
  };
  const path = PHASE_PATHS[mode];
  for (let i = 0; i + 1 < path.length; i++) add(path[i], path[i + 1]);
  for (const [from, to] of BRANCHES[mode]) add(from, to);
  for (const phase of path) if (!TERMINAL_PHASES.has(phase)) add(phase, 'STALE');
  return map;
}

const TRANSITIONS: Readonly<Record<Mode, ReadonlyMap<Phase, ReadonlySet<Phase>>>> = {
  full: buildTransitions('full'),
  noplan: buildTransitions('noplan'),
  strategy: buildTransitions('strategy'),
};

export function isPhase(value: unknown): value is Phase {
  return typeof value === 'string' && (PHASES as readonly string[]).includes(value);
}

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

export function isTerminal(phase: Phase): boolean {
  return TERMINAL_PHASES.has(phase);
}

/** The phases a workflow of this mode can be in: its path plus the terminal phases it can reach. */
export function phasesOfMode(mode: Mode): Phase[] {
  const result = new Set<Phase>(PHASE_PATHS[mode]);
  for (const targets of TRANSITIONS[mode].values()) for (const t of targets) result.add(t);
  return PHASES.filter((p) => result.has(p));
}

/** True when `from → to` is a legal transition in `mode`. */
export function isLegalTransition(mode: Mode, from: Phase, to: Phase): boolean {
  return TRANSITIONS[mode].get(from)?.has(to) ?? false;
}

/** The phases reachable in one step from `from` in `mode` (empty for terminal phases). */
export function nextPhases(mode: Mode, from: Phase): Phase[] {
  const set = TRANSITIONS[mode].get(from);
  return set ? PHASES.filter((p) => set.has(p)) : [];
}
