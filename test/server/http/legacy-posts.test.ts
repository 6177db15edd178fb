import 'reflect-metadata';
import { createServer, request, type Server as NodeServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Int32, McpServer, Prompt, Resource, type McpLogger } from '../../../src';
import { createHttpHandler, type HttpHandler, type HttpServing, type SessionTuning } from '../../../src/server/http/entry/endpoint';
import { Log } from '../../../src/log';
import { ModernPool } from '../../../src/server/http/modern/modern';
import { HotDispatch } from '../../../src/server/protocol/hot-path';
import { LEGACY_HEADERS, eventsOf, open, openSession, readAll, until, type Stream } from '../../support/raw-http';

/**
 * Issue 16: a 2025-era session's POST of one hot request is answered on Node's own response, not through the SDK's
 * transport. The same requests go to two endpoints over one server definition, one with the direct path and one
 * without; the JSON-RPC messages each answers must be the same, key order included, with the same status. Only the
 * framing may differ: a lone reply comes as `application/json` instead of a one-event SSE stream.
 */
jest.setTimeout(60_000);

const logged: string[] = [];
const logger: McpLogger = {
  error: (message) => void logged.push(`error ${message}`),
  warn: (message) => void logged.push(`warn ${message}`),
  info: () => undefined,
  debug: () => undefined,
};

/** How often the `question` tool ran. */
let questions = 0;

/** Whether the `watch` tool's signal was aborted once it stopped waiting. */
let aborted: boolean | undefined;

/** Resolves the `hold` tool's pending calls. */
let release: () => void = () => undefined;
let gate: Promise<void> | undefined;
/** What the held tools wait for: one gate for every call waiting at once, opened by `release()`. */
const held = () =>
  (gate ??= new Promise<void>((resolve) => {
    release = () => {
      gate = undefined;
      resolve();
    };
  }));

class Notes {
  @Resource('notes://{name}', { mimeType: 'text/plain' }) note(name: string): string {
    return `note ${name}`;
  }

  @Prompt() greet(name: string): string {
    return `Greet ${name}`;
  }
}

function definition(): McpServer {
  return new McpServer({ name: 'direct', version: '1' }, { logger })
    .add(new Notes())
    .tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b)
    .tool('broken', {}, () => {
      throw new Error('secret internals');
    })
    .tool('chatty', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 2, 'half');
      await ctx.log('info', { step: 1 });
      await ctx.reportProgress(2, 2);
      return 'done';
    })
    .tool('hold', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 2);
      await held();
      await ctx.reportProgress(2, 2);
      return 'released';
    })
    .tool('quiet', {}, async () => {
      await held();
      return 'quietly released';
    })
    .tool('watch', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 2);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = ctx.signal.aborted;
      return 'stopped';
    })
    .tool('question', {}, (_args, ctx) => {
      questions++;
      const answer = ctx.inputResponse('name') as { content?: { name?: string } } | undefined;
      if (!answer)
        ctx.requireInput({
          name: {
            method: 'elicitation/create',
            params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
          },
        });
      return `hello ${answer!.content?.name}`;
    })
    .tool('ask', {}, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      return `hello ${(answer.content as { name?: string } | undefined)?.name}`;
    });
}

interface Endpoint {
  readonly port: number;
  readonly handler: HttpHandler;
  readonly http: NodeServer;
}

async function endpoint(server: McpServer, tuning: SessionTuning): Promise<Endpoint> {
  const serving = (server as unknown as { httpServing(): HttpServing }).httpServing();
  const handler = createHttpHandler(serving, { path: '/mcp', sseRetryMs: 2500 }, undefined, Log.of(logger), tuning);
  const http = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { port: (http.address() as AddressInfo).port, handler, http };
}

async function close(endpoint: Endpoint): Promise<void> {
  await endpoint.handler.close();
  endpoint.http.closeAllConnections();
  await new Promise<void>((resolve) => endpoint.http.close(() => resolve()));
}

/** What a raw peer got: the status and the JSON-RPC messages, from a JSON body or the SSE events' data. */
interface Answer {
  readonly status: number;
  readonly framing: 'json' | 'sse' | 'none';
  readonly messages: unknown[];
}

async function answerOf(stream: Stream): Promise<Answer> {
  const text = await readAll(stream);
  const type = String(stream.response.headers['content-type'] ?? '');
  const status = stream.response.statusCode ?? 0;
  if (type.startsWith('text/event-stream')) return { status, framing: 'sse', messages: eventsOf(text).map((e) => e.data) };
  if (text === '') return { status, framing: 'none', messages: [] };
  return { status, framing: 'json', messages: [JSON.parse(text)] };
}

const call = (id: number, name: string, args?: object, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args && { arguments: args }), ...(meta && { _meta: meta }) },
});

/** What the `chatty` tool sends, in order: progress, a log message, progress, then its reply. */
const CHATTY_MESSAGES = ['notifications/progress', 'notifications/message', 'notifications/progress', 'reply'];

/** Each message's method, `reply` for the answer. */
const kindsOf = (messages: readonly unknown[]) => messages.map((m) => (m as { method?: string }).method ?? 'reply');

describe('direct answers compared with the SDK transport', () => {
  const server = definition();
  let direct: Endpoint;
  let sdk: Endpoint;
  let directSession: string;
  let sdkSession: string;

  beforeAll(async () => {
    direct = await endpoint(server, {});
    sdk = await endpoint(server, { fastPaths: false });
    directSession = await openSession(direct.port);
    sdkSession = await openSession(sdk.port);
  });

  afterAll(async () => {
    await close(direct);
    await close(sdk);
  });

  /** Sends the same POST to both endpoints, each in its own session; `headers` may replace the session's. */
  async function both(body: unknown, headers: Record<string, string> = {}): Promise<[Answer, Answer]> {
    const send = (port: number, session: string) =>
      open(port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': session, ...headers }, JSON.stringify(body)).then(answerOf);
    return [await send(direct.port, directSession), await send(sdk.port, sdkSession)];
  }

  const lone: [string, unknown][] = [
    ['a valid tools/call', call(2, 'add', { a: 2, b: 3 })],
    ['a tools/call whose arguments are wrong', call(3, 'add', { a: 'two', b: 3 })],
    ['a tools/call missing an argument', call(4, 'add', { a: 2 })],
    ['a tools/call of an unknown tool', call(5, 'nope', {})],
    ['a tool that throws', call(6, 'broken', {})],
    ['tools/list', { jsonrpc: '2.0', id: 7, method: 'tools/list' }],
    ['tools/list with a cursor that is not one', { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor: 'bogus' } }],
    ['resources/read of a resource', { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'notes://a' } }],
    ['resources/read of an unknown resource', { jsonrpc: '2.0', id: 10, method: 'resources/read', params: { uri: 'nothing://here' } }],
    ['prompts/get', { jsonrpc: '2.0', id: 11, method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada' } } }],
    ['prompts/get of an unknown prompt', { jsonrpc: '2.0', id: 12, method: 'prompts/get', params: { name: 'nope' } }],
    ['ping', { jsonrpc: '2.0', id: 'p', method: 'ping' }],
    ['resources/list', { jsonrpc: '2.0', id: 13, method: 'resources/list' }],
    ['resources/templates/list', { jsonrpc: '2.0', id: 14, method: 'resources/templates/list', params: {} }],
    ['prompts/list with a cursor that is not one', { jsonrpc: '2.0', id: 15, method: 'prompts/list', params: { cursor: 'bogus' } }],
  ];

  /** What the session handed straight to its hot dispatch (`true`: the dispatch answered it), bypassing the transport. */
  const posted = jest.spyOn(HotDispatch.prototype, 'post');
  beforeEach(() => posted.mockClear());

  it.each(lone)('answers %s with the same message, as application/json', async (_label, body) => {
    const [ours, theirs] = await both(body);
    expect(JSON.stringify(ours.messages)).toBe(JSON.stringify(theirs.messages));
    expect([ours.status, theirs.status]).toEqual([200, 200]);
    expect([ours.framing, theirs.framing]).toEqual(['json', 'sse']);
    // Only the direct endpoint's session hands the POST to the dispatch (once admitted); the SDK's transport delivers the other's.
    expect(posted).toHaveBeenCalledTimes(1);
  });

  const refused: [string, unknown, Record<string, string>][] = [
    ['a bad envelope', { jsonrpc: '1.0', id: 20, method: 'tools/list' }, {}],
    [
      'a params key the schema does not know',
      { jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 }, extra: true } },
      {},
    ],
    ['an unsupported protocol-version header', call(22, 'add', { a: 1, b: 2 }), { 'mcp-protocol-version': '2024-01-01' }],
    ['an unknown session', call(23, 'add', { a: 1, b: 2 }), { 'mcp-session-id': 'no-such-session' }],
    ['an Accept without text/event-stream', call(24, 'add', { a: 1, b: 2 }), { accept: 'application/json' }],
    ['a Content-Type that is not JSON', call(25, 'add', { a: 1, b: 2 }), { 'content-type': 'text/plain' }],
    ['another supported revision in the header', call(26, 'add', { a: 1, b: 2 }), { 'mcp-protocol-version': '2025-06-18' }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, {}],
    ['a batch', [call(27, 'add', { a: 1, b: 2 })], {}],
  ];

  it.each(refused)('leaves %s to the SDK, which answers both alike', async (_label, body, headers) => {
    const [ours, theirs] = await both(body, headers);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    // Never handed to the dispatch, or declined by its admission (nothing ran): the SDK's transport answered.
    expect(posted.mock.results.filter((r) => r.value !== false)).toEqual([]);
  });

  it('switches to SSE for a call that reports progress and logs, with the same events', async () => {
    const body = call(30, 'chatty', {}, { progressToken: 'tok' });
    const streams = await Promise.all([
      open(direct.port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': directSession }, JSON.stringify(body)),
      open(sdk.port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': sdkSession }, JSON.stringify(body)),
    ]);
    const [ours, theirs] = await Promise.all(streams.map(answerOf));
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(ours.framing).toBe('sse');
    expect(kindsOf(ours.messages)).toEqual(CHATTY_MESSAGES);
    // Primed as the SDK primes its streams: an event id and the endpoint's retry, before anything else.
    for (const stream of streams) expect(stream.text()).toMatch(/^id: \S+\nretry: 2500\ndata: \n\n/);
    expect(streams[0].response.headers['mcp-session-id']).toBe(directSession);
  });

  /** One raw request on a connection of its own, the whole response as bytes once the server closed it. */
  function rawExchange(port: number, body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      const head = [
        'POST /mcp HTTP/1.1',
        `host: 127.0.0.1:${port}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        'mcp-protocol-version: 2025-11-25',
        `mcp-session-id: ${directSession}`,
        'connection: close',
        `content-length: ${Buffer.byteLength(body)}`,
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    });
  }

  it("writes a lone reply as these exact bytes: status, the three headers in order, Node's own, the body", async () => {
    const wire = await rawExchange(direct.port, JSON.stringify(call(32, 'add', { a: 20, b: 22 })));
    const body = '{"result":{"content":[{"type":"text","text":"42"}]},"jsonrpc":"2.0","id":32}';
    // Only the date varies from run to run.
    expect(wire.replace(/\r\nDate: [^\r]+\r\n/, '\r\nDate: <date>\r\n')).toBe(
      'HTTP/1.1 200 OK\r\n' +
        'content-type: application/json\r\n' +
        `content-length: ${body.length}\r\n` +
        `mcp-session-id: ${directSession}\r\n` +
        'Date: <date>\r\n' +
        'Connection: close\r\n' +
        '\r\n' +
        body,
    );
  });

  it('answers concurrent calls of one session, each as its own JSON reply', async () => {
    const sent = [33, 34, 35].map((id) =>
      open(
        direct.port,
        'POST',
        { ...LEGACY_HEADERS, 'mcp-session-id': directSession },
        JSON.stringify(call(id, 'add', { a: id, b: 1 })),
      ).then(answerOf),
    );
    const answers = await Promise.all(sent);
    expect(answers.map((a) => [a.status, a.framing])).toEqual([
      [200, 'json'],
      [200, 'json'],
      [200, 'json'],
    ]);
    expect(answers.map((a) => a.messages)).toEqual(
      [33, 34, 35].map((id) => [{ result: { content: [{ type: 'text', text: String(id + 1) }] }, jsonrpc: '2.0', id }]),
    );
  });

  it('carries an elicitation to the client on the call stream and the answer back', async () => {
    const asking = await openSession(direct.port, '/mcp', { elicitation: { form: {} } });
    const asked = await open(direct.port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': asking }, JSON.stringify(call(31, 'ask', {})));
    await until(() => asked.text().includes('elicitation/create'));
    const request = eventsOf(asked.text()).find((e) => e.data.method === 'elicitation/create')!.data;
    const response = { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } };
    const posted = await open(direct.port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': asking }, JSON.stringify(response));
    await readAll(posted);
    expect(posted.response.statusCode).toBe(202);
    const answer = await answerOf(asked);
    expect(answer.messages.at(-1)).toEqual({ result: { content: [{ type: 'text', text: 'hello Ada' }] }, jsonrpc: '2.0', id: 31 });
  });
});

describe('direct answers that take their time', () => {
  const server = definition();
  let direct: Endpoint;
  let session: string;

  beforeAll(async () => {
    direct = await endpoint(server, { sseAfterMs: 100 });
    session = await openSession(direct.port);
  });

  afterAll(() => close(direct));

  const post = (body: unknown) => open(direct.port, 'POST', { ...LEGACY_HEADERS, 'mcp-session-id': session }, JSON.stringify(body));

  it('opens a primed SSE stream for a call still running after sseAfterMs, so it stays resumable', async () => {
    const stream = await post(call(40, 'quiet', {}));
    expect(stream.response.headers['content-type']).toBe('text/event-stream');
    await until(() => stream.text().includes('retry: 2500'));
    release();
    const answer = await answerOf(stream);
    expect(stream.text()).toMatch(/^id: \S+\nretry: 2500\ndata: \n\n/);
    expect(answer.messages).toEqual([{ result: { content: [{ type: 'text', text: 'quietly released' }] }, jsonrpc: '2.0', id: 40 }]);
  });

  it('switches each of several calls in progress to SSE, none sooner than its own sseAfterMs after it arrived', async () => {
    // The session's one deadline timer (legacy-posts.ts): each call arrives while it is armed for an earlier one, and
    // nothing arrives after it first fires, so the later calls are switched only if it is armed again for them.
    const ids = [50, 51, 52, 53, 54];
    const streams: { stream: Stream; waited: number }[] = [];
    for (const id of ids) {
      const sent = performance.now();
      void post(call(id, 'quiet', {})).then((stream) => streams.push({ stream, waited: performance.now() - sent }));
      await new Promise((r) => setTimeout(r, 12));
    }
    // A quick call among them is still answered as JSON.
    const quick = await answerOf(await post(call(55, 'add', { a: 20, b: 22 })));
    expect(quick).toEqual({
      status: 200,
      framing: 'json',
      messages: [{ result: { content: [{ type: 'text', text: '42' }] }, jsonrpc: '2.0', id: 55 }],
    });
    await until(() => streams.length === ids.length && streams.every(({ stream }) => stream.text().includes('retry: 2500')));
    for (const { stream, waited } of streams) {
      expect(stream.response.headers['content-type']).toBe('text/event-stream');
      expect(waited).toBeGreaterThanOrEqual(95);
    }
    release();
    const answers = await Promise.all(streams.map(({ stream }) => answerOf(stream)));
    expect(answers.map((answer) => (answer.messages[0] as { id: number }).id).sort()).toEqual(ids);
    for (const answer of answers)
      expect(answer.messages).toEqual([expect.objectContaining({ result: { content: [{ type: 'text', text: 'quietly released' }] } })]);
  });

  it('resumes a dropped call stream with Last-Event-ID: what was missed, then the reply, nothing twice', async () => {
    const stream = await post(call(41, 'hold', {}, { progressToken: 41 }));
    await until(() => stream.text().includes('notifications/progress'));
    const seen = eventsOf(stream.text());
    expect(seen.map((e) => (e.data.params as { progress: number }).progress)).toEqual([1]);
    stream.close();
    await stream.ended;
    release();
    await new Promise((r) => setTimeout(r, 50));
    const resumed = await open(direct.port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': session,
      'last-event-id': seen[0].id!,
    });
    const answer = await answerOf(resumed);
    expect(resumed.response.statusCode).toBe(200);
    expect(answer.messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 41, progress: 2, total: 2 } },
      { result: { content: [{ type: 'text', text: 'released' }] }, jsonrpc: '2.0', id: 41 },
    ]);
  });

  it('drops the reply of a client that left before anything was written, and goes on serving', async () => {
    logged.length = 0;
    // No progress token, so nothing is written before the reply; the client leaves before sseAfterMs opens a stream.
    const left = request({
      host: '127.0.0.1',
      port: direct.port,
      path: '/mcp',
      method: 'POST',
      headers: { ...LEGACY_HEADERS, 'mcp-session-id': session },
    });
    left.on('error', () => undefined);
    left.end(JSON.stringify(call(42, 'hold', {})));
    await new Promise((r) => setTimeout(r, 20));
    left.destroy();
    await new Promise((r) => setTimeout(r, 200));
    release();
    const next = await answerOf(await post(call(43, 'add', { a: 20, b: 22 })));
    expect(next.messages).toEqual([{ result: { content: [{ type: 'text', text: '42' }] }, jsonrpc: '2.0', id: 43 }]);
    expect(logged).toEqual([]);
  });
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The headers of a 2026-07-28 POST, for `body`'s method (and name or uri). */
function modernHeaders(body: object): Record<string, string> {
  const { method, params } = body as { method?: string; params?: { name?: unknown; uri?: unknown } };
  const name = params?.name ?? params?.uri;
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    ...(method !== undefined && { 'mcp-method': method }),
    ...(typeof name === 'string' && { 'mcp-name': name }),
  };
}

const modern = (id: number | string, method: string, params: Record<string, unknown> = {}, meta: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: { ...ENVELOPE, ...meta } },
});

describe('2026-07-28 direct answers compared with the SDK entry', () => {
  const server = definition();
  let direct: Endpoint;
  let sdk: Endpoint;

  beforeAll(async () => {
    direct = await endpoint(server, {});
    sdk = await endpoint(server, { fastPaths: false });
  });

  afterAll(async () => {
    await close(direct);
    await close(sdk);
  });

  async function both(
    body: ReturnType<typeof modern> | object,
    headers: Record<string, string | undefined> = {},
  ): Promise<[Answer, Answer]> {
    const merged = Object.fromEntries(Object.entries({ ...modernHeaders(body), ...headers }).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const send = (port: number) => open(port, 'POST', merged, JSON.stringify(body)).then(answerOf);
    return [await send(direct.port), await send(sdk.port)];
  }

  /** The third entry says whether the hot path answers below the SDK's dispatch (the others take the SDK's). */
  const answered: [string, object, boolean][] = [
    ['a valid tools/call', modern(2, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }), true],
    ['a tools/call whose arguments are wrong', modern(3, 'tools/call', { name: 'add', arguments: { a: 'two', b: 3 } }), true],
    ['a tools/call of an unknown tool', modern(4, 'tools/call', { name: 'nope', arguments: {} }), true],
    ['a tool that throws', modern(5, 'tools/call', { name: 'broken' }), true],
    ['tools/list', modern(6, 'tools/list'), true],
    ['tools/list with a cursor that is not one', modern(7, 'tools/list', { cursor: 'bogus' }), true],
    ['tools/list with a cursor that is a number', modern(12, 'tools/list', { cursor: 5 }), false],
    ['resources/read', modern(8, 'resources/read', { uri: 'notes://a' }), true],
    ['resources/read of an unknown resource', modern(9, 'resources/read', { uri: 'nothing://here' }), true],
    ['prompts/get', modern('p', 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }), true],
    ['prompts/get of an unknown prompt', modern(10, 'prompts/get', { name: 'nope' }), true],
    ['prompts/get whose arguments are not strings', modern(11, 'prompts/get', { name: 'greet', arguments: { name: 7 } }), false],
    ['resources/list', modern(16, 'resources/list'), true],
    ['resources/templates/list', modern(17, 'resources/templates/list'), true],
    ['prompts/list', modern(18, 'prompts/list'), true],
    ['prompts/list with a cursor that is a number', modern(19, 'prompts/list', { cursor: 5 }), false],
    [
      'a tools/call with a progress token and no log level',
      modern(13, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, { progressToken: 13 }),
      true,
    ],
    [
      'a tools/call whose _meta has an own __proto__ key',
      modern(15, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, JSON.parse('{"__proto__":{"polluted":true}}') as object),
      false,
    ],
    [
      'a tools/call whose _meta has a reserved key beside the envelope',
      modern(14, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, { 'io.modelcontextprotocol/related-task': { taskId: 'x' } }),
      false,
    ],
    // The classifier lets clientInfo be left out (the SDK's entry answers such a request too).
    [
      'tools/list with an envelope without clientInfo',
      {
        jsonrpc: '2.0',
        id: 26,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      true,
    ],
  ];

  /** What the direct path answered itself, as `handle` reports it. */
  const taken = () => directHandle.mock.results.filter((r) => r.type === 'return').length;
  const directHandle = jest.spyOn(ModernPool.prototype, 'handle');
  /** Requests the hot path ran itself, below the SDK's dispatch. */
  const hotRuns = jest.spyOn(HotDispatch.prototype as unknown as { run: () => void }, 'run');
  beforeEach(() => {
    directHandle.mockClear();
    hotRuns.mockClear();
  });

  it.each(answered)('answers %s with the same status and body', async (_label, body, hot) => {
    const [ours, theirs] = await both(body);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(ours.framing).toBe('json');
    expect(taken()).toBe(1);
    expect(await directHandle.mock.results[0].value).toBe(true);
    expect(hotRuns).toHaveBeenCalledTimes(hot ? 1 : 0);
  });

  const refused: [string, object, Record<string, string | undefined>][] = [
    ['no Mcp-Method header', modern(20, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }), { 'mcp-method': undefined }],
    [
      'an Mcp-Method header naming another method',
      modern(21, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }),
      { 'mcp-method': 'tools/list' },
    ],
    ['no Mcp-Name header', modern(22, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }), { 'mcp-name': undefined }],
    [
      'an Mcp-Name header naming another tool',
      modern(23, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }),
      { 'mcp-name': 'broken' },
    ],
    ['a version header that disagrees with the envelope', modern(24, 'tools/list'), { 'mcp-protocol-version': '2025-11-25' }],
    ['no version header', modern(25, 'tools/list'), { 'mcp-protocol-version': undefined }],
    [
      'an envelope naming an unknown revision',
      modern(27, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }),
      { 'mcp-protocol-version': '2027-01-01' },
    ],
    ['an Accept without text/event-stream', modern(28, 'tools/list'), { accept: 'application/json' }],
    [
      'retry material of an input-required round',
      modern(29, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 }, requestState: 'forged' }),
      {},
    ],
    [
      'a method this path does not take',
      modern(30, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } }),
      {},
    ],
  ];

  it.each(refused)('leaves a request with %s to the SDK entry, which answers both alike', async (_label, body, headers) => {
    const [ours, theirs] = await both(body, headers);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(taken()).toBe(0);
  });

  it('streams progress and log messages before the reply as the entry does', async () => {
    const body = modern(40, 'tools/call', { name: 'chatty' }, { progressToken: 'tok', 'io.modelcontextprotocol/logLevel': 'info' });
    const [ours, theirs] = await both(body);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(ours.framing).toBe('sse');
    expect(kindsOf(ours.messages)).toEqual(CHATTY_MESSAGES);
    expect(hotRuns).toHaveBeenCalledTimes(1);
  });

  it('sends no log message to a request whose envelope names no log level, as the entry does', async () => {
    const [ours, theirs] = await both(modern(43, 'tools/call', { name: 'chatty' }, { progressToken: 'tok' }));
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(ours.messages.map((m) => (m as { method?: string }).method ?? 'reply')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'reply',
    ]);
  });

  it('answers a tool that asks for input as the entry does (the SDK answers it: the first round runs again)', async () => {
    questions = 0;
    const body = modern(44, 'tools/call', { name: 'question' }, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    const [ours, theirs] = await both(body);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect((ours.messages[0] as { result: { resultType?: string } }).result.resultType).toBe('input_required');
    expect(hotRuns).toHaveBeenCalledTimes(1);
    expect(questions).toBe(3);
  });

  it('answers concurrent requests that share one id, each with its own result', async () => {
    const sums = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const body = modern(1, 'tools/call', { name: 'add', arguments: { a: i, b: 1000 } });
        return open(direct.port, 'POST', modernHeaders(body), JSON.stringify(body)).then(answerOf);
      }),
    );
    expect(sums.map((a) => (a.messages[0] as { result: { content: { text: string }[] } }).result.content[0].text)).toEqual(
      Array.from({ length: 24 }, (_, i) => String(i + 1000)),
    );
  });

  it('cancels a call whose client closed the response, and goes on serving', async () => {
    logged.length = 0;
    aborted = undefined;
    const body = modern(41, 'tools/call', { name: 'watch' }, { progressToken: 41 });
    const stream = await open(direct.port, 'POST', modernHeaders(body), JSON.stringify(body));
    await until(() => stream.text().includes('notifications/progress'));
    stream.close();
    await until(() => aborted !== undefined);
    expect(aborted).toBe(true);
    const next = await both(modern(42, 'tools/call', { name: 'add', arguments: { a: 40, b: 2 } }));
    expect(JSON.stringify(next[0])).toBe(JSON.stringify(next[1]));
    expect(logged).toEqual([]);
  });
});

describe('2026-07-28 requests that flood one id', () => {
  const server = definition();
  let direct: Endpoint;

  beforeAll(async () => {
    direct = await endpoint(server, { maxExchangeServers: 2 });
  });

  afterAll(() => close(direct));

  it('grows the pool only to its bound; the SDK entry answers the rest, each with its own result', async () => {
    const directHandle = jest.spyOn(ModernPool.prototype, 'handle');
    directHandle.mockClear();
    // Two requests of id 7 hold the pool's two servers: each has written its first progress event (so its
    // response has begun) before the flood of the same id arrives.
    const waiting = await Promise.all(
      Array.from({ length: 2 }, (_, i) => {
        const body = modern(7, 'tools/call', { name: 'hold' }, { progressToken: `hold-${i}` });
        return open(direct.port, 'POST', modernHeaders(body), JSON.stringify(body));
      }),
    );
    expect(directHandle).toHaveBeenCalledTimes(2);
    const flood = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const body = modern(7, 'tools/call', { name: 'add', arguments: { a: i, b: 100 } });
        return open(direct.port, 'POST', modernHeaders(body), JSON.stringify(body)).then(answerOf);
      }),
    );
    expect(flood.map((a) => [a.status, (a.messages[0] as { result: { content: { text: string }[] } }).result.content[0].text])).toEqual(
      Array.from({ length: 6 }, (_, i) => [200, String(i + 100)]),
    );
    const refusedByPool = await Promise.all(directHandle.mock.results.slice(2).map((r) => r.value as Promise<boolean>));
    expect(refusedByPool).toEqual([false, false, false, false, false, false]);
    release();
    for (const answer of await Promise.all(waiting.map(answerOf))) {
      expect(answer.messages.at(-1)).toMatchObject({ result: { content: [{ type: 'text', text: 'released' }] }, jsonrpc: '2.0', id: 7 });
    }
    expect(await Promise.all(directHandle.mock.results.slice(0, 2).map((r) => r.value as Promise<boolean>))).toEqual([true, true]);
    directHandle.mockRestore();
  });
});
