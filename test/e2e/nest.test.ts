import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '../../src';
import { AppModule } from '../../samples/nest-docket/src/app.module';
import { DocketRepository } from '../../samples/nest-docket/src/docket.repository';
import { DocketService } from '../../samples/nest-docket/src/docket.service';
import { BUILD_HOOK_TIMEOUT_MS, ROOT, ensureBuilt } from './support/build';
import { waitUntil } from './support/wait';
import { connectClient, lastListedTools, textOf, type TestClient } from './support/clients';

/**
 * samples/nest-docket end to end: booted with @nestjs/testing on a real HTTP listener and served by
 * McpModule on the app's own Express adapter; then built with tsc and run over stdio as a child process.
 */
// The stdio half builds the package and samples with tsc first, which takes minutes on a loaded machine.
jest.setTimeout(300_000);

const outside = new McpServer({ name: 'nest-docket', version: '1.0.0' }).add(new DocketService(new DocketRepository()));

describe('nest-docket over HTTP (Express adapter)', () => {
  let app: INestApplication;
  let url: URL;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register('http')] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
  });

  afterAll(() => app.close());

  describe.each([
    ['v1 client at 2025-11-25', { client: 'v1', version: '2025-11-25' } as const],
    ['v2 client in auto mode (2026-07-28)', { client: 'v2' } as const],
  ])('%s', (_name, flavour) => {
    let client: TestClient;
    beforeAll(async () => {
      client = await connectClient(flavour, 'http', url);
    });
    afterAll(() => client.close());

    it('lists the tools byte for byte as the same classes give outside Nest', async () => {
      await client.listTools();
      expect(lastListedTools(client.received)).toBe(JSON.stringify(outside.listTools()));
    });

    it('calls a tool whose data comes from the injected repository', async () => {
      const result = await client.callTool('get_docket', { id: 1 });
      expect(result.structuredContent).toEqual({
        id: 1,
        number: '2026-CV-0001',
        title: 'Acme v. Widget',
        priority: 'urgent',
        openedAt: '2026-11-30T09:00:00.000Z',
        parties: [{ name: 'Acme', role: 'plaintiff' }],
      });
    });

    it('answers a class-validator error as an argument error', async () => {
      const result = await client.callTool('open_case', { input: { number: 'nope', title: 'A title', parties: [] } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("Argument 'input.number' is not valid. number must look like 2026-CV-0042");
      const short = await client.callTool('open_case', { input: { number: '2026-CV-0002', title: 'ab', parties: [] } });
      expect(textOf(short)).toBe('Argument \'input.title\' is not valid. Expected 3 to 120 characters, such as "text".');
    });

    it("refuses a sealed case in the service's guard, before the method runs", async () => {
      const result = await client.callTool('get_docket', { id: 7 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("The call to tool 'get_docket' was refused.");
    });

    it("answers a missing case through the service's exception filter", async () => {
      const result = await client.callTool('get_docket', { id: 99 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('There is no case 99.');
      await expect(client.readResource('docket://cases/99')).rejects.toThrow(/Resource not found/);
    });

    it('reads the resource template', async () => {
      const result = await client.readResource('docket://cases/1');
      const [contents] = result.contents as { uri: string; mimeType: string; text: string }[];
      expect(contents.uri).toBe('docket://cases/1');
      expect(contents.mimeType).toBe('application/json');
      expect(JSON.parse(contents.text).title).toBe('Acme v. Widget');
    });

    it('gets the prompt', async () => {
      const result = await client.getPrompt('summarize_case', { id: '1', tone: 'urgent' });
      expect(JSON.stringify(result.messages)).toBe(
        '[{"role":"user","content":{"type":"text","text":"Summarize case 2026-CV-0001 (\\"Acme v. Widget\\") for a urgent briefing."}}]',
      );
    });
  });

  it('refuses a foreign Host with 403 and an unknown session with 404', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await fetch(url, { method: 'POST', body, headers: { ...headers, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const unknown = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...headers, 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(unknown.status).toBe(404);
  });

  it('keeps the application routes working next to the MCP endpoint', async () => {
    const missing = await fetch(new URL('/not-mcp', url));
    expect(missing.status).toBe(404);
  });
});

describe('nest-docket closing while clients are connected', () => {
  // Nest closes its HTTP server (which waits for every open connection) between beforeApplicationShutdown
  // and onApplicationShutdown: the MCP streams must end first, or app.close() never finishes and a
  // watch loop's restart (samples' npm run dev), or a SIGTERM, hangs while a client stays connected.
  it('app.close() finishes while a 2025 client and a 2026 client still hold their connections open', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register('http')] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    const url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
    const v1 = new V1Client({ name: 'closing-v1', version: '1.0.0' });
    await v1.connect(new V1Http(url));
    const v2 = new Client({ name: 'closing-v2', version: '1.0.0' });
    await v2.connect(new StreamableHTTPClientTransport(url));
    expect((await v1.listTools()).tools).toHaveLength(3);
    expect((await v2.listTools()).tools).toHaveLength(3);

    await app.close();
    // The server is gone: the clients close their side without telling it.
    await Promise.all([v1.close(), v2.close()]);
  });
});

describe('nest-docket over stdio (built with tsc, a child process)', () => {
  beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

  it('lists and calls tools with nothing but protocol messages on stdout', async () => {
    const main = join(ROOT, 'samples/nest-docket/dist/stdio.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const transport = new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'pipe' });
    let stderr = '';
    const client = new Client({ name: 'stdio-e2e', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    transport.stderr?.on('data', (d: Buffer) => (stderr += d));
    const tools = await client.listTools();
    expect(JSON.stringify(tools.tools)).toBe(JSON.stringify(outside.listTools()));
    const result = await client.callTool({ name: 'list_open_cases', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: '2026-CV-0001 Acme v. Widget (urgent)' }]);
    const sealed = await client.callTool({ name: 'get_docket', arguments: { id: 7 } });
    expect(sealed.content).toEqual([{ type: 'text', text: "The call to tool 'get_docket' was refused." }]);
    await client.close();
    expect(stderr).not.toContain('"jsonrpc"');
    // The sample's global interceptor, writing through the application's logger.
    expect(stderr).toMatch(/tool list_open_cases took \d+\.\d ms/);
  });

  it('writes every stdout line as a JSON-RPC message, while Nest logs go to stderr', async () => {
    const main = join(ROOT, 'samples/nest-docket/dist/stdio.js');
    const child = spawn(process.execPath, [main], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_docket', arguments: { id: 1 } } });
    await waitUntil(`the answer to request 2 (stdout so far: ${stdout}, stderr: ${stderr})`, () => stdout.includes('"id":2'));
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    const lines = stdout.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(stderr).toContain('Starting Nest application...');
    expect(stderr).toContain('McpModule dependencies initialized');
  });
});
