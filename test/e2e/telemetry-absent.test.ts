import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt, ROOT } from './support/build';

/**
 * `@opentelemetry/api` is an optional peer: in a process where it cannot be resolved (as when it is not
 * installed), the built package loads, serves and calls tools, and never tries again to load it.
 */
jest.setTimeout(180_000);

const SCRIPT = `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@opentelemetry/api' || request.startsWith('@opentelemetry/api/')) {
    throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};
const { Int32, McpServer } = require(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { Client, InMemoryTransport } = require('@modelcontextprotocol/client');
(async () => {
  const server = new McpServer({ name: 'no-otel', version: '1' }).tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(clientEnd);
  const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await client.close();
  const loaded = Object.keys(require.cache).filter((file) => file.includes('@opentelemetry'));
  process.stdout.write(JSON.stringify({ text: result.content[0].text, loaded }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

it('without @opentelemetry/api the server serves as always and loads nothing of OpenTelemetry', async () => {
  await ensureBuilt();
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', SCRIPT], { cwd: ROOT });
  expect(JSON.parse(stdout)).toEqual({ text: '5', loaded: [] });
  expect(stderr).toBe('');
});
