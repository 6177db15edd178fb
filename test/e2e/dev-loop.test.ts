import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt } from './support/build';
import { waitUntil } from './support/wait';

/**
 * Issue 11, the watch loop: each sample's `npm run dev` restarts its server when a source file changes.
 * samples/weather serves src/ under `tsx watch` and regenerates the facts module before each start;
 * samples/nest-docket recompiles with TypeScript's watch compiler (Nest's dependency injection needs the
 * metadata tsc emits) and restarts after each clean build. A copy of each sample (the committed one is
 * never edited) runs the command its dev script runs; a tool's description is edited in the source, and a
 * real client sees the new description from the restarted server.
 */
jest.setTimeout(180_000);

const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

interface Sample {
  readonly name: string;
  readonly tool: string;
  readonly file: string;
  readonly before: string;
  readonly after: string;
  /** Whether the sample serves from a generated facts module, which the loop must regenerate. */
  readonly facts: boolean;
}

const SAMPLES: Sample[] = [
  {
    name: 'weather',
    tool: 'get_forecast',
    file: 'src/weather.ts',
    before: 'Gets the forecast for a city, one line per day',
    after: 'Gets the forecast for a city, one line per day (edited while served)',
    facts: true,
  },
  {
    name: 'nest-docket',
    tool: 'list_open_cases',
    file: 'src/docket.service.ts',
    before: 'Lists open cases, optionally of one priority',
    after: 'Lists open cases, optionally of one priority (edited while served)',
    facts: false,
  },
];

/** The command `npm run dev` runs after building the package, read from the sample's own script. */
function devCommand(sample: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'samples', sample, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [bin, ...args] = scripts.dev.split(' && ').at(-1)!.split(' ');
  if (bin === 'tsx') return [TSX, ...args];
  if (bin === 'node') return args;
  throw new Error(`samples/${sample}: the dev script runs ${bin}, which this test does not know how to start`);
}

/**
 * A copy of the sample, whose node_modules links this repository's packages and the package itself, as
 * `npm install` in the sample inside the repository would resolve them.
 */
function copySample(sample: string): string {
  const dir = mkdtempSync(join(tmpdir(), `omc-dev-loop-${sample}-`));
  for (const entry of ['src', 'scripts', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, 'samples', sample, entry), join(dir, entry), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  symlinkSync(ROOT, join(dir, 'node_modules/onemodelcontext'), 'dir');
  return dir;
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

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

describe.each(SAMPLES)('samples/$name npm run dev', (sample) => {
  let project: string;
  let dev: ChildProcess | undefined;
  let output = '';

  /** Whether the server's latest start (its URL is the last one printed) lists `expected`; false while it restarts. */
  async function serves(expected: string): Promise<boolean> {
    const url = [...output.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/g)].at(-1)?.[1];
    if (!url) return false;
    return describedAs(url, sample.tool).then(
      (description) => description === expected,
      () => false,
    );
  }

  /** Fails with what the dev command printed, which says why the server did not come (back). */
  const withOutput = (error: Error): never => {
    throw new Error(`${error.message}\nnpm run dev printed:\n${output}`);
  };

  beforeAll(() => {
    project = copySample(sample.name);
    // PORT 0: every restart listens on a fresh ephemeral port and prints it. Its own process group, so that
    // afterAll stops the watcher, what it restarts and the server together.
    dev = spawn(process.execPath, devCommand(sample.name), {
      cwd: project,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '0', NO_COLOR: '1' },
    });
    dev.stdout!.on('data', (d) => (output += d));
    dev.stderr!.on('data', (d) => (output += d));
  });

  afterAll(async () => {
    if (dev?.pid !== undefined && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev!.once('exit', resolve));
      process.kill(-dev.pid, 'SIGTERM');
      await exited;
    }
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('serves, then restarts with the edited description when a source file changes', async () => {
    await waitUntil(`samples/${sample.name}'s first start`, () => serves(sample.before), { attempts: 1200, every: 100 }).catch(withOutput);

    const source = join(project, sample.file);
    const text = readFileSync(source, 'utf8');
    expect(text).toContain(sample.before);
    writeFileSync(source, text.replace(sample.before, sample.after));

    await waitUntil(`samples/${sample.name} to list the edited description`, () => serves(sample.after), {
      attempts: 1200,
      every: 100,
    }).catch(withOutput);
    if (sample.facts)
      expect(readFileSync(join(project, 'src/onemodelcontext.facts.ts'), 'utf8')).toContain(`description: '${sample.after}'`);
    expect(readFileSync(join(ROOT, 'samples', sample.name, sample.file), 'utf8')).toContain(sample.before);
  });
});
