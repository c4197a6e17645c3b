/** AWAIT checkpoints: STATUS blocks, context files, answers, safe paths, resume. */
export * from './status';
export * from './context';
export * from './answers';
export * from './paths';
export * from './resume';
export * from './checkpoint';
