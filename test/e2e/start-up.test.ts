import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * Issue 16: what a process pays to start. The package, as a user's project requires it (built `dist/`, a fresh
 * Node.js process), loads neither class-validator (with validator.js and libphonenumber-js) nor the HTTP stack
 * nor acorn nor Ajv (nor its formats) until something needs them; what they do once needed is covered by every
 * other suite.
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

const LAZY = [
  'class-validator',
  'validator',
  'libphonenumber-js',
  'class-transformer',
  '@modelcontextprotocol/node',
  'hono',
  '@hono/node-server',
  'acorn',
  'ajv',
  'ajv-formats',
];

/**
 * The packages under node_modules whose modules are in the cache after `script` (awaited) ran in a fresh
 * process, and `node:crypto`, `node:perf_hooks` and `node:fs/promises` when Node.js loaded them (they cost
 * start-up time too: `node:fs/promises` brings `readline` and a dozen other internal modules with it).
 * The script is read from stdin: `node -e` loads node:crypto itself.
 */
function packagesLoadedBy(script: string): string[] {
  const probe = `(async () => {
${script}
const names = new Set();
for (const file of Object.keys(require.cache)) {
  const match = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file);
  if (match) names.add(match[1].replace(/\\\\/g, '/'));
}
for (const builtin of ['crypto', 'perf_hooks', 'fs/promises']) if (process.moduleLoadList.includes('NativeModule ' + builtin)) names.add('node:' + builtin);
process.stdout.write(JSON.stringify([...names].sort()));
})().catch((error) => { console.error(error); process.exit(1); });`;
  return JSON.parse(execFileSync(process.execPath, ['-'], { cwd: ROOT, encoding: 'utf8', input: probe })) as string[];
}

const DIST = JSON.stringify(join(ROOT, 'dist/index.js'));

describe('start-up', () => {
  it('require(onemodelcontext) loads none of the packages that are only needed later, nor node:fs/promises', () => {
    const loaded = packagesLoadedBy(`require(${DIST});`);
    // Not even the MCP SDK: the stdio loop answers a connection's opening before it is loaded (sdk/lazy.ts).
    expect(loaded).toEqual(['reflect-metadata']);
  });

  it('a server with tools, defined and listed, still loads none of them when it is not served over HTTP', () => {
    const loaded = packagesLoadedBy(`
const { McpServer, Int32 } = require(${DIST});
const server = new McpServer({ name: 's', version: '1' }).tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
if (server.listTools().length !== 1) throw new Error('not listed');`);
    expect(loaded.filter((name) => LAZY.includes(name) && name !== 'acorn')).toEqual([]);
  });

  it('samples/weather, connected, initialized and listed, loads none of them, nor OpenTelemetry while nothing registered with it, nor node:crypto or node:fs/promises', async () => {
    // Decorated methods with enum and literal defaults, a record result, the generator's facts: all read
    // without acorn; `@opentelemetry/api` is installed here (a devDependency) but unused; no cursor,
    // requestState or task is signed or made, so node:crypto is not needed. A raw JSON-RPC peer, because
    // the SDK Client loads node:crypto itself (for PKCE).
    const loaded = packagesLoadedBy(`
const { weatherServer } = require(${JSON.stringify(join(ROOT, 'samples/weather/dist/server.js'))});
const { InMemoryTransport } = require('@modelcontextprotocol/server');
const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
const answers = [];
clientEnd.onmessage = (message) => answers.push(message);
await clientEnd.start();
await weatherServer().connect(serverEnd);
const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
await clientEnd.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize });
await clientEnd.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
await clientEnd.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
await new Promise((resolve) => setTimeout(resolve, 100));
const tools = answers.find((a) => a.id === 2).result.tools;
const unit = JSON.stringify(tools.map((t) => t.inputSchema.properties.unit.default));
if (tools.length !== 2 || unit !== '["Celsius","Celsius"]') throw new Error(JSON.stringify(answers));
await clientEnd.close();`);
    expect(loaded.filter((name) => LAZY.includes(name) || name.startsWith('@opentelemetry/') || name.startsWith('node:'))).toEqual([]);
  });

  it('serving HTTP loads the HTTP stack', () => {
    const loaded = packagesLoadedBy(`
const { McpServer } = require(${DIST});
new McpServer({ name: 's', version: '1' }).createHttpHandler();`);
    expect(loaded).toContain('@modelcontextprotocol/node');
  });

  it('class-transformer and class-validator metadata are read when the application loads them after the package', () => {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `
require('reflect-metadata');
const { McpServer, Field } = require(${DIST});
const { Expose } = require('class-transformer');
const { IsPositive } = require('class-validator');
class Item {}
Field()(Item.prototype, 'qty');
IsPositive()(Item.prototype, 'qty');
Expose({ name: 'item_name' })(Item.prototype, 'name');
Reflect.defineMetadata('design:type', Number, Item.prototype, 'qty');
Reflect.defineMetadata('design:type', String, Item.prototype, 'name');
const server = new McpServer({ name: 's', version: '1' }).tool('take', { params: { item: Item } }, ({ item }) => item.qty);
server.callTool('take', { item: { qty: -1, item_name: 'x' } }).then((bad) =>
  server.callTool('take', { item: { qty: 2, item_name: 'x' } }).then((good) =>
    process.stdout.write(JSON.stringify({ listing: server.listTools()[0].inputSchema, bad: bad.isError === true, good: good.content }))));`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const { listing, bad, good } = JSON.parse(out) as {
      listing: { properties: { item: { properties: Record<string, unknown> } } };
      bad: boolean;
      good: unknown;
    };
    expect(Object.keys(listing.properties.item.properties)).toEqual(['qty', 'item_name']);
    expect(bad).toBe(true);
    expect(good).toEqual([{ type: 'text', text: '2' }]);
  });
});
