import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Int32, McpServer, Param, Tool, type McpServerOptions } from 'onemodelcontext';
import { ERAS } from '../support';
import { SearchIndex, wordsOf } from '../../../src/server/catalog/search';
import { parameterLines } from '../../../src/server/protocol/search-first';
import type { ToolListing } from '../../../src/server/catalog/listing';
import { anonymousAuthInfo, sdkAuthInfoOf, withEndpoint, type EndpointAuth } from '../../../src/server/auth/caller';

type AuthInfo = ReturnType<typeof anonymousAuthInfo>;

/**
 * The search-first catalog (`catalog: 'search'`) through a real SDK client, both eras: the listing is the three
 * tools, `search_tools` finds, `describe_tool` answers the listing entry, `call_tool` answers exactly what a direct
 * `tools/call` answers, and what a caller may not see is neither found, described nor run.
 */

class Weather {
  @Tool({ description: 'Returns the current weather for a city: temperature, wind and sky.' })
  getWeather(@Param('city', { description: 'The city name, e.g. Paris.' }) city: string): string {
    return `sunny in ${city}`;
  }

  @Tool({ description: 'Converts an amount of money from one currency to another at today’s rate.' })
  convertCurrency(
    @Param('amount', { type: Int32, description: 'How much to convert.' }) amount: number,
    @Param('from', { description: 'ISO code of the currency held.' }) from: string,
    @Param('to', { description: 'ISO code of the currency wanted.' }) to: string,
  ): string {
    return `${amount} ${from} in ${to}`;
  }

  @Tool({ title: 'Send email', description: 'Sends an email message to a recipient.' })
  sendEmail(@Param('to') to: string, @Param('subject', { optional: true }) subject?: string): string {
    return `sent to ${to}${subject === undefined ? '' : `: ${subject}`}`;
  }

  @Tool({ description: 'Deletes a user account for good.' })
  deleteAccount(@Param('userId') userId: string): string {
    return `deleted ${userId}`;
  }
}

function build(options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'search', version: '1' }, { catalog: 'search', logger: false, ...options });
  server.add(new Weather());
  server.tool(
    'admin_report',
    { description: 'Writes the weather report of every city for administrators.', scopes: ['admin'] },
    () => 'report',
  );
  server.disable('tool', 'delete_account');
  return server;
}

type Message = Record<string, unknown>;

/** A client connected in-process; every message it sends carries `authInfo` when scopes (or an `AuthInfo`) are given. */
async function connect(server: McpServer, mode: 'legacy' | 'auto', scopes?: string[] | AuthInfo) {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  if (scopes !== undefined) {
    const authInfo = Array.isArray(scopes) ? { token: 't', clientId: 'c', scopes } : scopes;
    const send = clientEnd.send.bind(clientEnd);
    clientEnd.send = (message, options) => send(message, { ...options, authInfo });
  }
  const client = new Client({ name: 'test-client', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(clientEnd);
  const received: Message[] = [];
  const handler = clientEnd.onmessage!;
  clientEnd.onmessage = (message, extra) => {
    received.push(message as Message);
    handler(message, extra);
  };
  return { client, received };
}

/** The raw answer to a `tools/call`, without its id and the 2026-07-28 result `_meta` (the revision's server info). */
async function rawCall(peer: Awaited<ReturnType<typeof connect>>, name: string, args: unknown): Promise<string> {
  const before = peer.received.length;
  await peer.client.callTool({ name, arguments: args as Record<string, unknown> }).catch(() => undefined);
  const answer = peer.received.slice(before).find((m) => 'result' in m || 'error' in m)!;
  return JSON.stringify({ ...answer, id: 0 });
}

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

async function search(client: Client, args: Record<string, unknown>) {
  return client.callTool({ name: 'search_tools', arguments: args });
}

/** The three tools as the exact profile lists them, in their order. */
const EXACT_LISTING = JSON.stringify([
  {
    name: 'search_tools',
    title: 'Search tools',
    description:
      'Finds the tools of this server that fit a task, best first: each one with its name, title, description and one line per parameter. Then call it with call_tool, or read its full input schema with describe_tool first.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What you want to do, in a few words: the words of a tool’s name and description match best.',
        },
        limit: { type: 'integer', description: 'How many tools to return, from 1 to 20; default 5.', minimum: 1, maximum: 20 },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { title: 'Search tools', readOnlyHint: true },
  },
  {
    name: 'describe_tool',
    title: 'Describe a tool',
    description: 'The full listing of one tool (its input schema, output schema and annotations), as tools/list would send it.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The tool’s name, as search_tools returned it.' } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { title: 'Describe a tool', readOnlyHint: true },
  },
  {
    name: 'call_tool',
    title: 'Call a tool',
    description: 'Calls one tool by name with its arguments and answers what that tool answers.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool’s name, as search_tools returned it.' },
        arguments: { type: 'object', description: 'The tool’s arguments, as its input schema describes them.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { title: 'Call a tool' },
  },
]);

describe.each(ERAS)('the search-first catalog (%s)', (_revision, mode) => {
  it('lists exactly the three tools', async () => {
    const { client } = await connect(build(), mode);
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools)).toBe(EXACT_LISTING);
  });

  it('finds the tool a question asks for, first, with one line per parameter', async () => {
    const { client } = await connect(build(), mode);
    const result = await search(client, { query: 'what is the weather like in Paris', limit: 1 });
    expect(JSON.parse(textOf(result))).toEqual({
      tools: [
        {
          name: 'get_weather',
          description: 'Returns the current weather for a city: temperature, wind and sky.',
          parameters: ['city: string, required. The city name, e.g. Paris.'],
        },
      ],
    });
    const money = JSON.parse(textOf(await search(client, { query: 'convert dollars to euros' }))) as { tools: { name: string }[] };
    expect(money.tools.map((t) => t.name)).toEqual(['convert_currency']);
    const email = JSON.parse(textOf(await search(client, { query: 'send an email' }))) as { tools: unknown[] };
    expect(email.tools).toEqual([
      {
        name: 'send_email',
        title: 'Send email',
        description: 'Sends an email message to a recipient.',
        parameters: ['to: string, required.', 'subject: string, optional.'],
      },
    ]);
  });

  it('describes a tool with its listing entry exactly as tools/list sends it', async () => {
    const { client } = await connect(build(), mode);
    const plain = new McpServer({ name: 'search', version: '1' }, { logger: false }).add(new Weather());
    const { tools } = await (await connect(plain, mode)).client.listTools();
    const entry = tools.find((t) => t.name === 'convert_currency');
    const described = await client.callTool({ name: 'describe_tool', arguments: { name: 'convert_currency' } });
    expect(textOf(described)).toBe(JSON.stringify(entry));
    expect(described.isError).toBeUndefined();
  });

  it('describes under the client’s listing profile', async () => {
    const { client } = await connect(build({ listing: 'openai-strict' }), mode);
    const strict = build({ listing: 'openai-strict', catalog: 'all' });
    const expected = strict.listTools({ listing: 'openai-strict' }).find((t) => t.name === 'send_email');
    const described = await client.callTool({ name: 'describe_tool', arguments: { name: 'send_email' } });
    expect(textOf(described)).toBe(JSON.stringify(expected));
    // The profile's own listing: the optional parameter required and nullable.
    expect(JSON.stringify(expected!.inputSchema)).toContain('"required":["to","subject"]');
    const listed = (await client.listTools()).tools.find((t) => t.name === 'search_tools')!;
    expect(listed.inputSchema.required).toEqual(['query', 'limit']);
  });

  it('answers call_tool byte for byte as tools/call answers, for valid and invalid arguments', async () => {
    const peer = await connect(build(), mode);
    const cases: [string, unknown][] = [
      ['convert_currency', { amount: 12, from: 'EUR', to: 'USD' }],
      ['convert_currency', { amount: 'twelve', from: 'EUR', to: 'USD' }],
      ['convert_currency', { amount: 12, from: 'EUR', to: 'USD', extra: true }],
      ['send_email', { to: 'ana@example.com' }],
      ['send_email', {}],
    ];
    for (const [name, args] of cases) {
      const direct = await rawCall(peer, name, args);
      const wrapped = await rawCall(peer, 'call_tool', { name, arguments: args });
      expect(wrapped).toBe(direct);
    }
    expect(await rawCall(peer, 'call_tool', { name: 'convert_currency', arguments: { amount: 2, from: 'A', to: 'B' } })).toContain(
      '"text":"2 A in B"',
    );
  });

  it('never finds, describes nor runs what the caller may not see', async () => {
    const server = build();
    // A disabled tool, for everyone; a scoped tool, for a caller without the scope.
    // The in-memory transport hands a message's `authInfo` to 2025-era connections only (the SDK's 2026-07-28
    // dispatch does not carry it there), so the scoped case runs in the 2025 era; search-http.test.ts runs both over HTTP.
    const cases = [
      [undefined, ['delete_account']],
      [['other'], ['delete_account', 'admin_report']],
    ] as const;
    for (const [scopes, hidden] of mode === 'legacy' ? cases : cases.slice(0, 1)) {
      const peer = await connect(server, mode, scopes === undefined ? undefined : [...scopes]);
      for (const name of hidden) {
        const found = JSON.parse(textOf(await search(peer.client, { query: name.replace('_', ' '), limit: 20 }))) as {
          tools: { name: string }[];
        };
        expect(found.tools.map((t) => t.name)).not.toContain(name);
        const described = await peer.client.callTool({ name: 'describe_tool', arguments: { name } });
        expect(described.isError).toBe(true);
        expect(textOf(described)).toBe(`describe_tool: no tool is named "${name}"; search_tools finds the tools there are.`);
        const called = await peer.client.callTool({ name: 'call_tool', arguments: { name, arguments: { userId: 'u' } } });
        expect(textOf(called)).toBe(`call_tool: no tool is named "${name}"; search_tools finds the tools there are.`);
      }
    }
    if (mode !== 'legacy') return;
    const admin = await connect(server, mode, ['admin']);
    const found = JSON.parse(textOf(await search(admin.client, { query: 'weather report for administrators', limit: 1 })));
    expect((found as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['admin_report']);
    expect(textOf(await admin.client.callTool({ name: 'call_tool', arguments: { name: 'admin_report' } }))).toBe('report');
  });

  it('answers wrong, missing and hostile input with clear errors', async () => {
    const { client } = await connect(build(), mode);
    const refused = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      return textOf(result);
    };
    expect(await refused('search_tools', { query: '' })).toBe(
      'search_tools: query must be a non-empty string of at most 1000 characters; got 0 characters.',
    );
    expect(await refused('search_tools', {})).toBe(
      'search_tools: query must be a non-empty string of at most 1000 characters; got undefined.',
    );
    expect(await refused('search_tools', { query: 'weather '.repeat(200) })).toBe(
      'search_tools: query must be a non-empty string of at most 1000 characters; got 1600 characters.',
    );
    expect(await refused('search_tools', { query: 'weather', limit: 0 })).toBe(
      'search_tools: limit must be an integer from 1 to 20; got 0.',
    );
    expect(await refused('search_tools', { query: 'weather', limit: 2.5 })).toBe(
      'search_tools: limit must be an integer from 1 to 20; got 2.5.',
    );
    expect(await refused('describe_tool', { name: 'no_such_tool' })).toBe(
      'describe_tool: no tool is named "no_such_tool"; search_tools finds the tools there are.',
    );
    expect(await refused('describe_tool', {})).toBe('describe_tool: no tool is named undefined; search_tools finds the tools there are.');
    expect(await refused('call_tool', { name: 'get_weather', arguments: 'city=Paris' })).toBe(
      'call_tool: arguments must be an object of the tool’s arguments; got "city=Paris".',
    );
    expect(await refused('call_tool', { name: 'get_weather', arguments: ['Paris'] })).toBe(
      'call_tool: arguments must be an object of the tool’s arguments; got an array.',
    );
    expect(await refused('call_tool', { name: 'search_tools', arguments: { query: 'x' } })).toBe(
      'call_tool: no tool is named "search_tools"; search_tools finds the tools there are.',
    );
    // Words that match nothing: no tool, not an error.
    expect(textOf(await search(client, { query: 'zzzz qqqq' }))).toBe('{"tools":[]}');
  });

  it('searches the catalog as it is now: a tool added or disabled after a search', async () => {
    const server = build();
    const { client } = await connect(server, mode);
    const names = async (query: string) =>
      (JSON.parse(textOf(await search(client, { query }))) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(await names('translate text into french')).toEqual([]);
    server.tool('translate', { description: 'Translates a text into French.', params: { text: String } }, () => 'bonjour');
    expect(await names('translate text into french')).toEqual(['translate']);
    server.disable('tool', 'translate');
    expect(await names('translate text into french')).toEqual([]);
  });

  it('keeps every tool callable by tools/call under its own name', async () => {
    const { client } = await connect(build(), mode);
    expect(textOf(await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } }))).toBe('sunny in Oslo');
  });
});

describe('the search-first catalog over an endpoint with auth (2025-11-25, in-process)', () => {
  const RESOURCE = 'https://mcp.example.com/mcp';
  const endpoint: EndpointAuth = {
    baseScopes: [],
    allowAnonymous: true,
    authorize: (_caller, item) => item.name !== 'get_weather',
  };
  const caller = withEndpoint(
    sdkAuthInfoOf('t', { subject: 's', clientId: 'c', scopes: ['admin'], expiresAt: 4102444800, claims: {} }, RESOURCE),
    endpoint,
  );
  const withPing = (options: McpServerOptions = {}) =>
    build(options).tool('ping', { description: 'Checks that the weather service answers.', public: true }, () => 'pong');

  it('never finds, describes nor runs what auth.authorize refuses, and describes with securitySchemes', async () => {
    const { client } = await connect(withPing(), 'legacy', caller);
    const found = JSON.parse(textOf(await search(client, { query: 'weather city', limit: 20 }))) as { tools: { name: string }[] };
    expect(found.tools.map((t) => t.name)).toEqual(['admin_report', 'ping']);
    for (const name of ['describe_tool', 'call_tool']) {
      const refused = await client.callTool({ name, arguments: { name: 'get_weather', arguments: { city: 'Oslo' } } });
      expect(textOf(refused)).toBe(`${name}: no tool is named "get_weather"; search_tools finds the tools there are.`);
    }
    // The entry as the wire carries it (the SDK client drops the top-level `securitySchemes` it does not know).
    const plain = await connect(withPing({ catalog: 'all' }), 'legacy', caller);
    await plain.client.listTools();
    const wire = plain.received.find((m) => 'result' in m) as { result: { tools: { name: string }[] } };
    const entry = wire.result.tools.find((t) => t.name === 'admin_report');
    expect(entry).toHaveProperty('securitySchemes', [{ type: 'oauth2', scopes: ['admin'] }]);
    const described = await client.callTool({ name: 'describe_tool', arguments: { name: 'admin_report' } });
    expect(textOf(described)).toBe(JSON.stringify(entry));
  });

  it('shows a caller without a token the public tools only', async () => {
    const { client } = await connect(withPing(), 'legacy', withEndpoint(anonymousAuthInfo(RESOURCE), endpoint));
    const found = JSON.parse(textOf(await search(client, { query: 'weather city convert email', limit: 20 }))) as {
      tools: { name: string }[];
    };
    expect(found.tools.map((t) => t.name)).toEqual(['ping']);
    expect(textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'ping' } }))).toBe('pong');
    const refused = await client.callTool({ name: 'call_tool', arguments: { name: 'send_email', arguments: { to: 'a' } } });
    expect(textOf(refused)).toBe('call_tool: no tool is named "send_email"; search_tools finds the tools there are.');
  });

  it("reads limit: null as absent under 'openai-strict'", async () => {
    const { client } = await connect(build({ listing: 'openai-strict' }), 'legacy');
    const found = JSON.parse(textOf(await search(client, { query: 'weather email currency account report', limit: null }))) as {
      tools: unknown[];
    };
    expect(found.tools).toHaveLength(4);
  });
});

describe("catalog: 'search' as an option", () => {
  it('takes the three names: a tool of one of them is refused (OMCG0007)', () => {
    class Own {
      @Tool() searchTools(): string {
        return '';
      }
    }
    const server = new McpServer({ name: 's', version: '1' }, { catalog: 'search', logger: false });
    expect(() => server.add(new Own())).toThrow(
      "OMCG0007 Own.searchTools: the tool name 'search_tools' is one of the three tools of catalog: 'search' (search_tools, describe_tool, call_tool).",
    );
    expect(() => server.tool('call_tool', {}, () => '')).toThrow(
      "the tool name 'call_tool' is one of the three tools of catalog: 'search'",
    );
    expect(server.listTools()).toEqual([]);
    // Without the option the names are free.
    expect(() => new McpServer({ name: 's', version: '1' }, { logger: false }).add(new Own())).not.toThrow();
  });

  it("is 'all' or 'search'", () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { catalog: 'find' as never })).toThrow(
      new TypeError(`new McpServer(info, { catalog }) takes 'all' or 'search'; got "find".`),
    );
  });
});

describe('the ranking', () => {
  it('splits names on camelCase, _, - and takes the commonest endings off', () => {
    expect(wordsOf('schedule scheduled schedules scheduling')).toEqual(['schedul', 'schedul', 'schedul', 'schedul']);
    expect(wordsOf('getWeatherForecasts send_email HTTPServer-stats the cities')).toEqual([
      'get',
      'weather',
      'forecast',
      'send',
      'email',
      'http',
      'server',
      'stat',
      'city',
    ]);
  });

  it('ranks the name above the description and keeps only visible tools', () => {
    const tool = (name: string, description: string): ToolListing => ({ name, description, inputSchema: { type: 'object' } });
    const tools = [
      tool('list_invoices', 'Lists orders.'),
      tool('list_orders', 'Lists invoices and orders.'),
      tool('ping', 'Checks the server.'),
    ];
    const index = SearchIndex.of(tools);
    expect(SearchIndex.of(tools)).toBe(index);
    expect(index.search('orders', 5, () => true)).toEqual(['list_orders', 'list_invoices']);
    expect(index.search('orders', 5, (name) => name !== 'list_orders')).toEqual(['list_invoices']);
    expect(index.search('orders', 1, () => true)).toEqual(['list_orders']);
  });

  it('writes one line per parameter', () => {
    expect(
      parameterLines({
        name: 't',
        inputSchema: { type: 'object', properties: { a: { type: ['string', 'null'], description: 'A.' }, b: {} }, required: ['a'] },
      }),
    ).toEqual(['a: string | null, required. A.', 'b: any, optional.']);
  });
});
