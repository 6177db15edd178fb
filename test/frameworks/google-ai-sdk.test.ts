import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { FakeGeminiApi, declarationsOf, lastPartsOf } from './support/google-fake-api';
import { ORDER_ARGS, ORDER_RECEIVED, ORDER_TEXT, OrderServer, servePayloads, spelled, type Listing } from './support/google-server';
import { violationLines } from './support/gemini-rules';

/**
 * The Vercel AI SDK: `@ai-sdk/mcp`'s `createMCPClient` lists our server's tools over Streamable HTTP, and
 * `generateText` with `@ai-sdk/google` (its `baseURL` on the recording fake Gemini API) runs them: the model's
 * `functionCall` reaches our tool, and its answer goes back as a `functionResponse`.
 *
 * `@ai-sdk/google` converts the tool's JSON Schema to Gemini's `parameters` itself (`convertJSONSchemaToOpenAPISchema`):
 * a type list naming `null` becomes one type and `nullable`; `additionalProperties`, `uniqueItems`,
 * `contentEncoding`, `default` and the bounds but `minLength` are dropped. It passes every `format` on, and a
 * typeless `{}`, so under `'exact'` the `uuid`, `date` and `uri` formats and a free JSON parameter break Gemini's
 * rules. It copies no `nullable` it is given: under
 * `'gemini'` the profile's `nullable: true` is lost (`coupon`, `lines[].note`), as in ADK; the exact listing's type
 * lists keep it. The profile's words carry the bounds it drops (`maxLength`, `minimum`, `maximum`, `pattern`).
 */

// A ceiling for a loaded 2-core machine (servers, child processes), not a timing assertion.
jest.setTimeout(30_000);

interface Run {
  readonly text: string;
  readonly requests: FakeGeminiApi['requests'];
  readonly server: OrderServer;
}

async function run(listing: Listing): Promise<Run> {
  const server = await OrderServer.start(listing);
  const fake = await FakeGeminiApi.start('order', ORDER_ARGS);
  const client = await createMCPClient({ transport: { type: 'http', url: server.url } });
  try {
    const google = createGoogleGenerativeAI({ baseURL: `${fake.origin}/v1beta`, apiKey: 'test-key' });
    const { text } = await generateText({
      model: google('gemini-2.5-flash'),
      // `@ai-sdk/mcp` and `ai` each have their own `@ai-sdk/provider-utils` (4.0.65, 4.0.67), whose tool types
      // TypeScript counts as two.
      tools: (await client.tools()) as ToolSet,
      prompt: 'Order tea for Ann.',
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    return { text, requests: fake.requests, server };
  } finally {
    await client.close();
    await fake.close();
    await server.close();
  }
}

/** What `@ai-sdk/google` declares of `Everything.order`'s `parameters`, as the exact string it sends. */
const DECLARED: Record<Listing, string> = {
  gemini:
    '{"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"],"type":"object","properties":{' +
    '"customer":{"description":"The customer. 2 to 5 characters.","type":"string","minLength":2},' +
    '"count":{"description":"From 1 to 1000.","format":"int32","type":"integer"},' +
    '"coupon":{"type":"string"},' +
    '"level":{"description":"One of: low, high. Default: low.","format":"enum","type":"string","enum":["low","high"]},' +
    '"id":{"description":"A UUID such as 123e4567-e89b-12d3-a456-426614174000.","type":"string"},' +
    '"day":{"description":"A date such as 2026-12-02.","type":"string"},' +
    '"when":{"description":"A date and time such as 2026-12-02T10:30:00Z.","format":"date-time","type":"string"},' +
    '"where":{"description":"An absolute URL such as https://example.com/.","type":"string"},' +
    '"data":{"description":"Base64-encoded bytes.","type":"string"},' +
    '"tags":{"description":"No duplicates.","type":"array","items":{"type":"string"}},' +
    '"prices":{"type":"object","description":"An object of any property names, each value a number."},' +
    '"lines":{"type":"array","items":{"required":["sku"],"type":"object","properties":{"sku":{"type":"string"},"qty":{"description":"From 1 to 1000.","format":"int32","type":"integer"},"note":{"type":"string"}}}},' +
    '"sizes":{"description":"Sizes.","type":"array","items":{"description":"From -2147483648 to 2147483647.","format":"int32","type":"integer"}},' +
    '"wait":{"description":"A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).","type":"string"}}}',
  exact:
    '{"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"],"type":"object","properties":{' +
    '"customer":{"description":"The customer.","type":"string","minLength":2},' +
    '"count":{"type":"integer"},' +
    '"coupon":{"type":"string","nullable":true},' +
    '"level":{"type":"string","enum":["low","high"]},' +
    '"id":{"format":"uuid","type":"string"},' +
    '"day":{"format":"date","type":"string"},' +
    '"when":{"format":"date-time","type":"string"},' +
    '"where":{"format":"uri","type":"string"},' +
    '"data":{"type":"string"},' +
    '"tags":{"type":"array","items":{"type":"string"}},' +
    '"prices":{"type":"object"},' +
    '"lines":{"type":"array","items":{"required":["sku"],"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"},"note":{"type":"string","nullable":true}}}},' +
    '"sizes":{"description":"Sizes.","type":"array","items":{"type":"integer"}},' +
    '"wait":{"type":"string"}}}',
};

describe.each(['gemini', 'exact'] as const)('the AI SDK (@ai-sdk/mcp, @ai-sdk/google), our server listing %s', (listing) => {
  let result: Run;
  beforeAll(async () => {
    result = await run(listing);
  });

  it('declares our tool in parameters, converted by @ai-sdk/google', () => {
    expect(result.requests).toHaveLength(2);
    for (const request of result.requests) {
      expect(declarationsOf(request).map((d) => `${d.name}: ${Object.keys(d).join(',')}`)).toEqual(['order: name,description,parameters']);
      expect(JSON.stringify(declarationsOf(request)[0].parameters)).toBe(DECLARED[listing]);
    }
  });

  it(listing === 'gemini' ? "breaks none of Gemini's Schema rules" : "breaks Gemini's Schema rules with the formats it passes on", () => {
    for (const request of result.requests) {
      expect(violationLines(declarationsOf(request)[0].parameters)).toEqual(
        listing === 'gemini'
          ? []
          : [
              '/properties/id/format: not a format Gemini accepts for STRING: "uuid"',
              '/properties/day/format: not a format Gemini accepts for STRING: "date"',
              '/properties/where/format: not a format Gemini accepts for STRING: "uri"',
            ],
      );
    }
  });

  it("calls our tool with the model's arguments, read into their types", () => {
    expect(spelled(result.server.calls)).toEqual(ORDER_RECEIVED);
  });

  it("sends the tool's answer back as the functionResponse, and ends with the model's text", () => {
    expect(lastPartsOf(result.requests[0])).toEqual([{ text: 'Order tea for Ann.' }]);
    const parts = lastPartsOf(result.requests[1]);
    expect(parts).toHaveLength(1);
    // The AI SDK makes up an id for the call (the model's functionCall had none) and sends it back with the answer.
    const { id, ...response } = parts[0].functionResponse as unknown as { id: string };
    expect(id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(JSON.stringify(response)).toBe(JSON.stringify({ name: 'order', response: { name: 'order', content: ORDER_TEXT } }));
    expect(result.text).toBe('done');
  });
});

describe('the AI SDK and a free JSON parameter (`Json`)', () => {
  const declared = async (listing: Listing) => {
    const server = await servePayloads(listing);
    const fake = await FakeGeminiApi.start('keep', { payload: 'x' });
    const client = await createMCPClient({ transport: { type: 'http', url: server.url } });
    try {
      const google = createGoogleGenerativeAI({ baseURL: `${fake.origin}/v1beta`, apiKey: 'test-key' });
      const { text } = await generateText({
        model: google('gemini-2.5-flash'),
        tools: (await client.tools()) as ToolSet,
        prompt: 'Keep x.',
        stopWhen: stepCountIs(2),
        maxRetries: 0,
      });
      expect(text).toBe('done');
      expect(fake.requests).toHaveLength(2);
      return declarationsOf(fake.requests[0])[0].parameters;
    } finally {
      await client.close();
      await fake.close();
      await server.close();
    }
  };

  it("under 'exact' passes the typeless {} on, which Gemini refuses", async () => {
    const parameters = await declared('exact');
    expect(JSON.stringify(parameters)).toBe('{"required":["payload"],"type":"object","properties":{"payload":{}}}');
    expect(violationLines(parameters)).toEqual(['/properties/payload: no type (and no anyOf)']);
  });

  it("under 'gemini' declares the profile's anyOf of typed branches", async () => {
    const parameters = await declared('gemini');
    expect(JSON.stringify(parameters)).toBe(
      '{"required":["payload"],"type":"object","properties":{"payload":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"}]}}}',
    );
    expect(violationLines(parameters)).toEqual([]);
  });
});
