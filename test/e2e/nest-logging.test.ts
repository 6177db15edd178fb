import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * McpModule over stdio logs through the application's Nest logger, never on stdout: a Nest application
 * context with Nest's default `ConsoleLogger` (which writes `log` and `warn` lines to stdout) serves a tool
 * that throws, to the real v2 client over the child's stdin and stdout. The server's lines appear on stderr
 * in Nest's format, context `McpServer`, with the stack.
 */
jest.setTimeout(180_000);

/** A Nest application over stdio, in plain JavaScript against the built package (no decorators to compile). */
const APP = `
const { Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { McpServer } = require(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { McpModule } = require(${JSON.stringify(join(ROOT, 'dist/nest/index.js'))});

class Tools {
  constructor(server) {
    server.tool('explode', { description: 'Fails.' }, () => { throw new Error('the ledger is locked', { cause: new Error('lock held by job 12') }); });
    server.tool('slow', { description: 'Times out.' }, () => new Promise((resolve) => setTimeout(() => resolve('late'), 2000)));
  }
}
Injectable()(Tools);
Reflect.defineMetadata('design:paramtypes', [McpServer], Tools);

class AppModule {}
Module({ imports: [McpModule.forRoot({ name: 'ledger', version: '1.0.0', transport: 'stdio', requestTimeoutMs: 50 })], providers: [Tools] })(AppModule);

NestFactory.createApplicationContext(AppModule).catch((error) => { console.error(error); process.exit(1); });
`;

beforeAll(ensureBuilt, BUILD_HOOK_TIMEOUT_MS);

it("writes the server's lines to stderr through Nest's format while stdout carries the protocol", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', APP], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'stdio-logging', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  // Lines on stdout that are no JSON-RPC message: Nest's own start-up lines, written by its ConsoleLogger.
  const notProtocol: string[] = [];
  client.onerror = (error) => notProtocol.push(error.message);
  await client.connect(transport);

  const failed = await client.callTool({ name: 'explode', arguments: {} });
  expect([failed.isError, failed.content]).toEqual([true, [{ type: 'text', text: 'The tool failed.' }]]);
  const timedOut = await client.callTool({ name: 'slow', arguments: {} });
  expect(timedOut.isError).toBe(true);
  await client.close();

  const ours = stderr.split('\n').filter((line) => line.includes('[McpServer]'));
  expect(ours).toEqual([
    expect.stringMatching(/^\[Nest\] \d+ +- .* +ERROR \[McpServer\] Tool 'explode' failed \(request 0\): Error: the ledger is locked <- caused by Error: lock held by job 12$/),
    expect.stringMatching(/^\[Nest\] \d+ +- .* +WARN \[McpServer\] Tool 'slow' did not finish within 50 ms \(request 1\)$/),
  ]);
  // Nest prints the stack and the cause's on the lines after the error.
  expect(stderr).toMatch(/Error: the ledger is locked\n\s+at .*\n[\s\S]*Caused by: Error: lock held by job 12\n/);
  expect(notProtocol.join('\n')).not.toContain('McpServer');
});
