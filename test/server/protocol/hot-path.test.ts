import 'reflect-metadata';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { RequestStates, signingKeys } from '../../../src/server/protocol/signing';
import { Field, Int32, Param, Prompt, Resource, RequestContext, Tool } from '../../../src';
import { Catalog } from '../../../src/server/catalog/catalog';
import { createProtocolServer, type CatalogServer } from '../../../src/server/protocol/server';
import { Pager } from '../../../src/server/catalog/pages';
import { InMemoryTaskStore } from '../../../src/server/tasks/store';
import { TaskRunner } from '../../../src/server/tasks/tasks';
import { Log } from '../../../src/log';
import { WRITTEN, stageOut } from '../../../src/server/protocol/stages';

/**
 * Issue 16: the hot requests of a 2025-era connection (tools/call, the four lists, resources/read, prompts/get, ping)
 * and its opening (initialize, notifications/initialized) are answered below the SDK's dispatch. The same messages go to two servers over the same catalog, one with the
 * hot path and one without, through a raw JSON-RPC peer; everything each peer receives must be the same, byte for
 * byte (key order included), and the hot path must have taken exactly the requests it claims.
 */

/** Why each `slow` call was aborted, in order. */
const aborts: unknown[] = [];

class Item {
  @Field() name!: string;
  @Field(Int32) qty!: number;
}

class Tools {
  @Tool() add(@Param({ type: Int32 }) a: number, @Param({ type: Int32 }) b: number): number {
    return a + b;
  }

  @Tool({ returns: Item }) item(name: string): Item {
    return Object.assign(new Item(), { name, qty: 2 });
  }

  @Tool() broken(): string {
    throw new Error('secret internals');
  }

  @Tool() picture(): unknown {
    return [
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' },
    ];
  }

  @Tool() async chatty(ctx: RequestContext): Promise<string> {
    await ctx.reportProgress(1, 2, 'half');
    await ctx.log('info', { step: 1 });
    await ctx.log('debug', 'hidden once the level is info');
    await ctx.reportProgress(2, 2);
    return 'done';
  }

  @Tool() async ask(ctx: RequestContext): Promise<string> {
    const answer = (await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    })) as { content?: { name?: string } };
    return `hello ${answer.content?.name}`;
  }

  @Tool() async question(ctx: RequestContext): Promise<string> {
    const answer = ctx.inputResponse('name') as { content?: { name?: string } } | undefined;
    if (!answer)
      ctx.requireInput({
        name: {
          method: 'elicitation/create',
          params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      });
    return `hello ${answer!.content?.name}`;
  }

  @Tool() async slow(signal: AbortSignal): Promise<string> {
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    aborts.push(signal.reason);
    return 'stopped';
  }

  @Resource('notes://{name}', { mimeType: 'text/plain' }) note(name: string): string {
    return `note ${name}`;
  }

  @Resource('fail://x') failing(): string {
    throw new Error('nope');
  }

  @Prompt() greet(name: string): string {
    return `Greet ${name}`;
  }
}

type Message = Record<string, unknown>;

/** A server over its own in-memory pair, and everything the peer receives from it. */
class Peer {
  readonly received: string[] = [];
  sdkMessages = 0;

  private constructor(
    readonly server: CatalogServer,
    private readonly end: InMemoryTransport,
  ) {}

  static async open(catalog: Catalog, hot: boolean): Promise<Peer> {
    const keys = signingKeys(new Uint8Array(32).fill(7));
    const server = createProtocolServer(catalog, {
      info: { name: 's', version: '1' },
      states: new RequestStates(keys),
      pager: new Pager(keys.cursor, undefined),
      log: Log.silent,
      cache: { ttlMs: 0, scope: 'private' },
      tasks: new TaskRunner(new InMemoryTaskStore()),
    });
    if (hot) server.answerHotRequests();
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const peer = new Peer(server, clientEnd);
    // Counts the requests and notifications that reach the SDK's own dispatch (answers to the server's own
    // requests always do): the SDK calls the handler a transport had before it connected first.
    serverEnd.onmessage = (message) => {
      if ('method' in message) peer.sdkMessages++;
    };
    clientEnd.onmessage = (message) => {
      peer.received.push(JSON.stringify(message));
      const m = message as Message;
      // The client side of server-to-client requests: elicitation answered with a fixed name.
      if (m.method === 'elicitation/create' && m.id !== undefined)
        void clientEnd.send({ jsonrpc: '2.0', id: m.id as number, result: { action: 'accept', content: { name: 'Ada' } } });
    };
    await clientEnd.start();
    await server.connect(serverEnd);
    return peer;
  }

  send(message: unknown): Promise<void> {
    return this.end.send(message as never);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function pair(): Promise<[Peer, Peer]> {
  const catalog = new Catalog({ log: Log.silent });
  catalog.addInstance(new Tools());
  const peers: [Peer, Peer] = [await Peer.open(catalog, true), await Peer.open(catalog, false)];
  for (const peer of peers) {
    await peer.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } },
    });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  await settle();
  return peers;
}

/** Sends the same message to both, waits, and returns what each received for it. */
async function both(peers: [Peer, Peer], message: unknown): Promise<[string[], string[]]> {
  const before = peers.map((p) => p.received.length);
  for (const peer of peers) await peer.send(message);
  await settle();
  return [peers[0].received.slice(before[0]), peers[1].received.slice(before[1])];
}

const call = (id: unknown, name: string, args?: unknown, extra: Message = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
});

/** Requests the hot path answers itself. */
const TAKEN: [string, unknown][] = [
  ['ping', { jsonrpc: '2.0', id: 1, method: 'ping' }],
  ['ping with _meta', { jsonrpc: '2.0', id: 'p', method: 'ping', params: { _meta: { note: 1 } } }],
  ['tools/list', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
  ['tools/list with empty params', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }],
  ['tools/list with a cursor that is not ours', { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'nonsense' } }],
  ['tools/call', call(5, 'add', { a: 1, b: 2 })],
  ['tools/call, string id', call('five', 'add', { a: 1, b: 2 })],
  ['tools/call, structured result', call(6, 'item', { name: 'x' })],
  ['tools/call, content blocks (checked by the SDK codec)', call(7, 'picture', {})],
  ['tools/call, arguments refused', call(8, 'add', { a: 'one', b: 2 })],
  ['tools/call, missing arguments', call(9, 'add')],
  ['tools/call, unknown tool', call(10, 'nope', {})],
  ['tools/call, the tool throws', call(11, 'broken', {})],
  ['tools/call, progress token and logs', call(12, 'chatty', {}, { _meta: { progressToken: 'tok' } })],
  ['tools/call, elicitation round trip', call(13, 'ask', {})],
  ['resources/read, template', { jsonrpc: '2.0', id: 14, method: 'resources/read', params: { uri: 'notes://a' } }],
  ['resources/read, unknown', { jsonrpc: '2.0', id: 15, method: 'resources/read', params: { uri: 'notes:/nothing/here/at/all' } }],
  ['resources/read, failing', { jsonrpc: '2.0', id: 16, method: 'resources/read', params: { uri: 'fail://x' } }],
  ['prompts/get', { jsonrpc: '2.0', id: 17, method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada' } } }],
  ['prompts/get, missing argument', { jsonrpc: '2.0', id: 18, method: 'prompts/get', params: { name: 'greet' } }],
  ['prompts/get, unknown prompt', { jsonrpc: '2.0', id: 19, method: 'prompts/get', params: { name: 'nope' } }],
  ['resources/list', { jsonrpc: '2.0', id: 60, method: 'resources/list' }],
  ['resources/list with a cursor that is not ours', { jsonrpc: '2.0', id: 61, method: 'resources/list', params: { cursor: 'nonsense' } }],
  ['resources/templates/list', { jsonrpc: '2.0', id: 62, method: 'resources/templates/list', params: {} }],
  ['prompts/list', { jsonrpc: '2.0', id: 63, method: 'prompts/list', params: { _meta: { note: 1 } } }],
];

/** Requests left to the SDK: whatever its schemas might answer differently, or the multi-round-trip shim. */
const LEFT: [string, unknown][] = [
  ['no jsonrpc', { id: 20, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }],
  ['fractional id', call(21.5, 'add', { a: 1, b: 2 })],
  ['null id', call(null, 'add', { a: 1, b: 2 })],
  ['an extra top-level key', { ...call(22, 'add', { a: 1, b: 2 }), extra: true }],
  ['tools/call without params', { jsonrpc: '2.0', id: 23, method: 'tools/call' }],
  ['tools/call, name not a string', call(24, 7 as unknown as string, {})],
  ['tools/call, arguments an array', call(25, 'add', [1, 2])],
  ['tools/call, arguments a string', call(26, 'add', 'a=1')],
  ['tools/call, a task', call(27, 'add', { a: 1, b: 2 }, { task: { ttl: 1000 } })],
  ['tools/call, progress token not a string or integer', call(28, 'add', { a: 1, b: 2 }, { _meta: { progressToken: 1.5 } })],
  [
    'tools/call, a 2026-07-28 envelope key',
    call(29, 'add', { a: 1, b: 2 }, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
  ],
  ['tools/call, requestState', call(30, 'add', { a: 1, b: 2 }, { requestState: 'x' })],
  [
    'tools/call, __proto__ in the arguments',
    { jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'add', arguments: JSON.parse('{"__proto__": {"a": 1}, "b": 2}') } },
  ],
  ['tools/list, cursor not a string', { jsonrpc: '2.0', id: 32, method: 'tools/list', params: { cursor: 5 } }],
  ['resources/read without uri', { jsonrpc: '2.0', id: 33, method: 'resources/read', params: {} }],
  [
    'prompts/get, argument not a string',
    { jsonrpc: '2.0', id: 34, method: 'prompts/get', params: { name: 'greet', arguments: { name: 5 } } },
  ],
  ['ping, params an array', { jsonrpc: '2.0', id: 35, method: 'ping', params: [] }],
  ['resources/list, cursor not a string', { jsonrpc: '2.0', id: 64, method: 'resources/list', params: { cursor: 1 } }],
  ['resources/templates/list, an unknown param', { jsonrpc: '2.0', id: 65, method: 'resources/templates/list', params: { page: 2 } }],
  ['prompts/list, cursor null', { jsonrpc: '2.0', id: 66, method: 'prompts/list', params: { cursor: null } }],
];

describe('the hot path answers exactly as the SDK', () => {
  let peers: [Peer, Peer];

  beforeAll(async () => {
    peers = await pair();
    // From here on, debug logs are below the client's threshold on both.
    await both(peers, { jsonrpc: '2.0', id: 'level', method: 'logging/setLevel', params: { level: 'info' } });
  });

  it.each(TAKEN)('takes %s', async (_name, message) => {
    const sdkBefore = peers[0].sdkMessages;
    const [hot, sdk] = await both(peers, message);
    expect(sdk.length).toBeGreaterThan(0);
    expect(hot).toEqual(sdk);
    expect(peers[0].sdkMessages).toBe(sdkBefore);
  });

  it.each(LEFT)('leaves %s to the SDK', async (_name, message) => {
    const sdkBefore = peers[0].sdkMessages;
    const [hot, sdk] = await both(peers, message);
    expect(hot).toEqual(sdk);
    expect(peers[0].sdkMessages).toBe(sdkBefore + 1);
  });

  it('hands a tool that asks for input (requireInput) to the SDK, which serves the 2025 era by elicitation', async () => {
    const [hot, sdk] = await both(peers, call(40, 'question', {}));
    expect(hot).toEqual(sdk);
    expect(hot.map((m) => JSON.parse(m) as Message).find((m) => m.id === 40)).toEqual({
      result: { content: [{ type: 'text', text: 'hello Ada' }] },
      jsonrpc: '2.0',
      id: 40,
    });
  });

  it('answers a cancelled call with nothing, as the SDK does', async () => {
    const sent = peers.map((p) => p.received.length);
    for (const peer of peers) await peer.send(call(41, 'slow', {}));
    await settle();
    const [hot, sdk] = await both(peers, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 41, reason: 'enough' },
    });
    expect(hot).toEqual(sdk);
    expect(peers.map((p, i) => p.received.slice(sent[i]).filter((m) => (JSON.parse(m) as Message).id === 41))).toEqual([[], []]);
  });

  it('aborts the calls in progress when the connection closes, as the SDK does', async () => {
    const closing = await pair();
    aborts.length = 0;
    for (const peer of closing) await peer.send(call(50, 'slow', {}));
    await settle();
    for (const peer of closing) await peer.server.close();
    await settle();
    expect(aborts.map((reason) => [(reason as Error).constructor.name, (reason as Error).message])).toEqual([
      ['SdkError', 'Connection closed'],
      ['SdkError', 'Connection closed'],
    ]);
  });
});

describe('the opening (initialize, notifications/initialized) is answered below the SDK exactly as the SDK answers it', () => {
  const init = (params: unknown, id: unknown = 0) => ({ jsonrpc: '2.0', id, method: 'initialize', params });
  const info = { name: 'raw', version: '1' };
  const params = (capabilities: unknown, clientInfo: unknown = info, protocolVersion: unknown = '2025-11-25') => ({
    protocolVersion,
    capabilities,
    clientInfo,
  });

  /** Read by hand: the SDK's schemas would read each the same (unknown keys dropped, shapes reordered, `{}` elicitation). */
  const TAKEN_OPENINGS: [string, unknown][] = [
    ['no capabilities', init(params({}))],
    ['the usual client capabilities', init(params({ sampling: {}, elicitation: {}, roots: { listChanged: true } }))],
    [
      'capabilities out of the schema order',
      init(params({ roots: { listChanged: false }, elicitation: { form: {}, url: {} }, sampling: { tools: {}, context: {} } })),
    ],
    [
      'MCP Apps and experimental capabilities',
      init(
        params({
          extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
          experimental: { x: { a: [1, { b: null }], c: 'd' } },
        }),
      ),
    ],
    ['elicitation with applyDefaults', init(params({ elicitation: { form: { applyDefaults: true } } }))],
    ['elicitation url only', init(params({ elicitation: { url: { note: 1 } } }))],
    [
      'unknown capabilities and client info keys (dropped)',
      init(params({ future: { a: 1 }, roots: { listChanged: true, other: 2 } }, { extra: true, version: '2', name: 'n' })),
    ],
    [
      'client info with every field, out of order',
      init(params({}, { description: 'd', websiteUrl: 'https://x.example', version: '3', title: 'T', name: 'n' })),
    ],
    ['an older revision', init(params({}, info, '2024-11-05'))],
    ['an unknown revision', init(params({}, info, '1999-01-01'))],
    ['a string id', init(params({}), 'open')],
  ];

  /** Left to the SDK: whatever its schemas might read or refuse otherwise. */
  const LEFT_OPENINGS: [string, unknown][] = [
    ['no params', { jsonrpc: '2.0', id: 0, method: 'initialize' }],
    ['no capabilities', init({ protocolVersion: '2025-11-25', clientInfo: info })],
    ['no client version', init(params({}, { name: 'raw' }))],
    ['a protocol version that is not a string', init(params({}, info, 20251125))],
    ['_meta in the params', init({ ...params({}), _meta: { progressToken: 1 } })],
    ['an unknown key in the params', init({ ...params({}), extra: 1 })],
    ['the tasks capability', init(params({ tasks: { list: {} } }))],
    ['client icons', init(params({}, { ...info, icons: [{ src: 'https://x.example/i.png' }] }))],
    ['an unusual elicitation shape', init(params({ elicitation: { url: {}, form: {} } }))],
    ['an experimental capability that is not an object', init(params({ experimental: { x: 1 } }))],
    ['sampling context that is an array', init(params({ sampling: { context: [] } }))],
    ['roots.listChanged that is not a boolean', init(params({ roots: { listChanged: 'yes' } }))],
    ['__proto__ in an extension', init(params({ extensions: JSON.parse('{"__proto__": {"a": 1}}') }))],
    ['a fractional id', init(params({}), 1.5)],
    ['an extra top-level key', { ...init(params({})), extra: true }],
  ];

  async function opened(): Promise<{ peers: [Peer, Peer]; initialized: number[] }> {
    const catalog = new Catalog({ log: Log.silent });
    catalog.addInstance(new Tools());
    const peers: [Peer, Peer] = [await Peer.open(catalog, true), await Peer.open(catalog, false)];
    const initialized = [0, 0];
    peers.forEach((peer, i) => (peer.server.oninitialized = () => initialized[i]++));
    return { peers, initialized };
  }

  /** What each server keeps of the opening, as JSON (key order included). */
  const kept = (server: CatalogServer) =>
    JSON.stringify([server.getNegotiatedProtocolVersion(), server.getClientCapabilities(), server.getClientVersion()]);

  it.each(TAKEN_OPENINGS)('takes initialize with %s', async (_name, message) => {
    const { peers, initialized } = await opened();
    const [hot, sdk] = await both(peers, message);
    expect(sdk).toHaveLength(1);
    expect(hot).toEqual(sdk);
    expect(kept(peers[0].server)).toBe(kept(peers[1].server));
    const [hotAfter, sdkAfter] = await both(peers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([hotAfter, sdkAfter]).toEqual([[], []]);
    expect(initialized).toEqual([1, 1]);
    expect(peers.map((p) => p.sdkMessages)).toEqual([0, 2]);
  });

  it.each(LEFT_OPENINGS)('leaves initialize with %s to the SDK', async (_name, message) => {
    const { peers } = await opened();
    const [hot, sdk] = await both(peers, message);
    expect(hot).toEqual(sdk);
    expect(kept(peers[0].server)).toBe(kept(peers[1].server));
    expect(peers.map((p) => p.sdkMessages)).toEqual([1, 1]);
  });

  it('takes the client capabilities the schema would keep, with the SDK reading an empty elicitation as the form mode', async () => {
    const { peers } = await opened();
    await both(peers, init(params({ roots: { listChanged: true }, elicitation: {}, future: {} })));
    expect(JSON.stringify(peers[0].server.getClientCapabilities())).toBe('{"elicitation":{"form":{}},"roots":{"listChanged":true}}');
  });

  it('leaves notifications/initialized with params, or before initialize, to the SDK', async () => {
    const { peers, initialized } = await opened();
    await both(peers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(peers.map((p) => p.sdkMessages)).toEqual([1, 1]);
    await both(peers, init(params({})));
    await both(peers, { jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: { a: 1 } } });
    expect(peers.map((p) => p.sdkMessages)).toEqual([2, 3]);
    expect(initialized).toEqual([2, 2]);
  });

  it('serves a second initialize through the SDK, as the SDK serves it', async () => {
    const { peers } = await opened();
    await both(peers, init(params({})));
    const [hot, sdk] = await both(peers, init(params({ sampling: {} }, info, '2025-06-18'), 1));
    expect(hot).toEqual(sdk);
    expect(kept(peers[0].server)).toBe(kept(peers[1].server));
    expect(peers.map((p) => p.sdkMessages)).toEqual([1, 2]);
  });

  // The SDK answers such a pipelined tools/list before initialize (fewer promise hops), the hot path in order;
  // JSON-RPC leaves the order of answers open, and a client must await initialize's answer anyway.
  it('answers messages sent right behind initialize (in the same read) as the negotiated revision', async () => {
    const { peers } = await opened();
    const before = peers.map((p) => p.received.length);
    for (const peer of peers) {
      await Promise.all([
        peer.send(init(params({}))),
        peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      ]);
    }
    await settle();
    const [hot, sdk] = peers.map((p, i) => p.received.slice(before[i]));
    expect([...hot].sort()).toEqual([...sdk].sort());
    expect(hot.map((m) => (JSON.parse(m) as Message).id)).toEqual([0, 2]);
    expect(peers[0].sdkMessages).toBe(0);
  });
});

describe("an answer's sending: written at once, it is not waited for; failing, it is reported", () => {
  const failure = 'Failed to send response: Error: the connection is gone';
  it.each<[string, () => Promise<void>, string[]]>([
    ['written at once', () => WRITTEN, []],
    ['written later', () => new Promise<void>((resolve) => setTimeout(resolve, 1)), []],
    ['rejected', () => Promise.reject(new Error('the connection is gone')), [failure]],
    [
      'thrown',
      () => {
        throw new Error('the connection is gone');
      },
      [failure],
    ],
  ])('%s', async (_, sending, reported) => {
    const [hot] = await pair();
    const errors: string[] = [];
    hot.server.onerror = (error) => void errors.push(error.message);
    const taken: unknown[] = [];
    // In place of a legacy post's stage: it takes the answer of request 5 and sends it as `sending` says.
    stageOut(hot.server.transport!, 'legacy-posts', (message) => {
      if ((message as Message).id !== 5) return message;
      taken.push(message);
      return sending();
    });
    await hot.send(call(5, 'add', { a: 1, b: 2 }));
    await settle();
    expect(taken).toEqual([{ result: { content: [{ type: 'text', text: '3' }] }, jsonrpc: '2.0', id: 5 }]);
    expect(errors).toEqual(reported);
  });
});
