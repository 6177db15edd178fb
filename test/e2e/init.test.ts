import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init } from '../../src/cli/init';
import { folderHost } from '../support/init-host';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt } from './support/build';

/**
 * Issue 40: what `onemodelcontext init` and `init --nest` write is a working project. The package is packed by
 * `npm pack` and each project's dependency pointed at the tarball (as it would be at the registry's copy), then
 * `npm install` on this machine's Node.js and `npm test` (the generator and vitest) on Node.js 22 and 24 from the
 * npm registry, with the same node_modules.
 *
 * The projects live in test/.init (ignored by git), written anew on each run; the installs share the machine's
 * npm cache, warmed by this repository's `npm ci`.
 */
jest.setTimeout(600_000);

const HOME = join(ROOT, 'test/.init');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const TARBALL = `onemodelcontext-${VERSION}.tgz`;
const NODES = ['22', '24'] as const;

/** No npm_* variable of this repository's `npm test` reaches the projects' npm; no colour in what vitest prints. */
const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  NO_COLOR: '1',
};

/** Runs a command in `cwd`; resolves with what it printed, fails with it when the command fails. */
function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: ENV });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${output}`)),
    );
  });
}

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
  await ensureBuilt();
  rmSync(HOME, { recursive: true, force: true });
  mkdirSync(HOME, { recursive: true });
  await run('npm', ['pack', '--pack-destination', HOME], ROOT);
  // At once: the installs wait mostly on npm's cache.
  await Promise.all([project('plain', []), project('nest', ['--nest'])]);
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

  it.each(['plain', 'nest'])('%s: npm test passes', async (name) => {
    const out = await npmTest(name);
    expect(out.split('\n')[0]).toMatch(new RegExp(`^v${major}\\.`));
    expect(out).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(out).toMatch(/Tests\s+2 passed \(2\)/);
  });
});
