import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as V1Memory } from '@modelcontextprotocol/sdk/inMemory.js';
import { Complete, Description, McpServer, Param, Prompt, Resource, Tool, type CompletionContext } from '../../../src';
import { connected, ERAS } from '../support';

const PNG_ICON = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48', '96x96'], theme: 'light' } as const;
const SVG_ICON = { src: 'data:image/svg+xml;base64,PHN2Zy8+', sizes: ['any'] } as const;

enum Unit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

const CITIES: Record<string, readonly string[]> = { fr: ['Paris', 'Porto-Vecchio', 'Perpignan'], pt: ['Porto', 'Portimão'] };

class Weather {
  @Tool({ icons: [PNG_ICON], cache: { ttlMs: 60_000, scope: 'public' } })
  forecast(city: string): string {
    return `sunny in ${city}`;
  }

  @Tool({ cache: { ttlMs: 5_000 } })
  alerts(): string {
    return 'none';
  }

  @Resource('weather://stations', {
    mimeType: 'application/json',
    size: 2048,
    annotations: { audience: ['user', 'assistant'], priority: 0.5, lastModified: new Date('2026-01-31T12:00:00Z') },
    icons: [SVG_ICON],
    cache: { ttlMs: 30_000, scope: 'public' },
  })
  stations(): string {
    return '[]';
  }

  @Resource('weather://{country}/{city}/today', {
    annotations: { priority: 1, lastModified: '2026-02-01T08:00:00+01:00' },
    complete: { country: (typed: string) => Object.keys(CITIES).filter((c) => c.startsWith(typed)) },
  })
  today(
    country: string,
    @Complete((typed: string, context: CompletionContext) => (CITIES[context.arguments.country] ?? []).filter((c) => c.startsWith(typed)))
    city: string,
  ): string {
    return `${city}, ${country}: sunny`;
  }

  @Resource('weather://archive/{day}', { annotations: { lastModified: '2026-01-01T00:00:00Z' } })
  archive(day: string): string {
    return day;
  }

  @Prompt({ icons: [PNG_ICON], cache: { ttlMs: 10_000, scope: 'public' } })
  planTrip(
    @Description('Where to')
    @Complete(function (this: Weather, typed: string) {
      return this.everyCity().filter((c) => c.startsWith(typed));
    })
    city: string,
    @Param({ type: Unit }) unit: Unit,
  ): string {
    return `Plan a trip to ${city} (${unit}).`;
  }

  everyCity(): string[] {
    return Array.from({ length: 150 }, (_, i) => `City${i}`).concat(Object.values(CITIES).flat());
  }
}

function weatherServer(): McpServer {
  return new McpServer({ name: 'weather', version: '1.0.0', icons: [PNG_ICON] }, { logger: false }).add(new Weather());
}

const FORECAST = {
  name: 'forecast',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  icons: [PNG_ICON],
};
const ALERTS = { name: 'alerts', inputSchema: { type: 'object', properties: {}, additionalProperties: false } };
const STATIONS = {
  uri: 'weather://stations',
  name: 'stations',
  mimeType: 'application/json',
  size: 2048,
  annotations: { audience: ['user', 'assistant'], priority: 0.5, lastModified: '2026-01-31T12:00:00.000Z' },
  icons: [SVG_ICON],
};
const TODAY = {
  uriTemplate: 'weather://{country}/{city}/today',
  name: 'today',
  annotations: { priority: 1, lastModified: '2026-02-01T08:00:00+01:00' },
};
const ARCHIVE = { uriTemplate: 'weather://archive/{day}', name: 'archive', annotations: { lastModified: '2026-01-01T00:00:00Z' } };
const PLAN_TRIP = {
  name: 'plan_trip',
  arguments: [
    { name: 'city', description: 'Where to', required: true },
    { name: 'unit', required: true },
  ],
  icons: [PNG_ICON],
};

/** The result of a list response as it was read from the wire, cache fields and server info stripped. */
function lastResult(received: Record<string, unknown>[]): Record<string, unknown> {
  const response = received.filter((m) => 'result' in m).at(-1) as { result: Record<string, unknown> };
  const { _meta: _ignored, resultType: _type, ...rest } = response.result;
  return rest;
}

/** A v1 SDK client offering `version`; `received` holds every message the server sent, initialize's answer included. */
async function v1Connected(server: McpServer, version: string) {
  const [clientEnd, serverEnd] = V1Memory.createLinkedPair();
  const received: Record<string, unknown>[] = [];
  const sendToClient = serverEnd.send.bind(serverEnd);
  serverEnd.send = (message, options) => {
    received.push(JSON.parse(JSON.stringify(message)) as Record<string, unknown>);
    return sendToClient(message, options);
  };
  await server.connect(serverEnd as never);
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) =>
    send(
      'method' in message && message.method === 'initialize'
        ? { ...message, params: { ...(message.params as object), protocolVersion: version } }
        : message,
      options,
    );
  const client = new V1Client({ name: 'v1', version: '1.0.0' });
  await client.connect(clientEnd);
  return { client, received };
}

/** The `serverInfo` of the `initialize` answer, as sent. */
function sentServerInfo(received: Record<string, unknown>[]): unknown {
  return (received[0] as { result: { serverInfo: unknown } }).result.serverInfo;
}

describe('listing metadata: icons, size, annotations', () => {
  it.each(ERAS)('%s: tools, resources, templates and prompts list their icons, size and annotations exactly', async (_version, mode) => {
    const { client, received } = await connected(weatherServer(), mode);
    await client.listTools();
    expect(JSON.stringify(lastResult(received).tools)).toBe(JSON.stringify([FORECAST, ALERTS]));
    await client.listResources();
    expect(JSON.stringify(lastResult(received).resources)).toBe(JSON.stringify([STATIONS]));
    await client.listResourceTemplates();
    expect(JSON.stringify(lastResult(received).resourceTemplates)).toBe(JSON.stringify([TODAY, ARCHIVE]));
    await client.listPrompts();
    expect(JSON.stringify(lastResult(received).prompts)).toBe(JSON.stringify([PLAN_TRIP]));
    await client.close();
  });

  it('2025-11-25 (v1 client): the server info carries its icons', async () => {
    const { client, received } = await v1Connected(weatherServer(), '2025-11-25');
    expect(JSON.stringify(sentServerInfo(received))).toBe(JSON.stringify({ name: 'weather', version: '1.0.0', icons: [PNG_ICON] }));
    await client.close();
  });

  it('2025-06-18 (v1 client): no icons anywhere, lastModified kept', async () => {
    const { client, received } = await v1Connected(weatherServer(), '2025-06-18');
    expect(JSON.stringify(sentServerInfo(received))).toBe(JSON.stringify({ name: 'weather', version: '1.0.0' }));
    await client.listTools();
    expect(JSON.stringify(lastResult(received).tools)).toBe(
      JSON.stringify([{ name: 'forecast', inputSchema: FORECAST.inputSchema }, ALERTS]),
    );
    await client.listResources();
    const { icons: _i, ...stations } = STATIONS;
    expect(JSON.stringify(lastResult(received).resources)).toBe(JSON.stringify([stations]));
    await client.listPrompts();
    expect(JSON.stringify(lastResult(received).prompts)).toBe(JSON.stringify([{ name: 'plan_trip', arguments: PLAN_TRIP.arguments }]));
    await client.close();
  });

  it('2024-11-05 (v1 client): no icons, no lastModified; an annotation left empty is not listed', async () => {
    const { client, received } = await v1Connected(weatherServer(), '2024-11-05');
    await client.listResources();
    const stations = {
      uri: STATIONS.uri,
      name: STATIONS.name,
      mimeType: STATIONS.mimeType,
      size: 2048,
      annotations: { audience: ['user', 'assistant'], priority: 0.5 },
    };
    expect(JSON.stringify(lastResult(received).resources)).toBe(JSON.stringify([stations]));
    await client.listResourceTemplates();
    expect(JSON.stringify(lastResult(received).resourceTemplates)).toBe(
      JSON.stringify([
        { uriTemplate: TODAY.uriTemplate, name: 'today', annotations: { priority: 1 } },
        { uriTemplate: ARCHIVE.uriTemplate, name: 'archive' },
      ]),
    );
    await client.close();
  });

  it('a server that declares no metadata lists exactly what it did before, in every revision', async () => {
    class Plain {
      @Tool() ping(): string {
        return 'pong';
      }
      @Resource('plain://a', { mimeType: 'text/plain' }) a(): string {
        return 'a';
      }
    }
    const server = new McpServer({ name: 'plain', version: '1.0.0' }, { logger: false }).add(new Plain());
    for (const version of ['2024-11-05', '2025-06-18', '2025-11-25']) {
      const { client, received } = await v1Connected(server, version);
      await client.listTools();
      expect(JSON.stringify(lastResult(received))).toBe(
        JSON.stringify({ tools: [{ name: 'ping', inputSchema: { type: 'object', properties: {}, additionalProperties: false } }] }),
      );
      await client.listResources();
      expect(JSON.stringify(lastResult(received))).toBe(
        JSON.stringify({ resources: [{ uri: 'plain://a', name: 'a', mimeType: 'text/plain' }] }),
      );
      await client.close();
    }
  });
});

describe('completions', () => {
  it.each(ERAS)('%s: a template variable completes through the complete option', async (_version, mode) => {
    const { client } = await connected(weatherServer(), mode);
    const answer = await client.complete({
      ref: { type: 'ref/resource', uri: 'weather://{country}/{city}/today' },
      argument: { name: 'country', value: 'f' },
    });
    expect(JSON.stringify(answer.completion)).toBe(JSON.stringify({ values: ['fr'], total: 1, hasMore: false }));
    await client.close();
  });

  it.each(ERAS)('%s: @Complete on a template variable sees the variables already resolved', async (_version, mode) => {
    const { client } = await connected(weatherServer(), mode);
    const answer = await client.complete({
      ref: { type: 'ref/resource', uri: 'weather://{country}/{city}/today' },
      argument: { name: 'city', value: 'Por' },
      context: { arguments: { country: 'pt' } },
    });
    expect(JSON.stringify(answer.completion)).toBe(JSON.stringify({ values: ['Porto', 'Portimão'], total: 2, hasMore: false }));
    await client.close();
  });

  it.each(ERAS)(
    '%s: @Complete on a prompt argument runs with the instance as this, capped at 100 values with the total',
    async (_version, mode) => {
      const { client } = await connected(weatherServer(), mode);
      const answer = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'city', value: 'City' } });
      expect(answer.completion.values).toEqual(Array.from({ length: 100 }, (_, i) => `City${i}`));
      expect(answer.completion.total).toBe(150);
      expect(answer.completion.hasMore).toBe(true);
      await client.close();
    },
  );

  it('an enum argument without a completion function still completes from its values (v1 client)', async () => {
    const { client } = await v1Connected(weatherServer(), '2025-11-25');
    const answer = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'unit', value: 'c' } });
    expect(JSON.stringify(answer.completion)).toBe(JSON.stringify({ values: ['celsius'], total: 1, hasMore: false }));
    await client.close();
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('database password is hunter2');
      },
      'threw (request 1): Error: database password is hunter2',
    ],
    [
      'returns junk',
      () => [1, 2] as unknown as string[],
      'returned a list holding something other than strings, not a list of strings (request 1)',
    ],
    ['returns nothing', () => undefined as unknown as string[], 'returned undefined, not a list of strings (request 1)'],
    ['rejects', () => Promise.reject(new TypeError('no connection')), 'threw (request 1): TypeError: no connection'],
  ])(
    'a completion function that %s: a clear -32603 for the client, the reason in the log, nothing internal on the wire',
    async (_what, completer, logged) => {
      class Broken {
        @Prompt() ask(@Complete(completer) topic: string): string {
          return topic;
        }
      }
      const lines: string[] = [];
      const logger = {
        error: (message: string) => lines.push(message),
        warn: () => undefined,
        info: () => undefined,
        debug: () => undefined,
      };
      const server = new McpServer({ name: 'b', version: '1' }, { logger }).add(new Broken());
      const { client, received } = await connected(server, 'legacy');
      await expect(client.complete({ ref: { type: 'ref/prompt', name: 'ask' }, argument: { name: 'topic', value: 'x' } })).rejects.toThrow(
        "The completion of argument 'topic' failed.",
      );
      const error = (received.at(-1) as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(-32603);
      expect(JSON.stringify(error)).not.toMatch(/hunter2|no connection/);
      expect(lines).toEqual([`The completion of prompt 'ask', argument 'topic' ${logged}`]);
      await client.close();
    },
  );
});

describe('cache hints (2026-07-28)', () => {
  function cacheFields(received: Record<string, unknown>[]) {
    const { ttlMs, cacheScope } = (received.filter((m) => 'result' in m).at(-1) as { result: { ttlMs?: number; cacheScope?: string } })
      .result;
    return { ttlMs, cacheScope };
  }

  it('a list carries the most careful hint of its entries; entries without one count as the server default', async () => {
    const { client, received } = await connected(weatherServer(), 'auto');
    await client.listTools();
    expect(cacheFields(received)).toEqual({ ttlMs: 5_000, cacheScope: 'private' });
    await client.listPrompts();
    expect(cacheFields(received)).toEqual({ ttlMs: 10_000, cacheScope: 'public' });
    await client.listResources();
    expect(cacheFields(received)).toEqual({ ttlMs: 30_000, cacheScope: 'public' });
    await client.listResourceTemplates();
    expect(cacheFields(received)).toEqual({ ttlMs: 0, cacheScope: 'private' });
    await client.close();
  });

  it('resources/read carries the resource own hint; the server default fills the rest', async () => {
    const server = new McpServer({ name: 'w', version: '1' }, { logger: false, cache: { ttlMs: 1_000, scope: 'public' } }).add(
      new Weather(),
    );
    const { client, received } = await connected(server, 'auto');
    await client.readResource({ uri: 'weather://stations' });
    expect(cacheFields(received)).toEqual({ ttlMs: 30_000, cacheScope: 'public' });
    await client.readResource({ uri: 'weather://fr/Paris/today' });
    expect(cacheFields(received)).toEqual({ ttlMs: 1_000, cacheScope: 'public' });
    await client.listResourceTemplates();
    expect(cacheFields(received)).toEqual({ ttlMs: 1_000, cacheScope: 'public' });
    await client.close();
  });

  it('2025 revisions carry no cache fields', async () => {
    const { client, received } = await connected(weatherServer(), 'legacy');
    await client.listTools();
    await client.readResource({ uri: 'weather://stations' });
    for (const message of received.filter((m) => 'result' in m)) expect(Object.keys(message.result as object)).not.toContain('ttlMs');
    await client.close();
  });
});

describe('over HTTP', () => {
  let server: McpServer;
  let url: URL;
  /** The JSON-RPC results of every response body the clients read, as sent. */
  const bodies: Record<string, unknown>[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) bodies.push((await response.clone().json()) as Record<string, unknown>);
    if (type.includes('text/event-stream')) {
      const text = await response.clone().text();
      for (const line of text.split('\n'))
        if (line.startsWith('data: ') && line.length > 6) bodies.push(JSON.parse(line.slice(6)) as Record<string, unknown>);
    }
    return response;
  };
  const resultOf = (method: string) =>
    (bodies.filter((b) => 'result' in b).at(-1) as { result: Record<string, unknown> } | undefined)?.result ?? fail(method);
  const fail = (method: string): never => {
    throw new Error(`no result recorded for ${method}`);
  };

  beforeAll(async () => {
    server = new McpServer(
      { name: 'weather', version: '1.0.0', icons: [PNG_ICON] },
      { logger: false, cache: { ttlMs: 2_000, scope: 'public' } },
    ).add(new Weather());
    url = new URL((await server.serveHttp({ port: 0 })).url);
  });
  afterAll(() => server.close());

  it('2026-07-28 (v2 client): icons listed, the list and read cache hints, server/discover with the server default', async () => {
    const client = new V2Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(url, { fetch: recording }));
    await client.listTools();
    const tools = resultOf('tools/list');
    expect(JSON.stringify(tools.tools)).toBe(JSON.stringify([FORECAST, ALERTS]));
    expect([tools.ttlMs, tools.cacheScope]).toEqual([5_000, 'private']); // alerts: 5 s, private
    await client.readResource({ uri: 'weather://stations' });
    const read = resultOf('resources/read');
    expect([read.ttlMs, read.cacheScope]).toEqual([30_000, 'public']);
    const discover = bodies.find((b) => (b.result as { supportedVersions?: unknown } | undefined)?.supportedVersions !== undefined)
      ?.result as Record<string, unknown>;
    expect([discover.ttlMs, discover.cacheScope]).toEqual([2_000, 'public']);
    await client.close();
  });

  it('2025-06-18 (v1 client): a session lists no icons and no cache fields', async () => {
    const transport = new V1Http(url, { fetch: recording });
    const send = transport.send.bind(transport);
    transport.send = (message, options) =>
      send(
        'method' in message && message.method === 'initialize'
          ? { ...message, params: { ...(message.params as object), protocolVersion: '2025-06-18' } }
          : message,
        options,
      );
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    await client.listTools();
    expect(JSON.stringify(resultOf('tools/list'))).toBe(
      JSON.stringify({ tools: [{ name: 'forecast', inputSchema: FORECAST.inputSchema }, ALERTS] }),
    );
    await client.close();
  });
});
