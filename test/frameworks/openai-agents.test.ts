import { Agent, MCPServerStreamableHttp, OpenAIProvider, Runner, type RunResult } from '@openai/agents';
import { callOnce, FakeOpenAI } from './support/openai-fake';
import { expectStrictBooking, OurServer, STRICT_BOOK_ARGS } from './support/openai-mcp';
import { describeViolations, strictToolViolations, strictViolations } from './support/strict-rules';

/**
 * The OpenAI Agents SDK (`@openai/agents`) with our server as an MCP server over Streamable HTTP, and its model (the
 * Responses API) pointed at a recording fake of OpenAI's API. With `mcpConfig.convertSchemasToStrict` the SDK sends
 * each MCP tool with `strict: true` when it can convert the tool's schema, and silently (a console warning) falls
 * back to `strict: false` when it cannot. The fake answers with a call of `book`, then with text.
 *
 * The provider is given `baseURL` and `apiKey` and builds its own client: `@openai/agents-openai` 0.20.0 depends on
 * `openai` ^7 (its own nested copy), while the top-level `openai` is 6.49.0, whose `OpenAI` does not type-check as
 * its `openAIClient`.
 */

interface Session {
  ours: OurServer;
  fake: FakeOpenAI;
  result: RunResult<never, never>;
  warnings: string[];
}

async function runAgainst(listing: 'exact' | 'openai-strict', useResponses = true, stream = false): Promise<Session> {
  const ours = new OurServer(listing);
  const fake = new FakeOpenAI(callOnce('book', STRICT_BOOK_ARGS));
  const warnings: string[] = [];
  const warn = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
  const mcp = new MCPServerStreamableHttp({ url: await ours.start(), name: 'shop' });
  try {
    const baseURL = await fake.start();
    await mcp.connect();
    const agent = new Agent({
      name: 'clerk',
      instructions: 'Book what is asked.',
      model: 'gpt-4.1',
      mcpServers: [mcp],
      mcpConfig: { convertSchemasToStrict: true },
    });
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ baseURL, apiKey: 'test', useResponses }),
      tracingDisabled: true,
    });
    if (stream) {
      const streamed = await runner.run(agent, 'Two seats for Ann.', { stream: true });
      for await (const event of streamed) void event;
      await streamed.completed;
      return { ours, fake, result: { finalOutput: streamed.finalOutput } as unknown as RunResult<never, never>, warnings };
    }
    const result = (await runner.run(agent, 'Two seats for Ann.')) as unknown as RunResult<never, never>;
    return { ours, fake, result, warnings };
  } finally {
    warn.mockRestore();
    await mcp.close();
    await fake.close();
    await ours.close();
  }
}

const strictOf = (session: Session) =>
  session.fake.received.map((request) => request.tools.map((tool) => `${tool.name} strict:${tool.strict}`));

describe("the Agents SDK with our server under listing 'openai-strict'", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict')));

  it('sends every tool with strict: true, in both model requests, and warns of nothing', () => {
    expect(session.fake.received.map((r) => r.path)).toStrictEqual(['/v1/responses', '/v1/responses']);
    expect(strictOf(session)).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(session.warnings).toStrictEqual([]);
  });

  it('sends our listing as the parameters, adding only required: [] to the empty object of the dictionary', () => {
    const sent = session.fake.toolsByName();
    expect(JSON.stringify(sent.get('book')!.parameters)).toBe(JSON.stringify(session.ours.schemaOf('book')));
    const order = JSON.stringify(session.ours.schemaOf('order'));
    const empty = '"properties":{},"additionalProperties":false';
    expect(order).toContain(empty);
    expect(JSON.stringify(sent.get('order')!.parameters)).toBe(order.replace(empty, `${empty},"required":[]`));
  });

  it("breaks none of OpenAI's strict-mode rules", () => {
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
  });

  it("passes the model's nulls for optional parameters to our server, which reads them as absent", () => {
    expect(session.ours.calls).toStrictEqual([
      'book {"customer":"Ann","seats":2,"level":null,"day":null,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A","number":null},{"row":"B","number":7}]}',
    ]);
    expect(session.ours.booking.received).toHaveLength(1);
    expectStrictBooking(session.ours.booking.received[0]);
  });

  it("sends the tool's answer back to the model and ends with the model's text", () => {
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['booked 2 for Ann']]);
    expect(session.result.finalOutput).toBe('done');
  });
});

describe("the Agents SDK with our server under listing 'exact' (what the profile fixes)", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('exact')));

  it('falls back to strict: false for order (its dictionary is an open object), with a console warning, and sends book strict', () => {
    expect(strictOf(session)).toStrictEqual([
      ['order strict:false', 'book strict:true'],
      ['order strict:false', 'book strict:true'],
    ]);
    expect(session.warnings.map((w) => w.split(':')[0])).toStrictEqual([
      'Error converting MCP schema to strict mode',
      'Error converting MCP schema to strict mode',
    ]);
  });

  it('sends order as listed, which OpenAI strict mode would refuse at eleven places', () => {
    const order = session.fake.toolsByName().get('order')!;
    expect(JSON.stringify(order.parameters)).toBe(JSON.stringify(session.ours.schemaOf('order')));
    expect(describeViolations(strictViolations(order.parameters))).toStrictEqual([
      '/properties/customer/minLength: unsupported keyword minLength',
      '/properties/customer/maxLength: unsupported keyword maxLength',
      '/required: property level must be required',
      '/properties/level/default: unsupported keyword default',
      '/required: property day must be required',
      '/properties/where/format: unsupported format uri',
      '/properties/data/contentEncoding: unsupported keyword contentEncoding',
      '/properties/tags/uniqueItems: unsupported keyword uniqueItems',
      '/properties/prices/additionalProperties: additionalProperties must be false',
      '/properties/lines/items/required: property qty must be required',
      '/properties/lines/items/required: property note must be required',
    ]);
  });

  it('sends book strict: true after its own conversion (optional made nullable by anyOf), keeping keywords strict mode refuses', () => {
    const book = session.fake.toolsByName().get('book')!;
    expect(JSON.stringify(book.parameters)).toBe(
      '{"type":"object","properties":{"customer":{"type":"string","description":"Who books.","minLength":2,"maxLength":5},' +
        '"seats":{"type":"integer","minimum":1,"maximum":10},"level":{"anyOf":[{"type":"string","enum":["low","high"],"default":"low"},{"type":"null"}]},' +
        '"day":{"anyOf":[{"type":"string","format":"date"},{"type":"null"}]},"coupon":{"type":["string","null"]},"when":{"type":"string","format":"date-time"},' +
        '"wanted":{"type":"array","items":{"type":"object","properties":{"row":{"type":"string"},"number":{"anyOf":[{"type":"integer","minimum":1,"maximum":40},{"type":"null"}]}},' +
        '"required":["row","number"],"additionalProperties":false}}},"required":["customer","seats","level","day","coupon","when","wanted"],"additionalProperties":false}',
    );
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([
      'book/properties/customer/minLength: unsupported keyword minLength',
      'book/properties/customer/maxLength: unsupported keyword maxLength',
      'book/properties/level/anyOf/0/default: unsupported keyword default',
      'book/properties/customer/minLength: unsupported keyword minLength',
      'book/properties/customer/maxLength: unsupported keyword maxLength',
      'book/properties/level/anyOf/0/default: unsupported keyword default',
    ]);
  });

  it('strips the nulls of its own conversion before calling, so our server never sees them', () => {
    expect(session.ours.calls).toStrictEqual([
      'book {"customer":"Ann","seats":2,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A"},{"row":"B","number":7}]}',
    ]);
    expectStrictBooking(session.ours.booking.received[0]);
  });
});

describe("the Agents SDK over Chat Completions (useResponses: false) with our server under listing 'openai-strict'", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict', false)));

  it('sends every tool with strict: true there too, breaking no rule, and the call works end to end', () => {
    expect(session.fake.received.map((r) => r.path)).toStrictEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(strictOf(session)).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(JSON.stringify(session.fake.toolsByName().get('book')!.parameters)).toBe(JSON.stringify(session.ours.schemaOf('book')));
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
    expect(session.ours.calls).toHaveLength(1);
    expectStrictBooking(session.ours.booking.received[0]);
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['booked 2 for Ann']]);
    expect(session.result.finalOutput).toBe('done');
  });
});

describe("the Agents SDK streaming (run with stream: true) with our server under listing 'openai-strict'", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict', true, true)));

  it('streams both model requests with every tool strict, breaking no rule, and the call works end to end', () => {
    expect(session.fake.received.map((r) => [r.path, r.body.stream])).toStrictEqual([
      ['/v1/responses', true],
      ['/v1/responses', true],
    ]);
    expect(strictOf(session)).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
    expectStrictBooking(session.ours.booking.received[0]);
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['booked 2 for Ann']]);
    expect(session.result.finalOutput).toBe('done');
  });
});
