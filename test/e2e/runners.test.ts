import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { weatherServer } from '../../samples/weather/src/server';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt, link } from './support/build';

/**
 * Issue 11, any TypeScript runner: tsx, vitest and esbuild emit no design:* metadata, so a project runs
 * under them on its generated facts module alone. samples/weather is served by tsx and, bundled by esbuild,
 * by node, over stdio to a real SDK client; test/fixtures/runners is tested by vitest with its default
 * transform.
 */
jest.setTimeout(120_000);

const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const RUNNERS = 'test/fixtures/runners';
const ESBUILD = join(ROOT, 'node_modules/.bin/esbuild');
const WEATHER = join(ROOT, 'samples/weather');

beforeAll(async () => {
  await ensureBuilt();
  link(RUNNERS);
}, BUILD_HOOK_TIMEOUT_MS);

/** Runs a command to its end, with what it printed (stdout and stderr, in order). */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

type Listed = { name: string; inputSchema: unknown; outputSchema?: unknown }[];

/** Serves `args` over stdio to a real v2 SDK client, for the time of `use`. */
async function overStdio<T>(args: string[], cwd: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'runner-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd, stderr: 'pipe' }));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('samples/weather under tsx', () => {
  it('lists byte for byte what tsc lists, and calls tools, through an SDK client over stdio', async () => {
    await overStdio([TSX, 'src/main.ts', '--stdio'], WEATHER, async (client) => {
      const { tools } = await client.listTools();
      const expected = weatherServer().listTools() as Listed;
      expect(tools.map((t) => t.name)).toEqual(expected.map((t) => t.name));
      for (const [i, tool] of tools.entries()) {
        expect(JSON.stringify(tool.inputSchema)).toBe(JSON.stringify(expected[i].inputSchema));
        expect(JSON.stringify(tool.outputSchema)).toBe(JSON.stringify(expected[i].outputSchema));
      }
      const forecast = await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo', days: 2 } });
      expect((forecast.content as { text: string }[])[0].text.split('\n')).toHaveLength(3);
      const current = await client.callTool({ name: 'current_conditions', arguments: { city: 'Oslo', unit: 'Fahrenheit' } });
      expect(current.structuredContent).toMatchObject({ city: 'Oslo', unit: 'Fahrenheit' });
      const refused = await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo', days: 15 } });
      expect(refused.isError).toBe(true);
    });
  });
});

describe('a project under tsx without its facts module', () => {
  it('is refused with OMCG0002, whose fix names the generator', async () => {
    const { code, output } = await run(process.execPath, [TSX, 'src/without-facts.ts'], join(ROOT, RUNNERS));
    expect(code).toBe(0);
    expect(output.trim()).toBe(
      'OrderTools has 1 definition problem:\n' +
        '  OMCG0002 OrderTools.placeOrder: the method has no design:paramtypes metadata, so its parameter types are unknown. ' +
        'Fix: run `npx onemodelcontext generate` and import the facts module it writes (then any runner works: tsx, vitest, esbuild), ' +
        'or compile with tsc, ts-jest or SWC with "experimentalDecorators" and "emitDecoratorMetadata" enabled.',
    );
  });
});

describe('a project tested by vitest', () => {
  it('keeps its facts module current', () => {
    const check = spawnSync(
      process.execPath,
      [join(ROOT, 'dist/cli/main.js'), 'generate', '--project', `${RUNNERS}/tsconfig.json`, '--check'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it("lists and calls a tool in vitest's default transform", async () => {
    const { code, output } = await run(process.execPath, [VITEST, 'run'], join(ROOT, RUNNERS));
    expect(output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(code).toBe(0);
  });
});

describe('samples/weather bundled by esbuild', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'omc-esbuild-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('lists byte for byte what the tsc build lists, and calls a tool, through an SDK client over stdio', async () => {
    // The command docs/getting-started.md gives, run as a user would from the project's folder.
    const bundled = await run(
      ESBUILD,
      ['src/main.ts', '--bundle', '--platform=node', '--format=cjs', `--outfile=${join(out, 'main.js')}`],
      WEATHER,
    );
    expect(bundled.code).toBe(0);
    // esbuild reads experimentalDecorators from tsconfig.json but never emits design:* metadata (tsc would
    // write `__metadata("design:paramtypes", [...])` next to each decorated method).
    expect(readFileSync(join(out, 'main.js'), 'utf8')).not.toMatch(/__metadata\(\s*"design:/);

    const fromTsc = await overStdio([join(WEATHER, 'dist/main.js'), '--stdio'], WEATHER, (client) => client.listTools());
    await overStdio([join(out, 'main.js'), '--stdio'], out, async (client) => {
      const { tools } = await client.listTools();
      // The whole listing as one string: every input and output schema, key order included.
      expect(tools.map((t) => t.name)).toEqual((weatherServer().listTools() as Listed).map((t) => t.name));
      expect(JSON.stringify(tools)).toBe(JSON.stringify(fromTsc.tools));
      const current = await client.callTool({ name: 'current_conditions', arguments: { city: 'Oslo', unit: 'Fahrenheit' } });
      expect(current.structuredContent).toMatchObject({ city: 'Oslo', unit: 'Fahrenheit' });
      const refused = await client.callTool({ name: 'get_forecast', arguments: { city: 'Oslo', days: 15 } });
      expect(refused.isError).toBe(true);
    });
  });

  it('is refused with OMCG0002 naming the generator when the bundle leaves the facts module out', async () => {
    // The same entry point and options, with every import of the facts module resolved to an empty module.
    await build({
      entryPoints: [join(WEATHER, 'src/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: join(out, 'without-facts.js'),
      logLevel: 'silent',
      plugins: [
        {
          name: 'without-facts',
          setup(build) {
            build.onResolve({ filter: /onemodelcontext\.facts$/ }, () => ({ path: 'facts', namespace: 'left-out' }));
            build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: '', loader: 'js' }));
          },
        },
      ],
    });
    const { code, output } = await run(process.execPath, [join(out, 'without-facts.js'), '--stdio'], out);
    const problem = (method: string) =>
      `  OMCG0002 WeatherTools.${method}: the method has no design:paramtypes metadata, so its parameter types are unknown. ` +
      'Fix: run `npx onemodelcontext generate` and import the facts module it writes (then any runner works: tsx, vitest, esbuild), ' +
      'or compile with tsc, ts-jest or SWC with "experimentalDecorators" and "emitDecoratorMetadata" enabled.';
    expect(output).toBe(
      ['WeatherTools has 4 definition problems:', ...['currentConditions', 'getForecast', 'today', 'planTrip'].map(problem), ''].join('\n'),
    );
    expect(code).toBe(1);
  });
});
