import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 11: `npm install` in a sample must not rewrite its committed lockfile. npm records, for the
 * `file:../..` dependency, the package's own manifest (its dependencies, devDependencies, peers ...) under
 * `packages["../.."]`; when the root package.json changes and the samples' lockfiles are not refreshed,
 * the next `npm install` in a sample rewrites them. This keeps them in step: after changing the root
 * manifest, run `npm install --package-lock-only` in each sample.
 */
const ROOT = join(__dirname, '..');
const SAMPLES = ['weather', 'conformance', 'nest-docket'];
const RECORDED = [
  'name',
  'version',
  'license',
  'dependencies',
  'bin',
  'devDependencies',
  'engines',
  'peerDependencies',
  'peerDependenciesMeta',
] as const;

const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe.each(SAMPLES)('samples/%s/package-lock.json', (sample) => {
  it('records the root package.json as it is', () => {
    const root = readJson('package.json');
    const lock = readJson(`samples/${sample}/package-lock.json`) as { packages: Record<string, Record<string, unknown>> };
    const recorded = lock.packages['../..'];
    for (const field of RECORDED) expect([field, recorded[field]]).toEqual([field, root[field]]);
  });
});
