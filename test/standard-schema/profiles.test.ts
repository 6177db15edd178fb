import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { DefinitionError, McpServer, Param, Tool, type CallToolResult } from '../../src';
import { violationLines } from '../frameworks/support/gemini-rules';
import { describeViolations, strictViolations } from '../frameworks/support/strict-rules';
import { arkLine, valibotLine } from './schemas';

/**
 * DESIGN.md section 11 for Standard Schemas: under 'gemini' and 'openai-strict' the library's JSON Schema is restated in
 * the model and written by the profile's own writer (what it cannot state said in words); one it cannot restate (a
 * union, a tuple, a reference) is a definition diagnostic wherever the profile may list (OMCG0018). Reading accepts
 * what the profile's listing accepts: under 'openai-strict' a `null` for an optional property means absent.
 */

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const info = { name: 't', version: '1' };

const where = z.object({ city: z.string().min(2), note: z.string().optional(), maybe: z.number().nullable().optional() });

class Weather {
  @Tool() forecast(
    @Param({ type: where }) where: unknown,
    @Param({ type: z.string().optional() }) unit: string | undefined,
    @Param({ type: arkLine }) line: unknown,
    @Param({ type: valibotLine }) other: unknown,
  ): string {
    return JSON.stringify({ where, unit, line, other });
  }
}

function serverOf(listing: 'gemini' | 'openai-strict'): McpServer {
  return new McpServer(info, { listing, logger: false })
    .add(new Weather())
    .tool('quick', { input: z.object({ a: z.string(), b: z.number().optional() }) }, (args) => JSON.stringify(args));
}

describe("'openai-strict'", () => {
  const server = serverOf('openai-strict');
  const listed = (name: string) => JSON.stringify(server.listTools({ listing: 'openai-strict' }).find((t) => t.name === name)!.inputSchema);

  it('lists every property required, an optional one nullable, every object closed', () => {
    expect(listed('forecast')).toBe(
      '{"type":"object","properties":{' +
        '"where":{"type":"object","properties":{"city":{"type":"string","description":"At least 2 characters."},"note":{"type":["string","null"]},"maybe":{"type":["number","null"]}},"required":["city","note","maybe"],"additionalProperties":false},' +
        '"unit":{"type":["string","null"]},' +
        '"line":{"type":"object","properties":{"qty":{"type":"integer","description":"More than 0.","exclusiveMinimum":0},"sku":{"type":"string","description":"At least 1 character."}},"required":["qty","sku"],"additionalProperties":false},' +
        '"other":{"type":"object","properties":{"sku":{"type":"string","description":"At least 1 character."},"qty":{"type":"integer","description":"At least 1.","minimum":1}},"required":["sku","qty"],"additionalProperties":false}},' +
        '"required":["where","unit","line","other"],"additionalProperties":false}',
    );
    expect(listed('quick')).toBe(
      '{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["number","null"]}},"required":["a","b"],"additionalProperties":false}',
    );
    for (const t of server.listTools({ listing: 'openai-strict' })) expect(describeViolations(strictViolations(t.inputSchema))).toEqual([]);
  });

  it('reads a null for an optional property as absent, and keeps a null the schema admits', async () => {
    const args = { where: { city: 'Oslo', note: null, maybe: null }, unit: null, line: { sku: 'a', qty: 1 }, other: { sku: 'b', qty: 1 } };
    expect(text(await server.callTool('forecast', args, { listing: 'openai-strict' }))).toBe(
      '{"where":{"city":"Oslo","maybe":null},"line":{"sku":"a","qty":1},"other":{"sku":"b","qty":1}}',
    );
    expect(text(await server.callTool('quick', { a: 'x', b: null }, { listing: 'openai-strict' }))).toBe('{"a":"x"}');
  });
});

describe("'gemini'", () => {
  const server = serverOf('gemini');

  it('lists the types Gemini states, nullable as its own keyword, property order kept', () => {
    expect(JSON.stringify(server.listTools({ listing: 'gemini' })[0].inputSchema)).toBe(
      '{"type":"object","properties":{' +
        '"where":{"type":"object","properties":{"city":{"type":"string","description":"At least 2 characters.","minLength":2},"note":{"type":"string"},"maybe":{"type":"number","nullable":true}},"required":["city"],"propertyOrdering":["city","note","maybe"]},' +
        '"unit":{"type":"string"},' +
        '"line":{"type":"object","properties":{"qty":{"type":"integer","description":"More than 0."},"sku":{"type":"string","description":"At least 1 character.","minLength":1}},"required":["qty","sku"],"propertyOrdering":["qty","sku"]},' +
        '"other":{"type":"object","properties":{"sku":{"type":"string","description":"At least 1 character.","minLength":1},"qty":{"type":"integer","description":"At least 1.","minimum":1}},"required":["sku","qty"],"propertyOrdering":["sku","qty"]}},' +
        '"required":["where","line","other"],"propertyOrdering":["where","unit","line","other"]}',
    );
    for (const t of server.listTools({ listing: 'gemini' })) expect(violationLines(t.inputSchema)).toEqual([]);
  });

  it('reads as the exact listing does (a null where none is listed is refused)', async () => {
    expect(text(await server.callTool('quick', { a: 'x', b: null }, { listing: 'gemini' }))).toBe(
      "Argument 'b' is not valid. Invalid input: expected number, received null.",
    );
  });
});

describe('a schema a provider profile cannot restate (OMCG0018)', () => {
  class Unions {
    @Tool() pick(
      @Param({ type: z.union([z.string(), z.number()]) }) id: string | number,
      @Param({ type: z.tuple([z.string(), z.number()]) }) pair: unknown,
    ): void {}
  }

  it.each(['gemini', 'openai-strict'] as const)('is refused where the server lists under %s', (listing) => {
    let caught: unknown;
    try {
      new McpServer(info, { listing, logger: false }).add(new Unions());
    } catch (error) {
      caught = error;
    }
    expect((caught as DefinitionError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      `OMCG0018 Unions.pick, parameter 'id': the zod schema cannot be listed under '${listing}': a union of types (["string","number"]).`,
      `OMCG0018 Unions.pick, parameter 'pair': the zod schema cannot be listed under '${listing}': the keyword "prefixItems".`,
    ]);
  });

  it('is refused where a listing function may pick the profile', () => {
    expect(() => new McpServer(info, { listing: () => 'gemini', logger: false }).add(new Unions())).toThrow(DefinitionError);
  });

  it("is listed as the library wrote it under 'exact'", () => {
    const server = new McpServer(info, { logger: false }).add(new Unions());
    expect(JSON.stringify(server.listTools()[0].inputSchema.properties)).toBe(
      '{"id":{"type":["string","number"]},"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":2,"maxItems":2}}',
    );
  });

  it('refuses an endpoint that lists under the profile when it starts, and a whole input it cannot restate', () => {
    const server = new McpServer(info, { logger: false }).add(new Unions());
    expect(() => server.createHttpHandler({ listing: 'openai-strict' })).toThrow(
      "The endpoint listing under 'openai-strict' has 2 definition problems:",
    );
    expect(() =>
      new McpServer(info, { listing: 'gemini', logger: false }).tool(
        'q',
        { input: toStandardJsonSchema(v.object({ id: v.union([v.string(), v.number()]) })) },
        () => '',
      ),
    ).toThrow(
      `OMCG0018 tool 'q', input: the valibot schema cannot be listed under 'gemini': a union ("anyOf" of 2 schemas) (property "id").`,
    );
    expect(() =>
      new McpServer(info, { listing: 'gemini', logger: false }).tool('q', { input: type({ a: 'string' }) }, () => ''),
    ).not.toThrow();
  });
});
