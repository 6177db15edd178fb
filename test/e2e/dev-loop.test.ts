import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt } from './support/build';
import { waitUntil } from './support/wait';

/**
 * Issue 11, the watch loop: samples/weather's `npm run dev` serves src/ under `tsx watch` and regenerates
 * the facts module before each start. A copy of the sample (the committed one is never edited) runs the
 * command its dev script runs; a tool's doc comment is edited, and a real client sees the new description
 * from the restarted server, which only a regenerated facts module can give it.
 */
jest.setTimeout(120_000);

const WEATHER = join(ROOT, 'samples/weather');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const BEFORE = 'Gets the forecast for a city, one line per day';
const AFTER = 'Gets the forecast for a city, one line per day (edited while served)';

let project: string;
let dev: ChildProcess | undefined;
let output = '';

/** The arguments `npm run dev` gives tsx, read from the sample's own script (after it builds the package). */
function devArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(WEATHER, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [, tsx] = scripts.dev.split(' && tsx ');
  return tsx.split(' ');
}

/** A copy of the sample whose `onemodelcontext` and `@types` are this repository's, as `npm install` would link them. */
function copySample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'omc-dev-loop-'));
  for (const entry of ['src', 'scripts', 'package.json', 'tsconfig.json'])
    cpSync(join(WEATHER, entry), join(dir, entry), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/onemodelcontext'), 'dir');
  symlinkSync(join(ROOT, 'node_modules/@types'), join(dir, 'node_modules/@types'), 'dir');
  return dir;
}

/** The URL of the server's latest start, from what it printed. */
function latestUrl(): string | undefined {
  return [...output.matchAll(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/g)].at(-1)?.[1];
}

async function describedAs(url: string, tool: string): Promise<string | undefined> {
  const client = new Client({ name: 'dev-loop-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return (await client.listTools()).tools.find((t) => t.name === tool)?.description;
  } finally {
    await client.close();
  }
}

/** Whether the latest start answers with `expected`; false while it is restarting (the port is closed then). */
async function serves(expected: string): Promise<boolean> {
  const url = latestUrl();
  if (!url) return false;
  return describedAs(url, 'get_forecast').then(
    (description) => description === expected,
    () => false,
  );
}

beforeAll(async () => {
  await ensureBuilt();
  project = copySample();
  // PORT 0: every restart listens on a fresh ephemeral port and prints it. Its own process group, so that
  // afterAll stops tsx, the script it restarts and the server together.
  dev = spawn(process.execPath, [TSX, ...devArgs()], {
    cwd: project,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', NO_COLOR: '1' },
  });
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
}, BUILD_HOOK_TIMEOUT_MS);

afterAll(async () => {
  if (dev?.pid !== undefined && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once('exit', resolve));
    process.kill(-dev.pid, 'SIGTERM');
    await exited;
  }
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('samples/weather npm run dev', () => {
  it('serves src/ with no build, then regenerates the facts and restarts when a source changes', async () => {
    await waitUntil('the first start of the dev server', () => serves(BEFORE), { attempts: 600, every: 100 });

    const source = join(project, 'src/weather.ts');
    writeFileSync(source, readFileSync(source, 'utf8').replace(` * ${BEFORE}\n`, ` * ${AFTER}\n`));

    await waitUntil('the restarted server to list the edited description', () => serves(AFTER), { attempts: 600, every: 100 });
    expect(readFileSync(join(project, 'src/onemodelcontext.facts.ts'), 'utf8')).toContain(`description: '${AFTER}'`);
    expect(readFileSync(join(WEATHER, 'src/weather.ts'), 'utf8')).toContain(` * ${BEFORE}\n`);
  });
});
