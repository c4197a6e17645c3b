/** AWAIT checkpoints (seed 000, SPEC §8): STATUS blocks, context files, answers, safe paths, resume. */
export * from './status';
export * from './context';
export * from './answers';
export * from './paths';
export * from './resume';
export * from './checkpoint';
