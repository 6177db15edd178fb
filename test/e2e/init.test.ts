import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { init } from '../../src/cli/init';
import { folderHost } from '../support/init-host';
import { BUILD_HOOK_TIMEOUT_MS, ROOT } from './support/build';
import { PROJECT_ENV, TARBALL, VERSION, packedTarball, run } from './support/packed';

/**
 * Issue 40: what `onemodelcontext init` and `init --nest` write is a working project. The package is packed by
 * `npm pack` (test/e2e/support/packed.ts) and each project's dependency pointed at the tarball (as it would be at the registry's copy), then
 * `npm install` on this machine's Node.js and `npm test` (the generator and vitest) on Node.js 22 and 24 from the
 * npm registry, with the same node_modules.
 *
 * The projects live in test/.init (ignored by git), written anew by `init` on each run; the installs share the
 * machine's npm cache, warmed by this repository's `npm ci`. A project's node_modules is kept for the next run
 * when `init` writes the same package.json again, and only the freshly packed tarball is installed into it (as
 * test/e2e/newcomer.test.ts keeps its projects); a clean clone installs everything.
 */
jest.setTimeout(600_000);

const HOME = join(ROOT, 'test/.init');
const NODES = ['22', '24'] as const;

/** The folder of each Node.js version's `node` (npx's copy of the registry's `node` package), by major version. */
const nodeBin = new Map<string, string>();

/** `init` in a new folder of test/.init, with the dependency on the tarball; then `npm install`. */
async function project(name: string, args: readonly string[]): Promise<void> {
  const folder = join(HOME, name);
  // The previous run's project, aside while `init` writes the folder anew.
  const previous = join(HOME, `.previous-${name}`);
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(folder)) renameSync(folder, previous);
  const host = folderHost(HOME);
  expect(init([name, ...args], host)).toBe(0);
  expect(host.err).toEqual([]);
  const file = join(folder, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  expect(manifest.dependencies.onemodelcontext).toBe(`^${VERSION}`);
  manifest.dependencies.onemodelcontext = `file:../${TARBALL}`;
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(file, text);
  const kept = join(previous, 'package.json');
  if (existsSync(join(previous, 'node_modules')) && existsSync(kept) && readFileSync(kept, 'utf8') === text) {
    // The same dependencies as the kept node_modules: all but the package, which npm installs from the new
    // tarball (no lockfile, and none of npm's own in node_modules, remembers the old one's digest).
    renameSync(join(previous, 'node_modules'), join(folder, 'node_modules'));
    for (const stale of ['onemodelcontext', '.package-lock.json'])
      rmSync(join(folder, 'node_modules', stale), { recursive: true, force: true });
  }
  rmSync(previous, { recursive: true, force: true });
  await run('npm', ['install'], folder);
}

beforeAll(async () => {
  const tarball = await packedTarball();
  mkdirSync(HOME, { recursive: true });
  copyFileSync(tarball, join(HOME, TARBALL));
  // At once: the installs wait mostly on npm's cache and the registry. So does npx fetching each Node.js, done
  // here once per version; the tests below put its folder first on the PATH, as `npx -p node@22 -c` does.
  await Promise.all([
    project('plain', []),
    project('nest', ['--nest']),
    ...NODES.map(async (major) => {
      // What npx prints besides (a notice that it installs the package) goes to the same output.
      const printed = await run('npx', ['-y', '-p', `node@${major}`, '-c', 'echo "node at $(command -v node)"'], HOME);
      nodeBin.set(major, dirname(/^node at (\/.+)$/m.exec(printed)![1]));
    }),
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
  const npmTest = (name: string) =>
    run('sh', ['-c', 'node --version && npm test'], join(HOME, name), {
      ...PROJECT_ENV,
      PATH: `${nodeBin.get(major)}${delimiter}${PROJECT_ENV.PATH}`,
    });

  // The two projects at once (each its own folder; one project's runs stay one after another, since
  // `npm test` rewrites its facts module).
  it.concurrent.each(['plain', 'nest'])('%s: npm test passes', async (name) => {
    const out = await npmTest(name);
    expect(out.split('\n')[0]).toMatch(new RegExp(`^v${major}\\.`));
    expect(out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(out).toMatch(/Tests\s+2 passed \(2\)/);
  });
});
