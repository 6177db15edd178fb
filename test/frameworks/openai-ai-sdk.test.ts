import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { callOnce, FakeOpenAI } from './support/openai-fake';
import { expectStrictBooking, OurServer, STRICT_BOOK_ARGS } from './support/openai-mcp';
import { strictToolViolations } from './support/strict-rules';

/**
 * The Vercel AI SDK (`ai` 6) with `@ai-sdk/mcp`'s `createMCPClient` over Streamable HTTP to our server, and
 * `@ai-sdk/openai` (`createOpenAI({ baseURL })`, the Responses API) pointed at a recording fake of OpenAI's API;
 * `generateText` runs the tool loop. The MCP client's tools carry no `strict`, so `@ai-sdk/openai` sends them without
 * the flag (non-strict) unless the host sets `strict: true` on each tool (the AI SDK's tool property; the provider's
 * `strictJsonSchema` option is for `response_format` only). `strict` tools go out with the listed schema as it is,
 * converted in no way: what OpenAI gets is exactly what the server listed.
 */

interface Session {
  ours: OurServer;
  fake: FakeOpenAI;
  text: string;
}

async function runAgainst(listing: 'exact' | 'openai-strict', strict: boolean): Promise<Session> {
  const ours = new OurServer(listing);
  const fake = new FakeOpenAI(callOnce('book', STRICT_BOOK_ARGS));
  const mcp = await createMCPClient({ transport: { type: 'http', url: await ours.start() } });
  try {
    const openai = createOpenAI({ baseURL: await fake.start(), apiKey: 'test' });
    const listed = await mcp.tools();
    const tools: ToolSet = {};
    for (const [name, tool] of Object.entries(listed))
      tools[name] = strict ? ({ ...tool, strict: true } as ToolSet[string]) : (tool as ToolSet[string]);
    const result = await generateText({ model: openai('gpt-4.1'), tools, prompt: 'Two seats for Ann.', stopWhen: stepCountIs(3) });
    return { ours, fake, text: result.text };
  } finally {
    await mcp.close();
    await fake.close();
    await ours.close();
  }
}

const flagsOf = (session: Session) =>
  session.fake.received.map((request) => request.tools.map((tool) => `${tool.name} strict:${tool.strict}`));
const sameAsListed = (session: Session) =>
  session.fake.received.flatMap((request) =>
    request.tools.map((tool) => JSON.stringify(tool.parameters) === JSON.stringify(session.ours.schemaOf(tool.name as 'order' | 'book'))),
  );
const STRICT_CALL =
  'book {"customer":"Ann","seats":2,"level":null,"day":null,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A","number":null},{"row":"B","number":7}]}';

describe("the AI SDK with our server under listing 'openai-strict', tools marked strict", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict', true)));

  it("sends every tool with strict: true and our listing as its parameters, unchanged, breaking none of OpenAI's rules", () => {
    expect(session.fake.received.map((r) => r.path)).toStrictEqual(['/v1/responses', '/v1/responses']);
    expect(flagsOf(session)).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(sameAsListed(session)).toStrictEqual([true, true, true, true]);
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
  });

  it("passes the model's nulls on, which our server reads as absent, and returns the tool's answer to the model", () => {
    expect(session.ours.calls).toStrictEqual([STRICT_CALL]);
    expect(session.ours.booking.received).toHaveLength(1);
    expectStrictBooking(session.ours.booking.received[0]);
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['booked 2 for Ann']]);
    expect(session.text).toBe('done');
  });
});

describe('the AI SDK with our server, tools as the MCP client gives them', () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict', false)));

  it('sends the tools without a strict flag (OpenAI then does not enforce the schema), still with our listing', () => {
    expect(flagsOf(session)).toStrictEqual([
      ['order strict:undefined', 'book strict:undefined'],
      ['order strict:undefined', 'book strict:undefined'],
    ]);
    expect(sameAsListed(session)).toStrictEqual([true, true, true, true]);
    expect(session.ours.calls).toStrictEqual([STRICT_CALL]);
    expectStrictBooking(session.ours.booking.received[0]);
  });
});

describe("the AI SDK with our server under listing 'exact', tools marked strict (what the profile fixes)", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('exact', true)));

  it('sends the exact listing with strict: true, which OpenAI strict mode would refuse at seventeen places per request', () => {
    expect(sameAsListed(session)).toStrictEqual([true, true, true, true]);
    const once = [
      'order/properties/customer/minLength: unsupported keyword minLength',
      'order/properties/customer/maxLength: unsupported keyword maxLength',
      'order/required: property level must be required',
      'order/properties/level/default: unsupported keyword default',
      'order/required: property day must be required',
      'order/properties/where/format: unsupported format uri',
      'order/properties/data/contentEncoding: unsupported keyword contentEncoding',
      'order/properties/tags/uniqueItems: unsupported keyword uniqueItems',
      'order/properties/prices/additionalProperties: additionalProperties must be false',
      'order/properties/lines/items/required: property qty must be required',
      'order/properties/lines/items/required: property note must be required',
      'book/properties/customer/minLength: unsupported keyword minLength',
      'book/properties/customer/maxLength: unsupported keyword maxLength',
      'book/required: property level must be required',
      'book/properties/level/default: unsupported keyword default',
      'book/required: property day must be required',
      'book/properties/wanted/items/required: property number must be required',
    ];
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([...once, ...once]);
  });

  it("refuses a strict-mode model's nulls for optional parameters, since the exact reader takes null for no value", () => {
    expect(session.ours.calls).toStrictEqual([STRICT_CALL]);
    expect(session.ours.booking.received).toStrictEqual([]);
    expect(session.fake.received[1].toolOutputs).toStrictEqual([
      'Argument \'level\' is not valid. Expected one of: "low", "high".\n' +
        'Argument \'day\' is not valid. Expected an RFC 3339 date, such as "2026-12-02", got null.\n' +
        "Argument 'wanted[0].number' is not valid. Expected a whole number from 1 to 40, such as 1.",
    ]);
  });
});

describe("the AI SDK's streamText over Chat Completions (openai.chat) with our server under listing 'openai-strict', tools marked strict", () => {
  let ours: OurServer;
  let fake: FakeOpenAI;
  let text: string;
  beforeAll(async () => {
    ours = new OurServer('openai-strict');
    fake = new FakeOpenAI(callOnce('book', STRICT_BOOK_ARGS));
    const mcp = await createMCPClient({ transport: { type: 'http', url: await ours.start() } });
    try {
      const openai = createOpenAI({ baseURL: await fake.start(), apiKey: 'test' });
      const tools: ToolSet = {};
      for (const [name, tool] of Object.entries(await mcp.tools())) tools[name] = { ...tool, strict: true } as ToolSet[string];
      text = await streamText({ model: openai.chat('gpt-4.1'), tools, prompt: 'Two seats for Ann.', stopWhen: stepCountIs(3) }).text;
    } finally {
      await mcp.close();
      await fake.close();
      await ours.close();
    }
  });

  it('streams both requests with every tool strict and unchanged, breaking no rule, and the call works end to end', () => {
    expect(fake.received.map((r) => [r.path, r.body.stream])).toStrictEqual([
      ['/v1/chat/completions', true],
      ['/v1/chat/completions', true],
    ]);
    expect(fake.received.map((r) => r.tools.map((t) => `${t.name} strict:${t.strict}`))).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(JSON.stringify(fake.toolsByName().get('book')!.parameters)).toBe(JSON.stringify(ours.schemaOf('book')));
    expect(strictToolViolations(fake.received.map((r) => r.tools))).toStrictEqual([]);
    expect(ours.calls).toStrictEqual([STRICT_CALL]);
    expectStrictBooking(ours.booking.received[0]);
    expect(fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['[{"type":"text","text":"booked 2 for Ann"}]']]);
    expect(text).toBe('done');
  });
});
