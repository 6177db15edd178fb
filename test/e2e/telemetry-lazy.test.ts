import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt, ROOT } from './support/build';

/**
 * `@opentelemetry/api` installed but nothing registered with it (no SDK, no context manager): the built
 * package builds, serves and calls tools without loading it, and the first request after an application
 * registers a tracer provider is traced, on the connection already open.
 */
jest.setTimeout(180_000);

const SCRIPT = `
const { Int32, McpServer } = require(${JSON.stringify(join(ROOT, 'dist/index.js'))});
const { Client, InMemoryTransport } = require('@modelcontextprotocol/client');
const loaded = () => Object.keys(require.cache).filter((file) => file.includes('@opentelemetry')).length;
(async () => {
  const server = new McpServer({ name: 'lazy-otel', version: '1' }).tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(clientEnd);
  const before = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const loadedBefore = loaded();

  const { trace } = require('@opentelemetry/api');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  const after = await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } });
  await client.close();
  process.stdout.write(JSON.stringify({
    texts: [before.content[0].text, after.content[0].text],
    loadedBefore,
    spans: spans.getFinishedSpans().map((s) => [s.name, s.attributes['gen_ai.tool.name']]),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

it('loads nothing of OpenTelemetry until something registers with it, then traces the next request', async () => {
  await ensureBuilt();
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', SCRIPT], { cwd: ROOT });
  expect(JSON.parse(stdout)).toEqual({ texts: ['5', '9'], loadedBefore: 0, spans: [['tools/call add', 'add']] });
  expect(stderr).toBe('');
});
