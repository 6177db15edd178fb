import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { onceAcrossWorkers } from './once';

/**
 * Compiles, with tsc (never esbuild: decorators need their metadata), what the end-to-end tests run in
 * child processes: the package itself (`dist/`, bundled afterwards as `npm run build` does, by
 * scripts/bundle.mjs from tsc's output), the e2e fixture and the samples (with the weather sample's view), each importing the
 * package by name through a `node_modules/onemodelcontext` link, as a user's project would. Once per Jest
 * run (see `runId`), written in a stamp next to the outputs.
 */
export const ROOT = resolve(__dirname, '../../..');
export const PROJECTS = ['test/e2e/fixture', 'samples/weather', 'samples/conformance', 'samples/nest-docket'] as const;

/** Code that runs in a browser, type-checked with the DOM library (the root tsconfig excludes it): bundled by esbuild. */
const BROWSER_PROJECTS = ['samples/weather/view', 'test/e2e/apps'];

const STAMP = join(ROOT, 'test/e2e/fixture/dist/.built-by');
const LOCK = join(ROOT, 'test/e2e/fixture/.building');

function node(script: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${script} ${args.join(' ')} failed:\n${output}`))));
  });
}

const tsc = (args: string[]) => node('node_modules/@typescript/native/bin/tsc', args);

export function link(project: string): void {
  const modules = join(ROOT, project, 'node_modules');
  const target = join(modules, 'onemodelcontext');
  if (existsSync(target)) return;
  mkdirSync(modules, { recursive: true });
  symlinkSync(ROOT, target, 'dir');
}

/** How long a worker waits for another worker's build before it fails the run. */
const BUILD_WAIT_MS = 600_000;

/**
 * The timeout of a hook that awaits `ensureBuilt()`: the build takes seconds on an idle machine and
 * minutes on a loaded one, and a hook that gives up sooner than the build fails every test of its file.
 */
export const BUILD_HOOK_TIMEOUT_MS = BUILD_WAIT_MS + 120_000;

/**
 * Which run the build belongs to: by default this Jest run (its workers share the parent process id);
 * ONEMODELCONTEXT_E2E_BUILD names one shared by several runs on the same sources (.ci/run's Node.js 20 and 24
 * passes), which then build once.
 */
const runId = () => process.env.ONEMODELCONTEXT_E2E_BUILD ?? String(process.ppid);

const built = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === runId();

export async function ensureBuilt(): Promise<void> {
  await onceAcrossWorkers('the end-to-end build', LOCK, built, build, BUILD_WAIT_MS);
}

async function build(): Promise<void> {
  // From a clean dist/, as `npm run build`: the bundle replaces tsc's modules, which must not linger.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  await tsc(['-p', 'tsconfig.build.json']);
  await node('scripts/bundle.mjs', []);
  for (const project of PROJECTS) link(project);
  // In one build (every project rebuilt by --force): the declaration files they share are read once, where one
  // `tsc -p` per project read them six times. Build mode keeps a tsconfig.tsbuildinfo beside each tsconfig
  // (ignored by git), removed here.
  const projects = [...PROJECTS, ...BROWSER_PROJECTS];
  try {
    await tsc(['-b', '--force', ...projects]);
  } finally {
    for (const project of projects) rmSync(join(ROOT, project, 'tsconfig.tsbuildinfo'), { force: true });
  }
  // The weather sample's MCP Apps view, bundled by esbuild into dist/view.html as its `npm run build` does.
  await node('samples/weather/scripts/build-view.mjs', []);
  writeFileSync(STAMP, runId());
}
