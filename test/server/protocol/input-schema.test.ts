import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1Memory } from '@modelcontextprotocol/sdk/inMemory.js';
import { DefinitionError, McpServer } from '../../../src';
import { connected, ERAS } from '../support';

/** The schema of the conformance suites' json-schema-2020-12 scenario: $defs, $anchor, $ref, allOf/anyOf, if/then/else. */
const CONTACT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string', format: 'email' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

function contactServer(): McpServer {
  return new McpServer({ name: 'contacts', version: '1.0.0' }, { logger: false }).tool(
    'add_contact',
    { description: 'Adds a contact', inputSchema: CONTACT },
    (args) => `added ${JSON.stringify(args)}`,
  );
}

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;

describe('a quick-path tool with a hand-written input schema', () => {
  it.each(ERAS)('%s: the schema is listed exactly as given', async (_version, mode) => {
    const { client, received } = await connected(contactServer(), mode);
    await client.listTools();
    const tools = (received.filter((m) => 'result' in m).at(-1) as { result: { tools: unknown[] } }).result.tools;
    expect(JSON.stringify(tools)).toBe(JSON.stringify([{ name: 'add_contact', description: 'Adds a contact', inputSchema: CONTACT }]));
    await client.close();
  });

  it('valid arguments reach the handler as sent (v1 client)', async () => {
    const [clientEnd, serverEnd] = V1Memory.createLinkedPair();
    await contactServer().connect(serverEnd as never);
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(clientEnd);
    const args = { name: 'Ada', contactMethod: 'phone', phone: '+44', address: { street: '1 Loop Rd', city: 'London' } };
    expect(textOf(await client.callTool({ name: 'add_contact', arguments: args }))).toBe(`added ${JSON.stringify(args)}`);
    await client.close();
  });

  it.each([
    [{ name: 'Ada', email: 'ada@example.com', address: { street: 7 } }, "Argument 'address.street' is not valid."],
    [{ name: 'Ada', contactMethod: 'phone', email: 'ada@example.com' }, "Argument 'phone' is not valid."],
    [{ name: 'Ada', email: 'not an email' }, "Argument 'email' is not valid."],
    [{ name: 'Ada', email: 'ada@example.com', nickname: 'A' }, "Argument 'nickname' is not valid."],
    [[1, 2], "Argument '' is not valid. The arguments do not match the input schema."],
  ])('%j is an argument error: %s', async (args, message) => {
    const result = await contactServer().callTool('add_contact', args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it('refuses at definition time what is not an object schema, not valid 2020-12, not JSON, remote, or given with params', () => {
    const refused = (inputSchema: unknown, params?: object) => () =>
      new McpServer({ name: 's', version: '1' }).tool(
        't',
        { inputSchema: inputSchema as Record<string, unknown>, ...(params && { params: params as never }) },
        () => '',
      );
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(refused({ type: 'array' })).toThrow(
      `OMCG0014 tool 't': inputSchema has type "array"; an MCP tool's input schema is "type": "object".`,
    );
    expect(refused({ type: 'object', properties: { a: { type: 'strin' } } })).toThrow(
      "OMCG0014 tool 't': inputSchema is not a valid JSON Schema 2020-12: schema is invalid",
    );
    expect(refused({ type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } })).toThrow(
      "can't resolve reference https://example.com/schema.json",
    );
    expect(refused(cyclic)).toThrow("OMCG0014 tool 't': inputSchema is not JSON data (Converting circular structure to JSON");
    expect(refused({ type: 'object' }, { a: String })).toThrow("OMCG0014 tool 't': the tool has both params and inputSchema.");
    expect(refused({ type: 'object', description: 'x'.repeat(300_000) })).toThrow(DefinitionError);
  });
});
