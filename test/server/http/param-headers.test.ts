import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { DefinitionError, Int32, McpServer, Param, Prompt, Tool } from '../../../src';
import { answerOf, modernRequest } from '../../support/modern-http';

class Routed {
  @Tool({ description: 'Forecast for a region' })
  forecast(
    @Param({ header: 'Region' }) region: string,
    @Param({ type: Int32, header: 'Days' }) days: number,
    @Param({ optional: true, header: 'Detailed' }) detailed?: boolean,
  ): string {
    return `${region}: ${days} days${detailed ? ', detailed' : ''}`;
  }
}

const SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    days: { type: 'integer', minimum: -2147483648, maximum: 2147483647, 'x-mcp-header': 'Days' },
    detailed: { type: 'boolean', 'x-mcp-header': 'Detailed' },
  },
  required: ['region', 'days'],
  additionalProperties: false,
};

// Real HTTP round trips: on a loaded machine some take longer than Jest's 5 s default.
jest.setTimeout(30_000);

describe('x-mcp-header arguments (SEP-2243)', () => {
  let server: McpServer;
  let port: number;
  beforeAll(async () => {
    server = new McpServer({ name: 'routed', version: '1' }, { logger: false }).add(new Routed());
    port = (await server.serveHttp({ port: 0 })).port;
  });
  afterAll(() => server.close());

  /** A raw 2026-07-28 tools/call with the given Mcp-Param-* headers: the status and the JSON-RPC answer. */
  async function call(args: Record<string, unknown>, headers: Record<string, string>) {
    const reply = await modernRequest(
      `http://127.0.0.1:${port}/mcp`,
      'tools/call',
      { name: 'forecast', arguments: args },
      { id: 7, headers },
    );
    return {
      status: reply.status,
      answer: answerOf(reply) as { result?: { content: { text: string }[] }; error?: { code: number; message: string; data: unknown } },
    };
  }

  it('lists the header name on each argument that declares one, after the other keywords', () => {
    expect(JSON.stringify(server.listTools()[0].inputSchema)).toBe(JSON.stringify(SCHEMA));
  });

  it('a v2 client mirrors the arguments into the headers, and the call goes through', async () => {
    const client = new V2Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(`http://127.0.0.1:${port}/mcp`)));
    const result = await client.callTool({ name: 'forecast', arguments: { region: 'Île-de-France', days: 3, detailed: true } });
    expect(result.content).toEqual([{ type: 'text', text: 'Île-de-France: 3 days, detailed' }]);
    await client.close();
  });

  it.each([
    ['plain text', { 'mcp-param-region': 'north', 'mcp-param-days': '3' }],
    ['Base64 of UTF-8', { 'mcp-param-region': `=?base64?${Buffer.from('north').toString('base64')}?=`, 'mcp-param-days': '3.0' }],
  ])('headers that agree with the body (%s) are accepted', async (_what, headers) => {
    const { status, answer } = await call({ region: 'north', days: 3 }, headers);
    expect(status).toBe(200);
    expect(answer.result?.content[0].text).toBe('north: 3 days');
  });

  it.each([
    ['absent', { 'mcp-param-days': '3' }, 'the body carries region="north" but the Mcp-Param-Region header is absent'],
    [
      'different',
      { 'mcp-param-region': 'south', 'mcp-param-days': '3' },
      'the Mcp-Param-Region header decodes to "south" but the body carries region="north"',
    ],
    [
      'bad Base64',
      { 'mcp-param-region': '=?base64?SGVsbG8?=', 'mcp-param-days': '3' },
      'the Mcp-Param-Region header carries an invalid Base64 value',
    ],
    [
      'a different number',
      { 'mcp-param-region': 'north', 'mcp-param-days': '4' },
      'the Mcp-Param-Days header decodes to "4" but the body carries days=3',
    ],
  ])('a header that is %s is refused with 400 and -32020 before the tool runs', async (_what, headers, why) => {
    const { status, answer } = await call({ region: 'north', days: 3 }, headers);
    expect(status).toBe(400);
    expect(answer.error?.code).toBe(-32020);
    expect(answer.error?.message).toBe(`Bad Request: the request headers and body disagree: ${why}`);
  });

  it('an argument left out expects no header', async () => {
    const { status } = await call({ region: 'north', days: 3 }, { 'mcp-param-region': 'north', 'mcp-param-days': '3' });
    expect(status).toBe(200);
  });

  it('refuses declarations no conforming client would accept, at definition time', () => {
    class Bad {
      @Tool() a(
        @Param({ header: 'Two Words' }) x: string,
        @Param({ header: 'n' }) n: number,
        @Param({ type: String, header: 'N', nullable: true }) m: string | null,
      ): string {
        return `${x}${n}${m}`;
      }
      @Prompt() b(@Param({ header: 'Topic' }) topic: string): string {
        return topic;
      }
    }
    const add = () => new McpServer({ name: 'b', version: '1' }).add(new Bad());
    expect(add).toThrow(DefinitionError);
    expect(add).toThrow(
      [
        "  OMCG0014 Bad.a, parameter 'x': header 'Two Words' is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, at most 64). Fix: name it like 'Region' (sent as Mcp-Param-Region).",
        "  OMCG0014 Bad.a, parameter 'n': header is on a number argument; only string, integer and boolean arguments (not nullable) are mirrored into headers. Fix: remove header, or change the type.",
        "  OMCG0014 Bad.a, parameter 'm': header is on a nullable argument; only string, integer and boolean arguments (not nullable) are mirrored into headers. Fix: remove header, or change the type.",
        "  OMCG0014 Bad.a, parameter 'm': header 'N' is also declared by 'n' (header names ignore case). Fix: give each argument its own header name.",
        "  OMCG0014 Bad.b, parameter 'topic': Prompt parameters have no HTTP header; header is for tool arguments. Fix: remove header from @Param.",
      ].join('\n'),
    );
  });
});
