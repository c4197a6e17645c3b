/** Start-up figures of the skills feature, logged to the Skillflow output and read by the tests through the feature's API. */
export interface SkillsTimings {
  /** True when the background task made the first load (nothing asked for the index before it ran). */
  loadedInBackground?: boolean;
  /** The first full index load alone (discovery + validation of every skill and agent). */
  indexLoadMs?: number;
  /** `activate()` start to the first diagnostics published from the index. */
  startupToDiagnosticsMs?: number;
  /** `activate()` start to the problems published from the start-up cache (startupCache.ts), before any load. */
  startupToCachedProblemsMs?: number;
  /** How many files' problems the start-up cache published. */
  cachedProblemFiles?: number;
  /** The first top-level getChildren of the Skills tree (including the index load when it came first). */
  firstRenderMs?: number;
}
