import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './build';
import { onceAcrossWorkers } from './once';

/**
 * The package as a user gets it, for the tests that install it into projects of their own (test/e2e/init,
 * test/e2e/newcomer): `npm pack` of the built clone, the environment those projects' commands run in, and the
 * one way to run them.
 */
export const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

/** The file name `npm pack` gives the tarball. */
export const TARBALL = `onemodelcontext-${VERSION}.tgz`;

/**
 * A user's environment: none of the npm_* variables `npm test` sets (so no flag of this repository's reaches
 * the projects' npm), the machine's own npm cache (warmed by this repository's `npm ci`), no nagging, no colour
 * in what the projects' tools print.
 */
export const PROJECT_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  NO_COLOR: '1',
};

/**
 * PROJECT_ENV for an install that follows one made moments earlier in the same run of the same packages: npm
 * takes their metadata from its cache (`--prefer-offline`), which that install has just refreshed, instead of
 * fetching it from the registry again (by default every install asks the registry again for each package it
 * names, unless the registry said its copy stays fresh; vitest's metadata alone is a megabyte and a half). Both
 * resolve the same versions; the registry is asked once.
 */
export const FOLLOWER_ENV: NodeJS.ProcessEnv = { ...PROJECT_ENV, npm_config_prefer_offline: 'true' };

/** The integrity npm records for a tarball in a lockfile (`sha512-` and the base64 digest). */
export function integrityOf(tarball: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
}

/** Runs a command in `cwd` in `env` (PROJECT_ENV); resolves with what it printed, fails with it when the command fails. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = PROJECT_ENV): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${output}`)),
    );
  });
}

/** Where the tarballs are kept (ignored by git): one folder per content, named by its key. */
const PACKS = join(ROOT, 'test/.pack');

/** How long a worker waits for another worker's `npm pack`. */
const PACK_WAIT_MS = 300_000;

/** The files under `folder` (relative to ROOT), in a fixed order. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]));
}

/**
 * A digest of every file the tarball is made of (package.json's `files`, which npm pack adds to package.json
 * itself): two runs with the same key would pack the same bytes.
 */
function contentKey(): string {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', ...filesUnder('dist')]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of the tarball of the package as built for this run (`ensureBuilt`). It is packed once for every
 * file and worker that asks, and kept for later runs of the same content; tarballs of other contents are removed.
 */
export async function packedTarball(): Promise<string> {
  await ensureBuilt();
  const key = contentKey();
  const tarball = join(PACKS, key, TARBALL);
  mkdirSync(PACKS, { recursive: true });
  await onceAcrossWorkers(
    'npm pack',
    join(PACKS, `${key}.lock`),
    () => existsSync(tarball),
    () => pack(key),
    PACK_WAIT_MS,
  );
  return tarball;
}

async function pack(key: string): Promise<void> {
  // Packed into a scratch folder and renamed into place, so that a tarball at its path is always whole.
  const scratch = mkdtempSync(join(PACKS, '.packing-'));
  await run('npm', ['pack', '--pack-destination', scratch], ROOT);
  for (const entry of readdirSync(PACKS)) {
    if (entry !== `${key}.lock` && join(PACKS, entry) !== scratch) rmSync(join(PACKS, entry), { recursive: true, force: true });
  }
  renameSync(scratch, join(PACKS, key));
}
