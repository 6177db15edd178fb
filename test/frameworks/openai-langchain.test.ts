import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, providerStrategy } from 'langchain';
import { FakeOpenAI, type Plan } from './support/openai-fake';
import { expectStrictBooking, OurServer, STRICT_BOOK_ARGS } from './support/openai-mcp';
import { describeViolations, strictToolViolations, strictViolations } from './support/strict-rules';

/**
 * LangChain: `@langchain/mcp-adapters`' `MultiServerMCPClient` over Streamable HTTP to our server, its tools given to
 * `langchain`'s `createAgent` with a `@langchain/openai` `ChatOpenAI` (Chat Completions, `configuration.baseURL` the
 * recording fake) made to send strict tools (`supportsStrictToolCalling: true`), and a native structured response
 * (`responseFormat: providerStrategy({ schema, strict: true })`, OpenAI's `response_format` of type json_schema).
 * LangChain sends the listed schema as it is; before calling, it checks the model's arguments against that schema
 * itself, so a call the listing does not admit never reaches the server.
 */

const SUMMARY = {
  type: 'object' as const,
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};

const plan: Plan = (request) =>
  request.toolOutputs.length > 0 ? { text: '{"summary":"booked"}' } : { call: { name: 'book', arguments: STRICT_BOOK_ARGS } };

interface Session {
  ours: OurServer;
  fake: FakeOpenAI;
  structured: unknown;
}

async function runAgainst(listing: 'exact' | 'openai-strict'): Promise<Session> {
  const ours = new OurServer(listing);
  const fake = new FakeOpenAI(plan);
  const mcp = new MultiServerMCPClient({ mcpServers: { shop: { transport: 'http', url: await ours.start() } } });
  try {
    const model = new ChatOpenAI({
      model: 'gpt-4.1',
      apiKey: 'test',
      configuration: { baseURL: await fake.start() },
      supportsStrictToolCalling: true,
    });
    const agent = createAgent({ model, tools: await mcp.getTools(), responseFormat: providerStrategy({ schema: SUMMARY, strict: true }) });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Two seats for Ann.' }] });
    return { ours, fake, structured: result.structuredResponse };
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

describe("LangChain's createAgent with our server under listing 'openai-strict'", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('openai-strict')));

  it("sends every tool with strict: true and our listing unchanged, breaking none of OpenAI's rules", () => {
    expect(session.fake.received.map((r) => r.path)).toStrictEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(flagsOf(session)).toStrictEqual([
      ['order strict:true', 'book strict:true'],
      ['order strict:true', 'book strict:true'],
    ]);
    expect(sameAsListed(session)).toStrictEqual([true, true, true, true]);
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
  });

  it('asks for the structured response natively, as a strict json_schema response_format that breaks no rule', () => {
    for (const request of session.fake.received) {
      expect(JSON.stringify(request.body.response_format)).toBe(
        JSON.stringify({ type: 'json_schema', json_schema: { name: 'extract', schema: SUMMARY, strict: true } }),
      );
    }
    expect(describeViolations(strictViolations(SUMMARY))).toStrictEqual([]);
    expect(session.structured).toStrictEqual({ summary: 'booked' });
  });

  it("passes the model's nulls on, which our server reads as absent, and returns the tool's answer to the model", () => {
    expect(session.ours.calls).toStrictEqual([
      'book {"customer":"Ann","seats":2,"level":null,"day":null,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A","number":null},{"row":"B","number":7}]}',
    ]);
    expect(session.ours.booking.received).toHaveLength(1);
    expectStrictBooking(session.ours.booking.received[0]);
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([[], ['booked 2 for Ann']]);
  });
});

describe("LangChain's createAgent with our server under listing 'exact' (what the profile fixes)", () => {
  let session: Session;
  beforeAll(async () => (session = await runAgainst('exact')));

  it('sends the exact listing with strict: true, which OpenAI strict mode would refuse (order eleven places, book six)', () => {
    expect(flagsOf(session)[0]).toStrictEqual(['order strict:true', 'book strict:true']);
    expect(sameAsListed(session)).toStrictEqual([true, true, true, true]);
    const [first] = session.fake.received;
    expect(strictToolViolations([first.tools.filter((t) => t.name === 'book')])).toStrictEqual([
      'book/properties/customer/minLength: unsupported keyword minLength',
      'book/properties/customer/maxLength: unsupported keyword maxLength',
      'book/required: property level must be required',
      'book/properties/level/default: unsupported keyword default',
      'book/required: property day must be required',
      'book/properties/wanted/items/required: property number must be required',
    ]);
    expect(strictToolViolations([first.tools.filter((t) => t.name === 'order')])).toHaveLength(11);
  });

  it("refuses a strict-mode model's nulls itself, against the exact listing, so our server is never called", () => {
    expect(session.ours.calls).toStrictEqual([]);
    expect(session.ours.booking.received).toStrictEqual([]);
    const [output] = session.fake.received[1].toolOutputs;
    expect(output.split('\n')[0]).toBe(
      "Error invoking tool 'book' with kwargs " +
        '{"customer":"Ann","seats":2,"level":null,"day":null,"coupon":null,"when":"2026-12-02T10:30:00Z","wanted":[{"row":"A","number":null},{"row":"B","number":7}]}' +
        ' with error: Error: Received tool input did not match expected schema',
    );
  });
});
