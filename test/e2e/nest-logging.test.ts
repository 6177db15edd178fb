import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * McpModule over stdio logs through the application's Nest logger, never on stdout: a Nest application
 * context with Nest's default `ConsoleLogger` (which writes `log` and `warn` lines to stdout) serves a tool
 * that throws, to the real v2 client over the child's stdin and stdout. The server's lines appear on stderr
 * in Nest's format, context `McpServer`, with the stack. Nest's own lines (start-up, a provider's `Logger`) go to
 * stderr too: the module swaps Nest's default console logger for a `StderrLogger`, so stdout holds only JSON-RPC
 * messages and the stdout guard has nothing to warn about.
 */
jest.setTimeout(180_000);

/** A Nest application over stdio, in plain JavaScript against the built package (no decorators to compile). */
const APP = `
const { Injectable, Logger, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { McpServer } = require(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { McpModule } = require(${JSON.stringify(join(ROOT, 'dist/nest/index.js'))});

class Tools {
  constructor(server) {
    server.tool('explode', { description: 'Fails.' }, () => { throw new Error('the ledger is locked', { cause: new Error('lock held by job 12') }); });
    server.tool('slow', { description: 'Times out.' }, () => new Promise((resolve) => setTimeout(() => resolve('late'), 2000)));
    server.tool('audit', { description: 'Logs through Nest.' }, () => {
      new Logger('Tools').log('audited the ledger');
      return 'audited';
    });
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
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-e', APP],
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...process.env, NO_COLOR: '1' } as Record<string, string>,
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stderrEnded = new Promise<void>((resolve) => transport.stderr!.on('end', resolve));
  // Every byte of the child's stdout, tapped as it spawns: the client itself skips lines that are not JSON.
  let stdout = '';
  let stdoutEnded: Promise<void> | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const child = (transport as unknown as { _process?: ChildProcess })._process!;
    stdoutEnded = new Promise<void>((resolve) => child.stdout!.on('end', resolve));
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  };
  const client = new Client({ name: 'stdio-logging', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  // Lines on stdout that are no JSON-RPC message (there must be none).
  const notProtocol: string[] = [];
  client.onerror = (error) => notProtocol.push(error.message);
  await client.connect(transport);

  const failed = await client.callTool({ name: 'explode', arguments: {} });
  expect([failed.isError, failed.content]).toEqual([true, [{ type: 'text', text: 'The tool failed.' }]]);
  const timedOut = await client.callTool({ name: 'slow', arguments: {} });
  expect(timedOut.isError).toBe(true);
  expect(await client.callTool({ name: 'audit', arguments: {} })).toEqual({
    content: [{ type: 'text', text: 'audited' }],
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ledger', version: '1.0.0' } },
  });
  await client.close();
  await Promise.all([stderrEnded, stdoutEnded]);

  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  // The three calls' answers (a 2026-07-28 connection opens without a message of its own), and nothing else.
  const answers = lines.map((line) => JSON.parse(line) as { jsonrpc: unknown; result: { content: { text: unknown }[] } });
  expect(answers.map((answer) => [answer.jsonrpc, answer.result.content[0]!.text])).toEqual([
    ['2.0', 'The tool failed.'],
    ['2.0', 'The tool did not finish within 50 ms.'],
    ['2.0', 'audited'],
  ]);
  expect(stderr).toMatch(/^\[Nest\] \d+ +- .* +LOG \[NestFactory\] Starting Nest application\.\.\.$/m);
  expect(stderr).toMatch(/^\[Nest\] \d+ +- .* +LOG \[Tools\] audited the ledger$/m);
  expect(stderr).not.toContain('stdout.redirected');

  const ours = stderr.split('\n').filter((line) => line.includes('[McpServer]'));
  expect(ours).toEqual([
    expect.stringMatching(
      /^\[Nest\] \d+ +- .* +ERROR \[McpServer\] Tool 'explode' failed \(request 0\): Error: the ledger is locked <- caused by Error: lock held by job 12$/,
    ),
    expect.stringMatching(/^\[Nest\] \d+ +- .* +WARN \[McpServer\] Tool 'slow' did not finish within 50 ms \(request 1\)$/),
  ]);
  // Nest prints the stack and the cause's on the lines after the error.
  expect(stderr).toMatch(/Error: the ledger is locked\n\s+at .*\n[\s\S]*Caused by: Error: lock held by job 12\n/);
  expect(notProtocol).toEqual([]);
});
