import { Gemini, InMemoryRunner, LlmAgent, LogLevel, MCPToolset, setLogger, type Event } from '@google/adk';
import { FakeGeminiApi, declarationsOf, lastPartsOf } from './support/google-fake-api';
import { ORDER_ARGS, ORDER_RECEIVED, ORDER_TEXT, OrderServer, servePayloads, spelled, type Listing } from './support/google-server';
import { violationLines } from './support/gemini-rules';
import { ADK_DECLARATIONS } from './support/google-adk-declarations';

// ADK's CommonJS build requires `lodash-es`, which Jest cannot load as it ships (see support/google-lodash-es.ts).
jest.mock('lodash-es', () => jest.requireActual<typeof import('./support/google-lodash-es')>('./support/google-lodash-es').lodashEs());

/**
 * `@google/adk`'s `MCPToolset` over Streamable HTTP to our server, its tools' function declarations, and an
 * `LlmAgent` with the toolset run by an `InMemoryRunner` against the recording fake Gemini API.
 *
 * ADK (2.0.0) converts an MCP `inputSchema` itself (`toGeminiSchema`): it keeps `type` (uppercase, one per
 * fragment, a type list's `null` as `nullable`), `description`, `enum`, `nullable`, `properties`, `required`,
 * `items` and `anyOf`, and drops every other keyword: formats, bounds, lengths, `pattern`, item counts,
 * `propertyOrdering`, `default`. So either listing reaches Gemini valid; only the `'gemini'` profile's words (its
 * `describeConstraints`) carry the bounds and formats that ADK drops, in the descriptions it keeps. But it copies no
 * `nullable` it is given: the `'gemini'` profile's `nullable: true` is lost (the exact listing's type list is not).
 *
 * The agent reaches the fake through its `generateContentConfig.httpOptions` (`baseUrl`, and a `fetch`, without
 * which the SDK's own Undici dispatcher fails in Jest's sandbox): ADK's `Gemini` takes no base URL of its own.
 */

// A ceiling for a loaded 2-core machine (servers, child processes), not a timing assertion.
jest.setTimeout(30_000);

/** ADK's log lines, kept from the console. */
const logged: string[] = [];
setLogger({
  log: (level: LogLevel, ...args: unknown[]) => logged.push(`${LogLevel[level]} ${args.map(String).join(' ')}`),
  debug: (...args: unknown[]) => logged.push(`DEBUG ${args.map(String).join(' ')}`),
  info: (...args: unknown[]) => logged.push(`INFO ${args.map(String).join(' ')}`),
  warn: (...args: unknown[]) => logged.push(`WARN ${args.map(String).join(' ')}`),
  error: (...args: unknown[]) => logged.push(`ERROR ${args.map(String).join(' ')}`),
  setLogLevel: () => undefined,
});
afterAll(() => setLogger(null));

async function declarationsFor(listing: Listing): Promise<string> {
  const server = await OrderServer.start(listing);
  try {
    const tools = await new MCPToolset({ type: 'StreamableHTTPConnectionParams', url: server.url }).getTools();
    return JSON.stringify(tools.map((tool) => tool._getDeclaration()));
  } finally {
    await server.close();
  }
}

describe.each(['gemini', 'exact'] as const)("@google/adk's MCPToolset, our server listing %s", (listing) => {
  let declarations: string;
  beforeAll(async () => {
    declarations = await declarationsFor(listing);
  });

  it('declares what ADK keeps of our listing, exactly', () => {
    expect(declarations).toBe(ADK_DECLARATIONS[listing]);
  });

  it("breaks none of Gemini's Schema rules", () => {
    const [order] = JSON.parse(declarations) as { parameters: unknown }[];
    expect(violationLines(order.parameters)).toEqual([]);
  });
});

describe("what ADK keeps of the 'gemini' profile", () => {
  const described = (listing: Listing) => {
    const [order] = JSON.parse(ADK_DECLARATIONS[listing]) as { parameters: { properties: Record<string, { description?: string }> } }[];
    return Object.fromEntries(Object.entries(order.parameters.properties).map(([name, p]) => [name, p.description]));
  };

  it("under 'gemini': bounds, lengths, formats, the default and the set's uniqueness, in each description", () => {
    expect(described('gemini')).toEqual({
      customer: 'The customer. 2 to 5 characters.',
      count: 'From 1 to 1000.',
      coupon: undefined,
      level: 'One of: low, high. Default: low.',
      id: 'A UUID such as 123e4567-e89b-12d3-a456-426614174000.',
      day: 'A date such as 2026-12-02.',
      when: 'A date and time such as 2026-12-02T10:30:00Z.',
      where: 'An absolute URL such as https://example.com/.',
      data: 'Base64-encoded bytes.',
      tags: 'No duplicates.',
      prices: 'An object of any property names, each value a number.',
      lines: undefined,
      sizes: 'Sizes.',
      wait: 'A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).',
    });
  });

  it("drops the profile's nullable: true, which the exact listing's type list keeps", () => {
    const nullable = (listing: Listing) => {
      const [order] = JSON.parse(ADK_DECLARATIONS[listing]) as { parameters: { properties: Record<string, { nullable?: boolean }> } }[];
      return Object.entries(order.parameters.properties).flatMap(([name, p]) => (p.nullable === true ? [name] : []));
    };
    expect(nullable('gemini')).toEqual([]);
    expect(nullable('exact')).toEqual(['coupon']);
    expect(JSON.parse(ADK_DECLARATIONS.exact)[0].parameters.properties.lines.items.properties.note).toEqual({
      type: 'STRING',
      nullable: true,
    });
  });

  it("under 'exact': only the descriptions the tool wrote; every bound and format is lost", () => {
    expect(described('exact')).toEqual({
      customer: 'The customer.',
      count: undefined,
      coupon: undefined,
      level: undefined,
      id: undefined,
      day: undefined,
      when: undefined,
      where: undefined,
      data: undefined,
      tags: undefined,
      prices: undefined,
      lines: undefined,
      sizes: 'Sizes.',
      wait: undefined,
    });
  });
});

interface AgentRun {
  readonly events: Event[];
  readonly requests: FakeGeminiApi['requests'];
  readonly server: OrderServer;
}

async function runAgent(listing: Listing): Promise<AgentRun> {
  const server = await OrderServer.start(listing);
  const fake = await FakeGeminiApi.start('order', ORDER_ARGS);
  try {
    const agent = new LlmAgent({
      name: 'orders',
      model: new Gemini({ model: 'gemini-2.5-flash', apiKey: 'test-key' }),
      instruction: 'Take orders.',
      tools: [new MCPToolset({ type: 'StreamableHTTPConnectionParams', url: server.url })],
      generateContentConfig: { httpOptions: { baseUrl: fake.origin, fetch: (input, init) => fetch(input, init) } },
    });
    const runner = new InMemoryRunner({ agent, appName: 'orders' });
    const events: Event[] = [];
    for await (const event of runner.runEphemeral({ userId: 'u', newMessage: { role: 'user', parts: [{ text: 'Order tea for Ann.' }] } })) {
      events.push(event);
    }
    return { events, requests: fake.requests, server };
  } finally {
    await fake.close();
    await server.close();
  }
}

describe.each(['gemini', 'exact'] as const)('an ADK LlmAgent with the MCPToolset, our server listing %s', (listing) => {
  let result: AgentRun;
  beforeAll(async () => {
    result = await runAgent(listing);
  });

  it('sends Gemini the declarations MCPToolset gives, each valid', () => {
    expect(result.requests).toHaveLength(2);
    for (const request of result.requests) {
      expect(JSON.stringify(declarationsOf(request))).toBe(ADK_DECLARATIONS[listing]);
      expect(violationLines(declarationsOf(request)[0].parameters)).toEqual([]);
    }
  });

  it("calls our tool with the model's arguments, read into their types", () => {
    expect(spelled(result.server.calls)).toEqual(ORDER_RECEIVED);
  });

  it('logs no error but the aborted SSE stream of each MCP session ADK closes', () => {
    const errors = logged.filter((line) => line.startsWith('ERROR '));
    expect(
      errors.filter((line) => line !== 'ERROR MCP transport error: SSE stream disconnected: AbortError: This operation was aborted'),
    ).toEqual([]);
  });

  it("sends the tool's answer back as the functionResponse, and ends with the model's text", () => {
    const [response] = lastPartsOf(result.requests[1]);
    expect(response.functionResponse?.name).toBe('order');
    expect(JSON.stringify(response.functionResponse?.response)).toBe(JSON.stringify({ content: [{ type: 'text', text: ORDER_TEXT }] }));
    expect(result.events.at(-1)?.content?.parts).toEqual([{ text: 'done' }]);
  });
});

describe("ADK's MCPToolset and a free JSON parameter (`Json`)", () => {
  const declared = async (listing: Listing) => {
    const server = await servePayloads(listing);
    try {
      const [tool] = await new MCPToolset({ type: 'StreamableHTTPConnectionParams', url: server.url }).getTools();
      return tool._getDeclaration()?.parameters;
    } finally {
      await server.close();
    }
  };

  it("under 'exact' declares the typeless {} as TYPE_UNSPECIFIED, which Gemini's Type says not to use", async () => {
    const parameters = await declared('exact');
    expect(JSON.stringify(parameters)).toBe(
      '{"type":"OBJECT","properties":{"payload":{"type":"TYPE_UNSPECIFIED"}},"required":["payload"]}',
    );
    expect(violationLines(parameters)).toEqual(['/properties/payload/type: not a Gemini type: "TYPE_UNSPECIFIED"']);
  });

  it("under 'gemini' declares the profile's anyOf of typed branches", async () => {
    const parameters = await declared('gemini');
    expect(JSON.stringify(parameters)).toBe(
      '{"type":"OBJECT","properties":{"payload":{"anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"}]}},"required":["payload"]}',
    );
    expect(violationLines(parameters)).toEqual([]);
  });
});
