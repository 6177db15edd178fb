import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Int32, McpServer } from '../../../src';
import type { HttpHandler } from '../../../src/server/http/entry/endpoint';
import { LEGACY_HEADERS, open, openSession, readAll } from '../../support/raw-http';

/**
 * `handler.handle(req, res)` settles once the request is answered, whichever way a 2025-era request takes to (or past)
 * its session: a framework awaits it (a span ends with it), so it must neither settle before the response is finished
 * nor reject where the endpoint answered the failure itself.
 */
jest.setTimeout(30_000);

interface Settled {
  readonly outcome: 'fulfilled' | 'rejected';
  /** Whether the response was finished when the promise settled. */
  readonly ended: boolean;
  readonly status: number;
}

let settled: Settled[] = [];
/** A framework's parsed body, for the requests that bring one (see the 500 below). */
let parsedBody: { readonly body: unknown } | undefined;

function serve(handler: HttpHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const note = (outcome: Settled['outcome']) => settled.push({ outcome, ended: res.writableEnded, status: res.statusCode });
    handler.handle(req, res, parsedBody).then(
      () => note('fulfilled'),
      () => note('rejected'),
    );
  };
}

let mcp: HttpHandler;
let http: NodeServer;
let port: number;

beforeAll(async () => {
  const server = new McpServer({ name: 'settles', version: '1' }).tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
  mcp = server.createHttpHandler({ validateHost: false });
  http = createServer(serve(mcp));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});

afterAll(async () => {
  await mcp.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

beforeEach(() => {
  settled = [];
  parsedBody = undefined;
});

/** Sends one request: its status, its body and how `handle` settled for it (waited for). */
async function exchange(method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<[number, string, Settled[]]> {
  const stream = await open(port, method, headers, body);
  const text = await readAll(stream);
  for (let i = 0; i < 100 && settled.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  return [stream.response.statusCode ?? 0, text, settled];
}

/** What `handle` settled as for one request answered `status`: fulfilled, once the response was finished. */
const fulfilled = (status: number): Settled[] => [{ outcome: 'fulfilled', ended: true, status }];

/** The headers of a request on a new session, opened first (only the request's own settling is noted). */
async function onSession(headers: Record<string, string> = LEGACY_HEADERS): Promise<Record<string, string>> {
  const sessionId = await openSession(port);
  settled = [];
  return { ...headers, 'mcp-session-id': sessionId };
}

const add = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
const error = (code: number, message: string) =>
  `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)}},"id":null}`;

it('an initialize, to a new session', async () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const [status, text, how] = await exchange('POST', LEGACY_HEADERS, initialize);
  expect([status, text.includes('"protocolVersion":"2025-11-25"'), how]).toEqual([200, true, fulfilled(200)]);
});

it('a hot call on its session, answered on the response', async () => {
  expect(await exchange('POST', await onSession(), add)).toEqual([
    200,
    '{"result":{"content":[{"type":"text","text":"5"}]},"jsonrpc":"2.0","id":7}',
    fulfilled(200),
  ]);
});

it('a session id no session has', async () => {
  expect(await exchange('POST', { ...LEGACY_HEADERS, 'mcp-session-id': 'no-such-session' }, add)).toEqual([
    404,
    error(-32001, 'Session not found'),
    fulfilled(404),
  ]);
});

it("a batch its session's revision forbids, without MCP-Protocol-Version", async () => {
  const { 'mcp-protocol-version': _version, ...headerless } = LEGACY_HEADERS;
  const pings = JSON.stringify([
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ]);
  const refusal =
    'Invalid Request: protocol revision 2025-11-25 does not allow JSON-RPC batches (removed in 2025-06-18); send one message per request.';
  expect(await exchange('POST', await onSession(headerless), pings)).toEqual([400, error(-32600, refusal), fulfilled(400)]);
});

it('a resume whose events are gone', async () => {
  const headers = await onSession({ accept: 'text/event-stream', 'last-event-id': 'gone' });
  const [status, text, how] = await exchange('GET', headers);
  expect([status, JSON.parse(text).error.message.startsWith('Events lost: '), how]).toEqual([400, true, fulfilled(400)]);
});

it('a failure past every step, answered 500 by the endpoint', async () => {
  // A parsed body whose property throws when read: nothing the endpoint does with it can succeed.
  parsedBody = {
    body: Object.defineProperty({ id: 1, method: 'tools/list' }, 'jsonrpc', {
      enumerable: true,
      get(): never {
        throw new TypeError('the body cannot be read');
      },
    }),
  };
  expect(await exchange('POST', LEGACY_HEADERS, '{}')).toEqual([500, error(-32603, 'Internal error'), fulfilled(500)]);
});
