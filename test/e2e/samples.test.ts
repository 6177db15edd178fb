import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { conformanceServer } from '../../samples/conformance/src/conformance';
import { weatherServer } from '../../samples/weather/src/server';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/** The samples as a user runs them: compiled by tsc, importing the package by name, in child processes. */
jest.setTimeout(120_000);

const WEATHER = join(ROOT, 'samples/weather/dist/main.js');

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

describe('samples/weather over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'sample-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [WEATHER, '--stdio'], stderr: 'pipe' }));
  });

  afterAll(() => client.close());

  it('lists what the sample declares, exactly as the server builds it', async () => {
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools)).toBe(
      JSON.stringify(
        weatherServer()
          .listTools()
          .map(({ _meta, ...plain }) => plain),
      ),
    );
    expect(tools.map((t) => t.name)).toEqual(['current_conditions', 'get_forecast']);
  });

  it('calls the tool with an enum and a date', async () => {
    const result = await client.callTool({
      name: 'get_forecast',
      arguments: { city: 'Oslo', days: 2, unit: 'Fahrenheit', from: '2026-07-28T00:00:00Z' },
    });
    expect((result.content as { text: string }[])[0].text).toMatch(
      /^Forecast for Oslo:\n2026-07-28: [a-z ]+, -?\d+°F\n2026-07-29: [a-z ]+, -?\d+°F$/,
    );
  });

  it('returns the record as structuredContent', async () => {
    const result = await client.callTool({ name: 'current_conditions', arguments: { city: 'Oslo' } });
    expect(Object.keys(result.structuredContent ?? {})).toEqual(['city', 'temperature', 'unit', 'summary', 'observedAt']);
    expect(result.structuredContent).toMatchObject({ city: 'Oslo', unit: 'Celsius' });
  });

  it('reads the resource template and gets the prompt', async () => {
    expect((await client.readResource({ uri: 'weather://Oslo/today' })).contents[0]).toMatchObject({
      mimeType: 'text/plain',
      text: expect.stringMatching(/^Oslo today: /),
    });
    expect((await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo' } })).messages[0].content).toEqual({
      type: 'text',
      text: 'Use get_forecast for Oslo over 3 days and suggest what to pack and what to do each day.',
    });
  });
});

describe('samples/weather over HTTP (what npm start runs)', () => {
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [WEATHER], { env: { ...process.env, PORT: '0' } });
    child.stdout!.on('data', (d) => (output += d));
    await new Promise<void>((resolve) => child.stdout!.on('data', () => output.includes('Stop with Ctrl+C.') && resolve()));
  });

  afterAll(() => child.kill());

  it('prints where it listens and how to connect', () => {
    expect(output).toMatch(/^weather MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp\n\nConnect a client to it:/);
  });

  it('serves a client at the printed URL', async () => {
    const url = /listening on (\S+)/.exec(output)![1];
    const client = new Client({ name: 'sample-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(
      (await client.callTool({ name: 'current_conditions', arguments: { city: 'Lima', unit: 'Fahrenheit' } })).structuredContent,
    ).toMatchObject({ city: 'Lima', unit: 'Fahrenheit' });
    await client.close();
  });
});

describe('samples/conformance', () => {
  it('gives every tool a description, as the conformance tools-list scenario requires', () => {
    const tools = conformanceServer().listTools();
    expect(tools.filter((t) => !t.description)).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['test_simple_text', 'test_sampling', 'test_input_required_result_multi_round']),
    );
  });
});
