import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { callOnce, FakeOpenAI, type OfferedTool } from './support/openai-fake';
import { expectStrictBooking, OurServer, STRICT_BOOK_ARGS } from './support/openai-mcp';
import type { MastraOutcome } from './support/openai-mastra-run';
import { describeViolations, strictViolations } from './support/strict-rules';

/**
 * Mastra: `@mastra/mcp`'s MCPClient lists our server's tools (as `shop_order`, `shop_book`) and calls `book`; a
 * `@mastra/core` Agent, its model the OpenAI-compatible config `{ id: 'openai/gpt-4.1', url }` pointed at the
 * recording fake (Chat Completions), runs the tool loop. Mastra runs in a child process (see
 * support/openai-mastra-run.ts: it needs an ES-module-only package); our servers and the fakes run here.
 *
 * Mastra turns each listed schema into zod and back, through its OpenAI compatibility layer: it sends no `strict`
 * flag, adds `$schema`, drops every `format`, moves a `pattern` into the description ("constraints: input must match
 * this regex ..."), and lists every property as required. It checks the model's arguments against its zod schema
 * before calling the server.
 */

const LISTINGS = ['openai-strict', 'exact'] as const;
const CHILD_TIMEOUT_MS = 60_000;

let servers: OurServer[];
let fakes: FakeOpenAI[];
let outcomes: MastraOutcome[];

beforeAll(async () => {
  servers = LISTINGS.map((listing) => new OurServer(listing));
  fakes = LISTINGS.map(() => new FakeOpenAI(callOnce('book', STRICT_BOOK_ARGS)));
  const cases = [];
  for (const [at, server] of servers.entries())
    cases.push({ mcpUrl: await server.start(), baseURL: await fakes[at].start(), args: STRICT_BOOK_ARGS });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [require.resolve('tsx/cli'), require.resolve('./support/openai-mastra-run'), JSON.stringify(cases)],
    {
      timeout: CHILD_TIMEOUT_MS,
    },
  );
  outcomes = JSON.parse(stdout) as MastraOutcome[];
}, CHILD_TIMEOUT_MS + 5_000);

afterAll(async () => {
  for (const fake of fakes) await fake.close();
  for (const server of servers) await server.close();
});

const sent = (at: number, name: string): OfferedTool => fakes[at].toolsByName().get(name)!;
const STRICT_CALL =
  'book {"customer":"Ann","seats":2,"level":null,"day":null,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A","number":null},{"row":"B","number":7}]}';

describe("Mastra's MCPClient and Agent with our server under listing 'openai-strict'", () => {
  const at = 0;

  it("lists our tools under the server's name, and a direct call with strict-mode nulls gets our answer", () => {
    expect(outcomes[at].tools).toStrictEqual(['shop_order', 'shop_book']);
    expect(outcomes[at].direct).toStrictEqual({ content: [{ type: 'text', text: 'booked 2 for Ann' }] });
  });

  it('sends the tools without strict, keeping our words, dropping the formats and moving the pattern into words', () => {
    expect(fakes[at].received.map((r) => [r.path, r.tools.map((t) => `${t.name} strict:${t.strict}`)])).toStrictEqual([
      ['/v1/chat/completions', ['shop_order strict:undefined', 'shop_book strict:undefined']],
      ['/v1/chat/completions', ['shop_order strict:undefined', 'shop_book strict:undefined']],
    ]);
    expect(JSON.stringify(sent(at, 'shop_book').parameters)).toBe(
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"customer":{"type":"string","description":"Who books. 2 to 5 characters."},' +
        '"seats":{"type":"integer","minimum":1,"maximum":10,"description":"From 1 to 10."},' +
        '"level":{"anyOf":[{"type":"string","enum":["low","high"]},{"type":"null"}],"description":"One of: low, high. Default: low."},' +
        '"day":{"description":"A date such as 2026-12-02.","type":["string","null"]},"coupon":{"type":["string","null"]},' +
        '"when":{"type":"string","description":"A date and time such as 2026-12-02T10:30:00Z."},' +
        '"wanted":{"type":"array","items":{"type":"object","properties":{"row":{"type":"string"},"number":{"anyOf":[{"type":"integer","minimum":1,"maximum":40},{"type":"null"}],"description":"From 1 to 40."}},' +
        '"required":["row","number"],"additionalProperties":false}}},"required":["customer","seats","level","day","coupon","when","wanted"],"additionalProperties":false}',
    );
    const order = sent(at, 'shop_order').parameters as { properties: Record<string, unknown> };
    expect(JSON.stringify(order.properties.id)).toBe(
      '{"type":"string","description":"A UUID such as 123e4567-e89b-12d3-a456-426614174000."}',
    );
    expect(JSON.stringify(order.properties.wait)).toBe(
      '{"type":"string","description":"A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).\\nconstraints: input must match this regex /^-?(?:\\\\d{1,8}\\\\.)?(?:[01]\\\\d|2[0-3]):[0-5]\\\\d:[0-5]\\\\d(?:\\\\.\\\\d{1,7})?$/"}',
    );
    // Were these sent strict, only Mastra's `$schema` would break a rule.
    for (const name of ['shop_order', 'shop_book'])
      expect(describeViolations(strictViolations(sent(at, name).parameters))).toStrictEqual(['/$schema: unsupported keyword $schema']);
  });

  it("passes the model's nulls on, which our server reads as absent, and the agent ends with the model's text", () => {
    expect(servers[at].calls).toStrictEqual([STRICT_CALL, STRICT_CALL]);
    expect(servers[at].booking.received).toHaveLength(2);
    for (const booked of servers[at].booking.received) expectStrictBooking(booked);
    expect(fakes[at].received.map((r) => r.toolOutputs)).toStrictEqual([[], ['{"content":[{"type":"text","text":"booked 2 for Ann"}]}']]);
    expect(outcomes[at].text).toBe('done');
  });
});

describe("Mastra's MCPClient and Agent with our server under listing 'exact' (what the profile fixes)", () => {
  const at = 1;

  it("loses the optional parameters' types in its round trip: each is sent as {}, yet listed as required", () => {
    expect(JSON.stringify(sent(at, 'shop_book').parameters)).toBe(
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"customer":{"type":"string","description":"Who books."},' +
        '"seats":{"type":"integer","minimum":1,"maximum":10},"level":{},"day":{},"coupon":{"type":["string","null"]},"when":{"type":"string"},' +
        '"wanted":{"type":"array","items":{"type":"object","properties":{"row":{"type":"string"},"number":{}},"required":["row","number"],"additionalProperties":false}}},' +
        '"required":["customer","seats","level","day","coupon","when","wanted"],"additionalProperties":false}',
    );
    expect(describeViolations(strictViolations(sent(at, 'shop_order').parameters))).toStrictEqual([
      '/$schema: unsupported keyword $schema',
      '/properties/prices/additionalProperties: additionalProperties must be false',
    ]);
  });

  it("refuses a strict-mode model's nulls itself, so our server is never called", () => {
    expect(servers[at].calls).toStrictEqual([]);
    expect(servers[at].booking.received).toStrictEqual([]);
    const direct = outcomes[at].direct as { error: boolean; message: string };
    expect(direct.error).toBe(true);
    expect(direct.message.split('\n\n')[0]).toBe(
      'Tool validation failed for shop_book. Please fix the following errors and try again:\n' +
        '- level: Invalid option: expected one of "low"|"high"\n' +
        '- day: Invalid input: expected string, received null\n' +
        '- wanted.0.number: Invalid input: expected number, received null',
    );
    expect(JSON.parse(fakes[at].received[1].toolOutputs[0])).toStrictEqual(direct);
  });
});
