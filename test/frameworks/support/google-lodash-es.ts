import { buildSync } from 'esbuild';

/**
 * `lodash-es` as one CommonJS module, for ADK's CommonJS build, which requires it: `lodash-es` ships ES modules
 * only, which Node (20.19 and later) loads from CommonJS but Jest's module system does not before Node 24.9, and
 * jest.config.js's ESM_ONLY list does not name it. The real `lodash-es`, compiled by esbuild (as
 * test/support/esm-to-cjs.js does for Nest): its own code, only in another module format. A test file that loads
 * ADK says `jest.mock('lodash-es', () => jest.requireActual<typeof import('./support/google-lodash-es')>('./support/google-lodash-es').lodashEs())`.
 */
export function lodashEs(): unknown {
  const [bundle] = buildSync({
    entryPoints: [require.resolve('lodash-es')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
  }).outputFiles;
  const module = { exports: {} };
  new Function('module', 'exports', bundle.text)(module, module.exports);
  return module.exports;
}
