import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BUILD_HOOK_TIMEOUT_MS, ROOT } from './support/build';
import { FOLLOWER_ENV, PROJECT_ENV, TARBALL, integrityOf, packedTarball, run } from './support/packed';

/**
 * Issue 23, a newcomer's first ten minutes: docs/getting-started.md followed as written, from an empty folder,
 * with the package packed by `npm pack` and installed from its tarball (no --legacy-peer-deps), once with each
 * of TypeScript 5.9, 6.0 and 7.0. In each project: the generator, `tsc`, the server served over stdio under
 * node and tsx to a real MCP client that lists and calls the tool, and the page's vitest test.
 *
 * The tarball is test/e2e/support/packed.ts's. The projects live in test/.newcomer (ignored by git) and share the machine's npm cache: each compiler's
 * project is installed once and kept, and on later runs only a tarball of other contents is installed again. The
 * page's first two steps, the same for every compiler, are taken once for the projects installed from scratch, and
 * each of its installs after them is resolved from the registry once for all three (see `installFromScratch`).
 */
jest.setTimeout(600_000);

const PAGE = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
const HOME = join(ROOT, 'test/.newcomer');
const COMPILERS = [
  ['5.9', '5.9.3'],
  ['6.0', '6.0.3'],
  ['7.0', '7.0.2'],
] as const;

/** Runs one command line (split on spaces, as the page writes it) in `cwd`; fails with what it printed. */
function sh(line: string, cwd: string): Promise<string> {
  const [command, ...args] = line.split(' ');
  return run(command, args, cwd);
}

/** The page's commands that a test runs: each must be written on the page exactly so. */
function command(line: string): string {
  expect(PAGE).toContain(line);
  return line;
}

/** The code block the page introduces with a paragraph that starts with `` `file` ``. */
function fileOnPage(file: string): string {
  const lines = PAGE.split('\n');
  const intro = lines.findIndex((line) => line.startsWith(`\`${file}\``));
  expect(intro).toBeGreaterThan(-1);
  const start = lines.findIndex((line, i) => i > intro && /^```/.test(line)) + 1;
  const end = lines.findIndex((line, i) => i >= start && line === '```');
  return `${lines.slice(start, end).join('\n')}\n`;
}

/** The first ```json block after `marker` on the page. */
function jsonAfter(marker: string): string {
  const from = PAGE.indexOf(marker);
  expect(from).toBeGreaterThan(-1);
  const match = /```json\n([\s\S]*?)\n```/.exec(PAGE.slice(from));
  return match![1];
}

/** How long each step took, printed at the end (the figures of the note). */
const timings: string[] = [];
async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await step();
  timings.push(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
afterAll(() => console.log(`newcomer steps on Node ${process.version}:\n${timings.join('\n')}`));

beforeAll(async () => {
  mkdirSync(HOME, { recursive: true });
  // What `npm pack` writes from the built clone (the page's `npm run build && npm pack`; ensureBuilt is the build).
  const tarball = await timed('npm pack', () => packedTarball());
  const projects = COMPILERS.map(([label, version]) => ({ label, version, project: besideTheClone(join(HOME, `ts-${label}`), tarball) }));
  const kept = projects.filter(isKept);
  await Promise.all([
    ...kept.map((project) => installAgain(project, tarball)),
    installFromScratch(
      projects.filter((project) => !kept.includes(project)),
      tarball,
    ),
  ]);
  for (const { project } of projects) writeSources(project);
  rmSync(START, { recursive: true, force: true });
}, BUILD_HOOK_TIMEOUT_MS + 600_000);

/** One compiler's project: test/.newcomer/ts-<label>/greeter-mcp. */
interface Project {
  readonly label: string;
  readonly version: string;
  readonly project: string;
}

/** Where the page's first two steps are taken for the projects installed from scratch (see `begin`). */
const START = join(HOME, 'start');
let begun: Promise<string> | undefined;

/** The clone next to the project, as the page lays it out: ../onemodelcontext/onemodelcontext-0.1.0.tgz. */
function besideTheClone(folder: string, tarball: string): string {
  mkdirSync(join(folder, 'onemodelcontext'), { recursive: true });
  copyFileSync(tarball, join(folder, 'onemodelcontext', TARBALL));
  return join(folder, 'greeter-mcp');
}

/**
 * The page's first two steps (`npm init -y` and the tarball's install), which are the same whatever the compiler:
 * taken once, in test/.newcomer/start laid out as the projects are, for every project installed from scratch, which
 * starts from a copy of the folder they leave (the same files: the same folder name, paths relative to it).
 */
function begin(tarball: string): Promise<string> {
  begun ??= (async () => {
    rmSync(START, { recursive: true, force: true });
    const project = besideTheClone(START, tarball);
    mkdirSync(project, { recursive: true });
    await timed('npm init -y', () => sh(command('npm init -y'), project));
    await timed('npm install the tarball', () => sh(command(`npm install ../onemodelcontext/${TARBALL}`), project));
    return project;
  })();
  return begun;
}

function installedVersion(project: string, name: string): string | undefined {
  const manifest = join(project, 'node_modules', name, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')).version as string) : undefined;
}

/** A project installed by an earlier run (its last install, tsx's, done) with this compiler. */
function isKept({ project, version }: Project): boolean {
  return existsSync(join(project, 'node_modules/tsx/package.json')) && installedVersion(project, 'typescript') === version;
}

/**
 * A kept project: only the package can be new. When the tarball installed there is this one (the same digest in
 * npm's record of node_modules: the Node.js 24 pass of .ci/run after the Node.js 20 one, or a rerun without a
 * change to the package), there is nothing to install.
 */
async function installAgain({ label, project }: Project, tarball: string): Promise<void> {
  const record = join(project, 'node_modules/.package-lock.json');
  const installed = existsSync(record)
    ? (JSON.parse(readFileSync(record, 'utf8')) as { packages: Record<string, { integrity?: string }> }).packages[
        'node_modules/onemodelcontext'
      ]
    : undefined;
  if (installed?.integrity === integrityOf(tarball) && existsSync(join(project, 'node_modules/onemodelcontext/package.json'))) {
    timings.push(`[${label}] the same tarball is installed already`);
    return;
  }
  rmSync(join(project, 'node_modules/onemodelcontext'), { recursive: true, force: true });
  await timed(`[${label}] npm install the tarball again`, () => sh(`npm install ../onemodelcontext/${TARBALL}`, project));
}

/**
 * The projects without a kept install, laid out and installed as the page says, each from a copy of the folder
 * `begin` leaves. The first takes each of the page's three installs (their packages are the same whatever the
 * compiler, but for TypeScript's own version) from the registry; the others take it once the first has, from the
 * npm cache it has just refreshed (FOLLOWER_ENV), at the same time as the first takes its next one. (Three
 * installs at once, each from the registry, downloaded the same metadata three times over.)
 */
async function installFromScratch(projects: readonly Project[], tarball: string): Promise<void> {
  if (projects.length === 0) return;
  const start = await begin(tarball);
  // The page's installs after the tarball's, each with the TypeScript of its project.
  const steps = [
    (version: string) =>
      command('npm install --save-dev typescript @typescript/typescript6 @types/node').replace('typescript ', `typescript@${version} `),
    () => command('npm install --save-dev vitest'),
    () => command('npm install --save-dev tsx esbuild'),
  ];
  // What each project has done so far, and what the first has: a step starts when both have done the one before.
  let done = projects.map(async ({ project }) => {
    rmSync(project, { recursive: true, force: true });
    // npm's links in node_modules/.bin are relative, and stay so.
    cpSync(start, project, { recursive: true, verbatimSymlinks: true });
  });
  for (const step of steps) {
    const first = done[0].then(() => install(projects[0], step(projects[0].version), PROJECT_ENV));
    done = [
      first,
      ...projects
        .slice(1)
        .map((project, i) => Promise.all([first, done[i + 1]]).then(() => install(project, step(project.version), FOLLOWER_ENV))),
    ];
  }
  await Promise.all(done);
}

async function install({ label, project }: Project, line: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [npm, ...args] = line.split(' ');
  await timed(`[${label}] ${line}${env === FOLLOWER_ENV ? ' (metadata from the cache)' : ''}`, () => run(npm, args, project, env));
}

/** The page's sources and tsconfig.json, and nothing an earlier run generated or compiled. */
function writeSources(project: string): void {
  for (const file of ['src/greeter.ts', 'src/server.ts', 'src/main.ts', 'test/server.test.ts']) {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), fileOnPage(file));
  }
  writeFileSync(join(project, 'tsconfig.json'), `${jsonAfter('## 3. tsconfig.json')}\n`);
  rmSync(join(project, 'src/onemodelcontext.facts.ts'), { force: true });
  rmSync(join(project, 'dist'), { recursive: true, force: true });
}

/** A stdio client of `command args` in `cwd`: lists the tools and greets, twice and out of range. */
async function serve(commandLine: string[], cwd: string): Promise<{ listed: string; greeting: unknown; refused: unknown }> {
  const client = new Client({ name: 'newcomer', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: commandLine[0],
      args: commandLine.slice(1),
      cwd,
      env: PROJECT_ENV as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    const greeting = await client.callTool({ name: 'greet', arguments: { name: 'Ada', times: 2 } });
    const refused = await client.callTool({ name: 'greet', arguments: { name: 'Ada', times: 9 } });
    return {
      listed: JSON.stringify(tools.map((t) => [t.name, t.description, t.inputSchema])),
      greeting: greeting.content,
      refused: refused.isError,
    };
  } finally {
    await client.close();
  }
}

describe.each(COMPILERS)('getting started with TypeScript %s', (label, version) => {
  const folder = join(HOME, `ts-${label}`);
  const project = join(folder, 'greeter-mcp');
  const expected = {
    listed: JSON.stringify([['greet', 'Greets someone, a number of times', JSON.parse(jsonAfter('`greet` is listed as'))]]),
    greeting: [{ type: 'text', text: 'Hello, Ada!\nHello, Ada!' }],
    refused: true,
  };

  it('installed what the page says, with no peer conflict', async () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest.type).toBe('commonjs');
    expect(manifest.dependencies.onemodelcontext).toBe(`file:../onemodelcontext/${TARBALL}`);
    expect(JSON.parse(readFileSync(join(project, 'node_modules/typescript/package.json'), 'utf8')).version).toBe(version);
    // npm's own verdict on the tree: no invalid or missing peer.
    expect(await sh('npm ls --all --silent', project)).not.toMatch(/invalid|missing|ERR/);
  });

  it('generates the facts module', async () => {
    const out = await timed(`[${label}] npx onemodelcontext generate`, () => sh(command('npx onemodelcontext generate'), project));
    expect(out).toBe('Wrote src/onemodelcontext.facts.ts: facts of 1 class.\n');
  });

  it('compiles with tsc and serves over stdio: a real client lists and calls the tool', async () => {
    expect(await timed(`[${label}] npx tsc`, () => sh(command('npx tsc'), project))).toBe('');
    const served = await timed(`[${label}] node dist/main.js (list, call)`, () => serve([process.execPath, 'dist/main.js'], project));
    expect(served).toEqual(expected);
  });

  it('serves the same under tsx', async () => {
    command('npx tsx src/main.ts');
    const served = await timed(`[${label}] npx tsx src/main.ts (list, call)`, () => serve(['npx', 'tsx', 'src/main.ts'], project));
    expect(served).toEqual(expected);
  });

  it('passes the page’s vitest test', async () => {
    const out = await timed(`[${label}] npx vitest run`, () => sh(command('npx vitest run'), project));
    expect(out).toMatch(/Tests\s+2 passed \(2\)/);
  });
});
