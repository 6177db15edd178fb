import 'reflect-metadata';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/server';
import * as Sdk from '@modelcontextprotocol/server';
import { Field, Int32, McpServer, Param, Prompt, Resource, RequestContext, Tool, ToolError } from '../../../src';
import { LEGACY_REVISIONS } from '../../../src/server/stdio/loop';
import { JsonRpcCode } from '../../../src/server/sdk/lazy';

/**
 * Issue 27: the stdio loop (src/server/stdio/loop.ts) answers a connection's opening and its lists before the SDK is
 * loaded, and hands everything else to the SDK's stdio path. The same lines go to a server served through the loop
 * and to one served through the SDK's stdio transport from the start (what every server did before); each answer
 * must be the same string, byte for byte. Answers to concurrent requests may come in another order (both paths
 * answer as handlers settle), so the lines are compared as sorted lists of exact strings.
 */

class Pair {
  @Field() left!: string;
  @Field(Int32) right!: number;
}

class Tools {
  @Tool() add(@Param({ type: Int32 }) a: number, @Param({ type: Int32 }) b: number): number {
    return a + b;
  }

  @Tool() refuse(): string {
    throw new ToolError('not today');
  }

  @Tool() broken(): string {
    throw new Error('secret internals');
  }

  @Tool() async chatty(ctx: RequestContext): Promise<string> {
    await ctx.reportProgress(1, 2, 'half');
    await ctx.log('info', { step: 1 });
    await ctx.reportProgress(2);
    return 'done';
  }

  @Tool() picture(): unknown {
    return [
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' },
    ];
  }

  @Tool({ returns: Pair }) pair(): Pair {
    return Object.assign(new Pair(), { left: 'a', right: 2 });
  }

  @Tool() question(ctx: RequestContext): string {
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
    return 'stopped';
  }

  @Tool() async ask(ctx: RequestContext): Promise<string> {
    const answer = (await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    })) as { action?: string };
    return `answered ${answer.action}`;
  }

  @Resource('notes://{name}', { mimeType: 'text/plain' }) note(name: string): string {
    return `note ${name}`;
  }

  @Resource('plain://one', { mimeType: 'text/plain' }) one(): string {
    return 'one';
  }

  @Prompt() greet(name: string): string {
    return `Greet ${name}`;
  }
}

class Slow {
  @Tool({ task: 'optional', returns: String })
  later(): string {
    return 'done';
  }
}

class Scalar {
  @Tool({ returns: Number }) count(): number {
    return 3;
  }
}

type Options = ConstructorParameters<typeof McpServer>[1];

interface Serving {
  serveStreams(stdin: Readable, stdout: Writable, options: object, loop: boolean): Promise<void>;
}

/** How many times the last loop-served server connected an SDK transport (the loop handed the connection over). */
let handOvers = 0;

/** Serves `lines` over in-memory streams through the loop or the SDK path; the lines written once `count` arrived. */
async function serve(lines: readonly string[], count: number, loop: boolean, make: () => McpServer): Promise<string[]> {
  const server = make();
  const connect = jest.spyOn(server, 'connect');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: string[] = [];
  let buffered = '';
  let wake: () => void = () => undefined;
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let at: number;
    while ((at = buffered.indexOf('\n')) !== -1) {
      received.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
    }
    wake();
  });
  await (server as unknown as Serving).serveStreams(stdin, stdout, {}, loop);
  for (const line of lines) stdin.write(`${line}\n`);
  while (received.length < count) await new Promise<void>((resolve) => (wake = resolve));
  // Anything sent after the expected answers would be a difference too: one more turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  if (loop) handOvers = connect.mock.calls.length;
  return received;
}

const serverOf =
  (options: Options = {}, tools: object = new Tools()) =>
  () =>
    new McpServer({ name: 'loop', version: '1.0.0', icons: [{ src: 'https://example.com/i.png' }] }, { logger: false, ...options }).add(
      tools,
    );

/**
 * Both paths' answers, sorted, after checking they are the same strings and that the loop handed the connection
 * over (`handedOver`) or answered everything itself.
 */
async function same(lines: readonly (object | string)[], count: number, make = serverOf(), handedOver = true): Promise<string[]> {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  const viaLoop = (await serve(text, count, true, make)).sort();
  const viaSdk = (await serve(text, count, false, make)).sort();
  expect(viaLoop).toEqual(viaSdk);
  expect(viaLoop).toHaveLength(count);
  expect(handOvers).toBe(handedOver ? 1 : 0);
  return viaLoop;
}

const initialize = (protocolVersion: string, id: number | string = 1, capabilities: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const request = (id: number, method: string, params?: object) => ({ jsonrpc: '2.0', id, method, ...(params && { params }) });

describe('stdio loop: the same bytes as the SDK path', () => {
  it.each(['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', '1999-01-01'])(
    'initialize %s, initialized, the four lists and ping',
    async (version) => {
      const answers = await same(
        [
          initialize(version),
          initialized,
          request(2, 'tools/list', {}),
          request(3, 'resources/list'),
          request(4, 'resources/templates/list', { _meta: { progressToken: 7 } }),
          request(5, 'prompts/list', {}),
          request(6, 'ping'),
        ],
        6,
        serverOf(),
        false,
      );
      expect(answers.find((a) => a.includes('"id":1}'))).toContain(
        `"protocolVersion":"${LEGACY_REVISIONS.includes(version) ? version : '2025-11-25'}"`,
      );
    },
  );

  it("catalog: 'search': the SDK's handlers answer tools/list and the three tools, the loop a direct tools/call", async () => {
    const answers = await same(
      [
        initialize('2025-11-25'),
        initialized,
        request(2, 'tools/list'),
        request(3, 'tools/call', { name: 'search_tools', arguments: { query: 'add', limit: 1 } }),
        request(4, 'tools/call', { name: 'call_tool', arguments: { name: 'add', arguments: { a: 2, b: 3 } } }),
        request(5, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }),
      ],
      5,
      serverOf({ catalog: 'search' }),
    );
    expect(answers.find((a) => a.includes('"id":2}'))).toContain('"tools":[{"name":"search_tools"');
    expect(answers.find((a) => a.includes('"id":3}'))).toContain('{\\"tools\\":[{\\"name\\":\\"add\\"');
    const [called, direct] = [4, 5].map((id) => answers.find((a) => a.includes(`"id":${id}}`))!.replace(`"id":${id}}`, ''));
    expect(called).toBe(direct);
  });

  it('tools/call in the loop: a result, invalid arguments, an unknown tool, isError, then the lists', async () => {
    await same(
      [
        initialize('2025-11-25'),
        initialized,
        request(2, 'tools/list'),
        request(3, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }),
        request(4, 'tools/call', { name: 'add', arguments: { a: 'x' } }),
        request(5, 'tools/call', { name: 'nope', arguments: {} }),
        request(6, 'tools/call', { name: 'refuse', arguments: {} }),
        request(7, 'tools/list'),
        request(8, 'ping'),
      ],
      8,
      serverOf(),
      false,
    );
  });

  it('tools/call served by the loop: progress and log notifications, a result the SDK codec checks, structured content, a failure', async () => {
    await same(
      [
        initialize('2025-11-25'),
        initialized,
        request(2, 'tools/call', { name: 'chatty', arguments: {}, _meta: { progressToken: 'p' } }),
        request(3, 'tools/call', { name: 'chatty' }),
        request(4, 'tools/call', { name: 'picture', arguments: {} }),
        request(5, 'tools/call', { name: 'pair', arguments: {} }),
        request(6, 'tools/call', { name: 'broken', arguments: {} }),
        request(7, 'tools/call', { name: 'add', arguments: { a: 2147483648, b: 1 } }),
      ],
      // Six answers, three progress notifications, two log messages.
      11,
      serverOf(),
      false,
    );
  });

  it('tools/call handed over: requireInput (its first round runs again on the SDK), a client that may be asked (elicitation)', async () => {
    await same(
      [initialize('2025-11-25'), initialized, request(2, 'tools/call', { name: 'question', arguments: {} }), request(3, 'ping')],
      3,
    );
    await same(
      [initialize('2025-11-25', 1, { elicitation: {} }), initialized, request(2, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } })],
      2,
    );
  });

  it('a cancelled call answers nothing, before and after the connection is handed over', async () => {
    const cancel = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'enough' } });
    await same(
      [initialize('2025-11-25'), request(2, 'tools/call', { name: 'slow', arguments: {} }), cancel(2), request(3, 'ping')],
      2,
      serverOf(),
      false,
    );
    await same(
      [
        initialize('2025-11-25'),
        request(2, 'tools/call', { name: 'slow', arguments: {} }),
        request(3, 'logging/setLevel', { level: 'info' }),
        cancel(2),
        request(4, 'ping'),
      ],
      3,
    );
  });

  it('methods the loop does not own: logging/setLevel, resources/read, prompts/get, completion/complete', async () => {
    await same(
      [
        initialize('2025-06-18'),
        initialized,
        request(2, 'logging/setLevel', { level: 'info' }),
        request(3, 'resources/read', { uri: 'notes://a' }),
        request(4, 'resources/read', { uri: 'missing://a' }),
        request(5, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }),
        request(6, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } }),
        request(7, 'resources/subscribe', { uri: 'plain://one' }),
        request(8, 'prompts/list'),
      ],
      8,
    );
  });

  it('lines that are not JSON, notifications/cancelled, an unknown method, a response and a list with unknown params', async () => {
    await same(
      [
        'not json',
        initialize('2025-11-25', 'open'),
        '{"broken":',
        initialized,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99, reason: 'late' } },
        request(2, 'tools/list', { cursor: 'forged' }),
        request(3, 'tools/list', { extra: true }),
        request(4, 'no/such/method'),
        { jsonrpc: '2.0', id: 'x', result: {} },
        request(5, 'ping'),
      ],
      7,
    );
  });

  describe('lines around Unicode whitespace and a byte-order mark (issue 37: one such line ended the process)', () => {
    /** Every Unicode whitespace character but the line feed, and the byte-order mark. */
    const SPACES = [
      '\t',
      '\v',
      '\f',
      '\r',
      ' ',
      '\u0085',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u2001',
      '\u2002',
      '\u2003',
      '\u2004',
      '\u2005',
      '\u2006',
      '\u2007',
      '\u2008',
      '\u2009',
      '\u200a',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
    ];
    /** JSON's own whitespace: JSON.parse reads a line around it. */
    const JSON_SPACES = ['\t', '\r', ' '];
    const NOT_JSON = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON."}}';
    const around = (id: number) =>
      SPACES.flatMap((space) => [`${space}${JSON.stringify(request(id, 'ping'))}`, `${JSON.stringify(request(id, 'ping'))}${space}`]);

    it('answers each such line -32700 unless it is JSON whitespace, before and after initialize, and serves on', async () => {
      const lines = [
        ...around(90),
        JSON.stringify(initialize('2025-11-25')),
        JSON.stringify(initialized),
        ...around(91),
        JSON.stringify(request(2, 'tools/list')),
      ];
      const refused = 2 * (SPACES.length - JSON_SPACES.length);
      // Before initialize the SDK answers a ping too; after it, the loop and the SDK answer the same.
      const answers = await same(lines, 2 * refused + 2 * 2 * JSON_SPACES.length + 2, serverOf());
      expect(answers.filter((a) => a === NOT_JSON)).toHaveLength(2 * refused);
      expect(
        answers.filter((a) => a === '{"result":{},"jsonrpc":"2.0","id":91}' || a === '{"jsonrpc":"2.0","id":91,"result":{}}'),
      ).toHaveLength(2 * JSON_SPACES.length);
      expect(answers.some((a) => a.includes('"id":2') && a.includes('"tools"'))).toBe(true);
    });

    it('drops a byte-order mark at the start of the stream (Windows PowerShell 5.1 pipes start with one)', async () => {
      const answers = await same(
        [
          '\ufeff' + JSON.stringify(initialize('2025-11-25')),
          initialized,
          request(2, 'ping'),
          '\ufeff' + JSON.stringify(request(3, 'ping')),
        ],
        3,
        serverOf(),
        false,
      );
      expect(answers.filter((a) => a === NOT_JSON)).toHaveLength(1);
      expect(answers.some((a) => a.includes('"protocolVersion":"2025-11-25"'))).toBe(true);
    });
  });

  it('a request before initialize, a second initialize and an opening the loop does not read', async () => {
    await same([request(1, 'tools/list'), initialize('2025-11-25', 2), request(3, 'tools/list'), initialize('2025-11-25', 4)], 4);
    await same([initialize('2025-11-25', 1, { tasks: {} }), initialized, request(2, 'tools/list')], 2);
    await same(
      [{ ...initialize('2025-11-25'), params: { ...initialize('2025-11-25').params, _meta: { a: 1 } } }, request(2, 'tools/list')],
      2,
    );
  });

  it('a 2026-07-28 opening over stdio (server/discover) goes to the SDK from its first message', async () => {
    await same([request(1, 'server/discover', {}), request(2, 'ping')], 2);
  });

  it('MCP Apps negotiated, pages with cursors, instructions', async () => {
    // One secret for both servers: their cursors are signed alike, so the second page's request is the same line
    // (a cursor of another list is refused by the SDK, which the loop hands the connection to for it).
    const make = serverOf({ pageSize: 1, instructions: 'Be brief.', requestStateSecret: 'a secret of at least thirty-two bytes' });
    const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    const first = await same([initialize('2025-11-25', 1, apps), request(2, 'tools/list')], 2, make, false);
    const cursor = (JSON.parse(first.find((a) => a.includes('"id":2}'))!) as { result: { nextCursor: string } }).result.nextCursor;
    expect(typeof cursor).toBe('string');
    await same([initialize('2025-11-25', 1, apps), request(2, 'tools/list', { cursor }), request(3, 'prompts/list', { cursor })], 3, make);
  });

  it('a tool returning a scalar: its output schema and structured content as the SDK path sends them', async () => {
    await same(
      [initialize('2025-11-25'), request(2, 'tools/list'), request(3, 'tools/call', { name: 'count', arguments: {} })],
      3,
      serverOf({}, new Scalar()),
      false,
    );
  });

  it.each([
    ['tool', 'add'],
    ['prompt', 'greet'],
    ['resource', 'plain://one'],
  ] as const)('a %s list change while the loop serves is notified as the SDK notifies it', async (kind, key) => {
    const lines = [initialize('2025-11-25'), initialized, request(2, 'ping')].map((l) => JSON.stringify(l));
    const run = async (loop: boolean) => {
      const server = serverOf()();
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const out: string[] = [];
      stdout.on('data', (d: Buffer) => out.push(...d.toString('utf8').split('\n').filter(Boolean)));
      await (server as unknown as Serving).serveStreams(stdin, stdout, {}, loop);
      for (const line of lines) stdin.write(`${line}\n`);
      while (out.length < 2) await new Promise((resolve) => setImmediate(resolve));
      server.disable(kind, key);
      while (out.length < 3) await new Promise((resolve) => setImmediate(resolve));
      await server.close();
      return out.sort();
    };
    expect(await run(true)).toEqual(await run(false));
  });
});

describe('stdio loop: a catalog that gains a task tool', () => {
  it('hands the connection over at the next message, since tasks are served by the SDK only', async () => {
    const server = serverOf()();
    const connect = jest.spyOn(server, 'connect');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out: string[] = [];
    stdout.on('data', (d: Buffer) => out.push(...d.toString('utf8').split('\n').filter(Boolean)));
    await (server as unknown as Serving).serveStreams(stdin, stdout, {}, true);
    for (const line of [initialize('2025-11-25'), initialized, request(2, 'ping')]) stdin.write(`${JSON.stringify(line)}\n`);
    while (out.length < 2) await new Promise((resolve) => setImmediate(resolve));
    const before = connect.mock.calls.length;
    server.add(new Slow());
    stdin.write(`${JSON.stringify(request(3, 'ping'))}\n`);
    while (!out.some((line) => line.includes('"id":3'))) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    expect([before, connect.mock.calls.length]).toEqual([0, 1]);
  });
});

describe('stdio loop: what it knows of the SDK', () => {
  it('negotiates the SDK Server’s own 2025-era revisions, newest first', () => {
    const supported = (new Server({ name: 'probe', version: '0' }) as unknown as { _supportedProtocolVersions: string[] })
      ._supportedProtocolVersions;
    expect(JSON.stringify(LEGACY_REVISIONS)).toBe(JSON.stringify(supported.filter((v) => v < '2026-07-28')));
  });

  it('names the JSON-RPC error codes with the SDK’s values', () => {
    const codes = Sdk.ProtocolErrorCode as unknown as Record<string, number>;
    for (const [name, value] of Object.entries(JsonRpcCode)) expect(`${name} ${value}`).toBe(`${name} ${codes[name]}`);
  });
});
