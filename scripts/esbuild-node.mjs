// The esbuild options every test bundle shares (unit, integration, e2e and the fuzz suite): Node 20, CommonJS,
// inline source maps, packages left to node_modules.
export const NODE_TEST_BUILD = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  packages: 'external',
  logLevel: 'warning',
};
