import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { DictionaryOf, Field, Int32, McpServer, Nullable, Param, Tool, type ListingClient, type McpLogger } from '../../src';
import { Everything, Line } from './fixture';

const silent = { logger: false } as const;

function schemaOf(server: McpServer, listing?: 'exact' | 'gemini' | 'openai-strict', describeConstraints?: boolean): string {
  return JSON.stringify(server.listTools({ listing, describeConstraints })[0].inputSchema);
}

const EXACT =
  '{"type":"object","properties":{"customer":{"type":"string","description":"The customer.","minLength":2,"maxLength":5},"count":{"type":"integer","minimum":1,"maximum":1000},' +
  '"coupon":{"type":["string","null"]},"level":{"type":"string","enum":["low","high"],"default":"low"},"id":{"type":"string","format":"uuid"},"day":{"type":"string","format":"date"},' +
  '"when":{"type":"string","format":"date-time"},"where":{"type":"string","format":"uri"},"data":{"type":"string","contentEncoding":"base64"},' +
  '"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},"prices":{"type":"object","additionalProperties":{"type":"number"}},' +
  '"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1,"maximum":1000},"note":{"type":["string","null"]}},"required":["sku"],"additionalProperties":false}},' +
  '"sizes":{"type":"array","description":"Sizes.","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},' +
  '"wait":{"type":"string","pattern":"^-?(?:\\\\d{1,8}\\\\.)?(?:[01]\\\\d|2[0-3]):[0-5]\\\\d:[0-5]\\\\d(?:\\\\.\\\\d{1,7})?$"}},' +
  '"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"],"additionalProperties":false}';

const GEMINI =
  '{"type":"object","properties":{"customer":{"type":"string","description":"The customer. 2 to 5 characters.","minLength":2,"maxLength":5},' +
  '"count":{"type":"integer","format":"int32","description":"From 1 to 1000.","minimum":1,"maximum":1000},"coupon":{"type":"string","nullable":true},' +
  '"level":{"type":"string","format":"enum","description":"One of: low, high. Default: low.","enum":["low","high"]},' +
  '"id":{"type":"string","description":"A UUID such as 123e4567-e89b-12d3-a456-426614174000."},"day":{"type":"string","description":"A date such as 2026-12-02."},' +
  '"when":{"type":"string","format":"date-time","description":"A date and time such as 2026-12-02T10:30:00Z."},' +
  '"where":{"type":"string","description":"An absolute URL such as https://example.com/."},"data":{"type":"string","description":"Base64-encoded bytes."},' +
  '"tags":{"type":"array","description":"No duplicates.","items":{"type":"string"}},"prices":{"type":"object","description":"An object of any property names, each value a number."},' +
  '"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","format":"int32","description":"From 1 to 1000.","minimum":1,"maximum":1000},"note":{"type":"string","nullable":true}},"required":["sku"],"propertyOrdering":["sku","qty","note"]}},' +
  '"sizes":{"type":"array","description":"Sizes.","items":{"type":"integer","format":"int32","description":"From -2147483648 to 2147483647.","minimum":-2147483648,"maximum":2147483647}},' +
  '"wait":{"type":"string","description":"A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).","pattern":"^-?(?:\\\\d{1,8}\\\\.)?(?:[01]\\\\d|2[0-3]):[0-5]\\\\d:[0-5]\\\\d(?:\\\\.\\\\d{1,7})?$"}},' +
  '"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"],' +
  '"propertyOrdering":["customer","count","coupon","level","id","day","when","where","data","tags","prices","lines","sizes","wait"]}';

const STRICT =
  '{"type":"object","properties":{"customer":{"type":"string","description":"The customer. 2 to 5 characters."},"count":{"type":"integer","description":"From 1 to 1000.","minimum":1,"maximum":1000},' +
  '"coupon":{"type":["string","null"]},"level":{"type":["string","null"],"description":"One of: low, high. Default: low.","enum":["low","high",null]},' +
  '"id":{"type":"string","format":"uuid","description":"A UUID such as 123e4567-e89b-12d3-a456-426614174000."},"day":{"type":["string","null"],"format":"date","description":"A date such as 2026-12-02."},' +
  '"when":{"type":"string","format":"date-time","description":"A date and time such as 2026-12-02T10:30:00Z."},"where":{"type":"string","description":"An absolute URL such as https://example.com/."},' +
  '"data":{"type":"string","description":"Base64-encoded bytes."},"tags":{"type":"array","description":"No duplicates.","items":{"type":"string"}},' +
  '"prices":{"type":"object","description":"An object of any property names, each value a number.","properties":{},"additionalProperties":false},' +
  '"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":["integer","null"],"description":"From 1 to 1000.","minimum":1,"maximum":1000},"note":{"type":["string","null"]}},"required":["sku","qty","note"],"additionalProperties":false}},' +
  '"sizes":{"type":"array","description":"Sizes.","items":{"type":"integer","description":"From -2147483648 to 2147483647.","minimum":-2147483648,"maximum":2147483647}},' +
  '"wait":{"type":"string","description":"A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff]).","pattern":"^-?(?:\\\\d{1,8}\\\\.)?(?:[01]\\\\d|2[0-3]):[0-5]\\\\d:[0-5]\\\\d(?:\\\\.\\\\d{1,7})?$"}},' +
  '"required":["customer","count","coupon","level","id","day","when","where","data","tags","prices","lines","sizes","wait"],"additionalProperties":false}';

describe('listing profiles, written from the type model', () => {
  const server = new McpServer({ name: 't', version: '1' }, silent).add(new Everything());

  it("'exact' is the listing as it always was, byte for byte (the default, and the same objects)", () => {
    expect(schemaOf(server)).toBe(EXACT);
    expect(schemaOf(server, 'exact')).toBe(EXACT);
    expect(server.listTools({ listing: 'exact' })).toBe(server.listTools());
  });

  it("'gemini' writes one type with nullable, only date-time and enum formats, propertyOrdering, the rest in words", () => {
    expect(schemaOf(server, 'gemini')).toBe(GEMINI);
  });

  it("'openai-strict' requires every property, makes the optional ones nullable, closes every object, the rest in words", () => {
    expect(schemaOf(server, 'openai-strict')).toBe(STRICT);
  });

  it('describeConstraints says the constraints in words under exact too, and can be switched off for a provider', () => {
    const described = JSON.parse(schemaOf(server, 'exact', true));
    expect(described.properties.count).toEqual({ type: 'integer', description: 'From 1 to 1000.', minimum: 1, maximum: 1000 });
    expect(described.properties.customer.description).toBe('The customer. 2 to 5 characters.');
    // Off: only what the profile cannot state is said.
    const bare = JSON.parse(schemaOf(server, 'gemini', false));
    expect(bare.properties.count).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000 });
    expect(bare.properties.id).toEqual({ type: 'string', description: 'A UUID such as 123e4567-e89b-12d3-a456-426614174000.' });
    expect(bare.properties.customer.description).toBe('The customer.');
  });

  it("listTools() stays exact; given an option it takes the server's profile, each listing built once", () => {
    const gemini = new McpServer({ name: 't', version: '1' }, { ...silent, listing: 'gemini' }).add(new Everything());
    expect(schemaOf(gemini)).toBe(EXACT); // listTools() without a profile is the exact listing
    expect(gemini.listTools({ describeConstraints: true })).toBe(gemini.listTools({ describeConstraints: true }));
    expect(JSON.stringify(gemini.listTools({ describeConstraints: true })[0].inputSchema)).toBe(GEMINI);
  });
});

/**
 * What each provider takes, as its documentation states it:
 * - Gemini: the `Schema` object of function declarations (ai.google.dev/api/caching#Schema, "a select subset of an
 *   OpenAPI 3.0 schema object"): type (one of the Type enum), format ("enum" for STRING; "date-time"; "int32",
 *   "int64" for INTEGER; "float", "double" for NUMBER), description, nullable, enum, items, minItems, maxItems,
 *   properties, required, propertyOrdering, minimum, maximum, minLength, maxLength, pattern, anyOf.
 * - OpenAI strict function calling (platform.openai.com/docs/guides/structured-outputs#supported-schemas): type
 *   (a name or a list with "null"), enum, const, properties, required (every property), additionalProperties false,
 *   items, anyOf, description; strings pattern and format (date-time, time, date, duration, email, hostname, ipv4,
 *   ipv6, uuid); numbers minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf; arrays minItems,
 *   maxItems. Not supported: uniqueItems, default, contentEncoding, minLength/maxLength, additionalProperties
 *   with a schema, oneOf.
 */
const RULES = {
  gemini: {
    keywords: new Set([
      'type',
      'format',
      'description',
      'nullable',
      'enum',
      'items',
      'minItems',
      'maxItems',
      'properties',
      'required',
      'propertyOrdering',
      'minimum',
      'maximum',
      'minLength',
      'maxLength',
      'pattern',
      'anyOf',
    ]),
    types: new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']),
    formats: { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] } as Record<string, string[]>,
  },
  'openai-strict': {
    keywords: new Set([
      'type',
      'format',
      'description',
      'enum',
      'const',
      'properties',
      'required',
      'additionalProperties',
      'items',
      'anyOf',
      'pattern',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minItems',
      'maxItems',
    ]),
    types: new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']),
    formats: { string: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'] } as Record<string, string[]>,
  },
} as const;

/** Every rule of the profile's table broken somewhere in the schema, by path. */
function broken(schema: Record<string, unknown>, profile: keyof typeof RULES, path = '$'): string[] {
  const rules = RULES[profile];
  const out: string[] = [];
  for (const key of Object.keys(schema)) if (!rules.keywords.has(key)) out.push(`${path}: keyword ${key}`);
  const type = schema.type;
  if (type === undefined && schema.anyOf === undefined) out.push(`${path}: no type`);
  if (profile === 'gemini' && type !== undefined && typeof type !== 'string') out.push(`${path}: a type list`);
  for (const t of Array.isArray(type) ? type : type === undefined ? [] : [type])
    if (!rules.types.has(t as never)) out.push(`${path}: type ${String(t)}`);
  const bare = Array.isArray(type) ? type.find((t) => t !== 'null') : type;
  if (schema.format !== undefined && !(rules.formats[bare as string] ?? []).includes(schema.format as string))
    out.push(`${path}: format ${String(schema.format)} on ${String(bare)}`);
  if (bare === 'array' && schema.items === undefined) out.push(`${path}: an array without items`);
  if (profile === 'openai-strict' && bare === 'object') {
    if (schema.additionalProperties !== false) out.push(`${path}: an open object`);
    const names = Object.keys((schema.properties as object) ?? {});
    if (JSON.stringify(schema.required ?? []) !== JSON.stringify(names)) out.push(`${path}: not every property required`);
  }
  for (const [name, p] of Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {}))
    out.push(...broken(p, profile, `${path}.${name}`));
  if (schema.items) out.push(...broken(schema.items as Record<string, unknown>, profile, `${path}[]`));
  for (const [i, b] of ((schema.anyOf as Record<string, unknown>[]) ?? []).entries()) out.push(...broken(b, profile, `${path}|${i}`));
  return out;
}

describe('each profile keeps to its provider', () => {
  class Sub1 {
    @Field() a!: string;
  }
  class Nested {
    @Field({ type: Nullable(Line) }) line!: Line | null;
    @Field({ type: [Sub1], optional: true }) subs?: Sub1[];
  }
  class More {
    @Tool() more(
      @Param({ type: Nested }) nested: Nested,
      @Param({ type: DictionaryOf(Int32), optional: true }) map?: Record<string, number>,
    ): void {}
    @Tool() none(): void {}
  }
  const server = new McpServer({ name: 't', version: '1' }, silent).add(new Everything()).add(new More());

  it.each(['gemini', 'openai-strict'] as const)('%s: only allowed keywords, types and formats', (profile) => {
    for (const tool of server.listTools({ listing: profile }))
      expect(broken(tool.inputSchema as Record<string, unknown>, profile)).toEqual([]);
  });

  it('the checker catches what the exact listing states beyond each provider', () => {
    const exact = server.listTools()[0].inputSchema as Record<string, unknown>;
    expect(broken(exact, 'gemini')).toEqual(
      expect.arrayContaining(['$: keyword additionalProperties', '$.coupon: a type list', '$.tags: keyword uniqueItems']),
    );
    expect(broken(exact, 'openai-strict')).toEqual(
      expect.arrayContaining(['$.customer: keyword minLength', '$.where: format uri on string', '$: not every property required']),
    );
  });
});

class Echo {
  @Tool() echo(
    @Param({ type: Nullable(String) }) kept: string | null,
    @Param({ type: String, optional: true }) note: string | undefined,
    @Param({ type: Int32 }) count: number = 3,
    @Param({ type: [Line], optional: true }) lines?: Line[],
  ): string {
    return JSON.stringify({
      kept,
      note: note === undefined ? 'absent' : note,
      count,
      lines: lines?.map((l) => ({ ...l, qty: l.qty === undefined ? 'absent' : l.qty })),
    });
  }
}

async function connect(server: McpServer, name: string, mode: 'legacy' | 'auto'): Promise<Client> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(clientEnd);
  return client;
}

describe('the profile of each client', () => {
  it.each([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'auto'],
  ] as const)('a listing function picks by clientInfo.name over a real SDK client (%s)', async (_, mode) => {
    const seen: ListingClient[] = [];
    const listing = (client: ListingClient) => {
      seen.push(client);
      return client.clientInfo?.name === 'gemini-cli' ? 'gemini' : client.clientInfo?.name === 'codex' ? 'openai-strict' : 'exact';
    };
    const server = new McpServer({ name: 't', version: '1' }, { ...silent, listing }).add(new Everything());
    const schemas: Record<string, string> = {};
    for (const name of ['gemini-cli', 'codex', 'inspector']) {
      const client = await connect(server, name, mode);
      schemas[name] = JSON.stringify((await client.listTools()).tools[0].inputSchema);
      await client.close();
    }
    expect(schemas).toEqual({ 'gemini-cli': GEMINI, codex: STRICT, inspector: EXACT });
    expect(seen[0].clientInfo?.name).toBe('gemini-cli');
    expect(typeof seen[0].protocolVersion).toBe('string');
    await server.close();
  });

  it.each([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'auto'],
  ] as const)("under 'openai-strict' a null optional argument or property is absent, a nullable one stays null (%s)", async (_, mode) => {
    const server = new McpServer({ name: 't', version: '1' }, { ...silent, listing: 'openai-strict' }).add(new Echo());
    const client = await connect(server, 'codex', mode);
    const result = await client.callTool({
      name: 'echo',
      arguments: { kept: null, note: null, count: null, lines: [{ sku: 'A', qty: null, note: null }] },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({
      kept: null,
      note: 'absent',
      count: 3,
      lines: [{ sku: 'A', qty: 'absent', note: null }],
    });
    await client.close();
    await server.close();
  });

  it("under 'exact' the same null is refused, as the exact listing says", async () => {
    const server = new McpServer({ name: 't', version: '1' }, silent).add(new Echo());
    const result = await server.callTool('echo', { kept: null, note: null });
    expect(result.isError).toBe(true);
    const strict = await server.callTool('echo', { kept: null, note: null }, { listing: 'openai-strict' });
    expect(strict.isError).toBeFalsy();
  });

  it('a listing function that throws gives the exact listing, and the error is logged', async () => {
    const errors: string[] = [];
    const logger: McpLogger = { error: (m) => void errors.push(String(m)), warn: () => {}, info: () => {}, debug: () => {} };
    const server = new McpServer(
      { name: 't', version: '1' },
      {
        logger,
        listing: () => {
          throw new Error('boom');
        },
      },
    ).add(new Everything());
    const client = await connect(server, 'x', 'legacy');
    expect(JSON.stringify((await client.listTools()).tools[0].inputSchema)).toBe(EXACT);
    expect(errors.some((e) => e.includes('listing function threw'))).toBe(true);
    await client.close();
    await server.close();
  });

  it('refuses a listing that names no profile', () => {
    expect(() => new McpServer({ name: 't', version: '1' }, { listing: 'claude' as never })).toThrow(
      "listing takes 'exact', 'gemini', 'openai-strict'",
    );
  });
});

describe('definition-time warnings', () => {
  class Prices {
    @Tool() set(@Param({ type: DictionaryOf(Number) }) prices: Record<string, number>): void {}
  }

  function warningsOf(listing: 'exact' | 'openai-strict'): string[] {
    const warnings: string[] = [];
    const logger: McpLogger = { error: () => {}, warn: (m) => void warnings.push(String(m)), info: () => {}, debug: () => {} };
    new McpServer({ name: 't', version: '1' }, { logger, listing }).add(new Prices());
    return warnings;
  }

  it("a dictionary under 'openai-strict' is said once, with the portable spelling", () => {
    const warnings = warningsOf('openai-strict');
    expect(warnings).toEqual([
      "Prices.set: parameter 'prices' is a dictionary, which OpenAI strict function calling ('openai-strict') cannot state (no open object): it is listed as an object without properties, its values in words. " +
        'For every profile, declare an array of key and value records instead, for example @Param({ type: [Entry] }) with class Entry { @Field() key!: string; @Field() value!: number }.',
    ]);
  });

  it("nothing is said under 'exact'", () => {
    expect(warningsOf('exact')).toEqual([]);
  });
});
