import { GoogleGenAI, mcpToTool } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FakeGeminiApi, declarationsOf, lastPartsOf } from './support/google-fake-api';
import {
  ORDER_ARGS,
  ORDER_RECEIVED,
  ORDER_TEXT,
  OrderServer,
  payloadsListed,
  servePayloads,
  spelled,
  type Listing,
} from './support/google-server';
import { violationLines } from './support/gemini-rules';
import { EXACT_VIOLATIONS } from './support/google-violations';

/**
 * `@google/genai`'s `mcpToTool` with an SDK `Client` connected to our server, and `generateContent` with automatic
 * function calling against the recording fake Gemini API: the framework lists our tool, declares it, calls it with
 * the model's `functionCall`, and sends the tool's answer back as a `functionResponse`.
 *
 * This version (2.32.0) puts an MCP tool's `inputSchema` as it is in the declaration's `parametersJsonSchema`, not
 * in `parameters`. That field takes JSON Schema, which the API documents apart from the OpenAPI subset of
 * `parameters`; the `Schema` rules are checked on it all the same, as the stricter of the two (the profile's listing
 * keeps them), and the exact listing's violations are named as a `parameters` field would refuse them. Under
 * `'gemini'` this field gets OpenAPI's `nullable`, which JSON Schema does not know.
 */

// A ceiling for a loaded 2-core machine (servers, child processes), not a timing assertion.
jest.setTimeout(30_000);

/**
 * The SDK `Client` as `@google/genai`'s declarations name it: they import the SDK's ES module declarations, this test
 * the CommonJS ones (the same class, whose private members TypeScript counts as two).
 */
type GenaiMcpClient = Extract<Parameters<typeof mcpToTool>[0], { listTools: unknown }>;

interface Run {
  readonly text: string | undefined;
  readonly requests: FakeGeminiApi['requests'];
  readonly server: OrderServer;
}

async function run(listing: Listing): Promise<Run> {
  const server = await OrderServer.start(listing);
  const fake = await FakeGeminiApi.start('order', ORDER_ARGS);
  const client = new Client({ name: 'genai-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    // `fetch` given: in Jest's sandbox the SDK's own Undici dispatcher finds no global one ("Undici globalDispatcher
    // is not available"); with a fetch of the caller's it uses that instead.
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.origin, fetch: (input, init) => fetch(input, init) } });
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Order tea for Ann.',
      config: { tools: [mcpToTool(client as unknown as GenaiMcpClient)] },
    });
    return { text: response.text, requests: fake.requests, server };
  } finally {
    await client.close();
    await fake.close();
    await server.close();
  }
}

describe.each(['gemini', 'exact'] as const)("@google/genai's mcpToTool, our server listing %s", (listing) => {
  let result: Run;
  beforeAll(async () => {
    result = await run(listing);
  });

  it('declares our inputSchema, as our server lists it, in parametersJsonSchema (our tool has no description)', () => {
    expect(result.requests.map((r) => declarationsOf(r).map((d) => Object.keys(d).join(',')))).toEqual([
      ['name,parametersJsonSchema'],
      ['name,parametersJsonSchema'],
    ]);
    for (const request of result.requests) {
      expect(JSON.stringify(declarationsOf(request)[0].parametersJsonSchema)).toBe(result.server.listed(listing));
    }
  });

  it(
    listing === 'gemini' ? "breaks none of Gemini's Schema rules" : "breaks Gemini's Schema rules where the exact listing goes beyond them",
    () => {
      for (const request of result.requests) {
        expect(violationLines(declarationsOf(request)[0].parametersJsonSchema)).toEqual(listing === 'gemini' ? [] : EXACT_VIOLATIONS);
      }
    },
  );

  it("calls our tool with the model's arguments, read into their types", () => {
    expect(spelled(result.server.calls)).toEqual(ORDER_RECEIVED);
  });

  it("sends the tool's answer back as the functionResponse, and ends with the model's text", () => {
    expect(result.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-flash:generateContent',
      '/v1beta/models/gemini-2.5-flash:generateContent',
    ]);
    expect(lastPartsOf(result.requests[0])).toEqual([{ text: 'Order tea for Ann.' }]);
    expect(JSON.stringify(lastPartsOf(result.requests[1]))).toBe(
      JSON.stringify([{ functionResponse: { name: 'order', response: { content: [{ type: 'text', text: ORDER_TEXT }] } } }]),
    );
    expect(result.text).toBe('done');
  });
});

describe("@google/genai's mcpToTool and a free JSON parameter (`Json`)", () => {
  const declared = async (listing: Listing) => {
    const server = await servePayloads(listing);
    const fake = await FakeGeminiApi.start('keep', { payload: 'x' });
    const client = new Client({ name: 'genai-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: fake.origin, fetch: (input, init) => fetch(input, init) } });
      const response = await ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'Keep x.',
        config: { tools: [mcpToTool(client as unknown as GenaiMcpClient)] },
      });
      expect(response.text).toBe('done');
      expect(fake.requests).toHaveLength(2);
      return declarationsOf(fake.requests[0])[0].parametersJsonSchema;
    } finally {
      await client.close();
      await fake.close();
      await server.close();
    }
  };

  it("declares our listing as it is: under 'exact' the typeless {}, under 'gemini' the anyOf", async () => {
    const exact = await declared('exact');
    expect(JSON.stringify(exact)).toBe(payloadsListed('exact'));
    expect(violationLines(exact)).toEqual([
      '/properties/payload: no type (and no anyOf)',
      "/additionalProperties: unknown to Gemini's Schema: false",
    ]);
    const gemini = await declared('gemini');
    expect(JSON.stringify(gemini)).toBe(payloadsListed('gemini'));
    expect(violationLines(gemini)).toEqual([]);
  });
});
