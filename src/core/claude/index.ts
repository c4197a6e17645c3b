/** Skillflow's model of Claude Code's loading: entry point for the CLI, the extension and the validation rules. */
export * from './types';
export * from './values';
export * from './settings';
export * from './builtins';
export * from './meta';
export * from './load';
export * from './resolve';
export * from './listing';
