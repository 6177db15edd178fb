import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { createAgent, HumanMessage, type BaseMessage } from 'langchain';
import { FakeGeminiApi, declarationsOf, lastPartsOf } from './support/google-fake-api';
import {
  NO_NULL_ARGS,
  ORDER_ARGS,
  ORDER_RECEIVED,
  ORDER_TEXT,
  OrderServer,
  orderReceived,
  orderText,
  payloadsListed,
  servePayloads,
  spelled,
  type Listing,
} from './support/google-server';
import { violationLines } from './support/gemini-rules';
import { EXACT_VIOLATIONS } from './support/google-violations';

/**
 * LangChain: `@langchain/mcp-adapters`' `MultiServerMCPClient` loads our server's tools over Streamable HTTP, and a
 * `createAgent` (`langchain`) with `@langchain/google-genai`'s `ChatGoogleGenerativeAI` (its `baseUrl` on the
 * recording fake Gemini API) runs them: the model's `functionCall` reaches our tool, and its answer goes back as a
 * `functionResponse`.
 *
 * `@langchain/google-genai` puts the tool's JSON Schema in the declaration's `parameters` (Gemini's OpenAPI subset),
 * taking away only `additionalProperties` and `$schema`: under `'exact'` Gemini's `Schema` rules are broken by the
 * type lists, the `uuid`, `date` and `uri` formats, `contentEncoding` and `uniqueItems`.
 *
 * And LangChain checks the model's arguments against the listed schema itself, as JSON Schema (`@cfworker/json-schema`
 * in `@langchain/core`'s `StructuredTool.call`), before it calls the tool: the `'gemini'` profile's
 * `"type":"string","nullable":true` is, as JSON Schema, a string that is never `null` (`nullable` is OpenAPI's, and
 * unknown to JSON Schema). So under `'gemini'` LangChain refuses a `null` the model sends for `coupon`, and our tool
 * is not called; without a `null` the call goes through.
 *
 * `@langchain/mcp-adapters` simplifies each schema first (`simplifyJsonSchemaForLLM`): of an `anyOf` it keeps only
 * the object branches. The `'gemini'` profile's free JSON (`Json`), an `anyOf` of a string, a number and a boolean,
 * so reaches Gemini as the typeless `{}` it refuses, as the exact listing's `{}` does.
 */

// A ceiling for a loaded 2-core machine (servers, child processes), not a timing assertion.
jest.setTimeout(30_000);

interface Run {
  readonly messages: BaseMessage[];
  readonly requests: FakeGeminiApi['requests'];
  readonly server: OrderServer;
}

async function run(listing: Listing, args: Record<string, unknown> = ORDER_ARGS): Promise<Run> {
  const server = await OrderServer.start(listing);
  const fake = await FakeGeminiApi.start('order', args);
  const client = new MultiServerMCPClient({ mcpServers: { orders: { transport: 'http', url: server.url } } });
  try {
    const tools = await client.getTools();
    const model = new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: fake.origin, maxRetries: 0 });
    const agent = createAgent({ model, tools });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('Order tea for Ann.')] });
    return { messages, requests: fake.requests, server };
  } finally {
    await client.close();
    await fake.close();
    await server.close();
  }
}

describe.each(['gemini', 'exact'] as const)('LangChain (mcp-adapters, google-genai), our server listing %s', (listing) => {
  let result: Run;
  beforeAll(async () => {
    result = await run(listing);
  });

  it('declares our tool in parameters', () => {
    expect(result.requests.map((r) => declarationsOf(r).map((d) => `${d.name}: ${Object.keys(d).join(',')}`))).toEqual([
      ['order: name,description,parameters'],
      ['order: name,description,parameters'],
    ]);
  });

  it(
    listing === 'gemini' ? "breaks none of Gemini's Schema rules" : "breaks Gemini's Schema rules where the exact listing goes beyond them",
    () => {
      for (const request of result.requests) {
        expect(violationLines(declarationsOf(request)[0].parameters)).toEqual(listing === 'gemini' ? [] : LANGCHAIN_EXACT_VIOLATIONS);
      }
    },
  );

  it("asks the model first with the user's text, and ends with its text", () => {
    expect(lastPartsOf(result.requests[0])).toEqual([{ text: 'Order tea for Ann.' }]);
    expect(result.messages.at(-1)?.content).toBe('done');
  });

  if (listing === 'exact') {
    it("calls our tool with the model's arguments (a null among them), read into their types", () => {
      expect(spelled(result.server.calls)).toEqual(ORDER_RECEIVED);
    });

    it("sends the tool's answer back as the functionResponse", () => {
      expect(JSON.stringify(lastPartsOf(result.requests[1]))).toBe(
        JSON.stringify([{ functionResponse: { name: 'order', response: { result: ORDER_TEXT } } }]),
      );
    });
  } else {
    it("refuses the model's null for coupon itself, reading nullable as JSON Schema does not; our tool is not called", () => {
      expect(result.server.calls).toEqual([]);
      const [part] = lastPartsOf(result.requests[1]);
      const details = (part.functionResponse?.response as { error: { details: string } }).error.details;
      expect(details.slice(0, details.indexOf('\n'))).toBe(
        `Error invoking tool 'order' with kwargs ${JSON.stringify(ORDER_ARGS)} with error: Error: Received tool input did not match expected schema`,
      );
    });
  }
});

describe("LangChain, our server listing 'gemini', the model sending no null", () => {
  let result: Run;
  beforeAll(async () => {
    result = await run('gemini', NO_NULL_ARGS);
  });

  it("breaks none of Gemini's Schema rules, calls our tool with the model's arguments and sends its answer back", () => {
    for (const request of result.requests) expect(violationLines(declarationsOf(request)[0].parameters)).toEqual([]);
    expect(spelled(result.server.calls)).toEqual(orderReceived('SAVE', 'gift'));
    expect(JSON.stringify(lastPartsOf(result.requests[1]))).toBe(
      JSON.stringify([{ functionResponse: { name: 'order', response: { result: orderText('SAVE') } } }]),
    );
    expect(result.messages.at(-1)?.content).toBe('done');
  });
});

/** EXACT_VIOLATIONS without the `additionalProperties` lines: `@langchain/google-genai` takes those away itself. */
const LANGCHAIN_EXACT_VIOLATIONS = EXACT_VIOLATIONS.filter((line) => !line.includes('/additionalProperties:'));

/** The `parameters` `@langchain/google-genai` declares for `Payloads.keep` (a free JSON parameter) under `listing`. */
async function declaredPayload(listing: Listing): Promise<unknown> {
  const server = await servePayloads(listing);
  const fake = await FakeGeminiApi.start('keep', { payload: 'x' });
  const client = new MultiServerMCPClient({ mcpServers: { payloads: { transport: 'http', url: server.url } } });
  try {
    const model = new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: fake.origin, maxRetries: 0 });
    const answer = await model.bindTools(await client.getTools()).invoke('Keep x.');
    expect(answer.tool_calls?.map((call) => [call.name, call.args])).toEqual([['keep', { payload: 'x' }]]);
    expect(fake.requests).toHaveLength(1);
    return declarationsOf(fake.requests[0])[0].parameters;
  } finally {
    await client.close();
    await fake.close();
    await server.close();
  }
}

describe('LangChain and a free JSON parameter (`Json`)', () => {
  it("under 'exact' declares the typeless {} Gemini refuses", async () => {
    const parameters = await declaredPayload('exact');
    expect(JSON.stringify(parameters)).toBe('{"type":"object","properties":{"payload":{}},"required":["payload"]}');
    expect(violationLines(parameters)).toEqual(['/properties/payload: no type (and no anyOf)']);
  });

  it("under 'gemini' also declares a typeless {}: mcp-adapters drops the profile's anyOf of typed branches", async () => {
    expect(payloadsListed('gemini')).toBe(
      '{"type":"object","properties":{"payload":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"}]}},"required":["payload"]}',
    );
    // `simplifyJsonSchemaForLLM` keeps of an anyOf only its object branches, and this one has none.
    const parameters = await declaredPayload('gemini');
    expect(JSON.stringify(parameters)).toBe('{"type":"object","properties":{"payload":{}},"required":["payload"]}');
    expect(violationLines(parameters)).toEqual(['/properties/payload: no type (and no anyOf)']);
  });
});
