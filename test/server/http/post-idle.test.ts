import 'reflect-metadata';
import { Int32, McpServer } from '../../../src';
import { LEGACY_HEADERS, open, openSession, readAll } from '../../support/raw-http';

/**
 * A session's hot POST keeps it busy while it runs, and only then: once answered, whether by the hot dispatch (taken
 * before it runs its handler) or, when the dispatch does not take it, by the SDK's transport, the session is idle
 * again and its idle timeout closes it. A post counted twice or never would keep it open forever.
 */
jest.setTimeout(30_000);

let gate: () => void = () => undefined;
let server: McpServer;
let port: number;

beforeAll(async () => {
  server = new McpServer({ name: 'idle', version: '1' })
    .tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b)
    .tool('hold', {}, () => new Promise<string>((resolve) => (gate = () => resolve('released'))));
  port = (await server.serveHttp({ port: 0, sessionIdleTimeoutMs: 200 })).port;
});

afterAll(() => server.close());

const call = (id: number, name: string, args: object, meta?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } });

async function post(sessionId: string, body: string): Promise<[number, string]> {
  const stream = await open(port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': sessionId }, body);
  return [stream.response.statusCode ?? 0, await readAll(stream)];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const notFound = [404, '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}'];

it('a session whose posts were answered, by the hot dispatch and past it, is closed once idle', async () => {
  const sessionId = await openSession(port);
  expect(await post(sessionId, call(2, 'add', { a: 2, b: 3 }))).toEqual([
    200,
    '{"result":{"content":[{"type":"text","text":"5"}]},"jsonrpc":"2.0","id":2}',
  ]);
  // `__proto__` in the arguments: the hot dispatch does not take it (the post is undone), the SDK's transport answers it.
  const protoArgs = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"__proto__":{"a":1},"b":2}}}';
  const [status, text] = await post(sessionId, protoArgs);
  expect([status, text.includes('"id":3')]).toEqual([200, true]);
  await sleep(700);
  expect(await post(sessionId, call(4, 'add', { a: 1, b: 1 }))).toEqual(notFound);
});

it('a session with a hot call still running is not closed, and is once the call answered', async () => {
  const sessionId = await openSession(port);
  const held = open(port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': sessionId }, call(2, 'hold', {}));
  await sleep(700);
  expect(await post(sessionId, call(3, 'add', { a: 2, b: 2 }))).toEqual([
    200,
    '{"result":{"content":[{"type":"text","text":"4"}]},"jsonrpc":"2.0","id":3}',
  ]);
  gate();
  expect(await readAll(await held)).toContain('"text":"released"');
  await sleep(700);
  expect(await post(sessionId, call(4, 'add', { a: 1, b: 1 }))).toEqual(notFound);
});
