import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init } from '../../src/cli/init';
import { folderHost } from '../support/init-host';
import { BUILD_HOOK_TIMEOUT_MS, ROOT } from './support/build';
import { TARBALL, VERSION, packedTarball, run } from './support/packed';

/**
 * Issue 40: what `onemodelcontext init` and `init --nest` write is a working project. The package is packed by
 * `npm pack` (test/e2e/support/packed.ts) and each project's dependency pointed at the tarball (as it would be at the registry's copy), then
 * `npm install` on this machine's Node.js and `npm test` (the generator and vitest) on Node.js 22 and 24 from the
 * npm registry, with the same node_modules.
 *
 * The projects live in test/.init (ignored by git), written anew on each run; the installs share the machine's
 * npm cache, warmed by this repository's `npm ci`.
 */
jest.setTimeout(600_000);

const HOME = join(ROOT, 'test/.init');
const NODES = ['22', '24'] as const;

/** `init` in a new folder of test/.init, with the dependency on the tarball; then `npm install`. */
async function project(name: string, args: readonly string[]): Promise<void> {
  const host = folderHost(HOME);
  expect(init([name, ...args], host)).toBe(0);
  expect(host.err).toEqual([]);
  const file = join(HOME, name, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  expect(manifest.dependencies.onemodelcontext).toBe(`^${VERSION}`);
  manifest.dependencies.onemodelcontext = `file:../${TARBALL}`;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install'], join(HOME, name));
}

beforeAll(async () => {
  const tarball = await packedTarball();
  rmSync(HOME, { recursive: true, force: true });
  mkdirSync(HOME, { recursive: true });
  copyFileSync(tarball, join(HOME, TARBALL));
  // At once: the installs wait mostly on npm's cache and the registry. So does npx fetching each Node.js, done
  // here once per version so that the tests below, which run both projects at once, do not fetch it together.
  await Promise.all([
    project('plain', []),
    project('nest', ['--nest']),
    ...NODES.map((major) => run('npx', ['-y', '-p', `node@${major}`, '-c', 'node --version'], HOME)),
  ]);
}, BUILD_HOOK_TIMEOUT_MS + 600_000);

it('packs what a registry page and a user need: the license, the changelog, the README, where the code lives', async () => {
  const listed = await run('tar', ['-tzf', join(HOME, TARBALL)], HOME);
  const files = listed.split('\n').filter((line) => !line.startsWith('package/dist/'));
  expect(files.sort()).toEqual(['', 'package/CHANGELOG.md', 'package/LICENSE', 'package/README.md', 'package/package.json']);
  const manifest = JSON.parse(await run('tar', ['-xzOf', join(HOME, TARBALL), 'package/package.json'], HOME));
  expect([manifest.license, manifest.repository, manifest.homepage, manifest.bugs, manifest.engines]).toEqual([
    'MIT',
    { type: 'git', url: 'git+https://github.com/onemodelcontext/onemodelcontext-ts.git' },
    'https://github.com/onemodelcontext/onemodelcontext-ts#readme',
    { url: 'https://github.com/onemodelcontext/onemodelcontext-ts/issues' },
    { node: '>=20.19' },
  ]);
});

describe.each(NODES)('a project init wrote, on Node.js %s', (major) => {
  /** `npm test` with Node.js `major` first on the PATH, so npm and everything it starts run on it. */
  const npmTest = (name: string) => run('npx', ['-y', '-p', `node@${major}`, '-c', 'node --version && npm test'], join(HOME, name));

  // The two projects at once (each its own folder; one project's runs stay one after another, since
  // `npm test` rewrites its facts module): part of each run is npx asking the registry for the Node.js version.
  it.concurrent.each(['plain', 'nest'])('%s: npm test passes', async (name) => {
    const out = await npmTest(name);
    expect(out.split('\n')[0]).toMatch(new RegExp(`^v${major}\\.`));
    expect(out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(out).toMatch(/Tests\s+2 passed \(2\)/);
  });
});
