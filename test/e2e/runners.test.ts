import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { weatherServer } from '../../samples/weather/src/server';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt, link } from './support/build';

/**
 * Issue 11, any TypeScript runner: tsx and vitest emit no design:* metadata, so a project runs under them
 * on its generated facts module alone. samples/weather is served by tsx over stdio to a real SDK client;
 * test/fixtures/runners is tested by vitest with its default transform.
 */
jest.setTimeout(120_000);

const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const RUNNERS = 'test/fixtures/runners';

beforeAll(async () => {
  await ensureBuilt();
  link(RUNNERS);
}, BUILD_HOOK_TIMEOUT_MS);

/** Runs a command to its end, with what it printed. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('samples/weather under tsx', () => {
  it('lists byte for byte what tsc lists, and calls tools, through an SDK client over stdio', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSX, 'src/main.ts', '--stdio'], cwd: join(ROOT, 'samples/weather'), stderr: 'pipe' });
    const client = new Client({ name: 'runner-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const expected = weatherServer().listTools() as { name: string; inputSchema: unknown; outputSchema?: unknown }[];
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
    } finally {
      await client.close();
    }
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
    const check = spawnSync(process.execPath, [join(ROOT, 'dist/generate/cli.js'), 'generate', '--project', `${RUNNERS}/tsconfig.json`, '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it("lists and calls a tool in vitest's default transform", async () => {
    const { code, output } = await run(process.execPath, [VITEST, 'run'], join(ROOT, RUNNERS));
    expect(output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(code).toBe(0);
  });
});
